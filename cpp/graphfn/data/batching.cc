#include <algorithm>

#include "graphfn/data/datasets.h"
#include "graphfn/data/element_ops.h"

namespace graphfn {
namespace data {
namespace {

int64_t batched_cardinality(int64_t n, int64_t batch_size, bool drop_remainder) {
  if (n < 0) return n;
  return drop_remainder ? n / batch_size : (n + batch_size - 1) / batch_size;
}

// Batch and padded batch: pull up to batch_size elements, then combine each component.
class BatchDataset : public DatasetNode {
 public:
  BatchDataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, bool padded, std::vector<Shape> padded_shapes,
               std::vector<Tensor> padding_values)
      : input_(std::move(input)),
        batch_size_(batch_size),
        drop_remainder_(drop_remainder),
        padded_(padded),
        padded_shapes_(std::move(padded_shapes)),
        padding_values_(std::move(padding_values)) {}

  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<BatchIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override {
    return batched_cardinality(input_->cardinality(), batch_size_, drop_remainder_);
  }
  std::string name() const override { return padded_ ? "PaddedBatchDatasetV2" : "BatchDatasetV2"; }

 private:
  class BatchIterator : public Iterator {
   public:
    BatchIterator(const BatchDataset* dataset, std::unique_ptr<Iterator> input)
        : dataset_(dataset), input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      if (!input_) return Status::OK();
      std::vector<Element> items;
      items.reserve(static_cast<size_t>(std::min<int64_t>(dataset_->batch_size_, 1024)));
      while (static_cast<int64_t>(items.size()) < dataset_->batch_size_) {
        Element e;
        bool input_end = false;
        Status s = input_->next(&e, &input_end);
        if (!s.ok()) {
          input_.reset();
          return s;
        }
        if (input_end) {
          input_.reset();
          break;
        }
        items.push_back(std::move(e));
      }
      if (items.empty() || (dataset_->drop_remainder_ && static_cast<int64_t>(items.size()) < dataset_->batch_size_)) {
        return Status::OK();
      }
      Element batch(items[0].size());
      std::vector<const Tensor*> parts(items.size());
      for (size_t c = 0; c < batch.size(); ++c) {
        for (size_t i = 0; i < items.size(); ++i) parts[i] = &items[i][c];
        Status s = dataset_->padded_ ? pad_and_stack(parts, dataset_->padded_shapes_[c], dataset_->padding_values_[c],
                                                     &batch[c])
                                     : stack_tensors(parts, &batch[c]);
        if (!s.ok()) {
          input_.reset();
          return s;
        }
      }
      *out = std::move(batch);
      *end = false;
      return Status::OK();
    }

   private:
    const BatchDataset* dataset_;
    std::unique_ptr<Iterator> input_;  // null once the input ended or failed
  };

  DatasetPtr input_;
  int64_t batch_size_;
  bool drop_remainder_;
  bool padded_;
  std::vector<Shape> padded_shapes_;
  std::vector<Tensor> padding_values_;
};

class UnbatchDataset : public DatasetNode {
 public:
  explicit UnbatchDataset(DatasetPtr input) : input_(std::move(input)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<UnbatchIterator>(input_->make_iterator());
  }
  int64_t cardinality() const override { return input_->cardinality() == kInfinite ? kInfinite : kUnknown; }
  std::string name() const override { return "UnbatchDataset"; }

 private:
  class UnbatchIterator : public Iterator {
   public:
    explicit UnbatchIterator(std::unique_ptr<Iterator> input) : input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      while (row_ >= rows_) {
        bool input_end = false;
        *end = true;
        if (!input_) return Status::OK();
        Status s = input_->next(&current_, &input_end);
        if (!s.ok() || input_end) {
          input_.reset();
          return s;
        }
        rows_ = current_[0].dim(0);
        for (const Tensor& t : current_) {
          if (t.dim(0) != rows_) {
            input_.reset();
            return errors::InvalidArgument("Input element must have the same batch size in each component. Component 0 "
                                           "had size ", rows_, " but component had size ", t.dim(0), ".");
          }
        }
        row_ = 0;
      }
      out->clear();
      for (const Tensor& t : current_) out->push_back(slice_row(t, row_));
      ++row_;
      *end = false;
      return Status::OK();
    }

   private:
    std::unique_ptr<Iterator> input_;
    Element current_;
    int64_t row_ = 0, rows_ = 0;
  };

  DatasetPtr input_;
};

Status check_batch_size(int64_t batch_size) {
  if (batch_size <= 0) return errors::InvalidArgument("Batch size must be greater than zero.");
  return Status::OK();
}

}  // namespace

Status batch_dataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, DatasetPtr* out) {
  GRAPHFN_RETURN_IF_ERROR(check_batch_size(batch_size));
  *out = std::make_shared<BatchDataset>(std::move(input), batch_size, drop_remainder, false, std::vector<Shape>{},
                                        std::vector<Tensor>{});
  return Status::OK();
}

Status padded_batch_dataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, std::vector<Shape> padded_shapes,
                            std::vector<Tensor> padding_values, DatasetPtr* out) {
  GRAPHFN_RETURN_IF_ERROR(check_batch_size(batch_size));
  if (padded_shapes.size() != padding_values.size()) {
    return errors::InvalidArgument("padded_batch needs one padded shape and one padding value per component");
  }
  for (const Tensor& v : padding_values) {
    if (v.rank() != 0) return errors::InvalidArgument("Padding value must be a scalar, got shape ", v.shape().to_string());
  }
  *out = std::make_shared<BatchDataset>(std::move(input), batch_size, drop_remainder, true, std::move(padded_shapes),
                                        std::move(padding_values));
  return Status::OK();
}

DatasetPtr unbatch_dataset(DatasetPtr input) { return std::make_shared<UnbatchDataset>(std::move(input)); }

}  // namespace data
}  // namespace graphfn
