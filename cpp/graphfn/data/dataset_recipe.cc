#include "graphfn/data/dataset_recipe.h"

#include "graphfn/data/dataset_resource.h"

namespace graphfn {
namespace data {
namespace {

Status slot_value(const std::vector<Tensor>& values, int slot, const Tensor** out) {
  if (slot < 0 || static_cast<size_t>(slot) >= values.size()) {
    return errors::Internal("dataset recipe reads output ", slot, " of a function with ", values.size(), " outputs");
  }
  *out = &values[static_cast<size_t>(slot)];
  return Status::OK();
}

Status int64_scalar(const std::vector<Tensor>& values, int slot, int64_t* out) {
  const Tensor* t = nullptr;
  GRAPHFN_RETURN_IF_ERROR(slot_value(values, slot, &t));
  return int64_argument(*t, out);
}

Status slot_values(const std::vector<Tensor>& values, const std::vector<int>& slots, std::vector<Tensor>* out) {
  out->clear();
  for (int slot : slots) {
    const Tensor* t = nullptr;
    GRAPHFN_RETURN_IF_ERROR(slot_value(values, slot, &t));
    out->push_back(*t);
  }
  return Status::OK();
}

class FixedRecipe : public DatasetRecipe {
 public:
  explicit FixedRecipe(DatasetPtr dataset) : dataset_(std::move(dataset)) {}
  Status build(const std::vector<Tensor>&, DatasetPtr* out) const override {
    *out = dataset_;
    return Status::OK();
  }

 private:
  DatasetPtr dataset_;
};

class ValueRecipe : public DatasetRecipe {
 public:
  explicit ValueRecipe(int slot) : slot_(slot) {}
  Status build(const std::vector<Tensor>& values, DatasetPtr* out) const override {
    const Tensor* t = nullptr;
    GRAPHFN_RETURN_IF_ERROR(slot_value(values, slot_, &t));
    return dataset_of_resource_tensor(*t, out);
  }

 private:
  int slot_;
};

class TensorsRecipe : public DatasetRecipe {
 public:
  TensorsRecipe(std::vector<int> slots, bool slices) : slots_(std::move(slots)), slices_(slices) {}
  Status build(const std::vector<Tensor>& values, DatasetPtr* out) const override {
    std::vector<Tensor> components;
    GRAPHFN_RETURN_IF_ERROR(slot_values(values, slots_, &components));
    if (slices_) return tensor_slices_dataset(std::move(components), out);
    *out = tensor_dataset(std::move(components));
    return Status::OK();
  }

 private:
  std::vector<int> slots_;
  bool slices_;
};

class RangeRecipe : public DatasetRecipe {
 public:
  RangeRecipe(int start, int stop, int step, DType dtype) : start_(start), stop_(stop), step_(step), dtype_(dtype) {}
  Status build(const std::vector<Tensor>& values, DatasetPtr* out) const override {
    int64_t start = 0, stop = 0, step = 0;
    GRAPHFN_RETURN_IF_ERROR(int64_scalar(values, start_, &start));
    GRAPHFN_RETURN_IF_ERROR(int64_scalar(values, stop_, &stop));
    GRAPHFN_RETURN_IF_ERROR(int64_scalar(values, step_, &step));
    return range_dataset(start, stop, step, dtype_, out);
  }

 private:
  int start_, stop_, step_;
  DType dtype_;
};

class TransformRecipe : public DatasetRecipe {
 public:
  TransformRecipe(std::vector<RecipePtr> inputs, std::vector<int> tensor_slots, Transform transform)
      : inputs_(std::move(inputs)), tensor_slots_(std::move(tensor_slots)), transform_(std::move(transform)) {}
  Status build(const std::vector<Tensor>& values, DatasetPtr* out) const override {
    std::vector<DatasetPtr> inputs(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) GRAPHFN_RETURN_IF_ERROR(inputs_[i]->build(values, &inputs[i]));
    std::vector<Tensor> tensors;
    GRAPHFN_RETURN_IF_ERROR(slot_values(values, tensor_slots_, &tensors));
    return transform_(inputs, tensors, out);
  }

 private:
  std::vector<RecipePtr> inputs_;
  std::vector<int> tensor_slots_;
  Transform transform_;
};

// The rows of a window or a group: elements kept in memory.
class ElementListDataset : public DatasetNode {
 public:
  explicit ElementListDataset(std::vector<Element> elements) : elements_(std::move(elements)) {}
  std::unique_ptr<Iterator> make_iterator() const override { return std::make_unique<ListIterator>(&elements_); }
  int64_t cardinality() const override { return static_cast<int64_t>(elements_.size()); }
  std::string name() const override { return "VariantDataset"; }

 private:
  class ListIterator : public Iterator {
   public:
    explicit ListIterator(const std::vector<Element>* elements) : elements_(elements) {}
    Status next(Element* out, bool* end) override {
      *end = position_ >= elements_->size();
      if (!*end) *out = (*elements_)[position_++];
      return Status::OK();
    }

   private:
    const std::vector<Element>* elements_;
    size_t position_ = 0;
  };

  std::vector<Element> elements_;
};

}  // namespace

RecipePtr fixed_recipe(DatasetPtr dataset) { return std::make_shared<FixedRecipe>(std::move(dataset)); }
RecipePtr value_recipe(int slot) { return std::make_shared<ValueRecipe>(slot); }
RecipePtr tensor_slices_recipe(std::vector<int> slots) { return std::make_shared<TensorsRecipe>(std::move(slots), true); }
RecipePtr tensors_recipe(std::vector<int> slots) { return std::make_shared<TensorsRecipe>(std::move(slots), false); }
RecipePtr range_recipe(int start, int stop, int step, DType dtype) {
  return std::make_shared<RangeRecipe>(start, stop, step, dtype);
}
RecipePtr transform_recipe(std::vector<RecipePtr> inputs, std::vector<int> tensor_slots, Transform transform) {
  return std::make_shared<TransformRecipe>(std::move(inputs), std::move(tensor_slots), std::move(transform));
}

Status int64_argument(const Tensor& t, int64_t* out) {
  if (t.num_elements() != 1 || t.rank() != 0 || (t.dtype() != DType::kInt64 && t.dtype() != DType::kInt32)) {
    return errors::InvalidArgument("Expected a scalar int64 dataset argument, got a tensor of shape ", t.shape().to_string());
  }
  *out = t.dtype() == DType::kInt64 ? *t.data<int64_t>() : *t.data<int32_t>();
  return Status::OK();
}

Status DatasetFunction::call(const Element& args, DatasetPtr* out) const {
  std::vector<Tensor> values;
  GRAPHFN_RETURN_IF_ERROR(fn->call(args.data(), static_cast<int>(args.size()), &values));
  return recipe->build(values, out);
}

DatasetPtr element_list_dataset(std::vector<Element> elements) {
  return std::make_shared<ElementListDataset>(std::move(elements));
}

}  // namespace data
}  // namespace graphfn
