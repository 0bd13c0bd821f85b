#include "graphfn/data/nested_datasets.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "graphfn/core/thread_pool.h"
#include "graphfn/data/dataset_resource.h"

namespace graphfn {
namespace data {
namespace {

// A dataset made for one input element, with its iterator (which must not outlive it).
struct OpenDataset {
  DatasetPtr dataset;
  std::unique_ptr<Iterator> iterator;
  Status open(const DatasetFunction& fn, const Element& element) {
    GRAPHFN_RETURN_IF_ERROR(fn.call(element, &dataset));
    iterator = dataset->make_iterator();
    return Status::OK();
  }
  explicit operator bool() const { return iterator != nullptr; }
  void close() {
    iterator.reset();
    dataset.reset();
  }
};

class FlatMapDataset : public DatasetNode {
 public:
  FlatMapDataset(DatasetPtr input, DatasetFunction fn) : input_(std::move(input)), fn_(std::move(fn)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<FlatMapIterator>(input_->make_iterator(), &fn_);
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "FlatMapDataset"; }

 private:
  class FlatMapIterator : public Iterator {
   public:
    FlatMapIterator(std::unique_ptr<Iterator> input, const DatasetFunction* fn) : input_(std::move(input)), fn_(fn) {}
    Status next(Element* out, bool* end) override {
      for (;;) {
        if (current_) {
          Status s = current_.iterator->next(out, end);
          if (!s.ok() || !*end) return s;  // an inner error is one element's: the next call goes on
          current_.close();
        }
        *end = true;
        if (!input_) return Status::OK();
        Element element;
        bool input_end = false;
        Status s = input_->next(&element, &input_end);
        if (!s.ok() || input_end) {
          if (input_end) input_.reset();
          return s;
        }
        GRAPHFN_RETURN_IF_ERROR(current_.open(*fn_, element));
      }
    }

   private:
    std::unique_ptr<Iterator> input_;
    const DatasetFunction* fn_;
    OpenDataset current_;
  };

  DatasetPtr input_;
  DatasetFunction fn_;
};

// The cycle both interleaves walk: position and block bookkeeping, as TF's InterleaveDataset.
struct Cycle {
  int64_t length, block_length;
  int64_t index = 0, in_block = 0;
  void element_taken() {
    if (++in_block == block_length) next_position();
  }
  void next_position() {
    in_block = 0;
    index = (index + 1) % length;
  }
};

class InterleaveIterator : public Iterator {
 public:
  InterleaveIterator(std::unique_ptr<Iterator> input, const DatasetFunction* fn, int64_t cycle_length,
                     int64_t block_length)
      : input_(std::move(input)), fn_(fn), cycle_{cycle_length, block_length}, open_(static_cast<size_t>(cycle_length)) {}

  Status next(Element* out, bool* end) override {
    while (input_ || open_count_ > 0) {
      OpenDataset& slot = open_[static_cast<size_t>(cycle_.index)];
      if (slot) {
        Status s = slot.iterator->next(out, end);
        if (!s.ok()) return s;
        if (!*end) {
          cycle_.element_taken();
          return Status::OK();
        }
        slot.close();
        --open_count_;
        cycle_.next_position();
      } else if (input_) {
        Element element;
        bool input_end = false;
        Status s = input_->next(&element, &input_end);
        if (!s.ok()) return s;
        if (input_end) {
          input_.reset();
          continue;
        }
        GRAPHFN_RETURN_IF_ERROR(slot.open(*fn_, element));
        ++open_count_;
      } else {
        cycle_.next_position();
      }
    }
    *end = true;
    return Status::OK();
  }

 private:
  std::unique_ptr<Iterator> input_;
  const DatasetFunction* fn_;
  Cycle cycle_;
  std::vector<OpenDataset> open_;
  int64_t open_count_ = 0;
};

// Parallel interleave: one worker thread per cycle position builds the position's dataset and
// reads it ahead into a small buffer; the consumer walks the cycle exactly as InterleaveIterator
// does, so the order is the sequential one. Input elements are read by the consumer, in order.
// At most num_parallel_calls workers compute at once.
class ParallelInterleaveIterator : public Iterator {
 public:
  ParallelInterleaveIterator(std::unique_ptr<Iterator> input, const DatasetFunction* fn, int64_t cycle_length,
                             int64_t block_length, int64_t parallel)
      : input_(std::move(input)),
        fn_(fn),
        cycle_{cycle_length, block_length},
        buffer_limit_(static_cast<size_t>(std::max<int64_t>(2, std::min<int64_t>(block_length, 64)))),
        free_calls_(parallel),
        slots_(static_cast<size_t>(cycle_length)) {
    for (size_t i = 0; i < slots_.size(); ++i) threads_.emplace_back([this, i] { work(&slots_[i]); });
  }
  ~ParallelInterleaveIterator() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      cancelled_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  Status next(Element* out, bool* end) override {
    std::unique_lock<std::mutex> lock(mu_);
    while (input_ || open_count_ > 0) {
      Slot& slot = slots_[static_cast<size_t>(cycle_.index)];
      if (slot.open) {
        changed_.wait(lock, [&] { return !slot.buffer.empty() || slot.finished; });
        if (!slot.buffer.empty()) {
          Produced item = std::move(slot.buffer.front());
          slot.buffer.pop_front();
          changed_.notify_all();
          if (!item.status.ok()) return item.status;  // one element's error: the next call goes on
          *out = std::move(item.element);
          *end = false;
          cycle_.element_taken();
          return Status::OK();
        }
        slot.open = slot.finished = false;
        --open_count_;
        cycle_.next_position();
      } else if (input_) {
        Element element;
        bool input_end = false;
        Status s = input_->next(&element, &input_end);
        if (!s.ok()) return s;
        if (input_end) {
          input_.reset();
          continue;
        }
        slot.job = std::move(element);
        slot.open = slot.has_job = true;
        ++open_count_;
        changed_.notify_all();
      } else {
        cycle_.next_position();
      }
    }
    *end = true;
    return Status::OK();
  }

 private:
  struct Produced {
    Element element;
    Status status;
  };
  struct Slot {
    Element job;
    bool has_job = false;   // job waits for the worker
    bool open = false;      // the consumer counts this position as an open dataset
    bool finished = false;  // the worker has put everything it will produce in buffer
    std::deque<Produced> buffer;
  };

  // Takes a compute turn (num_parallel_calls of them), runs `f` without the lock, gives it back.
  template <typename F>
  Status compute(std::unique_lock<std::mutex>& lock, F f) {
    changed_.wait(lock, [&] { return cancelled_ || free_calls_ > 0; });
    if (cancelled_) return errors::Internal("Iterator was cancelled");
    --free_calls_;
    lock.unlock();
    Status s = f();
    lock.lock();
    ++free_calls_;
    changed_.notify_all();
    return s;
  }

  void work(Slot* slot) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      changed_.wait(lock, [&] { return cancelled_ || slot->has_job; });
      if (cancelled_) return;
      Element job = std::move(slot->job);
      slot->has_job = false;
      OpenDataset open;
      Status s = compute(lock, [&] { return open.open(*fn_, job); });
      if (cancelled_) return;
      if (!s.ok()) slot->buffer.push_back({{}, s});
      while (s.ok()) {
        changed_.wait(lock, [&] { return cancelled_ || slot->buffer.size() < buffer_limit_; });
        if (cancelled_) return;
        Produced item;
        bool end = false;
        Status r = compute(lock, [&] { return open.iterator->next(&item.element, &end); });
        if (cancelled_) return;
        if (r.ok() && end) break;
        item.status = r;
        slot->buffer.push_back(std::move(item));
        changed_.notify_all();
      }
      lock.unlock();
      open.close();
      lock.lock();
      slot->finished = true;
      changed_.notify_all();
    }
  }

  std::unique_ptr<Iterator> input_;
  const DatasetFunction* fn_;
  Cycle cycle_;
  const size_t buffer_limit_;
  int64_t open_count_ = 0;
  std::mutex mu_;
  std::condition_variable changed_;  // any change of a slot, of free_calls_ or of cancelled_
  int64_t free_calls_;
  bool cancelled_ = false;
  std::vector<Slot> slots_;
  std::vector<std::thread> threads_;  // last: started after everything they read exists
};

class InterleaveDataset : public DatasetNode {
 public:
  InterleaveDataset(DatasetPtr input, DatasetFunction fn, int64_t cycle_length, int64_t block_length,
                    int64_t parallel)
      : input_(std::move(input)), fn_(std::move(fn)), cycle_length_(cycle_length), block_length_(block_length),
        parallel_(parallel) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    const int64_t cycle = cycle_length_ < 0 ? parallel_threads() : cycle_length_;
    if (parallel_ == 0) {
      return std::make_unique<InterleaveIterator>(input_->make_iterator(), &fn_, cycle, block_length_);
    }
    const int64_t calls = parallel_ < 0 ? cycle : std::min(parallel_, cycle);
    return std::make_unique<ParallelInterleaveIterator>(input_->make_iterator(), &fn_, cycle, block_length_, calls);
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return parallel_ == 0 ? "InterleaveDataset" : "ParallelInterleaveDatasetV4"; }

 private:
  DatasetPtr input_;
  DatasetFunction fn_;
  int64_t cycle_length_, block_length_, parallel_;
};

class WindowDataset : public DatasetNode {
 public:
  WindowDataset(DatasetPtr input, int64_t size, int64_t shift, int64_t stride, bool drop_remainder)
      : input_(std::move(input)), size_(size), shift_(shift), stride_(stride), drop_remainder_(drop_remainder) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<WindowIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    if (drop_remainder_) {
      const int64_t rest = n - span();
      return rest < 0 ? 0 : rest / shift_ + 1;
    }
    return n / shift_ + (n % shift_ == 0 ? 0 : 1);
  }
  std::string name() const override { return "WindowDataset"; }

 private:
  // How many input elements one full window spans.
  int64_t span() const { return (size_ - 1) * stride_ + 1; }

  class WindowIterator : public Iterator {
   public:
    WindowIterator(const WindowDataset* d, std::unique_ptr<Iterator> input) : d_(d), input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      const size_t span = static_cast<size_t>(d_->span());
      while (input_ && buffer_.size() < span) {
        Element e;
        bool input_end = false;
        Status s = input_->next(&e, &input_end);
        if (!s.ok()) return s;
        if (input_end) {
          input_.reset();
          break;
        }
        buffer_.push_back(std::move(e));
      }
      if (buffer_.empty() || (d_->drop_remainder_ && buffer_.size() < span)) {
        buffer_.clear();
        return Status::OK();
      }
      const size_t stride = static_cast<size_t>(d_->stride_);
      const size_t components = buffer_.front().size();
      std::vector<std::vector<Element>> columns(components);
      for (size_t i = 0; i < buffer_.size(); i += stride) {
        for (size_t c = 0; c < components; ++c) columns[c].push_back(Element{buffer_[i][c]});
      }
      out->clear();
      for (auto& column : columns) out->push_back(dataset_resource_tensor(element_list_dataset(std::move(column))));
      *end = false;
      // Drop `shift` elements: those buffered, then more from the input.
      const size_t shift = static_cast<size_t>(d_->shift_);
      if (shift < buffer_.size()) {
        buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(shift));
        return Status::OK();
      }
      for (size_t skipped = buffer_.size(); input_ && skipped < shift; ++skipped) {
        Element e;
        bool input_end = false;
        Status s = input_->next(&e, &input_end);
        if (!s.ok()) return s;
        if (input_end) input_.reset();
      }
      buffer_.clear();
      return Status::OK();
    }

   private:
    const WindowDataset* d_;
    std::unique_ptr<Iterator> input_;
    std::deque<Element> buffer_;
  };

  DatasetPtr input_;
  int64_t size_, shift_, stride_;
  bool drop_remainder_;
};

Status scalar_int64_result(const CompiledFunction& fn, const Element& args, const char* what, int64_t* out) {
  Element result;
  GRAPHFN_RETURN_IF_ERROR(fn.call(args.data(), static_cast<int>(args.size()), &result));
  if (result.size() != 1 || result[0].dtype() != DType::kInt64 || result[0].num_elements() != 1) {
    return errors::InvalidArgument("`", what, "` must return a scalar int64.");
  }
  *out = *result[0].data<int64_t>();
  return Status::OK();
}

class GroupByWindowDataset : public DatasetNode {
 public:
  GroupByWindowDataset(DatasetPtr input, FunctionPtr key_fn, DatasetFunction reduce_fn, int64_t window_size,
                       FunctionPtr window_size_fn)
      : input_(std::move(input)), key_fn_(std::move(key_fn)), reduce_fn_(std::move(reduce_fn)),
        window_size_(window_size), window_size_fn_(std::move(window_size_fn)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<GroupIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "GroupByWindowDataset"; }

 private:
  class GroupIterator : public Iterator {
   public:
    GroupIterator(const GroupByWindowDataset* d, std::unique_ptr<Iterator> input) : d_(d), input_(std::move(input)) {}
    Status next(Element* out, bool* end) override {
      for (;;) {
        if (current_) {
          Status s = current_.iterator->next(out, end);
          if (!s.ok() || !*end) return s;
          current_.close();
        }
        *end = true;
        if (!input_) {
          if (groups_.empty()) return Status::OK();
          auto first = groups_.begin();
          GRAPHFN_RETURN_IF_ERROR(reduce(first->first, std::move(first->second.elements)));
          groups_.erase(first);
          continue;
        }
        Element element;
        bool input_end = false;
        GRAPHFN_RETURN_IF_ERROR(input_->next(&element, &input_end));
        if (input_end) {
          input_.reset();
          continue;
        }
        int64_t key = 0;
        GRAPHFN_RETURN_IF_ERROR(scalar_int64_result(*d_->key_fn_, element, "key_func", &key));
        Group& group = groups_[key];
        if (group.size == 0) {
          group.size = d_->window_size_;
          if (d_->window_size_fn_) {
            Tensor key_tensor(DType::kInt64, Shape());
            *key_tensor.data<int64_t>() = key;
            Status s = scalar_int64_result(*d_->window_size_fn_, Element{key_tensor}, "window_size_func", &group.size);
            if (s.ok() && group.size <= 0) {
              s = errors::InvalidArgument("Window size must be greater than zero, but got ", group.size, ".");
            }
            if (!s.ok()) {
              groups_.erase(key);
              return s;
            }
          }
        }
        group.elements.push_back(std::move(element));
        if (static_cast<int64_t>(group.elements.size()) >= group.size) {
          std::vector<Element> full = std::move(group.elements);
          groups_.erase(key);
          GRAPHFN_RETURN_IF_ERROR(reduce(key, std::move(full)));
        }
      }
    }

   private:
    struct Group {
      int64_t size = 0;
      std::vector<Element> elements;
    };
    Status reduce(int64_t key, std::vector<Element> elements) {
      Tensor key_tensor(DType::kInt64, Shape());
      *key_tensor.data<int64_t>() = key;
      Element args{key_tensor, dataset_resource_tensor(element_list_dataset(std::move(elements)))};
      return current_.open(d_->reduce_fn_, args);
    }

    const GroupByWindowDataset* d_;
    std::unique_ptr<Iterator> input_;
    std::map<int64_t, Group> groups_;  // ordered: partial groups are reduced in key order at the end
    OpenDataset current_;
  };

  DatasetPtr input_;
  FunctionPtr key_fn_;
  DatasetFunction reduce_fn_;
  int64_t window_size_;
  FunctionPtr window_size_fn_;
};

}  // namespace

DatasetPtr flat_map_dataset(DatasetPtr input, DatasetFunction fn) {
  return std::make_shared<FlatMapDataset>(std::move(input), std::move(fn));
}

Status interleave_dataset(DatasetPtr input, DatasetFunction fn, int64_t cycle_length, int64_t block_length,
                          int64_t num_parallel_calls, DatasetPtr* out) {
  if (cycle_length == 0 || cycle_length < -1) return errors::InvalidArgument("cycle_length must be greater than zero.");
  if (block_length <= 0) return errors::InvalidArgument("block_length must be greater than zero.");
  if (num_parallel_calls < -1) {
    return errors::InvalidArgument("num_parallel_calls must be greater than zero.");
  }
  if (num_parallel_calls > 0 && cycle_length > 0 && num_parallel_calls > cycle_length) {
    return errors::InvalidArgument(
        "If `cycle_length` is set to a fixed value, `num_parallel_calls` must be either `tf.data.AUTOTUNE` or a value "
        "less than or equal to `cycle_length`. However, `num_parallel_calls` is ",
        num_parallel_calls, " and `cycle_length` is ", cycle_length);
  }
  *out = std::make_shared<InterleaveDataset>(std::move(input), std::move(fn), cycle_length, block_length,
                                             num_parallel_calls);
  return Status::OK();
}

Status window_dataset(DatasetPtr input, int64_t size, int64_t shift, int64_t stride, bool drop_remainder,
                      DatasetPtr* out) {
  if (size <= 0) return errors::InvalidArgument("Window size must be greater than zero.");
  if (shift <= 0) return errors::InvalidArgument("Window shift must be greater than zero.");
  if (stride <= 0) return errors::InvalidArgument("Window stride must be greater than zero.");
  *out = std::make_shared<WindowDataset>(std::move(input), size, shift, stride, drop_remainder);
  return Status::OK();
}

DatasetPtr group_by_window_dataset(DatasetPtr input, FunctionPtr key_fn, DatasetFunction reduce_fn,
                                   int64_t window_size, FunctionPtr window_size_fn) {
  return std::make_shared<GroupByWindowDataset>(std::move(input), std::move(key_fn), std::move(reduce_fn), window_size,
                                                std::move(window_size_fn));
}

}  // namespace data
}  // namespace graphfn
