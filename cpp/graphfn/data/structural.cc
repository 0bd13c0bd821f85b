// Transformations that reshape or check the element flow without a user function: shard,
// unique, rebatch, ignore_errors, assert_cardinality, and get_single_element.
#include <algorithm>
#include <deque>
#include <string>
#include <unordered_set>

#include "graphfn/data/datasets.h"
#include "graphfn/data/element_ops.h"

namespace graphfn {
namespace data {
namespace {

class ShardDataset : public DatasetNode {
 public:
  ShardDataset(DatasetPtr input, int64_t num_shards, int64_t index)
      : input_(std::move(input)), num_shards_(num_shards), index_(index) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<ShardIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    return n / num_shards_ + (index_ < n % num_shards_ ? 1 : 0);
  }
  std::string name() const override { return "ShardDataset"; }

 private:
  class ShardIterator : public Iterator {
   public:
    ShardIterator(const ShardDataset* d, std::unique_ptr<Iterator> input) : d_(d), input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      while (input_) {
        Status s = input_->next(out, end);
        if (!s.ok() || *end) {
          if (*end) input_.reset();
          return s;
        }
        if (position_++ % d_->num_shards_ == d_->index_) return Status::OK();
      }
      *end = true;
      return Status::OK();
    }

   private:
    const ShardDataset* d_;
    std::unique_ptr<Iterator> input_;
    int64_t position_ = 0;
  };

  DatasetPtr input_;
  int64_t num_shards_, index_;
};

// A tensor's value as bytes: equal keys for equal (dtype, shape, contents).
std::string value_key(const Tensor& t) {
  std::string key(1, static_cast<char>(t.dtype()));
  for (int i = 0; i < t.rank(); ++i) key += std::to_string(t.dim(i)) + ",";
  key += ";";
  if (t.dtype() == DType::kString) {
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      const std::string& s = t.data<std::string>()[i];
      key += std::to_string(s.size()) + ":" + s;
    }
  } else {
    key.append(static_cast<const char*>(t.raw_data()), t.bytes());
  }
  return key;
}

class UniqueDataset : public DatasetNode {
 public:
  explicit UniqueDataset(DatasetPtr input) : input_(std::move(input)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<UniqueIterator>(input_->make_iterator());
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "UniqueDataset"; }

 private:
  class UniqueIterator : public Iterator {
   public:
    explicit UniqueIterator(std::unique_ptr<Iterator> input) : input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      while (input_) {
        Status s = input_->next(out, end);
        if (!s.ok() || *end) {
          if (*end) input_.reset();
          return s;
        }
        if (out->size() != 1) return errors::InvalidArgument("UniqueDataset only supports inputs with a single component.");
        if (seen_.insert(value_key((*out)[0])).second) return Status::OK();
      }
      *end = true;
      return Status::OK();
    }

   private:
    std::unique_ptr<Iterator> input_;
    std::unordered_set<std::string> seen_;
  };

  DatasetPtr input_;
};

// Rebatch: rows of the input batches are queued and regrouped. A batch size of 0 gives an empty
// batch shaped as the input's rows.
class RebatchDataset : public DatasetNode {
 public:
  RebatchDataset(DatasetPtr input, std::vector<int64_t> sizes, bool drop_remainder)
      : input_(std::move(input)), sizes_(std::move(sizes)), drop_remainder_(drop_remainder) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<RebatchIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "RebatchDatasetV2"; }

 private:
  class RebatchIterator : public Iterator {
   public:
    RebatchIterator(const RebatchDataset* d, std::unique_ptr<Iterator> input) : d_(d), input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      const int64_t want = d_->sizes_[turn_];
      // Rows: (batch, row index) taken from the front of the queued batches.
      std::vector<std::pair<size_t, int64_t>> rows;
      size_t batch = 0;
      int64_t row = offset_;
      while (static_cast<int64_t>(rows.size()) < want || queued_.empty()) {
        if (batch == queued_.size()) {
          if (!input_) break;
          Element e;
          bool input_end = false;
          Status s = input_->next(&e, &input_end);
          if (!s.ok()) return s;
          if (input_end) {
            input_.reset();
            break;
          }
          for (const Tensor& t : e) {
            if (t.rank() == 0) return errors::InvalidArgument("Input element must have a non-scalar value in each component.");
          }
          queued_.push_back(std::move(e));
          continue;
        }
        if (row >= queued_[batch][0].dim(0)) {
          ++batch;
          row = 0;
          continue;
        }
        rows.emplace_back(batch, row++);
      }
      if (queued_.empty() || (static_cast<int64_t>(rows.size()) < want && (rows.empty() || d_->drop_remainder_))) {
        queued_.clear();
        return Status::OK();
      }
      const size_t components = queued_.front().size();
      out->assign(components, Tensor());
      for (size_t c = 0; c < components; ++c) {
        std::vector<Tensor> parts;
        parts.reserve(rows.size());
        for (const auto& r : rows) parts.push_back(slice_row(queued_[r.first][c], r.second));
        std::vector<const Tensor*> pointers;
        for (const Tensor& t : parts) pointers.push_back(&t);
        if (pointers.empty()) {
          // An empty batch: shape [0] + the rows' shape.
          const Tensor& first = queued_.front()[c];
          std::vector<int64_t> dims{0};
          for (int i = 1; i < first.rank(); ++i) dims.push_back(first.dim(i));
          (*out)[c] = Tensor(first.dtype(), Shape(dims));
        } else {
          GRAPHFN_RETURN_IF_ERROR(stack_tensors(pointers, &(*out)[c]));
        }
      }
      // Drop the rows used: whole batches before `batch`, and `row` rows of it.
      queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(std::min(batch, queued_.size())));
      offset_ = row;
      if (!queued_.empty() && offset_ >= queued_.front()[0].dim(0)) {
        queued_.pop_front();
        offset_ = 0;
      }
      turn_ = (turn_ + 1) % d_->sizes_.size();
      *end = false;
      return Status::OK();
    }

   private:
    const RebatchDataset* d_;
    std::unique_ptr<Iterator> input_;
    std::deque<Element> queued_;
    int64_t offset_ = 0;  // rows of queued_.front() already used
    size_t turn_ = 0;
  };

  DatasetPtr input_;
  std::vector<int64_t> sizes_;
  bool drop_remainder_;
};

class IgnoreErrorsDataset : public DatasetNode {
 public:
  explicit IgnoreErrorsDataset(DatasetPtr input) : input_(std::move(input)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<IgnoreErrorsIterator>(input_->make_iterator());
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "IgnoreErrorsDataset"; }

 private:
  class IgnoreErrorsIterator : public Iterator {
   public:
    explicit IgnoreErrorsIterator(std::unique_ptr<Iterator> input) : input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      while (input_) {
        Status s = input_->next(out, end);
        if (s.ok()) {
          if (*end) input_.reset();
          return Status::OK();
        }
        // The failed element is dropped; an input that ends after an error ends here too.
      }
      return Status::OK();
    }

   private:
    std::unique_ptr<Iterator> input_;
  };

  DatasetPtr input_;
};

std::string elements_text(int64_t n) { return std::to_string(n) + (n == 1 ? " element" : " elements"); }

class AssertCardinalityDataset : public DatasetNode {
 public:
  AssertCardinalityDataset(DatasetPtr input, int64_t expected) : input_(std::move(input)), expected_(expected) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<AssertIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override { return expected_; }
  std::string name() const override { return "AssertCardinalityDataset"; }

 private:
  std::string expected_text() const {
    return expected_ == kInfinite ? "an infinite number of elements" : elements_text(expected_);
  }

  class AssertIterator : public Iterator {
   public:
    AssertIterator(const AssertCardinalityDataset* d, std::unique_ptr<Iterator> input)
        : d_(d), input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      GRAPHFN_RETURN_IF_ERROR(input_->next(out, end));
      if (!*end) {
        ++count_;
        if (d_->expected_ != kInfinite && count_ > d_->expected_) {
          return errors::FailedPrecondition("Input dataset was expected to contain ", d_->expected_text(),
                                            " but contained at least ", elements_text(count_), ".");
        }
        return Status::OK();
      }
      if (count_ != d_->expected_) {
        return errors::FailedPrecondition("Input dataset was expected to contain ", d_->expected_text(),
                                          " but contained only ", elements_text(count_), ".");
      }
      return Status::OK();
    }

   private:
    const AssertCardinalityDataset* d_;
    std::unique_ptr<Iterator> input_;
    int64_t count_ = 0;
  };

  DatasetPtr input_;
  int64_t expected_;
};

}  // namespace

Status shard_dataset(DatasetPtr input, int64_t num_shards, int64_t index, DatasetPtr* out) {
  if (num_shards <= 0) {
    return errors::InvalidArgument("Number of shards must be greater than zero (currently num_shards = ", num_shards,
                                   ").");
  }
  if (index < 0 || index >= num_shards) {
    return errors::InvalidArgument("Index must be between 0 and ", num_shards - 1, " (currently index = ", index, ").");
  }
  *out = std::make_shared<ShardDataset>(std::move(input), num_shards, index);
  return Status::OK();
}

DatasetPtr unique_dataset(DatasetPtr input) { return std::make_shared<UniqueDataset>(std::move(input)); }

Status rebatch_dataset(DatasetPtr input, std::vector<int64_t> batch_sizes, bool drop_remainder, DatasetPtr* out) {
  if (batch_sizes.empty()) return errors::InvalidArgument("batch_sizes must contain at least one element.");
  for (int64_t size : batch_sizes) {
    if (size < 0) return errors::InvalidArgument("batch_sizes must be non-negative, got ", size, ".");
  }
  *out = std::make_shared<RebatchDataset>(std::move(input), std::move(batch_sizes), drop_remainder);
  return Status::OK();
}

DatasetPtr ignore_errors_dataset(DatasetPtr input) { return std::make_shared<IgnoreErrorsDataset>(std::move(input)); }

DatasetPtr assert_cardinality_dataset(DatasetPtr input, int64_t expected) {
  return std::make_shared<AssertCardinalityDataset>(std::move(input), expected);
}

Status single_element(const DatasetNode& input, Element* out) {
  auto it = input.make_iterator();
  bool end = false;
  GRAPHFN_RETURN_IF_ERROR(it->next(out, &end));
  if (end) return errors::InvalidArgument("Dataset was empty.");
  Element extra;
  GRAPHFN_RETURN_IF_ERROR(it->next(&extra, &end));
  if (!end) return errors::InvalidArgument("Dataset had more than one element.");
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
