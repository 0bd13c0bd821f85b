#include "graphfn/serialize/graph_def_text.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace graphfn {
namespace {

// Protobuf text escaping of bytes (octal for non-printable bytes, as protobuf does).
std::string escaped(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\' || c == '\'') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\%03o", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

class Writer {
 public:
  void line(const std::string& text) { out_ += std::string(indent_ * 2, ' ') + text + "\n"; }
  void open(const std::string& name) {
    line(name + " {");
    ++indent_;
  }
  void close() {
    --indent_;
    line("}");
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  int indent_ = 0;
};

void write_shape(Writer& w, const Shape& shape, const char* field) {
  w.open(field);
  if (!shape.known_rank()) {
    w.line("unknown_rank: true");
  } else {
    for (int64_t d : shape.dims()) {
      w.open("dim");
      w.line("size: " + std::to_string(d));
      w.close();
    }
  }
  w.close();
}

// TF writes one value for scalars (and the field for each element of small string/bool
// tensors); numeric tensors with more than one element go out as raw little-endian bytes.
void write_tensor(Writer& w, const Tensor& t) {
  w.open("tensor");
  w.line(std::string("dtype: ") + dtype_tf_enum(t.dtype()));
  write_shape(w, t.shape(), "tensor_shape");
  const int64_t n = t.num_elements();
  if (t.dtype() == DType::kString) {
    for (int64_t i = 0; i < n; ++i) w.line("string_val: \"" + escaped(t.data<std::string>()[i]) + "\"");
  } else if (n == 1) {
    switch (t.dtype()) {
      case DType::kFloat32: w.line("float_val: " + number(t.data<float>()[0])); break;
      case DType::kFloat64: w.line("double_val: " + number(t.data<double>()[0])); break;
      case DType::kBool: w.line(std::string("bool_val: ") + (t.data<bool>()[0] ? "true" : "false")); break;
      case DType::kInt64: w.line("int64_val: " + std::to_string(t.data<int64_t>()[0])); break;
      case DType::kInt32: w.line("int_val: " + std::to_string(t.data<int32_t>()[0])); break;
      case DType::kInt16: w.line("int_val: " + std::to_string(t.data<int16_t>()[0])); break;
      case DType::kInt8: w.line("int_val: " + std::to_string(t.data<int8_t>()[0])); break;
      case DType::kUInt8: w.line("int_val: " + std::to_string(t.data<uint8_t>()[0])); break;
      default: break;
    }
  } else if (n > 1 && t.dtype() != DType::kResource) {
    const char* bytes = static_cast<const char*>(t.raw_data());
    w.line("tensor_content: \"" + escaped(std::string(bytes, t.bytes())) + "\"");
  }
  w.close();
}

void write_attr_value(Writer& w, const AttrValue& v) {
  w.open("value");
  if (std::holds_alternative<DType>(v)) {
    w.line(std::string("type: ") + dtype_tf_enum(std::get<DType>(v)));
  } else if (std::holds_alternative<bool>(v)) {
    w.line(std::string("b: ") + (std::get<bool>(v) ? "true" : "false"));
  } else if (std::holds_alternative<int64_t>(v)) {
    w.line("i: " + std::to_string(std::get<int64_t>(v)));
  } else if (std::holds_alternative<double>(v)) {
    w.line("f: " + number(std::get<double>(v)));
  } else if (std::holds_alternative<std::string>(v)) {
    w.line("s: \"" + escaped(std::get<std::string>(v)) + "\"");
  } else if (std::holds_alternative<Shape>(v)) {
    write_shape(w, std::get<Shape>(v), "shape");
  } else if (std::holds_alternative<std::vector<int64_t>>(v)) {
    w.open("list");
    for (int64_t i : std::get<std::vector<int64_t>>(v)) w.line("i: " + std::to_string(i));
    w.close();
  } else if (std::holds_alternative<Tensor>(v)) {
    write_tensor(w, std::get<Tensor>(v));
  }
  w.close();
}

}  // namespace

std::string graph_def_text(const Graph& graph) {
  Writer w;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    w.open("node");
    w.line("name: \"" + escaped(node.name) + "\"");
    w.line("op: \"" + node.op->name + "\"");
    for (const Endpoint& in : node.inputs) {
      const std::string& src = graph.node(in.node).name;
      w.line("input: \"" + escaped(in.index ? src + ":" + std::to_string(in.index) : src) + "\"");
    }
    for (int c : node.control_inputs) w.line("input: \"^" + escaped(graph.node(c).name) + "\"");
    std::vector<const std::pair<std::string, AttrValue>*> attrs;
    for (const auto& item : node.attrs.items()) {
      if (item.first != "_handle_shape") attrs.push_back(&item);
    }
    std::sort(attrs.begin(), attrs.end(), [](auto* a, auto* b) { return a->first < b->first; });
    for (const auto* item : attrs) {
      w.open("attr");
      w.line("key: \"" + escaped(item->first) + "\"");
      write_attr_value(w, item->second);
      w.close();
    }
    w.close();
  }
  w.open("versions");
  w.line("producer: 1882");
  w.close();
  return w.take();
}

}  // namespace graphfn
