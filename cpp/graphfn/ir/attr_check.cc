#include "graphfn/ir/attr_check.h"

#include "graphfn/ir/type_check.h"

namespace graphfn {

const char* attr_kind(const AttrValue& value) {
  static const char* const kinds[] = {"",          "int",        "float", "bool",        "string",
                                      "type",      "shape",      "list(int)", "tensor", "list(type)",
                                      "list(shape)", "func",     "list(func)"};
  static_assert(std::variant_size_v<AttrValue> == sizeof(kinds) / sizeof(kinds[0]), "one kind per alternative");
  return kinds[value.index()];
}

Status check_node_attrs(const OpDef& op, const std::vector<DType>& input_dtypes, AttrMap* attrs) {
  GRAPHFN_RETURN_IF_ERROR(check_input_count(op, static_cast<int>(input_dtypes.size())));
  for (const auto& [name, value] : attrs->items()) {
    if (!name.empty() && name[0] == '_') continue;
    const AttrDef* def = op.find_attr(name);
    if (!def) return errors::InvalidArgument("op ", op.name, " has no attr named '", name, "'");
    if (def->kind != attr_kind(value)) {
      return errors::InvalidArgument("attr '", name, "' of ", op.name, " must be a ", def->kind, ", got ",
                                     *attr_kind(value) ? attr_kind(value) : "no value");
    }
  }
  const int64_t n_list = static_cast<int64_t>(input_dtypes.size()) - op.num_fixed_inputs;
  size_t pos = 0;
  for (const ArgDef& arg : op.inputs) {
    const size_t first = pos;
    pos += arg.is_list() ? n_list : 1;
    if (arg.type_list && pos <= input_dtypes.size()) {
      const std::vector<DType> dtypes(input_dtypes.begin() + first, input_dtypes.begin() + pos);
      const std::vector<DType>* declared = attrs->get_type_list(arg.type_attr);
      if (declared && *declared != dtypes) {
        return errors::InvalidArgument("attr '", arg.type_attr, "' of ", op.name, " does not list the dtypes of its '",
                                       arg.name, "' inputs");
      }
      if (!declared) attrs->set(arg.type_attr, dtypes);
    }
    if (arg.number_attr.empty()) continue;
    const AttrValue* n = attrs->find(arg.number_attr);
    if (n && std::get<int64_t>(*n) != n_list) {
      return errors::InvalidArgument("attr '", arg.number_attr, "' of ", op.name, " is ", std::get<int64_t>(*n),
                                     " but the node has ", n_list, " '", arg.name, "' inputs");
    }
    if (!n) attrs->set(arg.number_attr, n_list);
  }
  for (const AttrDef& def : op.attrs) {
    if (attrs->find(def.name) || def.kind == "type") continue;
    if (!def.has_default) return errors::InvalidArgument(op.name, " needs attr '", def.name, "'");
    attrs->set(def.name, def.default_value);
  }
  for (const ArgDef& arg : op.outputs) {
    if (arg.number_attr.empty()) continue;
    const int64_t n = attrs->get_int(arg.number_attr, -1);
    if (n < 0 || n > kMaxListOutputs) {
      return errors::InvalidArgument("attr '", arg.number_attr, "' of ", op.name, " is ", n,
                                     ", outside [0, ", kMaxListOutputs, "]");
    }
  }
  return Status::OK();
}

}  // namespace graphfn
