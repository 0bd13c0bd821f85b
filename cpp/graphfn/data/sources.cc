#include "graphfn/data/datasets.h"
#include "graphfn/data/element_ops.h"

namespace graphfn {
namespace data {
namespace {

using Components = std::shared_ptr<const std::vector<Tensor>>;

class SliceIterator : public Iterator {
 public:
  explicit SliceIterator(Components components) : components_(std::move(components)) {}
  Status next(Element* out, bool* end) override {
    if (row_ >= (*components_)[0].dim(0)) {
      *end = true;
      return Status::OK();
    }
    out->clear();
    for (const Tensor& t : *components_) out->push_back(slice_row(t, row_));
    ++row_;
    *end = false;
    return Status::OK();
  }

 private:
  Components components_;
  int64_t row_ = 0;
};

class TensorSliceDataset : public DatasetNode {
 public:
  explicit TensorSliceDataset(std::vector<Tensor> components)
      : components_(std::make_shared<const std::vector<Tensor>>(std::move(components))) {}
  std::unique_ptr<Iterator> make_iterator() const override { return std::make_unique<SliceIterator>(components_); }
  int64_t cardinality() const override { return (*components_)[0].dim(0); }
  std::string name() const override { return "TensorSliceDataset"; }

 private:
  Components components_;
};

class TensorIterator : public Iterator {
 public:
  explicit TensorIterator(std::vector<Tensor> components) : components_(std::move(components)) {}
  Status next(Element* out, bool* end) override {
    *end = done_;
    if (!done_) *out = components_;
    done_ = true;
    return Status::OK();
  }

 private:
  std::vector<Tensor> components_;  // tensors share their buffers: copying them is cheap
  bool done_ = false;
};

class TensorDataset : public DatasetNode {
 public:
  explicit TensorDataset(std::vector<Tensor> components) : components_(std::move(components)) {}
  std::unique_ptr<Iterator> make_iterator() const override { return std::make_unique<TensorIterator>(components_); }
  int64_t cardinality() const override { return 1; }
  std::string name() const override { return "TensorDataset"; }

 private:
  std::vector<Tensor> components_;
};

// Puts the scalar v into *t: in place when *t is an earlier element's scalar of this dtype that
// nothing else holds (Iterator::next's contract), so a loop over a range allocates nothing.
template <typename T>
void scalar_of(int64_t v, Tensor* t) {
  const std::shared_ptr<Buffer>& buffer = t->buffer();
  if (t->dtype() == DTypeOf<T>::value && t->rank() == 0 && buffer && buffer.use_count() == 1 &&
      buffer->recyclable()) {
    *t->data<T>() = static_cast<T>(v);
    t->clear_id();
    return;
  }
  *t = Tensor::scalar<T>(static_cast<T>(v));
}

using ScalarMaker = void (*)(int64_t, Tensor*);

Status range_scalar_maker(DType dtype, ScalarMaker* make) {
  switch (dtype) {
    case DType::kInt64: *make = scalar_of<int64_t>; return Status::OK();
    case DType::kInt32: *make = scalar_of<int32_t>; return Status::OK();
    case DType::kInt16: *make = scalar_of<int16_t>; return Status::OK();
    case DType::kInt8: *make = scalar_of<int8_t>; return Status::OK();
    case DType::kUInt8: *make = scalar_of<uint8_t>; return Status::OK();
    case DType::kFloat32: *make = scalar_of<float>; return Status::OK();
    case DType::kFloat64: *make = scalar_of<double>; return Status::OK();
    default:
      return errors::InvalidArgument("Unsupported output_type ", dtype_name(dtype), " for Dataset.range");
  }
}

class RangeIterator : public Iterator {
 public:
  RangeIterator(int64_t start, int64_t stop, int64_t step, ScalarMaker make)
      : next_(start), stop_(stop), step_(step), make_(make) {}
  Status next(Element* out, bool* end) override {
    if (step_ > 0 ? next_ >= stop_ : next_ <= stop_) {
      *end = true;
      return Status::OK();
    }
    out->resize(1);
    make_(next_, &(*out)[0]);
    // Stop instead of overflowing past the int64 range.
    if (__builtin_add_overflow(next_, step_, &next_)) next_ = stop_;
    *end = false;
    return Status::OK();
  }

 private:
  int64_t next_, stop_, step_;
  ScalarMaker make_;
};

class RangeDataset : public DatasetNode {
 public:
  RangeDataset(int64_t start, int64_t stop, int64_t step, ScalarMaker make)
      : start_(start), stop_(stop), step_(step), make_(make) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<RangeIterator>(start_, stop_, step_, make_);
  }
  int64_t cardinality() const override {
    // ceil((stop - start) / step) in 128 bits (the difference of two int64s may overflow).
    const __int128 span = static_cast<__int128>(stop_) - start_;
    if (step_ > 0 ? span <= 0 : span >= 0) return 0;
    const __int128 count = step_ > 0 ? (span + step_ - 1) / step_ : (span + step_ + 1) / step_;
    return static_cast<int64_t>(count);
  }
  std::string name() const override { return "RangeDataset"; }

 private:
  int64_t start_, stop_, step_;
  ScalarMaker make_;
};

}  // namespace

Status tensor_slices_dataset(std::vector<Tensor> components, DatasetPtr* out) {
  if (components.empty()) return errors::InvalidArgument("from_tensor_slices needs at least one tensor");
  for (const Tensor& t : components) {
    if (t.rank() < 1) return errors::InvalidArgument("Unbatching a tensor is only supported for rank >= 1");
  }
  const int64_t rows = components[0].dim(0);
  for (const Tensor& t : components) {
    if (t.dim(0) != rows) {
      return errors::InvalidArgument("Dimensions ", rows, " and ", t.dim(0), " are not compatible");
    }
  }
  *out = std::make_shared<TensorSliceDataset>(std::move(components));
  return Status::OK();
}

DatasetPtr tensor_dataset(std::vector<Tensor> components) {
  return std::make_shared<TensorDataset>(std::move(components));
}

Status range_dataset(int64_t start, int64_t stop, int64_t step, DType dtype, DatasetPtr* out) {
  if (step == 0) return errors::InvalidArgument("step must be a non-zero integer.");
  ScalarMaker make = nullptr;
  GRAPHFN_RETURN_IF_ERROR(range_scalar_maker(dtype, &make));
  *out = std::make_shared<RangeDataset>(start, stop, step, make);
  return Status::OK();
}

Status collect(const DatasetNode& dataset, std::vector<Element>* elements) {
  auto it = dataset.make_iterator();
  for (;;) {
    Element e;
    bool end = false;
    GRAPHFN_RETURN_IF_ERROR(it->next(&e, &end));
    if (end) return Status::OK();
    elements->push_back(std::move(e));
  }
}

}  // namespace data
}  // namespace graphfn
