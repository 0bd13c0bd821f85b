#include "graphfn/ir/op_registry.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>

#include "graphfn/core/tf_types.h"

namespace graphfn {
namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  const size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Expands a type-set word ("numbertype", "float", "half", ...) into TF's DataType numbers
// (`tf_allowed`) and the graphfn dtypes among them (`allowed`).
void add_type_word(const std::string& word, AttrDef* attr) {
  const size_t first = attr->tf_allowed.size();
  if (!tf_type_word(word, &attr->tf_allowed)) throw std::logic_error("unknown type word in op spec: " + word);
  for (size_t i = first; i < attr->tf_allowed.size(); ++i) {
    const DType dt = tf_type_to_dtype(attr->tf_allowed[i]);
    if (dt != DType::kInvalid) attr->allowed.push_back(dt);
  }
}

ArgDef parse_arg(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) throw std::logic_error("bad arg spec: " + spec);
  ArgDef arg;
  arg.name = trim(spec.substr(0, colon));
  std::string type = trim(spec.substr(colon + 1));
  const size_t star = type.find('*');
  if (star != std::string::npos) {
    arg.number_attr = trim(type.substr(0, star));
    type = trim(type.substr(star + 1));
  }
  DType dt;
  if (dtype_from_name(type, &dt)) {
    arg.fixed_type = dt;
  } else {
    arg.type_attr = type;
  }
  return arg;
}

AttrValue parse_default(const std::string& kind, const std::string& text) {
  if (kind == "bool") return text == "true";
  if (kind == "int") return static_cast<int64_t>(std::stoll(text));
  if (kind == "float") return std::stod(text);
  if (kind == "string") {  // `= ''` is the empty string, as in TF's op specs
    const bool quoted = text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front();
    return quoted ? text.substr(1, text.size() - 2) : text;
  }
  if (kind == "type") {
    DType dt;
    if (!dtype_from_name(text, &dt)) throw std::logic_error("bad default type: " + text);
    return dt;
  }
  if (kind == "shape" && text == "?") return Shape::unknown_rank();  // TF's `{ unknown_rank: true }`
  if (kind == "list(int)") {  // "[]" or "[1, 1, 1, 1]" (Conv2D's dilations)
    std::vector<int64_t> values;
    std::string digits;
    for (char ch : text) {
      if (ch == '-' || (ch >= '0' && ch <= '9')) {
        digits += ch;
      } else if (!digits.empty()) {
        values.push_back(std::stoll(digits));
        digits.clear();
      }
    }
    return values;
  }
  if (kind == "list(shape)") return std::vector<Shape>{};
  if (kind == "list(type)") return std::vector<DType>{};
  throw std::logic_error("no default syntax for attr kind " + kind);
}

}  // namespace

int OpDef::type_attr_index(const std::string& attr) const {
  for (size_t i = 0; i < type_attr_names.size(); ++i) {
    if (type_attr_names[i] == attr) return static_cast<int>(i);
  }
  return -1;
}

void OpDef::finalize() {
  kernel_type_index = type_attr_index(kernel_type_attr);
  input_type_index.clear();
  num_fixed_inputs = 0;
  has_list_input = false;
  for (ArgDef& arg : inputs) {
    const AttrDef* attr = arg.type_attr.empty() ? nullptr : find_attr(arg.type_attr);
    arg.type_list = attr && attr->kind == "list(type)";
    input_type_index.push_back(arg.type_attr.empty() || arg.type_list ? -1 : type_attr_index(arg.type_attr));
    if (!arg.type_attr.empty() && !arg.type_list && input_type_index.back() < 0) {
      throw std::logic_error(name + ": input " + arg.name + " uses undeclared type attr " + arg.type_attr);
    }
    if (arg.is_list()) has_list_input = true; else ++num_fixed_inputs;
  }
  // Outputs of a list(type) attr are lists too (IdentityN); control-flow ops' outputs are
  // handled by their own builders.
  for (ArgDef& arg : outputs) {
    const AttrDef* attr = arg.type_attr.empty() ? nullptr : find_attr(arg.type_attr);
    if (control_flow == ControlFlow::kNone && attr && attr->kind == "list(type)") arg.type_list = true;
  }
  type_attr_defs.clear();
  for (const std::string& name : type_attr_names) type_attr_defs.push_back(find_attr(name));
  auto indices_of = [&](const std::vector<std::string>& names, const char* what) {
    std::vector<int> indices;
    for (const std::string& input : names) {
      int index = -1;
      for (size_t k = 0; k < inputs.size(); ++k) {
        if (inputs[k].name == input) index = static_cast<int>(k);
      }
      if (index < 0) throw std::logic_error(name + ": " + what + " of unknown input " + input);
      indices.push_back(index);
    }
    return indices;
  };
  value_inputs = indices_of(value_input_names, "needs_value");
  shape_inputs = indices_of(shape_input_names, "shape_input");
}

const AttrDef* OpDef::find_attr(const std::string& attr_name) const {
  for (const AttrDef& a : attrs) {
    if (a.name == attr_name) return &a;
  }
  return nullptr;
}

OpDefBuilder& OpDefBuilder::input(const std::string& spec) {
  def_->inputs.push_back(parse_arg(spec));
  return *this;
}

OpDefBuilder& OpDefBuilder::output(const std::string& spec) {
  def_->outputs.push_back(parse_arg(spec));
  return *this;
}

OpDefBuilder& OpDefBuilder::attr(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) throw std::logic_error("bad attr spec: " + spec);
  AttrDef attr;
  attr.name = trim(spec.substr(0, colon));
  std::string rest = trim(spec.substr(colon + 1));
  std::string default_text;
  const size_t at_least = rest.find(">=");
  if (at_least != std::string::npos) {
    attr.has_minimum = true;
    attr.minimum = std::stoll(trim(rest.substr(at_least + 2)));
    rest = trim(rest.substr(0, at_least));
  }
  const size_t eq = rest.find('=');
  if (eq != std::string::npos) {
    default_text = trim(rest.substr(eq + 1));
    rest = trim(rest.substr(0, eq));
    attr.has_default = true;
  }
  if (!rest.empty() && rest.front() == '{') {
    attr.kind = "type";
    std::string body = rest.substr(1, rest.find('}') - 1);
    size_t start = 0;
    while (start <= body.size()) {
      size_t comma = body.find(',', start);
      if (comma == std::string::npos) comma = body.size();
      add_type_word(trim(body.substr(start, comma - start)), &attr);
      start = comma + 1;
    }
  } else {
    attr.kind = rest;
  }
  if (attr.has_default) {
    std::string text = default_text;
    if (attr.kind == "type" && text.rfind("DT_", 0) == 0) {
      // "DT_INT32" -> the dtype whose TF enum name it is.
      for (int i = 0; i < kNumDTypes; ++i) {
        if (text == dtype_tf_enum(static_cast<DType>(i))) text = dtype_name(static_cast<DType>(i));
      }
    }
    attr.default_value = parse_default(attr.kind, text);
  }
  if (attr.kind == "type") {
    def_->type_attr_names.push_back(attr.name);
    if (def_->kernel_type_attr.empty()) def_->kernel_type_attr = attr.name;
  }
  def_->attrs.push_back(std::move(attr));
  return *this;
}

namespace {
std::atomic<OpRegistry*> g_global_registry{nullptr};
}  // namespace

OpRegistry& OpRegistry::global() {
  OpRegistry* registry = g_global_registry.load(std::memory_order_acquire);
  if (registry == nullptr) {
    throw std::logic_error(
        "graphfn's op registry is empty: call graphfn::install_builtin_ops() (runtime/builtin_ops.h) first");
  }
  return *registry;
}

void OpRegistry::install_global(void (*populate)(OpRegistry& reg)) {
  static std::once_flag once;
  std::call_once(once, [populate] {
    auto* reg = new OpRegistry();  // lives as long as the process: op defs are shared everywhere
    populate(*reg);
    for (auto& [name, def] : reg->ops_) def->finalize();
    g_global_registry.store(reg, std::memory_order_release);
  });
}

OpDefBuilder OpRegistry::op(const std::string& name) {
  auto& slot = ops_[name];
  if (slot) throw std::logic_error("op registered twice: " + name);
  slot = std::make_unique<OpDef>();
  slot->name = name;
  return OpDefBuilder(slot.get());
}

const OpDef* OpRegistry::find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

void OpRegistry::set_kernel(const std::string& op, DType dt, KernelFn fn) {
  auto it = ops_.find(op);
  if (it == ops_.end()) throw std::logic_error("kernel for unregistered op: " + op);
  it->second->kernels[static_cast<int>(dt)] = fn;
}

void OpRegistry::set_attr_prepare(const std::string& op, AttrPrepareFn fn) {
  auto it = ops_.find(op);
  if (it == ops_.end()) throw std::logic_error("attr preparation for unregistered op: " + op);
  it->second->prepare_attrs = fn;
}

void OpRegistry::set_gradient(const std::string& op, GradFn fn) {
  auto it = ops_.find(op);
  if (it == ops_.end()) throw std::logic_error("gradient for unregistered op: " + op);
  it->second->grad_fn = fn;
}

void OpRegistry::set_not_differentiable(const std::string& op) {
  auto it = ops_.find(op);
  if (it == ops_.end()) throw std::logic_error("gradient for unregistered op: " + op);
  it->second->not_differentiable = true;
}

std::vector<std::string> OpRegistry::op_names() const {
  std::vector<std::string> names;
  for (const auto& kv : ops_) names.push_back(kv.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace graphfn
