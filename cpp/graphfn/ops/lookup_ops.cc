// Hash-table ops (tf.lookup): HashTableV2 makes a table resource; LookupTableImportV2 and
// InitializeTableV2 fill it from keys and values; LookupTableFindV2 maps keys to values (a default
// for missing keys); LookupTableSizeV2 and LookupTableExportV2 read it back. All stateful, as TF's.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status table_shape(InferenceContext& c) {
  c.set_output(0, DType::kResource, Shape());
  return Status::OK();
}

Status no_outputs(InferenceContext&) { return Status::OK(); }

Status find_shape(InferenceContext& c) {
  const Shape& default_shape = c.input_shape(2);
  if (default_shape.known_rank() && default_shape.rank() != 0) {
    return errors::InvalidArgument("Expected shape [] for default value, got ", default_shape);
  }
  c.set_output(0, c.type_attr("Tout"), c.input_shape(1));
  return Status::OK();
}

Status size_shape(InferenceContext& c) {
  c.set_output(0, DType::kInt64, Shape());
  return Status::OK();
}

Status export_shape(InferenceContext& c) {
  c.set_output(0, c.type_attr("Tkeys"), Shape({Shape::kUnknownDim}));
  c.set_output(1, c.type_attr("Tvalues"), Shape({Shape::kUnknownDim}));
  return Status::OK();
}

}  // namespace

void register_lookup_ops(OpRegistry& reg) {
  reg.op("HashTableV2").output("table_handle: resource").attr("container: string = ''")
      .attr("shared_name: string = ''").attr("use_node_name_sharing: bool = false").attr("key_dtype: type")
      .attr("value_dtype: type").stateful().shape_fn(table_shape, true);
  reg.op("LookupTableImportV2").input("table_handle: resource").input("keys: Tin").input("values: Tout")
      .attr("Tin: type").attr("Tout: type").stateful().shape_fn(no_outputs, true);
  reg.op("InitializeTableV2").input("table_handle: resource").input("keys: Tkey").input("values: Tval")
      .attr("Tkey: type").attr("Tval: type").stateful().shape_fn(no_outputs, true);
  reg.op("LookupTableFindV2").input("table_handle: resource").input("keys: Tin").input("default_value: Tout")
      .output("values: Tout").attr("Tin: type").attr("Tout: type").stateful().shape_fn(find_shape, true);
  reg.op("LookupTableSizeV2").input("table_handle: resource").output("size: int64").stateful()
      .shape_fn(size_shape, true);
  reg.op("LookupTableExportV2").input("table_handle: resource").output("keys: Tkeys").output("values: Tvalues")
      .attr("Tkeys: type").attr("Tvalues: type").stateful().shape_fn(export_shape, true);
}

}  // namespace graphfn
