#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "graphfn/core/thread_pool.h"
#include "graphfn/data/datasets.h"
#include "graphfn/kernels/random_streams.h"

namespace graphfn {
namespace data {
namespace {

// Runs fn on an element's components: the result replaces the element. Its random ops draw from
// the calling iterator's streams (random_scope, kernels/random_streams.h).
Status apply(const CompiledFunction& fn, uint64_t random_scope, const Element& in, Element* out) {
  out->clear();
  RandomStreamScope scope(random_scope);
  return fn.call(in.data(), static_cast<int>(in.size()), out);
}

class SequentialMapIterator : public Iterator {
 public:
  SequentialMapIterator(std::unique_ptr<Iterator> input, const CompiledFunction* fn)
      : input_(std::move(input)), fn_(fn) {}
  Status next(Element* out, bool* end) override {
    *end = true;
    if (!input_) return Status::OK();
    Element in;
    Status s = input_->next(&in, end);
    if (!s.ok() || *end) {
      input_.reset();
      *end = true;
      return s;
    }
    // A function error is this element's, as in TF: the next call goes on with the next one.
    s = apply(*fn_, random_scope_, in, out);
    if (!s.ok()) *end = true;
    return s;
  }

 private:
  std::unique_ptr<Iterator> input_;
  const CompiledFunction* fn_;
  const uint64_t random_scope_ = new_random_stream_scope();
};

// Ordered parallel map: worker threads take input elements in order (one at a time, under the
// lock), run the function outside the lock, and the consumer returns results in input order.
// At most 2 * workers elements are in flight, so an infinite input is read only as far as needed.
class ParallelMapIterator : public Iterator {
 public:
  ParallelMapIterator(std::unique_ptr<Iterator> input, const CompiledFunction* fn, int workers)
      : input_(std::move(input)), fn_(fn), max_in_flight_(2 * static_cast<size_t>(workers)) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~ParallelMapIterator() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      cancelled_ = true;
    }
    wake_workers_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  Status next(Element* out, bool* end) override {
    std::unique_lock<std::mutex> lock(mu_);
    wake_workers_.notify_all();
    result_ready_.wait(lock, [&] { return (!slots_.empty() && slots_.front()->done) || (slots_.empty() && input_done_); });
    *end = true;
    if (slots_.empty()) return Status::OK();
    std::shared_ptr<Slot> slot = std::move(slots_.front());
    slots_.pop_front();
    wake_workers_.notify_one();
    if (!slot->status.ok()) return slot->status;  // one element's error (or the input's last word)
    *out = std::move(slot->result);
    *end = false;
    return Status::OK();
  }

 private:
  struct Slot {
    Element input, result;
    Status status;
    bool done = false;
  };

  void work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      wake_workers_.wait(lock, [&] { return cancelled_ || (!input_done_ && slots_.size() < max_in_flight_); });
      if (cancelled_) return;
      auto slot = std::make_shared<Slot>();
      bool input_end = false;
      Status s = input_->next(&slot->input, &input_end);
      if (!s.ok() || input_end) {
        input_done_ = true;
        if (!s.ok()) {
          slot->status = s;
          slot->done = true;
          slots_.push_back(slot);
        }
        result_ready_.notify_all();
        continue;
      }
      slots_.push_back(slot);
      lock.unlock();
      Status r = apply(*fn_, random_scope_, slot->input, &slot->result);
      slot->input.clear();
      lock.lock();
      slot->status = r;
      slot->done = true;
      result_ready_.notify_all();
    }
  }

  std::unique_ptr<Iterator> input_;  // read under mu_
  const CompiledFunction* fn_;
  const uint64_t random_scope_ = new_random_stream_scope();
  const size_t max_in_flight_;
  std::mutex mu_;
  std::condition_variable wake_workers_, result_ready_;
  std::deque<std::shared_ptr<Slot>> slots_;  // in input order
  bool input_done_ = false;
  bool cancelled_ = false;
  std::vector<std::thread> threads_;  // last: started after everything they read exists
};

class MapDataset : public DatasetNode {
 public:
  MapDataset(DatasetPtr input, FunctionPtr fn, int64_t num_parallel_calls)
      : input_(std::move(input)), fn_(std::move(fn)), num_parallel_calls_(num_parallel_calls) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    const int workers = num_parallel_calls_ < 0 ? parallel_threads() : static_cast<int>(num_parallel_calls_);
    if (workers <= 1) return std::make_unique<SequentialMapIterator>(input_->make_iterator(), fn_.get());
    return std::make_unique<ParallelMapIterator>(input_->make_iterator(), fn_.get(), workers);
  }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return num_parallel_calls_ == 0 ? "MapDataset" : "ParallelMapDatasetV2"; }

 private:
  DatasetPtr input_;
  FunctionPtr fn_;
  int64_t num_parallel_calls_;
};

class FilterDataset : public DatasetNode {
 public:
  FilterDataset(DatasetPtr input, FunctionPtr predicate) : input_(std::move(input)), predicate_(std::move(predicate)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<FilterIterator>(input_->make_iterator(), predicate_.get());
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "FilterDataset"; }

 private:
  class FilterIterator : public Iterator {
   public:
    FilterIterator(std::unique_ptr<Iterator> input, const CompiledFunction* predicate)
        : input_(std::move(input)), predicate_(predicate) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      Element keep;
      while (input_) {
        Status s = input_->next(out, end);
        if (s.ok() && !*end) s = apply(*predicate_, random_scope_, *out, &keep);
        if (s.ok() && !*end && (keep.size() != 1 || keep[0].dtype() != DType::kBool || keep[0].num_elements() != 1)) {
          s = errors::InvalidArgument("Filter predicate `f` must return a scalar bool.");
        }
        if (!s.ok() || *end) {
          input_.reset();
          *end = true;
          return s;
        }
        if (*keep[0].data<bool>()) return Status::OK();
      }
      return Status::OK();
    }

   private:
    std::unique_ptr<Iterator> input_;
    const CompiledFunction* predicate_;
    const uint64_t random_scope_ = new_random_stream_scope();
  };

  DatasetPtr input_;
  FunctionPtr predicate_;
};

}  // namespace

DatasetPtr map_dataset(DatasetPtr input, FunctionPtr fn, int64_t num_parallel_calls) {
  return std::make_shared<MapDataset>(std::move(input), std::move(fn), num_parallel_calls);
}

DatasetPtr filter_dataset(DatasetPtr input, FunctionPtr predicate) {
  return std::make_shared<FilterDataset>(std::move(input), std::move(predicate));
}

Status reduce_dataset(const DatasetNode& input, std::vector<Tensor> initial_state, const CompiledFunction& fn,
                      std::vector<Tensor>* final_state) {
  std::vector<Tensor> state = std::move(initial_state);
  const size_t state_size = state.size();
  auto it = input.make_iterator();
  Element element, next_state;
  for (;;) {
    bool end = false;
    GRAPHFN_RETURN_IF_ERROR(it->next(&element, &end));
    if (end) break;
    state.resize(state_size);
    for (Tensor& t : element) state.push_back(std::move(t));
    next_state.clear();
    GRAPHFN_RETURN_IF_ERROR(fn.call(state.data(), static_cast<int>(state.size()), &next_state));
    state.swap(next_state);
  }
  state.resize(state_size);
  *final_state = std::move(state);
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
