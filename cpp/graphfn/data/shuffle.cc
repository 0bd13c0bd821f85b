#include <atomic>
#include <random>

#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {
namespace {

// TF's shuffle buffer: fill it with buffer_size elements, then hand out a uniformly chosen one
// and refill its place from the input; once the input ends, drain the buffer the same way.
// The order differs from TF's (TF draws from Philox); the multiset and per-seed determinism match.
class ShuffleIterator : public Iterator {
 public:
  ShuffleIterator(std::unique_ptr<Iterator> input, int64_t buffer_size, uint64_t seed)
      : input_(std::move(input)), buffer_size_(buffer_size), rng_(seed) {}
  Status next(Element* out, bool* end) override {
    while (input_ && (buffer_size_ < 0 || static_cast<int64_t>(buffer_.size()) < buffer_size_)) {
      Element e;
      bool input_end = false;
      Status s = input_->next(&e, &input_end);
      if (!s.ok()) {
        input_.reset();
        buffer_.clear();
        *end = true;
        return s;
      }
      if (input_end) {
        input_.reset();
        break;
      }
      buffer_.push_back(std::move(e));
    }
    *end = buffer_.empty();
    if (*end) return Status::OK();
    std::uniform_int_distribution<size_t> pick(0, buffer_.size() - 1);
    const size_t i = pick(rng_);
    *out = std::move(buffer_[i]);
    buffer_[i] = std::move(buffer_.back());
    buffer_.pop_back();
    return Status::OK();
  }

 private:
  std::unique_ptr<Iterator> input_;
  int64_t buffer_size_;  // -2 (UNKNOWN_CARDINALITY): the whole input
  std::mt19937_64 rng_;
  std::vector<Element> buffer_;
};

uint64_t mix(uint64_t x) {  // splitmix64's finaliser: nearby seeds give unrelated streams
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class ShuffleDataset : public DatasetNode {
 public:
  ShuffleDataset(DatasetPtr input, int64_t buffer_size, uint64_t seed, uint64_t seed2, bool reshuffle)
      : input_(std::move(input)), buffer_size_(buffer_size), seed_(mix(seed ^ mix(seed2))), reshuffle_(reshuffle) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    const uint64_t epoch = reshuffle_ ? iterators_made_.fetch_add(1) : 0;
    return std::make_unique<ShuffleIterator>(input_->make_iterator(), buffer_size_, mix(seed_ + epoch));
  }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "ShuffleDatasetV3"; }

 private:
  DatasetPtr input_;
  int64_t buffer_size_;
  uint64_t seed_;
  bool reshuffle_;
  mutable std::atomic<uint64_t> iterators_made_{0};  // iteration state of the dataset, as TF's seed generator
};

}  // namespace

Status shuffle_dataset(DatasetPtr input, int64_t buffer_size, uint64_t seed, uint64_t seed2,
                       bool reshuffle_each_iteration, DatasetPtr* out) {
  if (buffer_size <= 0 && buffer_size != kUnknown) {
    return errors::InvalidArgument("buffer_size must be greater than zero or UNKNOWN_CARDINALITY");
  }
  *out = std::make_shared<ShuffleDataset>(std::move(input), buffer_size, seed, seed2, reshuffle_each_iteration);
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
