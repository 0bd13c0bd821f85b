#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {
namespace {

// AUTOTUNE's buffer: TF tunes it at run time; a fixed few elements keep the producer ahead of a
// consumer of steady speed.
constexpr int64_t kAutotuneBuffer = 4;

// A producer thread, started by the first next(), keeps up to buffer_size elements ready; the
// consumer takes them in order. The input's end or error is delivered after the elements before it.
class PrefetchIterator : public Iterator {
 public:
  PrefetchIterator(std::unique_ptr<Iterator> input, int64_t buffer_size)
      : input_(std::move(input)), buffer_size_(static_cast<size_t>(buffer_size)) {}
  ~PrefetchIterator() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      cancelled_ = true;
    }
    space_.notify_all();
    if (producer_.joinable()) producer_.join();
  }

  Status next(Element* out, bool* end) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (!producer_.joinable() && !finished_) producer_ = std::thread([this] { produce(); });
    ready_.wait(lock, [&] { return !buffer_.empty() || finished_; });
    *end = true;
    if (buffer_.empty()) {
      Status s = final_status_;
      final_status_ = Status::OK();  // reported once; later calls answer end
      return s;
    }
    *out = std::move(buffer_.front());
    buffer_.pop_front();
    *end = false;
    space_.notify_one();
    return Status::OK();
  }

 private:
  void produce() {
    for (;;) {
      Element e;
      bool end = false;
      Status s = input_->next(&e, &end);  // outside the lock: the consumer keeps taking meanwhile
      std::unique_lock<std::mutex> lock(mu_);
      if (!s.ok() || end) {
        final_status_ = s;
        finished_ = true;
        ready_.notify_all();
        return;
      }
      buffer_.push_back(std::move(e));
      ready_.notify_one();
      space_.wait(lock, [&] { return cancelled_ || buffer_.size() < buffer_size_; });
      if (cancelled_) return;
    }
  }

  std::unique_ptr<Iterator> input_;  // used by the producer thread only
  const size_t buffer_size_;
  std::mutex mu_;
  std::condition_variable ready_, space_;
  std::deque<Element> buffer_;
  Status final_status_;
  bool finished_ = false;
  bool cancelled_ = false;
  std::thread producer_;
};

class PrefetchDataset : public DatasetNode {
 public:
  PrefetchDataset(DatasetPtr input, int64_t buffer_size) : input_(std::move(input)), buffer_size_(buffer_size) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<PrefetchIterator>(input_->make_iterator(), buffer_size_);
  }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "PrefetchDataset"; }

 private:
  DatasetPtr input_;
  int64_t buffer_size_;
};

}  // namespace

Status prefetch_dataset(DatasetPtr input, int64_t buffer_size, DatasetPtr* out) {
  if (buffer_size < -1) return errors::InvalidArgument("buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning");
  if (buffer_size == 0) {  // TF's prefetch(0) passes elements through unbuffered
    *out = std::move(input);
    return Status::OK();
  }
  *out = std::make_shared<PrefetchDataset>(std::move(input), buffer_size < 0 ? kAutotuneBuffer : buffer_size);
  return Status::OK();
}

}  // namespace data
}  // namespace graphfn
