// CRC-32C and TFRecord framing (kernels/record_io.h). Expected bytes and messages are TF 2.21's:
// the record bytes below were written by tf.io.TFRecordWriter, the messages recorded from
// tf.compat.v1.io.tf_record_iterator on the same damaged files.
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness.h"
#include "graphfn/kernels/crc32c.h"
#include "graphfn/kernels/record_io.h"

using namespace graphfn;

namespace {

// TF's file for the records "hello" and "" (tf.io.TFRecordWriter).
const std::string kHelloEmpty = testing::bytes_from_hex("0500000000000000eab2043e68656c6c6fbb1f1c19000000000000000029039807d8ea82"
                                         "a2");

std::vector<std::string> read_all(const std::string& bytes, RecordCompression c, Status* status) {
  RecordReader reader(string_source(bytes), c);
  std::vector<std::string> records;
  std::string r;
  for (;;) {
    *status = reader.read(&r);
    if (!status->ok()) break;
    records.push_back(r);
  }
  return records;
}

std::string temp_path(const char* name) { return std::string("/tmp/graphfn_test_record_io_") + name; }

std::string file_bytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  std::string out;
  char buf[4096];
  size_t n;
  while (f && (n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
  if (f) std::fclose(f);
  return out;
}

}  // namespace

TEST_CASE("crc32c: published check values, and the table agrees with the fast path") {
  CHECK(crc32c("123456789") == 0xE3069283u);  // the CRC-32C check value
  CHECK(crc32c(std::string(32, '\0')) == 0x8A9136AAu);  // RFC 3720's test vector
  CHECK(crc32c("") == 0u);
  std::mt19937 rng(7);
  for (int n : {0, 1, 7, 8, 9, 63, 64, 65, 1000}) {
    std::string s(n, '\0');
    for (char& ch : s) ch = static_cast<char>(rng());
    CHECK(crc32c_extend(0, s.data(), s.size()) == crc32c_extend_portable(0, s.data(), s.size()));
    // extending in two pieces is one CRC
    CHECK(crc32c_extend(crc32c_extend(0, s.data(), s.size() / 2), s.data() + s.size() / 2, s.size() - s.size() / 2) ==
          crc32c(s));
  }
  CHECK(crc32c_unmask(crc32c_mask(0x12345678u)) == 0x12345678u);
}

TEST_CASE("record_io: framing is TF's, byte for byte") {
  CHECK(record_header(5) + "hello" + record_footer("hello") + record_header(0) + record_footer("") == kHelloEmpty);
  const std::string path = temp_path("plain");
  std::unique_ptr<RecordWriter> w;
  REQUIRE(RecordWriter::open(path, RecordCompression::kNone, &w).ok());
  REQUIRE(w->write("hello").ok());
  REQUIRE(w->write("").ok());
  REQUIRE(w->close().ok());
  CHECK(file_bytes(path) == kHelloEmpty);
  CHECK(w->write("x").message() == "Writer is closed.");
  CHECK(w->close().ok());  // closing twice is fine
  std::unique_ptr<RecordReader> r;
  REQUIRE(RecordReader::open(path, RecordCompression::kNone, &r).ok());
  std::string rec;
  REQUIRE(r->read(&rec).ok());
  CHECK(rec == "hello");
  REQUIRE(r->read(&rec).ok());
  CHECK(rec.empty());
  CHECK(r->read(&rec).code() == Code::kOutOfRange);
  std::remove(path.c_str());
}

TEST_CASE("record_io: damaged files give TF's DataLoss messages, a cut header ends quietly") {
  Status s;
  struct Case { std::string bytes; size_t records; Code code; const char* message; };
  std::string bad_len_crc = kHelloEmpty;
  bad_len_crc[8] ^= 1;
  std::string bad_data_crc = kHelloEmpty;
  bad_data_crc[12] = 'J';
  std::string bad_second = kHelloEmpty;
  bad_second[21] ^= 1;
  const std::vector<Case> cases = {
      {kHelloEmpty.substr(0, 5), 0, Code::kOutOfRange, "eof"},
      {kHelloEmpty.substr(0, 12), 0, Code::kDataLoss, "truncated record at 0' failed with Read less bytes than requested"},
      {kHelloEmpty.substr(0, 20), 0, Code::kDataLoss, "truncated record at 0' failed with Read less bytes than requested"},
      {kHelloEmpty.substr(0, 24), 1, Code::kOutOfRange, "eof"},
      {kHelloEmpty.substr(0, 21 + 12), 1, Code::kDataLoss,
       "truncated record at 21' failed with Read less bytes than requested"},
      {bad_len_crc, 0, Code::kDataLoss, "corrupted record at 0 (Is this even a TFRecord file?)"},
      {bad_data_crc, 0, Code::kDataLoss, "corrupted record at 12"},
      {bad_second, 1, Code::kDataLoss, "corrupted record at 21"},
      {std::string(8, '\xff') + kHelloEmpty.substr(8), 0, Code::kDataLoss,
       "corrupted record at 0 (Is this even a TFRecord file?)"},
  };
  for (const Case& c : cases) {
    const auto records = read_all(c.bytes, RecordCompression::kNone, &s);
    INFO(s.to_string());
    CHECK(records.size() == c.records);
    CHECK(s.code() == c.code);
    CHECK(s.message() == c.message);
  }
}

TEST_CASE("record_io: a huge length with a valid checksum reads only the bytes present") {
  const std::string bytes = record_header(uint64_t{1} << 40) + "abc";
  Status s;
  read_all(bytes, RecordCompression::kNone, &s);
  CHECK(s.code() == Code::kDataLoss);
  CHECK(s.message() == "truncated record at 0' failed with Read less bytes than requested");
}

TEST_CASE("record_io: missing files and folders give TF's errors") {
  std::unique_ptr<RecordReader> r;
  Status s = RecordReader::open("/tmp/graphfn_no_such_dir/x", RecordCompression::kNone, &r);
  CHECK(s.code() == Code::kNotFound);
  CHECK(s.message() == "/tmp/graphfn_no_such_dir/x; No such file or directory");
  s = RecordReader::open("/tmp", RecordCompression::kNone, &r);
  CHECK(s.code() == Code::kFailedPrecondition);
  CHECK(s.message() == "/tmp; Is a directory");
  RecordCompression c;
  s = parse_record_compression("LZ4", &c);
  CHECK(s.message() == "Not a valid compression_type: \"LZ4\"");
}

TEST_CASE("record_io: GZIP and ZLIB files are TF's bytes and read back") {
  // tf.io.TFRecordWriter(path, options=...) writing b"hello", b"world".
  const std::string gzip = testing::bytes_from_hex("1f8b080000000000000363658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f05"
                                    "00f49812152a000000");
  const std::string zlib = testing::bytes_from_hex("789c63658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f0500bbf10a51");
  for (auto [kind, expected] : {std::pair{RecordCompression::kGzip, gzip}, std::pair{RecordCompression::kZlib, zlib}}) {
    const std::string path = temp_path(kind == RecordCompression::kGzip ? "gzip" : "zlib");
    std::unique_ptr<RecordWriter> w;
    Status s = RecordWriter::open(path, kind, &w);
    if (s.code() == Code::kUnimplemented) return;  // built without zlib
    REQUIRE(s.ok());
    REQUIRE(w->write("hello").ok());
    REQUIRE(w->flush().ok());
    REQUIRE(w->write("world").ok());
    REQUIRE(w->close().ok());
    CHECK(file_bytes(path) == expected);
    const auto records = read_all(expected, kind, &s);
    CHECK(records == std::vector<std::string>{"hello", "world"});
    CHECK(s.code() == Code::kOutOfRange);
    std::remove(path.c_str());
  }
  Status s;
  // TF 2.21: a ZLIB stream cut short inside the second record; a plain file read as ZLIB; garbage.
  read_all(zlib.substr(0, zlib.size() - 6), RecordCompression::kZlib, &s);
  CHECK(s.message() == "truncated record at 21' failed with EOF reached");
  read_all(kHelloEmpty, RecordCompression::kZlib, &s);
  CHECK(s.code() == Code::kDataLoss);
  CHECK(s.message() == "inflate() failed with error -3: incorrect header check");
  read_all(kHelloEmpty, RecordCompression::kGzip, &s);
  CHECK(s.message() == "inflate() failed with error -3: incorrect header check");
  read_all(std::string("\x78\x9c") + std::string(10, '\xff'), RecordCompression::kZlib, &s);
  CHECK(s.message() == "inflate() failed with error -3: invalid block type");
  // gzip's trailer (CRC-32, size) missing: the records are all there, as TF reads them
  const auto records = read_all(gzip.substr(0, gzip.size() - 6), RecordCompression::kGzip, &s);
  CHECK(records.size() == 2);
  CHECK(read_all("", RecordCompression::kGzip, &s).empty());
  CHECK(s.code() == Code::kOutOfRange);
}

TEST_CASE("record_io fuzz: mutated files read or fail with a status, never crash") {
  // Plain and compressed corpora, mutated by flipping, cutting and splicing bytes.
  std::vector<std::pair<std::string, RecordCompression>> corpus = {{kHelloEmpty, RecordCompression::kNone}};
  {
    std::string many;
    for (int i = 0; i < 20; ++i) {
      const std::string data(static_cast<size_t>(i * 13), static_cast<char>('a' + i));
      many += record_header(data.size()) + data + record_footer(data);
    }
    corpus.push_back({many, RecordCompression::kNone});
  }
  corpus.push_back({testing::bytes_from_hex("789c63658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f0500bbf10a51"),
                    RecordCompression::kZlib});
  corpus.push_back({testing::bytes_from_hex("1f8b080000000000000363658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f050"
                             "0f49812152a000000"),
                    RecordCompression::kGzip});
  std::mt19937 rng(1);
  std::map<Code, int> outcomes;
  for (int run = 0; run < 4000; ++run) {
    auto [bytes, kind] = corpus[rng() % corpus.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 4) {
        case 0: bytes[at] = static_cast<char>(bytes[at] ^ (1 << (rng() % 8))); break;
        case 1: bytes.resize(at); break;
        case 2: bytes.insert(at, 1, static_cast<char>(rng())); break;
        default: bytes[at] = static_cast<char>(rng()); break;
      }
    }
    Status s;
    read_all(bytes, kind, &s);
    ++outcomes[s.code()];
    const bool expected = s.code() == Code::kOutOfRange || s.code() == Code::kDataLoss || s.code() == Code::kUnimplemented;
    INFO(s.to_string());
    CHECK(expected);
  }
  CHECK(outcomes[Code::kDataLoss] > 1000);
  CHECK(outcomes[Code::kOutOfRange] > 100);
}
