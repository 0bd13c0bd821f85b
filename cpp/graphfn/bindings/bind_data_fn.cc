// _core.data_* of the function and structural transformations (flat_map, interleave, window,
// group_by_window, scan, ...) and the dataset recipes: Python records, while tracing a function
// that returns a dataset, how to build that dataset per element (data/dataset_recipe.h).
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/data/dataset_recipe.h"
#include "graphfn/data/dataset_resource.h"
#include "graphfn/data/nested_datasets.h"

namespace graphfn {
namespace {

using data::DatasetPtr;
using DatasetHandle = std::shared_ptr<data::DatasetNode>;  // pybind11 holders are non-const
using RecipeHandle = std::shared_ptr<data::DatasetRecipe>;
using FunctionHandle = std::shared_ptr<CompiledFunction>;

DatasetHandle handle_of(DatasetPtr d) { return std::const_pointer_cast<data::DatasetNode>(std::move(d)); }
RecipeHandle recipe_handle(data::RecipePtr r) { return std::const_pointer_cast<data::DatasetRecipe>(std::move(r)); }

DatasetHandle checked(Status s, DatasetPtr d) {
  throw_if_error(s);
  return handle_of(std::move(d));
}

std::vector<Tensor> tensors_of(const std::vector<const Tensor*>& tensors) {
  std::vector<Tensor> out;
  for (const Tensor* t : tensors) out.push_back(*t);
  return out;
}

py::list wrap_all(std::vector<Tensor>&& tensors) {
  py::list out(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) out[i] = wrap_eager_tensor(std::move(tensors[i]));
  return out;
}

// A count argument of a recipe transformation: a constant, or (slot >= 0) a value of the
// traced function, the (index)th of the tensors the transform receives.
struct CountArg {
  int64_t value;
  int slot;
  int index = -1;
  Status get(const std::vector<Tensor>& tensors, int64_t* out) const {
    if (index < 0) {
      *out = value;
      return Status::OK();
    }
    return data::int64_argument(tensors[static_cast<size_t>(index)], out);
  }
};

// Gives each slotted count its index among the transform's tensors.
std::vector<int> slots_of(std::vector<CountArg*> counts, std::vector<int> more = {}) {
  std::vector<int> slots = std::move(more);
  for (CountArg* c : counts) {
    if (c->slot < 0) continue;
    c->index = static_cast<int>(slots.size());
    slots.push_back(c->slot);
  }
  return slots;
}

data::DatasetFunction dataset_function(FunctionHandle fn, RecipeHandle recipe) { return {std::move(fn), std::move(recipe)}; }

// A recipe transformation with one input and some counts.
template <typename F>
RecipeHandle single_input(const RecipeHandle& in, std::vector<CountArg> counts, F make) {
  std::vector<CountArg*> pointers;
  for (CountArg& c : counts) pointers.push_back(&c);
  std::vector<int> slots = slots_of(pointers);
  return recipe_handle(data::transform_recipe(
      {in}, slots, [counts, make](const std::vector<DatasetPtr>& inputs, const std::vector<Tensor>& tensors, DatasetPtr* out) {
        std::vector<int64_t> values(counts.size());
        for (size_t i = 0; i < counts.size(); ++i) GRAPHFN_RETURN_IF_ERROR(counts[i].get(tensors, &values[i]));
        return make(inputs[0], values, out);
      }));
}

void bind_recipes(py::module_& m) {
  py::class_<data::DatasetRecipe, RecipeHandle>(m, "DatasetRecipe");
  m.def("data_recipe_fixed", [](const DatasetHandle& d) { return recipe_handle(data::fixed_recipe(d)); });
  m.def("data_recipe_value", [](int slot) { return recipe_handle(data::value_recipe(slot)); });
  m.def("data_recipe_tensor_slices", [](std::vector<int> slots) { return recipe_handle(data::tensor_slices_recipe(slots)); });
  m.def("data_recipe_tensors", [](std::vector<int> slots) { return recipe_handle(data::tensors_recipe(slots)); });
  m.def("data_recipe_range", [](int start, int stop, int step, int64_t dtype) {
    return recipe_handle(data::range_recipe(start, stop, step, dtype_from_number(dtype)));
  });
  // Counts are (value, slot) pairs: slot -1 for a constant.
  m.def("data_recipe_batch", [](const RecipeHandle& in, int64_t size, int size_slot, bool drop) {
    return single_input(in, {{size, size_slot}}, [drop](DatasetPtr d, const std::vector<int64_t>& v, DatasetPtr* out) {
      return data::batch_dataset(std::move(d), v[0], drop, out);
    });
  });
  m.def("data_recipe_padded_batch", [](const RecipeHandle& in, int64_t size, int size_slot, bool drop,
                                       const std::vector<std::vector<int64_t>>& padded_shapes, std::vector<int> padding_slots) {
    CountArg size_arg{size, size_slot};
    std::vector<int> slots = slots_of({&size_arg}, padding_slots);
    std::vector<Shape> shapes;
    for (const auto& dims : padded_shapes) shapes.emplace_back(dims);
    const size_t paddings = padding_slots.size();
    return recipe_handle(data::transform_recipe(
        {in}, slots, [=](const std::vector<DatasetPtr>& inputs, const std::vector<Tensor>& tensors, DatasetPtr* out) {
          int64_t batch_size = 0;
          GRAPHFN_RETURN_IF_ERROR(size_arg.get(tensors, &batch_size));
          std::vector<Tensor> values(tensors.begin(), tensors.begin() + static_cast<std::ptrdiff_t>(paddings));
          return data::padded_batch_dataset(inputs[0], batch_size, drop, shapes, values, out);
        }));
  });
  m.def("data_recipe_unbatch", [](const RecipeHandle& in) {
    return single_input(in, {}, [](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      *out = data::unbatch_dataset(std::move(d));
      return Status::OK();
    });
  });
  m.def("data_recipe_count", [](const std::string& kind, const RecipeHandle& in, int64_t count, int count_slot) {
    if (kind != "repeat" && kind != "take" && kind != "skip") throw py::value_error("unknown count transformation " + kind);
    return single_input(in, {{count, count_slot}}, [kind](DatasetPtr d, const std::vector<int64_t>& v, DatasetPtr* out) {
      *out = kind == "repeat" ? data::repeat_dataset(std::move(d), v[0])
             : kind == "take" ? data::take_dataset(std::move(d), v[0])
                              : data::skip_dataset(std::move(d), v[0]);
      return Status::OK();
    });
  });
  m.def("data_recipe_map", [](const RecipeHandle& in, FunctionHandle fn, int64_t parallel) {
    return single_input(in, {}, [fn, parallel](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      *out = data::map_dataset(std::move(d), fn, parallel);
      return Status::OK();
    });
  });
  m.def("data_recipe_filter", [](const RecipeHandle& in, FunctionHandle fn) {
    return single_input(in, {}, [fn](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      *out = data::filter_dataset(std::move(d), fn);
      return Status::OK();
    });
  });
  m.def("data_recipe_flat_map", [](const RecipeHandle& in, FunctionHandle fn, RecipeHandle recipe) {
    data::DatasetFunction f = dataset_function(std::move(fn), std::move(recipe));
    return single_input(in, {}, [f](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      *out = data::flat_map_dataset(std::move(d), f);
      return Status::OK();
    });
  });
  m.def("data_recipe_window", [](const RecipeHandle& in, int64_t size, int64_t shift, int64_t stride, bool drop) {
    return single_input(in, {}, [=](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      return data::window_dataset(std::move(d), size, shift, stride, drop, out);
    });
  });
  m.def("data_recipe_shard", [](const RecipeHandle& in, int64_t num_shards, int64_t index) {
    return single_input(in, {}, [=](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      return data::shard_dataset(std::move(d), num_shards, index, out);
    });
  });
  m.def("data_recipe_prefetch", [](const RecipeHandle& in, int64_t buffer_size) {
    return single_input(in, {}, [=](DatasetPtr d, const std::vector<int64_t>&, DatasetPtr* out) {
      return data::prefetch_dataset(std::move(d), buffer_size, out);
    });
  });
  m.def("data_recipe_zip", [](const std::vector<RecipeHandle>& inputs) {
    std::vector<data::RecipePtr> in(inputs.begin(), inputs.end());
    return recipe_handle(data::transform_recipe(
        in, {}, [](const std::vector<DatasetPtr>& ds, const std::vector<Tensor>&, DatasetPtr* out) {
          *out = data::zip_dataset(ds);
          return Status::OK();
        }));
  });
  m.def("data_recipe_concatenate", [](const RecipeHandle& a, const RecipeHandle& b) {
    return recipe_handle(data::transform_recipe(
        {a, b}, {}, [](const std::vector<DatasetPtr>& ds, const std::vector<Tensor>&, DatasetPtr* out) {
          *out = data::concatenate_dataset(ds[0], ds[1]);
          return Status::OK();
        }));
  });
}

}  // namespace

void bind_data_functions(py::module_& m) {
  bind_recipes(m);
  // A window or group element: the dataset a resource tensor holds.
  m.def("data_of_tensor", [](const Tensor& t) {
    DatasetPtr d;
    Status s = data::dataset_of_resource_tensor(t, &d);
    return checked(s, d);
  });
  m.def("data_flat_map", [](const DatasetHandle& in, FunctionHandle fn, RecipeHandle recipe) {
    return handle_of(data::flat_map_dataset(in, dataset_function(std::move(fn), std::move(recipe))));
  });
  m.def("data_interleave", [](const DatasetHandle& in, FunctionHandle fn, RecipeHandle recipe, int64_t cycle_length,
                              int64_t block_length, int64_t num_parallel_calls) {
    DatasetPtr d;
    Status s = data::interleave_dataset(in, dataset_function(std::move(fn), std::move(recipe)), cycle_length,
                                        block_length, num_parallel_calls, &d);
    return checked(s, d);
  });
  m.def("data_window", [](const DatasetHandle& in, int64_t size, int64_t shift, int64_t stride, bool drop) {
    DatasetPtr d;
    Status s = data::window_dataset(in, size, shift, stride, drop, &d);
    return checked(s, d);
  });
  m.def("data_group_by_window", [](const DatasetHandle& in, FunctionHandle key_fn, FunctionHandle reduce_fn,
                                   RecipeHandle recipe, int64_t window_size, FunctionHandle window_size_fn) {
    return handle_of(data::group_by_window_dataset(in, std::move(key_fn), dataset_function(std::move(reduce_fn), std::move(recipe)),
                                                   window_size, std::move(window_size_fn)));
  }, py::arg("input"), py::arg("key_fn"), py::arg("reduce_fn"), py::arg("recipe"), py::arg("window_size"),
     py::arg("window_size_fn").none(true));
  m.def("data_scan", [](const DatasetHandle& in, const std::vector<const Tensor*>& initial_state, FunctionHandle fn) {
    return handle_of(data::scan_dataset(in, tensors_of(initial_state), std::move(fn)));
  });
  m.def("data_take_while", [](const DatasetHandle& in, FunctionHandle predicate) {
    return handle_of(data::take_while_dataset(in, std::move(predicate)));
  });
  m.def("data_shard", [](const DatasetHandle& in, int64_t num_shards, int64_t index) {
    DatasetPtr d;
    Status s = data::shard_dataset(in, num_shards, index, &d);
    return checked(s, d);
  });
  m.def("data_unique", [](const DatasetHandle& in) { return handle_of(data::unique_dataset(in)); });
  m.def("data_rebatch", [](const DatasetHandle& in, std::vector<int64_t> batch_sizes, bool drop) {
    DatasetPtr d;
    Status s = data::rebatch_dataset(in, std::move(batch_sizes), drop, &d);
    return checked(s, d);
  });
  m.def("data_ignore_errors", [](const DatasetHandle& in) { return handle_of(data::ignore_errors_dataset(in)); });
  m.def("data_assert_cardinality",
        [](const DatasetHandle& in, int64_t expected) { return handle_of(data::assert_cardinality_dataset(in, expected)); });
  m.def("data_single_element", [](const DatasetHandle& in) {
    data::Element element;
    Status s;
    {
      py::gil_scoped_release release;
      s = data::single_element(*in, &element);
    }
    throw_if_error(s);
    return wrap_all(std::move(element));
  });
}

}  // namespace graphfn
