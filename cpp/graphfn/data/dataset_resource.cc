#include "graphfn/data/dataset_resource.h"

#include <mutex>


namespace graphfn {
namespace data {
namespace {

// One iterator of a dataset, with a one-element look-ahead for has_next. A graph run may call it
// from several steps, so it takes a lock.
class IteratorResource : public ElementIteratorResource {
 public:
  explicit IteratorResource(DatasetPtr dataset) : dataset_(std::move(dataset)), iterator_(dataset_->make_iterator()) {}

  Status has_next(bool* out) override {
    std::lock_guard<std::mutex> lock(mu_);
    GRAPHFN_RETURN_IF_ERROR(fill());
    *out = peeked_;
    return Status::OK();
  }

  Status get_next(std::vector<Tensor>* out) override {
    std::lock_guard<std::mutex> lock(mu_);
    GRAPHFN_RETURN_IF_ERROR(fill());
    if (!peeked_) return errors::OutOfRange("End of sequence");
    *out = std::move(next_);
    next_.clear();
    peeked_ = false;
    return Status::OK();
  }

  Status take_next(const std::vector<DType>& types, Tensor* outputs, int n) override {
    std::lock_guard<std::mutex> lock(mu_);
    GRAPHFN_RETURN_IF_ERROR(fill());
    if (!peeked_) return errors::OutOfRange("End of sequence");
    if (next_.size() != types.size() || static_cast<int>(types.size()) != n) {
      return errors::InvalidArgument("The dataset's elements have ", next_.size(), " components, expected ",
                                     types.size());
    }
    for (size_t i = 0; i < next_.size(); ++i) {
      if (next_[i].dtype() != types[i]) {
        return errors::InvalidArgument("Component ", i, " of the dataset's element is ",
                                       dtype_tf_string(next_[i].dtype()), ", expected ", dtype_tf_string(types[i]));
      }
    }
    // next_ keeps what the slots held: the next fill() hands it to the iterator to overwrite.
    for (int i = 0; i < n; ++i) {
      outputs[i].swap(next_[i]);
      outputs[i].clear_id();
    }
    peeked_ = false;
    return Status::OK();
  }

 private:
  // next_ may hold the tensors of an element already taken (take_next): the iterator overwrites
  // them in place when it can (Iterator::next's contract), else replaces them.
  Status fill() {
    if (peeked_ || ended_) return Status::OK();
    bool end = false;
    GRAPHFN_RETURN_IF_ERROR(iterator_->next(&next_, &end));  // after an error, the next call goes on (as TF's)
    if (end) {
      ended_ = true;
      return Status::OK();
    }
    peeked_ = true;
    return Status::OK();
  }

  DatasetPtr dataset_;  // outlives iterator_
  std::unique_ptr<Iterator> iterator_;
  std::mutex mu_;
  Element next_;
  bool peeked_ = false, ended_ = false;
};

class DatasetHandleResource : public DatasetResource {
 public:
  explicit DatasetHandleResource(DatasetPtr dataset) : dataset_(std::move(dataset)) {}
  const DatasetPtr& dataset() const { return dataset_; }
  std::shared_ptr<ElementIteratorResource> make_element_iterator() const override {
    return std::make_shared<IteratorResource>(dataset_);
  }

 private:
  DatasetPtr dataset_;
};

}  // namespace

Tensor dataset_resource_tensor(DatasetPtr dataset) {
  return make_resource_tensor(std::make_shared<DatasetHandleResource>(std::move(dataset)));
}

std::shared_ptr<ElementIteratorResource> element_iterator_resource(DatasetPtr dataset) {
  return std::make_shared<IteratorResource>(std::move(dataset));
}

Status dataset_of_resource_tensor(const Tensor& t, DatasetPtr* out) {
  const DatasetHandleResource* handle = nullptr;
  if (t.dtype() == DType::kResource && t.num_elements() == 1) {
    handle = dynamic_cast<const DatasetHandleResource*>(t.data<ResourceHandle>()->get());
  }
  if (handle == nullptr) return errors::InvalidArgument("Expected a dataset (a scalar dataset resource tensor).");
  *out = handle->dataset();
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
