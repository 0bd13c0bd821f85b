#include "fuzz/saved_graph_fuzzer.h"

#include <cstring>
#include <regex>

#include "serialize/sample_saved_graph.h"

#include "fuzz/structure_mutator.h"
#include "graphfn/runtime/saved_model.h"
#include "graphfn/serialize/byte_io.h"
#include "graphfn/serialize/npy.h"

namespace graphfn {
namespace testing {
namespace {

// Counts a hostile file may claim: boundaries of the reader's limits and of integer types.
constexpr uint64_t kExtremes[] = {0,          1,           2,           127,         128,
                                  255,        65535,       65536,       (1u << 31) - 1, 1u << 31,
                                  1ull << 32, 1ull << 40,  1ull << 62,  1ull << 63,  ~0ull};

uint64_t pick(std::mt19937_64& rng, uint64_t n) { return n ? rng() % n : 0; }

// Overwrites the varint at `pos` (however long it was) with a varint of `value`.
void overwrite_varint(std::string& s, size_t pos, uint64_t value) {
  size_t end = pos;
  while (end < s.size() && end - pos < 10 && (static_cast<uint8_t>(s[end]) & 0x80)) ++end;
  end = std::min(end + 1, s.size());
  ByteWriter w;
  w.varint(value);
  s.replace(pos, end - pos, w.out());
}

void mutate_once(std::string& s, const std::vector<std::string>& corpus, size_t start, std::mt19937_64& rng) {
  if (s.size() <= start) {
    s += static_cast<char>(rng());
    return;
  }
  const size_t span = s.size() - start;
  const size_t pos = start + pick(rng, span);
  switch (pick(rng, 8)) {
    case 0:  // bit flips
      for (uint64_t k = 0, n = 1 + pick(rng, 4); k < n; ++k) s[start + pick(rng, span)] ^= static_cast<char>(1 << pick(rng, 8));
      break;
    case 1:  // a byte set to a small code (dtypes, tags, flags), an extreme, or off by one
      s[pos] = static_cast<char>(pick(rng, 2) ? pick(rng, 24) : pick(rng, 2) ? (pick(rng, 2) ? 0xFF : 0x80)
                                                                             : s[pos] + (pick(rng, 2) ? 1 : -1));
      break;
    case 2:  // truncation
      s.resize(pos);
      break;
    case 3: {  // delete a chunk
      s.erase(pos, 1 + pick(rng, std::min<size_t>(64, s.size() - pos)));
      break;
    }
    case 4: {  // duplicate a chunk
      const std::string chunk = s.substr(pos, 1 + pick(rng, 64));
      s.insert(start + pick(rng, span), chunk);
      break;
    }
    case 5: {  // splice in a chunk of another input
      const std::string& other = corpus[pick(rng, corpus.size())];
      if (other.empty()) break;
      const size_t from = pick(rng, other.size());
      const std::string chunk = other.substr(from, 1 + pick(rng, 128));
      if (pick(rng, 2)) s.replace(pos, std::min(chunk.size(), s.size() - pos), chunk);
      else s.insert(pos, chunk);
      break;
    }
    default:  // a size field overwritten with an extreme count
      overwrite_varint(s, pos, kExtremes[pick(rng, sizeof(kExtremes) / sizeof(kExtremes[0]))] + pick(rng, 3));
      break;
  }
}

// A zero-ish input for a signature argument: unknown dimensions become 2.
Tensor input_for(const TensorInfo& info) {
  std::vector<int64_t> dims;
  if (info.shape.known_rank()) {
    for (int64_t d : info.shape.dims()) dims.push_back(d < 0 ? 2 : std::min<int64_t>(d, 4));
  }
  Tensor t(info.dtype, Shape(dims));
  if (info.dtype == DType::kString) return t;  // empty strings
  if (t.bytes()) std::memset(t.raw_data(), info.dtype == DType::kBool ? 1 : 0, t.bytes());
  return t;
}

bool has_loop(const Graph& g) {
  bool loop = false;
  for (int i = 0; i < g.num_nodes(); ++i) loop = loop || g.node(i).op->control_flow == OpDef::ControlFlow::kWhile;
  g.for_each_subgraph([&](const Node&, const FuncAttr& f) { loop = loop || has_loop(*f.graph); });
  return loop;
}

bool header_and_crc_valid(const std::string& bytes) {
  if (bytes.size() < kSavedGraphHeaderBytes || std::memcmp(bytes.data(), kSavedGraphMagic, 8) != 0) return false;
  ByteReader r(std::string_view(bytes).substr(8));
  uint32_t version = 0, crc = 0;
  uint64_t size = 0;
  if (!r.u32(&version).ok() || !r.u64(&size).ok() || !r.u32(&crc).ok()) return false;
  const std::string_view body = std::string_view(bytes).substr(kSavedGraphHeaderBytes);
  return version == kSavedGraphVersion && size == body.size() && crc32(body) == crc;
}

template <typename Mutate, typename Load>
FuzzReport fuzz(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed, Mutate mutate_one, Load load) {
  std::mt19937_64 rng(seed);
  FuzzReport report;
  for (int64_t i = 0; i < runs; ++i) {
    bool structured = false;
    const std::string input = mutate_one(corpus[pick(rng, corpus.size())], rng, &structured);
    bool ran = false;
    report.add(load(input, &ran));
    if (structured) ++report.structured;
    if (ran) ++report.ran;
  }
  return report;
}

}  // namespace

std::string reason_of(const Status& s) {
  static const std::regex context("^((function|node|attr|signature|variable) '[^']*'( \\([^)]*\\))?( of node '[^']*')?: )+");
  static const std::regex quoted("'[^']*'");
  static const std::regex number("-?[0-9]+");
  std::string m = std::regex_replace(s.message(), context, "");
  m = std::regex_replace(m, quoted, "'_'");
  m = std::regex_replace(m, number, "N");
  if (m.size() > 110) m = m.substr(0, 107) + "...";
  return std::string(code_name(s.code())) + ": " + m;
}

void FuzzReport::add(const Status& s) {
  ++runs;
  if (s.ok()) {
    ++loaded;
    return;
  }
  ++rejected[s.code()];
  ++reasons[reason_of(s)];
}

std::string FuzzReport::summary() const {
  std::string out = std::to_string(runs) + " inputs (" + std::to_string(structured) + " structure-mutated, " +
                    std::to_string(crc_valid) + " with a valid CRC): " + std::to_string(loaded) + " loaded (" +
                    std::to_string(ran) + " also ran), rejected:";
  for (const auto& [code, n] : rejected) out += std::string(" ") + code_name(code) + "=" + std::to_string(n);
  return out;
}

std::string FuzzReport::histogram(size_t top) const {
  std::vector<std::pair<int64_t, std::string>> sorted;
  for (const auto& [reason, n] : reasons) sorted.emplace_back(-n, reason);
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (size_t i = 0; i < sorted.size() && i < top; ++i) {
    out += "  " + std::to_string(-sorted[i].first) + "  " + sorted[i].second + "\n";
  }
  return out;
}

std::vector<std::string> saved_graph_corpus() {
  SavedGraph saved;
  std::vector<std::string> corpus;
  for (int variant = 0; variant < 3; ++variant) {
    if (!sample_saved_graph(&saved).ok()) return {};
    if (variant == 1) saved.functions.resize(1), saved.signatures.resize(1);  // no loop: runs
    if (variant == 2) saved.signatures.erase(saved.signatures.begin());
    std::string bytes;
    if (!encode_saved_graph(saved, &bytes).ok()) return {};
    corpus.push_back(std::move(bytes));
  }
  return corpus;
}

std::vector<std::string> npy_corpus() {
  std::vector<std::string> corpus;
  const Tensor tensors[] = {Tensor::vector<float>({1, 2, 3}), Tensor::scalar<int64_t>(7), Tensor::vector<bool>({true}),
                            Tensor::vector<std::string>({"ab", "c"}), Tensor(DType::kInt32, Shape{2, 0})};
  for (const Tensor& t : tensors) {
    std::string bytes;
    if (encode_npy(t, &bytes).ok()) corpus.push_back(std::move(bytes));
  }
  return corpus;
}

std::string mutate(const std::string& input, const std::vector<std::string>& corpus, bool fix_header,
                   std::mt19937_64& rng) {
  std::string s = input;
  const size_t start = fix_header ? kSavedGraphHeaderBytes : 0;
  // Often a single mutation, which more inputs survive far into the reader.
  for (uint64_t k = 0, n = pick(rng, 2) ? 1 : 1 + pick(rng, 4); k < n; ++k) mutate_once(s, corpus, start, rng);
  if (fix_header && s.size() >= kSavedGraphHeaderBytes) {
    ByteWriter w;
    const std::string_view body = std::string_view(s).substr(kSavedGraphHeaderBytes);
    w.u64(body.size());
    w.u32(crc32(body));
    s.replace(12, 12, w.out());
  }
  return s;
}

Status load_saved_graph_bytes(const std::string& bytes, bool* ran) {
  *ran = false;
  SavedGraph saved;
  GRAPHFN_RETURN_IF_ERROR(decode_saved_graph(bytes, &saved));
  std::vector<bool> loops;
  for (const SavedGraph::Signature& sig : saved.signatures) loops.push_back(has_loop(*saved.functions[sig.function].graph));
  std::shared_ptr<const SavedModel> model;
  GRAPHFN_RETURN_IF_ERROR(SavedModel::from_saved_graph(std::move(saved), &model));
  const std::vector<std::string> keys = model->signature_keys();
  for (const SavedGraph::Signature& sig : model->saved_graph().signatures) {
    if (loops[&sig - model->saved_graph().signatures.data()]) continue;  // a damaged loop may never end
    const SavedFunction& f = *model->signature(sig.key);
    std::map<std::string, Tensor> inputs, outputs;
    for (const TensorInfo& info : f.inputs()) inputs[info.name] = input_for(info);
    f.run(inputs, &outputs).ok();  // errors are fine; crashes are not
    *ran = true;
  }
  return Status::OK();
}

std::vector<RawSavedGraph> raw_corpus(const std::vector<std::string>& corpus) {
  std::vector<RawSavedGraph> out;
  for (const std::string& bytes : corpus) {
    RawSavedGraph raw;
    if (decode_raw(bytes, &raw).ok()) out.push_back(std::move(raw));
  }
  return out;
}

std::string mutate_saved_graph(const std::string& input, const std::vector<std::string>& corpus,
                               const std::vector<RawSavedGraph>& raw, std::mt19937_64& rng, bool* structured) {
  *structured = false;
  std::string s = input;
  if (pick(rng, 2) && mutate_structure(s, raw, rng)) {
    *structured = true;
    if (pick(rng, 8) == 0) s = mutate(s, corpus, true, rng);  // and some byte damage on top
    return s;
  }
  return mutate(input, corpus, pick(rng, 4) != 0, rng);
}

namespace {

// Loads the input and counts the ones with a valid header and CRC.
FuzzReport fuzz_saved(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed, bool structure_only) {
  int64_t crc_valid = 0;
  const std::vector<RawSavedGraph> raw = raw_corpus(corpus);
  FuzzReport report = fuzz(
      corpus, runs, seed,
      [&](const std::string& input, std::mt19937_64& rng, bool* structured) {
        std::string s;
        if (structure_only) {
          s = input;
          *structured = mutate_structure(s, raw, rng);
        } else {
          s = mutate_saved_graph(input, corpus, raw, rng, structured);
        }
        if (header_and_crc_valid(s)) ++crc_valid;
        return s;
      },
      load_saved_graph_bytes);
  report.crc_valid = crc_valid;
  return report;
}

}  // namespace

FuzzReport fuzz_saved_graphs(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed) {
  return fuzz_saved(corpus, runs, seed, false);
}

FuzzReport fuzz_saved_graph_structure(const std::vector<std::string>& corpus, int64_t runs, uint64_t seed) {
  return fuzz_saved(corpus, runs, seed, true);
}

FuzzReport fuzz_npy(int64_t runs, uint64_t seed) {
  const std::vector<std::string> corpus = npy_corpus();
  return fuzz(
      corpus, runs, seed,
      [&](const std::string& input, std::mt19937_64& rng, bool*) { return mutate(input, corpus, false, rng); },
      [](const std::string& bytes, bool*) {
        Tensor t;
        return decode_npy(bytes, &t);
      });
}

}  // namespace testing
}  // namespace graphfn
