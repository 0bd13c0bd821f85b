#include <algorithm>

#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {
namespace {

// Shared shape of the single-input iterators below: the input iterator is dropped once it ends
// or fails, after which next() answers end.
class RepeatDataset : public DatasetNode {
 public:
  RepeatDataset(DatasetPtr input, int64_t count) : input_(std::move(input)), count_(count) {}
  std::unique_ptr<Iterator> make_iterator() const override { return std::make_unique<RepeatIterator>(this); }
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (count_ == 0 || n == 0) return 0;
    if (count_ < 0) return kInfinite;
    if (n < 0) return n;
    return n * count_;
  }
  std::string name() const override { return "RepeatDataset"; }

 private:
  class RepeatIterator : public Iterator {
   public:
    explicit RepeatIterator(const RepeatDataset* d) : dataset_(d) {
      if (d->count_ != 0) input_ = d->input_->make_iterator();
    }
    Status next(Element* out, bool* end) override {
      while (input_) {
        Status s = input_->next(out, end);
        if (!s.ok()) {
          input_.reset();
          return s;
        }
        if (!*end) {
          produced_in_epoch_ = true;
          return Status::OK();
        }
        ++epochs_;
        // An epoch without elements ends a repeat forever too (instead of spinning).
        if ((dataset_->count_ >= 0 && epochs_ >= dataset_->count_) || !produced_in_epoch_) {
          input_.reset();
          break;
        }
        produced_in_epoch_ = false;
        input_ = dataset_->input_->make_iterator();
      }
      *end = true;
      return Status::OK();
    }

   private:
    const RepeatDataset* dataset_;
    std::unique_ptr<Iterator> input_;
    int64_t epochs_ = 0;
    bool produced_in_epoch_ = false;
  };

  DatasetPtr input_;
  int64_t count_;
};

class TakeDataset : public DatasetNode {
 public:
  TakeDataset(DatasetPtr input, int64_t count) : input_(std::move(input)), count_(count) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<TakeIterator>(input_->make_iterator(), count_);
  }
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (count_ < 0) return n;
    if (n == kUnknown) return kUnknown;
    if (n == kInfinite) return count_;
    return std::min(n, count_);
  }
  std::string name() const override { return "TakeDataset"; }

 private:
  class TakeIterator : public Iterator {
   public:
    TakeIterator(std::unique_ptr<Iterator> input, int64_t count) : input_(std::move(input)), left_(count) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      if (!input_ || left_ == 0) {
        input_.reset();
        return Status::OK();
      }
      Status s = input_->next(out, end);
      if (!s.ok() || *end) {
        input_.reset();
        return s;
      }
      if (left_ > 0) --left_;
      return Status::OK();
    }

   private:
    std::unique_ptr<Iterator> input_;
    int64_t left_;  // negative: no limit
  };

  DatasetPtr input_;
  int64_t count_;
};

class SkipDataset : public DatasetNode {
 public:
  SkipDataset(DatasetPtr input, int64_t count) : input_(std::move(input)), count_(count) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<SkipIterator>(input_->make_iterator(), count_);
  }
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    if (count_ < 0) return 0;
    return std::max<int64_t>(n - count_, 0);
  }
  std::string name() const override { return "SkipDataset"; }

 private:
  class SkipIterator : public Iterator {
   public:
    SkipIterator(std::unique_ptr<Iterator> input, int64_t count) : input_(std::move(input)), to_skip_(count) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      // to_skip_ < 0 skips everything.
      while (input_ && to_skip_ != 0) {
        Status s = input_->next(out, end);
        if (!s.ok() || *end) {
          input_.reset();
          *end = true;
          return s;
        }
        if (to_skip_ > 0) --to_skip_;
      }
      if (!input_) return Status::OK();
      Status s = input_->next(out, end);
      if (!s.ok() || *end) input_.reset();
      return s;
    }

   private:
    std::unique_ptr<Iterator> input_;
    int64_t to_skip_;
  };

  DatasetPtr input_;
  int64_t count_;
};

class ZipDataset : public DatasetNode {
 public:
  explicit ZipDataset(std::vector<DatasetPtr> inputs) : inputs_(std::move(inputs)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    std::vector<std::unique_ptr<Iterator>> its;
    for (const DatasetPtr& d : inputs_) its.push_back(d->make_iterator());
    return std::make_unique<ZipIterator>(std::move(its));
  }
  int64_t cardinality() const override {
    int64_t result = kInfinite;
    for (const DatasetPtr& d : inputs_) {
      const int64_t n = d->cardinality();
      if (n == kUnknown) return kUnknown;
      if (n >= 0) result = result == kInfinite ? n : std::min(result, n);
    }
    return result;
  }
  std::string name() const override { return "ZipDataset"; }

 private:
  class ZipIterator : public Iterator {
   public:
    explicit ZipIterator(std::vector<std::unique_ptr<Iterator>> inputs) : inputs_(std::move(inputs)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      if (done_) return Status::OK();
      Element result, part;
      for (auto& input : inputs_) {
        bool input_end = false;
        Status s = input->next(&part, &input_end);
        if (!s.ok() || input_end) {
          done_ = true;
          return s;
        }
        for (Tensor& t : part) result.push_back(std::move(t));
      }
      *out = std::move(result);
      *end = false;
      return Status::OK();
    }

   private:
    std::vector<std::unique_ptr<Iterator>> inputs_;
    bool done_ = false;
  };

  std::vector<DatasetPtr> inputs_;
};

class ConcatenateDataset : public DatasetNode {
 public:
  ConcatenateDataset(DatasetPtr first, DatasetPtr second) : first_(std::move(first)), second_(std::move(second)) {}
  std::unique_ptr<Iterator> make_iterator() const override { return std::make_unique<ConcatenateIterator>(this); }
  int64_t cardinality() const override {
    const int64_t a = first_->cardinality(), b = second_->cardinality();
    if (a == kInfinite || b == kInfinite) return kInfinite;
    if (a == kUnknown || b == kUnknown) return kUnknown;
    return a + b;
  }
  std::string name() const override { return "ConcatenateDataset"; }

 private:
  class ConcatenateIterator : public Iterator {
   public:
    explicit ConcatenateIterator(const ConcatenateDataset* d) : dataset_(d), input_(d->first_->make_iterator()) {}
    Status next(Element* out, bool* end) override {
      while (input_) {
        Status s = input_->next(out, end);
        if (!s.ok()) {
          input_.reset();
          return s;
        }
        if (!*end) return Status::OK();
        input_ = on_first_ ? dataset_->second_->make_iterator() : nullptr;
        on_first_ = false;
      }
      *end = true;
      return Status::OK();
    }

   private:
    const ConcatenateDataset* dataset_;
    std::unique_ptr<Iterator> input_;
    bool on_first_ = true;
  };

  DatasetPtr first_, second_;
};

}  // namespace

DatasetPtr repeat_dataset(DatasetPtr input, int64_t count) {
  return std::make_shared<RepeatDataset>(std::move(input), count);
}
DatasetPtr take_dataset(DatasetPtr input, int64_t count) { return std::make_shared<TakeDataset>(std::move(input), count); }
DatasetPtr skip_dataset(DatasetPtr input, int64_t count) { return std::make_shared<SkipDataset>(std::move(input), count); }
DatasetPtr zip_dataset(std::vector<DatasetPtr> inputs) { return std::make_shared<ZipDataset>(std::move(inputs)); }
DatasetPtr concatenate_dataset(DatasetPtr first, DatasetPtr second) {
  return std::make_shared<ConcatenateDataset>(std::move(first), std::move(second));
}

}  // namespace data
}  // namespace graphfn
