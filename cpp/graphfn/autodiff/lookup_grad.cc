// The table and string-hashing ops have no gradient, as TF declares them (NotDifferentiable).
#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_lookup_gradients(OpRegistry& reg) {
  for (const char* op : {"HashTableV2", "LookupTableImportV2", "InitializeTableV2", "LookupTableFindV2",
                         "LookupTableSizeV2", "LookupTableExportV2", "StringToHashBucketFast", "AsString"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
