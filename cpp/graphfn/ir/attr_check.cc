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
  const int num_inputs = static_cast<int>(input_dtypes.size());
  GRAPHFN_RETURN_IF_ERROR(check_input_count(op, num_inputs));
  const int64_t n_list = num_inputs - op.num_fixed_inputs;
  size_t pos = 0;
  for (const ArgDef& arg : op.inputs) {
    const size_t first = pos;
    pos += arg.is_list() ? n_list : 1;
    if (arg.type_list && !attrs->find(arg.type_attr)) {
      attrs->set(arg.type_attr, std::vector<DType>(input_dtypes.begin() + first, input_dtypes.begin() + pos));
    }
    if (!arg.number_attr.empty() && !attrs->find(arg.number_attr)) attrs->set(arg.number_attr, n_list);
  }
  for (const AttrDef& def : op.attrs) {
    if (def.has_default && def.kind != "type" && !attrs->find(def.name)) attrs->set(def.name, def.default_value);
  }
  return validate_op_call(op, input_dtypes.data(), num_inputs, *attrs);
}

}  // namespace graphfn
