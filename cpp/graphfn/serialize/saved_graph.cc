#include "graphfn/serialize/saved_graph.h"

#include <cstring>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <set>
#include <unordered_map>

#include "graphfn/serialize/file_reader.h"
#include "graphfn/serialize/graph_codec.h"

namespace graphfn {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxEntries = int64_t(1) << 31;

// ---- body ----

Status encode_body(const SavedGraph& saved, ByteWriter& w) {
  std::unordered_map<const Resource*, uint64_t> index_of;
  w.string(saved.object_graph);
  w.varint(saved.variables.size());
  for (size_t i = 0; i < saved.variables.size(); ++i) {
    const SavedGraph::Variable& v = saved.variables[i];
    if (!v.resource) return errors::InvalidArgument("variable '", v.name, "' has no value");
    Tensor value;
    GRAPHFN_RETURN_IF_ERROR(with_context(v.resource->read(&value), "variable '" + v.name + "'"));
    index_of.emplace(v.resource.get(), i);
    w.string(v.name);
    w.u8(v.trainable ? 1 : 0);
    GRAPHFN_RETURN_IF_ERROR(with_context(write_tensor(w, value), "variable '" + v.name + "'"));
  }
  const ResourceToIndex to_index = [&](const ResourceHandle& handle, uint64_t* index) {
    auto it = index_of.find(handle.get());
    if (it == index_of.end()) {
      return errors::FailedPrecondition("a captured resource is not one of the saved variables");
    }
    *index = it->second;
    return Status::OK();
  };
  w.varint(saved.functions.size());
  for (const SavedGraph::Function& f : saved.functions) {
    if (!f.graph) return errors::InvalidArgument("function '", f.name, "' has no graph");
    w.string(f.name);
    w.string(f.python_signature);
    GRAPHFN_RETURN_IF_ERROR(with_context(write_graph(w, *f.graph, &to_index), "function '" + f.name + "'"));
  }
  w.varint(saved.signatures.size());
  for (const SavedGraph::Signature& s : saved.signatures) {
    if (s.function < 0 || s.function >= static_cast<int>(saved.functions.size())) {
      return errors::InvalidArgument("signature '", s.key, "' refers to no function");
    }
    w.string(s.key);
    w.varint(static_cast<uint64_t>(s.function));
    for (const auto* names : {&s.input_names, &s.output_names}) {
      w.varint(names->size());
      for (const std::string& name : *names) w.string(name);
    }
  }
  return Status::OK();
}

Status decode_variables(ByteReader& r, SavedGraph* saved) {
  int64_t n = 0;
  GRAPHFN_RETURN_IF_ERROR(r.count(&n, "variables", kMaxEntries, 4));
  saved->variables.resize(n);
  for (SavedGraph::Variable& v : saved->variables) {
    uint8_t trainable = 0;
    Tensor value;
    GRAPHFN_RETURN_IF_ERROR(r.name(&v.name, "variable name"));
    GRAPHFN_RETURN_IF_ERROR(r.u8(&trainable));
    if (trainable > 1) return r.corrupt("variable '" + v.name + "': trainable flag is neither 0 nor 1");
    v.trainable = trainable == 1;
    GRAPHFN_RETURN_IF_ERROR(with_context(read_tensor(r, &value), "variable '" + v.name + "'"));
    v.resource = std::make_shared<VariableResource>(value.dtype(), value.shape());
    GRAPHFN_RETURN_IF_ERROR(v.resource->assign(value));
  }
  return Status::OK();
}

Status check_function(const SavedGraph::Function& f) {
  for (int arg : f.graph->arguments) {
    if (f.graph->node(arg).output_dtypes[0] == DType::kResource) {
      return errors::InvalidArgument("argument '", f.graph->node(arg).name,
                                     "' is a resource; saved functions take only data tensors");
    }
  }
  return Status::OK();
}

Status decode_functions(ByteReader& r, SavedGraph* saved) {
  const IndexToResource to_resource = [&](uint64_t index, ResourceHandle* handle) {
    if (index >= saved->variables.size()) {
      return r.corrupt("captured variable " + std::to_string(index) + " is out of range [0, " +
                       std::to_string(saved->variables.size()) + ")");
    }
    *handle = saved->variables[index].resource;
    return Status::OK();
  };
  int64_t n = 0;
  GRAPHFN_RETURN_IF_ERROR(r.count(&n, "functions", kMaxEntries, 4));
  saved->functions.resize(n);
  for (SavedGraph::Function& f : saved->functions) {
    GRAPHFN_RETURN_IF_ERROR(r.name(&f.name, "function name"));
    GRAPHFN_RETURN_IF_ERROR(r.string(&f.python_signature, "function signature"));
    GRAPHFN_RETURN_IF_ERROR(with_context(read_graph(r, &to_resource, &f.graph), "function '" + f.name + "'"));
    GRAPHFN_RETURN_IF_ERROR(with_context(check_function(f), "function '" + f.name + "'"));
  }
  return Status::OK();
}

Status decode_names(ByteReader& r, size_t expected, const char* what, std::vector<std::string>* names) {
  int64_t n = 0;
  GRAPHFN_RETURN_IF_ERROR(r.count(&n, what, kMaxEntries));
  if (static_cast<size_t>(n) != expected) {
    return r.corrupt(std::string("has ") + std::to_string(n) + " " + what + " but its function has " +
                     std::to_string(expected));
  }
  names->resize(n);
  std::set<std::string> seen;
  for (std::string& name : *names) {
    GRAPHFN_RETURN_IF_ERROR(r.name(&name, what));
    if (!seen.insert(name).second) return r.corrupt(std::string("two ") + what + " are named '" + name + "'");
  }
  return Status::OK();
}

Status decode_signatures(ByteReader& r, SavedGraph* saved) {
  int64_t n = 0;
  GRAPHFN_RETURN_IF_ERROR(r.count(&n, "signatures", kMaxEntries, 4));
  saved->signatures.resize(n);
  std::set<std::string> keys;
  for (SavedGraph::Signature& s : saved->signatures) {
    int64_t function = 0;
    GRAPHFN_RETURN_IF_ERROR(r.name(&s.key, "signature key"));
    if (!keys.insert(s.key).second) return r.corrupt("two signatures are named '" + s.key + "'");
    GRAPHFN_RETURN_IF_ERROR(r.index(static_cast<int64_t>(saved->functions.size()), &function, "signature function"));
    s.function = static_cast<int>(function);
    const Graph& g = *saved->functions[s.function].graph;
    const std::string where = "signature '" + s.key + "'";
    GRAPHFN_RETURN_IF_ERROR(with_context(decode_names(r, g.arguments.size(), "inputs", &s.input_names), where));
    GRAPHFN_RETURN_IF_ERROR(with_context(decode_names(r, g.results.size(), "outputs", &s.output_names), where));
  }
  return Status::OK();
}

// The 24-byte header of a file of `file_size` bytes: magic, version, and a body size that
// matches the file (checked before the body is read); gives the body's CRC.
Status check_header(std::string_view header, uint64_t file_size, uint32_t* crc) {
  if (header.size() < kSavedGraphHeaderBytes) {
    return Status(Code::kDataLoss, "truncated: " + std::to_string(file_size) + " bytes, shorter than the " +
                                       std::to_string(kSavedGraphHeaderBytes) + "-byte header");
  }
  if (std::memcmp(header.data(), kSavedGraphMagic, sizeof(kSavedGraphMagic)) != 0) {
    return Status(Code::kDataLoss, "not a graphfn saved graph (wrong magic number)");
  }
  ByteReader r(header.substr(sizeof(kSavedGraphMagic)));
  uint32_t version = 0;
  uint64_t body_size = 0;
  GRAPHFN_RETURN_IF_ERROR(r.u32(&version));
  if (version != kSavedGraphVersion) {
    return Status(Code::kDataLoss, "format version " + std::to_string(version) +
                                       " is not supported (this build reads version " +
                                       std::to_string(kSavedGraphVersion) + ")");
  }
  GRAPHFN_RETURN_IF_ERROR(r.u64(&body_size));
  GRAPHFN_RETURN_IF_ERROR(r.u32(crc));
  const uint64_t follow = file_size - kSavedGraphHeaderBytes;
  if (body_size != follow) {
    return Status(Code::kDataLoss, "the header says the body has " + std::to_string(body_size) + " bytes, but " +
                                       std::to_string(follow) + " follow (truncated or extended file)");
  }
  return Status::OK();
}

Status decode_body(std::string_view body, uint32_t crc, const LoadOptions& options, SavedGraph* saved) {
  if (crc32(body) != crc) return Status(Code::kDataLoss, "checksum mismatch: the file is corrupted");
  ByteReader b(body);
  SavedGraph out;
  GRAPHFN_RETURN_IF_ERROR(b.string(&out.object_graph, "object graph"));
  GRAPHFN_RETURN_IF_ERROR(decode_variables(b, &out));
  GRAPHFN_RETURN_IF_ERROR(decode_functions(b, &out));
  GRAPHFN_RETURN_IF_ERROR(decode_signatures(b, &out));
  if (!b.at_end()) return b.corrupt(std::to_string(b.remaining()) + " unexpected bytes after the signatures");
  for (const SavedGraph::Function& f : out.functions) {
    GRAPHFN_RETURN_IF_ERROR(with_context(check_load_policy(*f.graph, options), "function '" + f.name + "'"));
  }
  *saved = std::move(out);
  return Status::OK();
}

}  // namespace

Status encode_saved_graph(const SavedGraph& saved, std::string* bytes) {
  ByteWriter body;
  GRAPHFN_RETURN_IF_ERROR(encode_body(saved, body));
  ByteWriter w;
  w.bytes(kSavedGraphMagic, sizeof(kSavedGraphMagic));
  w.u32(kSavedGraphVersion);
  w.u64(body.out().size());
  w.u32(crc32(body.out()));
  w.out() += body.out();
  *bytes = std::move(w.out());
  return Status::OK();
}

Status decode_saved_graph(std::string_view bytes, SavedGraph* saved, const LoadOptions& options) {
  uint32_t crc = 0;
  GRAPHFN_RETURN_IF_ERROR(check_header(bytes.substr(0, kSavedGraphHeaderBytes), bytes.size(), &crc));
  return decode_body(bytes.substr(kSavedGraphHeaderBytes), crc, options, saved);
}

Status write_saved_graph(const std::string& dir, const SavedGraph& saved) {
  std::string bytes;
  GRAPHFN_RETURN_IF_ERROR(encode_saved_graph(saved, &bytes));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return errors::FailedPrecondition("cannot create directory ", dir, ": ", ec.message());
  const fs::path path = fs::path(dir) / kSavedGraphFileName;
  const fs::path tmp = fs::path(dir) / (std::string(kSavedGraphFileName) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return errors::FailedPrecondition("cannot write ", tmp.string());
  }
  fs::rename(tmp, path, ec);
  if (ec) return errors::FailedPrecondition("cannot write ", path.string(), ": ", ec.message());
  return Status::OK();
}

Status read_saved_graph(const std::string& dir, SavedGraph* saved, const LoadOptions& options) {
  const fs::path path = fs::path(dir) / kSavedGraphFileName;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return errors::NotFound("SavedModel file does not exist at: ", path.string());
  }
  FileReader file;
  GRAPHFN_RETURN_IF_ERROR(file.open(path.string()));
  // The header first: a file whose header does not match its size is refused before its body
  // is read into memory.
  std::string header, body;
  GRAPHFN_RETURN_IF_ERROR(file.read(0, std::min<uint64_t>(file.size(), kSavedGraphHeaderBytes), &header));
  uint32_t crc = 0;
  GRAPHFN_RETURN_IF_ERROR(with_context(check_header(header, file.size(), &crc), path.string()));
  GRAPHFN_RETURN_IF_ERROR(file.read(kSavedGraphHeaderBytes, file.size() - kSavedGraphHeaderBytes, &body));
  return with_context(decode_body(body, crc, options, saved), path.string());
}

}  // namespace graphfn
