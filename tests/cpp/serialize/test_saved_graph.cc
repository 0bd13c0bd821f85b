// The saved-graph format (serialize/saved_graph.h): round trips, and clear errors for damaged or
// hostile files (docs/saving.md lists the checks).
#include <filesystem>
#include <fstream>
#include <functional>

#include "harness.h"
#include "serialize/sample_saved_graph.h"

#include "graphfn/serialize/byte_io.h"
#include "graphfn/serialize/graph_codec.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

std::string encode_sample() {
  SavedGraph saved;
  REQUIRE(sample_saved_graph(&saved).ok());
  std::string bytes;
  REQUIRE(encode_saved_graph(saved, &bytes).ok());
  return bytes;
}

// A file around `body`, with a correct size and checksum unless told otherwise.
std::string with_header(const std::string& body, uint32_t version = kSavedGraphVersion) {
  ByteWriter w;
  w.bytes(kSavedGraphMagic, sizeof(kSavedGraphMagic));
  w.u32(version);
  w.u64(body.size());
  w.u32(crc32(body));
  w.out() += body;
  return w.out();
}

using Emit = std::function<void(ByteWriter&)>;

// A body holding one function whose graph `graph` writes, `variables` before it.
std::string one_function(const Emit& graph, const Emit& variables = [](ByteWriter& w) { w.varint(0); }) {
  ByteWriter w;
  w.string("{}");
  variables(w);
  w.varint(1);
  w.string("f");
  w.string("{}");
  graph(w);
  w.varint(0);  // signatures
  return w.out();
}

void node(ByteWriter& w, const std::string& name, const std::string& op, std::vector<std::pair<int, int>> inputs,
          const Emit& attrs = [](ByteWriter& w) { w.varint(0); }) {
  w.string(name);
  w.string(op);
  w.varint(inputs.size());
  for (auto [n, i] : inputs) {
    w.varint(n);
    w.varint(i);
  }
  w.varint(0);  // control inputs
  attrs(w);
}

// Placeholder attrs: dtype float32, shape [].
void placeholder_attrs(ByteWriter& w) {
  w.varint(2);
  w.string("dtype");
  w.u8(5);
  write_dtype(w, DType::kFloat32);
  w.string("shape");
  w.u8(6);
  write_shape(w, Shape());
}

// x = Placeholder(); y = <op>(x); f(x) = y, with `tweak` replacing y's node.
std::string small_graph(const Emit& second_node) {
  return one_function([&](ByteWriter& w) {
    w.varint(2);
    node(w, "x", "Placeholder", {}, placeholder_attrs);
    second_node(w);
    w.varint(1);
    w.varint(0);
    w.varint(1);
    w.varint(1);
    w.varint(0);
  });
}

Status decode(const std::string& bytes) {
  SavedGraph saved;
  return decode_saved_graph(bytes, &saved);
}

void check_error(const Status& s, Code code, const std::string& text) {
  INFO(s.to_string());
  CHECK(s.code() == code);
  CHECK(s.message().find(text) != std::string::npos);
}

}  // namespace

TEST_CASE("saved graph: decoding and encoding again gives the same bytes") {
  // The first load fills in defaulted attrs the hand-built sample left out; then it is stable.
  SavedGraph loaded;
  const Status s = decode_saved_graph(encode_sample(), &loaded);
  INFO(s.to_string());
  REQUIRE(s.ok());
  std::string bytes, again;
  REQUIRE(encode_saved_graph(loaded, &bytes).ok());
  REQUIRE(decode_saved_graph(bytes, &loaded).ok());
  REQUIRE(encode_saved_graph(loaded, &again).ok());
  CHECK(again == bytes);
  REQUIRE(loaded.functions.size() == 2);
  CHECK(loaded.object_graph == R"({"kind": "sample"})");
  CHECK(loaded.functions[0].name == "f");
  CHECK(loaded.functions[0].graph->find_node("cond") >= 0);
  CHECK(loaded.variables[0].name == "v:0");
  CHECK(loaded.signatures[1].key == "count");
  CHECK(loaded.signatures[0].output_names == std::vector<std::string>{"output_0", "output_1", "output_2"});
}

TEST_CASE("saved graph: loaded graphs get inferred dtypes and shapes, as traced ones") {
  SavedGraph saved;
  REQUIRE(decode_saved_graph(encode_sample(), &saved).ok());
  SavedGraph original;
  REQUIRE(sample_saved_graph(&original).ok());
  const Graph& f = *saved.functions[0].graph;
  CHECK(f.to_text() == original.functions[0].graph->to_text());
  CHECK(f.shape(f.results[0]) == Shape{Shape::kUnknownDim});
  CHECK(f.dtype(f.results[1]) == DType::kString);
}

TEST_CASE("saved graph: a small hand-written file decodes") {
  const std::string file = with_header(small_graph([](ByteWriter& w) { node(w, "y", "Neg", {{0, 0}}); }));
  SavedGraph saved;
  const Status s = decode_saved_graph(file, &saved);
  INFO(s.to_string());
  REQUIRE(s.ok());
  CHECK(saved.functions[0].graph->to_text() == "x = Placeholder[dtype=float32]() -> float32[]\n"
                                               "y = Neg[T=float32](x) -> float32[]\n");
}

TEST_CASE("saved graph: the header is checked") {
  const std::string body = small_graph([](ByteWriter& w) { node(w, "y", "Neg", {{0, 0}}); });
  std::string file = with_header(body);
  std::string bad_magic = file;
  bad_magic[1] = 'X';
  check_error(decode(bad_magic), Code::kDataLoss, "not a graphfn saved graph (wrong magic number)");
  check_error(decode(with_header(body, 2)), Code::kDataLoss, "format version 2 is not supported (this build reads version 1)");
  check_error(decode(file.substr(0, 10)), Code::kDataLoss, "shorter than the 24-byte header");
  check_error(decode(file + "x"), Code::kDataLoss, "the header says the body has");
  std::string flipped = file;
  flipped[30] ^= 0x10;
  check_error(decode(flipped), Code::kDataLoss, "checksum mismatch");
}

TEST_CASE("saved graph: every truncation of a file is an error") {
  const std::string file = encode_sample();
  for (size_t n = 0; n < file.size(); ++n) {
    const Status s = decode(file.substr(0, n));
    INFO(n);
    CHECK(s.code() == Code::kDataLoss);
  }
}

TEST_CASE("saved graph: graph structure errors name the node") {
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "y", "Frobnicate", {{0, 0}}); }))),
              Code::kNotFound, "Op type not registered 'Frobnicate' (node 'y' (Frobnicate))");
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "y", "Neg", {{1, 0}}); }))),
              Code::kDataLoss, "node 'y' (Neg): an input refers to node 1, which does not come before it");
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "y", "Neg", {{0, 1}}); }))),
              Code::kDataLoss, "an input refers to output 1 of node 'x', which has 1");
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "x", "Neg", {{0, 0}}); }))),
              Code::kInvalidArgument, "two nodes are named 'x'");
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "", "Neg", {{0, 0}}); }))),
              Code::kDataLoss, "node name is empty");
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "y\xff", "Neg", {{0, 0}}); }))),
              Code::kDataLoss, "node name is not UTF-8 text");
  check_error(decode(with_header(small_graph([](ByteWriter& w) { node(w, "y", "AddV2", {{0, 0}}); }))),
              Code::kInvalidArgument, "node 'y' (AddV2): AddV2 expects 2 inputs, got 1");
}

TEST_CASE("saved graph: attrs must be what the op declares") {
  auto with_attrs = [](const Emit& attrs) {
    return with_header(small_graph([&](ByteWriter& w) { node(w, "y", "Neg", {{0, 0}}, attrs); }));
  };
  check_error(decode(with_attrs([](ByteWriter& w) {
                w.varint(1);
                w.string("T");
                w.u8(1);
                w.svarint(3);
              })),
              Code::kInvalidArgument, "attr 'T' of Neg must be a type, got int");
  check_error(decode(with_attrs([](ByteWriter& w) {
                w.varint(1);
                w.string("bogus");
                w.u8(3);
                w.u8(1);
              })),
              Code::kInvalidArgument, "op Neg has no attr named 'bogus'");
  check_error(decode(with_attrs([](ByteWriter& w) {
                w.varint(1);
                w.string("T");
                w.u8(5);
                w.u8(21);  // DT_VARIANT: graphfn has no such tensors
              })),
              Code::kDataLoss, "unknown dtype code 21");
  check_error(decode(with_attrs([](ByteWriter& w) {
                w.varint(1);
                w.string("T");
                w.u8(99);
              })),
              Code::kDataLoss, "unknown attr tag 99");
  check_error(decode(with_attrs([](ByteWriter& w) {
                w.varint(1);
                w.string("T");
                w.u8(5);
                write_dtype(w, DType::kInt32);
              })),
              Code::kInvalidArgument, "cannot compute Neg as input #0(zero-based) was expected to be a int32 tensor");
  // A Placeholder without its dtype attr (its shape attr has a default: unknown rank, as TF's).
  check_error(decode(with_header(small_graph([](ByteWriter& w) {
                node(w, "y", "Placeholder", {}, [](ByteWriter& w) { w.varint(0); });
              }))),
              Code::kInvalidArgument, "Missing type attr 'dtype' for op Placeholder");
}

TEST_CASE("saved graph: sizes that the file cannot hold are refused before allocating") {
  check_error(decode(with_header(one_function([](ByteWriter& w) { w.varint(uint64_t(1) << 40); }))), Code::kDataLoss,
              "too many nodes");
  check_error(decode(with_header(one_function([](ByteWriter& w) { w.varint(1000000); }))), Code::kDataLoss,
              "claims 1000000 nodes, more than the");
  check_error(decode(with_header(small_graph([](ByteWriter& w) {
                w.varint(uint64_t(1) << 50);  // a node name's length
              }))),
              Code::kDataLoss, "node name claims 1125899906842624 bytes");
  auto const_node = [](const Shape& shape, uint64_t nbytes, const std::string& data) {
    return with_header(small_graph([=](ByteWriter& w) {
      node(w, "y", "Const", {}, [=](ByteWriter& w) {
        w.varint(1);
        w.string("value");
        w.u8(8);
        write_dtype(w, DType::kFloat32);
        write_shape(w, shape);
        w.varint(nbytes);
        w.bytes(data.data(), data.size());
      });
    }));
  };
  check_error(decode(const_node(Shape{2}, 4, "abcd")), Code::kDataLoss, "needs 8 bytes of data, the file says 4");
  check_error(decode(const_node(Shape{1 << 20, 1 << 20}, 0, "")), Code::kDataLoss, "claims more elements than");
  check_error(decode(const_node(Shape{int64_t(1) << 41}, 0, "")), Code::kDataLoss, "dimension 2199023255552 is out of range");
  check_error(decode(const_node(Shape{Shape::kUnknownDim}, 0, "")), Code::kDataLoss, "must be fully known");
  ByteWriter varint;
  for (int i = 0; i < 11; ++i) varint.u8(0xFF);
  check_error(decode(with_header(one_function([&](ByteWriter& w) { w.out() += varint.out(); }))), Code::kDataLoss,
              "varint overflows 64 bits");
}

TEST_CASE("saved graph: functions nested too deeply are refused") {
  // Level k: f_k(p: bool) = If(p, p), then f_{k-1}, else f_0.
  std::shared_ptr<Graph> inner, leaf;
  for (int level = 0; level < kMaxFunctionDepth + 3; ++level) {
    auto g = std::make_shared<Graph>();
    SampleBuilder b{g.get(), Status::OK()};
    const int p = b.argument(DType::kBool, Shape(), "p");
    if (inner) {
      b.node("StatelessIf", "If", {{p, 0}, {p, 0}},
             sample_attrs({{"Tin", std::vector<DType>{DType::kBool}}, {"Tout", std::vector<DType>{}},
                           {"then_branch", FuncAttr{"t", inner}}, {"else_branch", FuncAttr{"e", leaf}}}));
    }
    REQUIRE(b.status.ok());
    inner = g;
    if (!leaf) leaf = g;
  }
  SavedGraph saved;
  saved.functions.push_back({"deep", inner, "{}"});
  std::string bytes;
  REQUIRE(encode_saved_graph(saved, &bytes).ok());
  check_error(decode(bytes), Code::kDataLoss, "functions nest more than 32 levels deep");
}

TEST_CASE("saved graph: control-flow functions must match their node") {
  SavedGraph saved;
  REQUIRE(sample_saved_graph(&saved).ok());
  // The then branch takes one argument where the node feeds two.
  auto g = std::make_shared<Graph>();
  SampleBuilder b{g.get(), Status::OK()};
  const int flag = b.argument(DType::kBool, Shape(), "flag");
  const int x = b.argument(DType::kFloat32, Shape(), "x");
  auto one_arg = sample_function({DType::kFloat32}, {Shape()}, [](SampleBuilder&, const std::vector<int>& a) {
    return std::vector<Endpoint>{{a[0], 0}};
  });
  b.node("StatelessIf", "cond", {{flag, 0}, {x, 0}, {x, 0}},
         sample_attrs({{"Tout", std::vector<DType>{DType::kFloat32}}, {"Tin", std::vector<DType>{DType::kFloat32, DType::kFloat32}},
                       {"then_branch", FuncAttr{"t", one_arg}}, {"else_branch", FuncAttr{"e", one_arg}}}));
  REQUIRE(b.status.ok());
  saved.functions.push_back({"bad_if", g, "{}"});
  std::string bytes;
  REQUIRE(encode_saved_graph(saved, &bytes).ok());
  check_error(decode(bytes), Code::kInvalidArgument,
              "function 'bad_if': invalid graph: node 'cond' (StatelessIf) has a then_branch function that does not "
              "fit it: it takes 1 arguments but is fed 2");
}

TEST_CASE("saved graph: variables, captured handles and signatures are checked") {
  // A captured variable that is not among the saved ones.
  check_error(decode(with_header(small_graph([](ByteWriter& w) {
                node(w, "y", "Const", {}, [](ByteWriter& w) {
                  w.varint(1);
                  w.string("value");
                  w.u8(8);
                  write_dtype(w, DType::kResource);
                  write_shape(w, Shape());
                  w.varint(5);
                });
              }))),
              Code::kDataLoss, "captured variable 5 is out of range [0, 0)");
  SavedGraph saved;
  REQUIRE(sample_saved_graph(&saved).ok());
  saved.signatures[0].input_names.pop_back();
  std::string bytes;
  REQUIRE(encode_saved_graph(saved, &bytes).ok());
  check_error(decode(bytes), Code::kDataLoss, "signature 'serving_default': has 1 inputs but its function has 2");
  REQUIRE(sample_saved_graph(&saved).ok());
  saved.signatures[1].key = "serving_default";
  REQUIRE(encode_saved_graph(saved, &bytes).ok());
  check_error(decode(bytes), Code::kDataLoss, "two signatures are named 'serving_default'");
  // Saving a function that captures a variable the SavedGraph does not list.
  REQUIRE(sample_saved_graph(&saved).ok());
  saved.variables.clear();
  check_error(encode_saved_graph(saved, &bytes), Code::kFailedPrecondition,
              "function 'f': node 'v' (Const): attr 'value': a captured resource is not one of the saved variables");
}

TEST_CASE("saved graph: files in a directory") {
  const std::string dir = (std::filesystem::temp_directory_path() / "graphfn_test_saved_graph").string();
  std::filesystem::remove_all(dir);
  check_error(read_saved_graph(dir, nullptr), Code::kNotFound, "SavedModel file does not exist at: " + dir);
  SavedGraph saved;
  REQUIRE(sample_saved_graph(&saved).ok());
  REQUIRE(write_saved_graph(dir, saved).ok());
  SavedGraph loaded;
  REQUIRE(read_saved_graph(dir, &loaded).ok());
  CHECK(loaded.signatures.size() == 2);
  std::filesystem::resize_file(std::filesystem::path(dir) / kSavedGraphFileName, 40);
  const Status s = read_saved_graph(dir, &loaded);
  check_error(s, Code::kDataLoss, "saved_graph.gfn: the header says the body has");
  std::filesystem::remove_all(dir);
}

TEST_CASE("saved graph: a huge file is judged by its header before its body is read") {
  // A sparse 4 GiB file: reading it whole would allocate 4 GiB. The header is checked against the
  // file's size first, so both files are refused after reading 24 bytes.
  const std::string dir = (std::filesystem::temp_directory_path() / "graphfn_test_huge_saved_graph").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = std::filesystem::path(dir) / kSavedGraphFileName;
  const uint64_t huge = uint64_t(1) << 32;
  SavedGraph loaded;
  {
    std::ofstream(path, std::ios::binary) << "not a saved graph";
  }
  std::filesystem::resize_file(path, huge);
  check_error(read_saved_graph(dir, &loaded), Code::kDataLoss, "not a graphfn saved graph (wrong magic number)");
  SavedGraph saved;
  std::string bytes;
  REQUIRE(sample_saved_graph(&saved).ok());
  REQUIRE(encode_saved_graph(saved, &bytes).ok());
  {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  std::filesystem::resize_file(path, huge);
  check_error(read_saved_graph(dir, &loaded), Code::kDataLoss,
              "the header says the body has " + std::to_string(bytes.size() - kSavedGraphHeaderBytes) +
                  " bytes, but " + std::to_string(huge - kSavedGraphHeaderBytes) + " follow");
  std::filesystem::remove_all(dir);
}
