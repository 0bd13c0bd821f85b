// Datasets that pick among other datasets: TF's DirectedInterleaveDataset (choose_from_datasets,
// sample_from_datasets), the random selector sample_from_datasets feeds it, and Counter.
#include <random>

#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {
namespace {

class DirectedInterleaveIterator : public Iterator {
 public:
  DirectedInterleaveIterator(std::unique_ptr<Iterator> selector, const std::vector<DatasetPtr>& inputs,
                             bool stop_on_empty)
      : selector_(std::move(selector)), stop_on_empty_(stop_on_empty), live_(inputs.size()) {
    for (const DatasetPtr& d : inputs) inputs_.push_back(d->make_iterator());
  }

  Status next(Element* out, bool* end) override {
    *end = true;
    while (!done_ && live_ > 0) {
      Element choice;
      bool selector_end = false;
      Status s = selector_->next(&choice, &selector_end);
      if (!s.ok() || selector_end) {
        done_ = true;
        return s;
      }
      const int64_t index = choice[0].data<int64_t>()[0];
      if (index < 0 || index >= static_cast<int64_t>(inputs_.size())) {
        done_ = true;
        return errors::InvalidArgument("Selector index out of range: ", index, " >= ", inputs_.size());
      }
      std::unique_ptr<Iterator>& input = inputs_[index];
      if (!input) continue;  // exhausted before: skipped, as TF
      bool input_end = false;
      s = input->next(out, &input_end);
      if (!s.ok()) {
        done_ = true;
        return s;
      }
      if (!input_end) {
        *end = false;
        return Status::OK();
      }
      input.reset();
      --live_;
      if (stop_on_empty_) done_ = true;
    }
    return Status::OK();
  }

 private:
  std::unique_ptr<Iterator> selector_;
  std::vector<std::unique_ptr<Iterator>> inputs_;
  bool stop_on_empty_;
  size_t live_;
  bool done_ = false;
};

class DirectedInterleaveDataset : public DatasetNode {
 public:
  DirectedInterleaveDataset(DatasetPtr selector, std::vector<DatasetPtr> inputs, bool stop_on_empty)
      : selector_(std::move(selector)), inputs_(std::move(inputs)), stop_on_empty_(stop_on_empty) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<DirectedInterleaveIterator>(selector_->make_iterator(), inputs_, stop_on_empty_);
  }
  // As TF 2.21: infinite only when the selector and every input are; otherwise unknown.
  int64_t cardinality() const override {
    if (selector_->cardinality() != kInfinite) return kUnknown;
    for (const DatasetPtr& d : inputs_) {
      if (d->cardinality() != kInfinite) return kUnknown;
    }
    return kInfinite;
  }
  std::string name() const override { return "DirectedInterleaveDataset"; }

 private:
  DatasetPtr selector_;
  std::vector<DatasetPtr> inputs_;
  bool stop_on_empty_;
};

// Endless int64 draws from the categorical distribution of `weights` (non-positive weights are
// never drawn; with no positive weight the dataset is empty).
class CategoricalIterator : public Iterator {
 public:
  CategoricalIterator(const std::vector<double>& weights, uint64_t seed) : rng_(seed) {
    bool any = false;
    std::vector<double> w;
    for (double x : weights) {
      w.push_back(x > 0 ? x : 0.0);
      any = any || x > 0;
    }
    empty_ = !any;
    if (any) dist_ = std::discrete_distribution<int64_t>(w.begin(), w.end());
  }
  Status next(Element* out, bool* end) override {
    *end = empty_;
    if (!empty_) out->assign(1, Tensor::scalar<int64_t>(dist_(rng_)));
    return Status::OK();
  }

 private:
  std::mt19937_64 rng_;
  std::discrete_distribution<int64_t> dist_;
  bool empty_ = false;
};

class CategoricalDataset : public DatasetNode {
 public:
  CategoricalDataset(std::vector<double> weights, uint64_t seed, uint64_t seed2)
      : weights_(std::move(weights)), seed_(seed), seed2_(seed2) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    // Each iterator draws the same sequence, as a seeded TF dataset does.
    return std::make_unique<CategoricalIterator>(weights_, seed_ * 0x9E3779B97F4A7C15ULL ^ seed2_);
  }
  int64_t cardinality() const override { return kInfinite; }
  std::string name() const override { return "CategoricalSelectorDataset"; }

 private:
  std::vector<double> weights_;
  uint64_t seed_, seed2_;
};

template <typename T>
class CounterIterator : public Iterator {
 public:
  CounterIterator(T start, T step) : next_(start), step_(step) {}
  Status next(Element* out, bool* end) override {
    out->assign(1, Tensor::scalar<T>(next_));
    next_ = static_cast<T>(next_ + step_);
    *end = false;
    return Status::OK();
  }

 private:
  T next_, step_;
};

class CounterDataset : public DatasetNode {
 public:
  CounterDataset(Tensor start, Tensor step) : start_(std::move(start)), step_(std::move(step)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    switch (start_.dtype()) {
      case DType::kInt8: return make<int8_t>();
      case DType::kInt16: return make<int16_t>();
      case DType::kInt32: return make<int32_t>();
      case DType::kUInt8: return make<uint8_t>();
      case DType::kFloat32: return make<float>();
      case DType::kFloat64: return make<double>();
      default: return make<int64_t>();
    }
  }
  int64_t cardinality() const override { return kInfinite; }
  std::string name() const override { return "ScanDataset"; }

 private:
  template <typename T>
  std::unique_ptr<Iterator> make() const {
    return std::make_unique<CounterIterator<T>>(start_.data<T>()[0], step_.data<T>()[0]);
  }
  Tensor start_, step_;
};

}  // namespace

Status directed_interleave_dataset(DatasetPtr selector, std::vector<DatasetPtr> inputs, bool stop_on_empty,
                                   DatasetPtr* out) {
  if (inputs.empty()) return errors::InvalidArgument("Invalid `datasets`. `datasets` should not be empty.");
  *out = std::make_shared<DirectedInterleaveDataset>(std::move(selector), std::move(inputs), stop_on_empty);
  return Status::OK();
}

DatasetPtr categorical_selector_dataset(std::vector<double> weights, uint64_t seed, uint64_t seed2) {
  return std::make_shared<CategoricalDataset>(std::move(weights), seed, seed2);
}

Status counter_dataset(Tensor start, Tensor step, DatasetPtr* out) {
  switch (start.dtype()) {
    case DType::kInt8: case DType::kInt16: case DType::kInt32: case DType::kInt64: case DType::kUInt8:
    case DType::kFloat32: case DType::kFloat64:
      break;
    default:
      return errors::InvalidArgument("Counter does not support dtype ", dtype_name(start.dtype()));
  }
  if (start.num_elements() != 1 || step.num_elements() != 1 || step.dtype() != start.dtype()) {
    return errors::InvalidArgument("Counter's start and step must be scalars of one dtype");
  }
  *out = std::make_shared<CounterDataset>(std::move(start), std::move(step));
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
