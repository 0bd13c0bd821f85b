// A source whose elements come from the embedding host: Dataset.from_generator, whose Python
// generator the bindings wrap as an Iterator. The host's iterator is made when the first element
// is asked for (TF calls the generator then, not when the iterator is created).
#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {
namespace {

class HostSourceIterator : public Iterator {
 public:
  explicit HostSourceIterator(const HostIteratorOpener* open) : open_(open) {}
  Status next(Element* out, bool* end) override {
    *end = true;
    if (done_) return Status::OK();
    Status s;
    if (!host_) s = (*open_)(&host_);
    if (s.ok()) s = host_->next(out, end);
    if (!s.ok() || *end) {
      done_ = true;
      host_.reset();
    }
    return s;
  }

 private:
  const HostIteratorOpener* open_;  // owned by the dataset, which outlives its iterators
  std::unique_ptr<Iterator> host_;
  bool done_ = false;
};

class HostSourceDataset : public DatasetNode {
 public:
  explicit HostSourceDataset(HostIteratorOpener open) : open_(std::move(open)) {}
  std::unique_ptr<Iterator> make_iterator() const override { return std::make_unique<HostSourceIterator>(&open_); }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "FlatMapDataset"; }

 private:
  HostIteratorOpener open_;
};

}  // namespace

DatasetPtr host_source_dataset(HostIteratorOpener open) { return std::make_shared<HostSourceDataset>(std::move(open)); }

}  // namespace data
}  // namespace graphfn
