// Datasets that a user function returns (flat_map, interleave, group_by_window), built per input
// element in C++ without Python. Python traces the function once: dataset constructors called
// on the function's symbolic tensors record a DatasetRecipe (a tree mirroring the dataset the
// user wrote) whose tensor arguments are slots, indices into the traced function's outputs.
// Per element, the compiled function computes those outputs and the recipe builds the dataset
// from them with the ordinary factories of datasets.h.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {

class DatasetRecipe {
 public:
  virtual ~DatasetRecipe() = default;
  // The dataset for one element; `values` are the traced function's outputs for it.
  virtual Status build(const std::vector<Tensor>& values, DatasetPtr* out) const = 0;
};
using RecipePtr = std::shared_ptr<const DatasetRecipe>;

// A dataset that does not depend on the element (built at trace time, or captured).
RecipePtr fixed_recipe(DatasetPtr dataset);
// The dataset held by values[slot], a dataset resource tensor (a window, a group).
RecipePtr value_recipe(int slot);
// Dataset.from_tensor_slices / from_tensors of values[slots...].
RecipePtr tensor_slices_recipe(std::vector<int> slots);
RecipePtr tensors_recipe(std::vector<int> slots);
// Dataset.range(values[start], values[stop], values[step]) (int64 scalars), of `dtype`.
RecipePtr range_recipe(int start, int stop, int step, DType dtype);
// A transformation of the datasets `inputs` build; `tensors` are values[tensor_slots...] (a batch
// size or a count computed from the element).
using Transform = std::function<Status(const std::vector<DatasetPtr>& inputs, const std::vector<Tensor>& tensors,
                                       DatasetPtr* out)>;
RecipePtr transform_recipe(std::vector<RecipePtr> inputs, std::vector<int> tensor_slots, Transform transform);
// A scalar int64 (or int32) argument's value.
Status int64_argument(const Tensor& t, int64_t* out);

// A traced function returning a dataset: `fn` maps an element's components to the values the
// recipe reads.
struct DatasetFunction {
  FunctionPtr fn;
  RecipePtr recipe;
  Status call(const Element& args, DatasetPtr* out) const;
};

// A dataset of the given elements (a window's rows), as TF's variant datasets.
DatasetPtr element_list_dataset(std::vector<Element> elements);

}  // namespace data
}  // namespace graphfn
