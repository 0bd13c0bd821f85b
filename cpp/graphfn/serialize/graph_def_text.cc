#include "graphfn/serialize/graph_def_text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>

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
  } else if (const auto* types = std::get_if<std::vector<DType>>(&v)) {
    w.open("list");
    for (DType dt : *types) w.line(std::string("type: ") + dtype_tf_enum(dt));
    w.close();
  } else if (const auto* shapes = std::get_if<std::vector<Shape>>(&v)) {
    w.open("list");
    for (const Shape& shape : *shapes) write_shape(w, shape, "shape");
    w.close();
  } else if (const auto* f = std::get_if<FuncAttr>(&v)) {
    w.open("func");
    w.line("name: \"" + escaped(f->name) + "\"");
    w.close();
  } else if (const auto* funcs = std::get_if<std::vector<FuncAttr>>(&v)) {
    w.open("list");
    for (const FuncAttr& g : *funcs) {
      w.open("func");
      w.line("name: \"" + escaped(g.name) + "\"");
      w.close();
    }
    w.close();
  }
  w.close();
}

// A node's inputs as text: "name" / "name:1" in a GraphDef; in a FunctionDef, an argument by
// its name and other outputs as "node:output_arg:index" ("cond/mul:z:0").
using InputText = std::string (*)(const Graph& graph, Endpoint e, const std::vector<std::string>& arg_names);

std::string graph_input(const Graph& graph, Endpoint e, const std::vector<std::string>&) {
  const std::string& src = graph.node(e.node).name;
  return e.index ? src + ":" + std::to_string(e.index) : src;
}

std::string function_input(const Graph& graph, Endpoint e, const std::vector<std::string>& arg_names) {
  if (!arg_names[e.node].empty()) return arg_names[e.node];
  const Node& src = graph.node(e.node);
  // Which declared output the index falls in, and its position there (list outputs).
  const int n = static_cast<int>(src.output_dtypes.size());
  const auto& outs = src.op->outputs;
  const int n_list = n - static_cast<int>(std::count_if(outs.begin(), outs.end(), [](const ArgDef& a) { return !a.is_list(); }));
  int pos = e.index;
  for (const ArgDef& arg : outs) {
    const int count = arg.is_list() ? n_list : 1;
    if (pos < count) return src.name + ":" + arg.name + ":" + std::to_string(pos);
    pos -= count;
  }
  return src.name + ":output:" + std::to_string(e.index);
}

void write_node(Writer& w, const Graph& graph, int id, const char* field, InputText input_text,
                const std::vector<std::string>& arg_names) {
  const Node& node = graph.node(id);
  w.open(field);
  w.line("name: \"" + escaped(node.name) + "\"");
  w.line("op: \"" + node.op->name + "\"");
  for (const Endpoint& in : node.inputs) w.line("input: \"" + escaped(input_text(graph, in, arg_names)) + "\"");
  // Control inputs come last, sorted by name (as TF writes a GraphDef).
  std::vector<std::string> controls;
  for (int c : node.control_inputs) controls.push_back(graph.node(c).name);
  std::sort(controls.begin(), controls.end());
  for (const std::string& c : controls) w.line("input: \"^" + escaped(c) + "\"");
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

// TF's argument names in a FunctionDef: lower case, "/" replaced ("cond/x" -> "cond_x").
std::string arg_name(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '/' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void write_function(Writer& w, const std::string& name, const Graph& graph) {
  w.open("function");
  w.open("signature");
  w.line("name: \"" + escaped(name) + "\"");
  std::vector<std::string> arg_names(graph.num_nodes());
  for (int arg : graph.arguments) {
    arg_names[arg] = arg_name(graph.node(arg).name);
    w.open("input_arg");
    w.line("name: \"" + escaped(arg_names[arg]) + "\"");
    w.line(std::string("type: ") + dtype_tf_enum(graph.node(arg).output_dtypes[0]));
    w.close();
  }
  std::vector<std::string> ret_names;
  for (const Endpoint& e : graph.results) {
    std::string ret = arg_name(graph.node(e.node).name);
    while (std::find(ret_names.begin(), ret_names.end(), ret) != ret_names.end()) ret += "_0";
    ret_names.push_back(ret);
    w.open("output_arg");
    w.line("name: \"" + escaped(ret) + "\"");
    w.line(std::string("type: ") + dtype_tf_enum(graph.dtype(e)));
    w.close();
  }
  w.close();
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (arg_names[id].empty()) write_node(w, graph, id, "node_def", function_input, arg_names);
  }
  for (size_t i = 0; i < graph.results.size(); ++i) {
    w.open("ret");
    w.line("key: \"" + escaped(ret_names[i]) + "\"");
    w.line("value: \"" + escaped(function_input(graph, graph.results[i], arg_names)) + "\"");
    w.close();
  }
  w.close();
}

// Every subgraph at any depth, by library name.
void collect_functions(const Graph& graph, std::map<std::string, const Graph*>* out) {
  graph.for_each_subgraph([&](const Node&, const FuncAttr& f) {
    if (!f.graph || !out->emplace(f.name, f.graph.get()).second) return;
    collect_functions(*f.graph, out);
  });
}

}  // namespace

std::string node_def_text(const Graph& graph, int id) {
  Writer w;
  write_node(w, graph, id, "node", graph_input, {});
  std::string text = w.take();
  // Unwrap "node {\n  ...\n}\n": a NodeDef prints its fields at the top level.
  std::string out;
  size_t start = text.find('\n') + 1;
  const size_t end = text.rfind("}\n");
  while (start < end) {
    const size_t eol = text.find('\n', start);
    out += text.substr(start + 2, eol + 1 - start - 2);
    start = eol + 1;
  }
  return out;
}

std::string graph_def_text(const Graph& graph) {
  Writer w;
  const std::vector<std::string> no_args;
  for (int id = 0; id < graph.num_nodes(); ++id) write_node(w, graph, id, "node", graph_input, no_args);
  std::map<std::string, const Graph*> functions;
  collect_functions(graph, &functions);
  if (!functions.empty()) {
    w.open("library");
    for (const auto& [name, function] : functions) write_function(w, name, *function);
    w.close();
  }
  w.open("versions");
  w.line("producer: 1882");
  w.close();
  return w.take();
}

}  // namespace graphfn
