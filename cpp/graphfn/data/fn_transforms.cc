// Transformations that call a user function per element and keep the element flow: scan and
// take_while (map and filter are in function_datasets.cc).
#include "graphfn/data/datasets.h"

namespace graphfn {
namespace data {
namespace {

class ScanDataset : public DatasetNode {
 public:
  ScanDataset(DatasetPtr input, std::vector<Tensor> initial_state, FunctionPtr fn)
      : input_(std::move(input)), initial_state_(std::move(initial_state)), fn_(std::move(fn)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<ScanIterator>(this, input_->make_iterator());
  }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "ScanDataset"; }

 private:
  class ScanIterator : public Iterator {
   public:
    ScanIterator(const ScanDataset* d, std::unique_ptr<Iterator> input)
        : d_(d), input_(std::move(input)), state_(d->initial_state_) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      if (!input_) return Status::OK();
      Element element;
      bool input_end = false;
      Status s = input_->next(&element, &input_end);
      if (!s.ok() || input_end) {
        input_.reset();
        return s;
      }
      Element args = state_;
      for (Tensor& t : element) args.push_back(std::move(t));
      Element result;
      s = d_->fn_->call(args.data(), static_cast<int>(args.size()), &result);
      if (!s.ok()) {
        input_.reset();  // the state is lost: the sequence cannot go on
        return s;
      }
      const size_t n = state_.size();
      std::move(result.begin(), result.begin() + static_cast<std::ptrdiff_t>(n), state_.begin());
      out->assign(std::make_move_iterator(result.begin() + static_cast<std::ptrdiff_t>(n)),
                  std::make_move_iterator(result.end()));
      *end = false;
      return Status::OK();
    }

   private:
    const ScanDataset* d_;
    std::unique_ptr<Iterator> input_;
    Element state_;
  };

  DatasetPtr input_;
  Element initial_state_;
  FunctionPtr fn_;
};

class TakeWhileDataset : public DatasetNode {
 public:
  TakeWhileDataset(DatasetPtr input, FunctionPtr predicate) : input_(std::move(input)), predicate_(std::move(predicate)) {}
  std::unique_ptr<Iterator> make_iterator() const override {
    return std::make_unique<TakeWhileIterator>(input_->make_iterator(), predicate_.get());
  }
  int64_t cardinality() const override { return kUnknown; }
  std::string name() const override { return "TakeWhileDataset"; }

 private:
  class TakeWhileIterator : public Iterator {
   public:
    TakeWhileIterator(std::unique_ptr<Iterator> input, const CompiledFunction* predicate)
        : input_(std::move(input)), predicate_(predicate) {}
    Status next(Element* out, bool* end) override {
      *end = true;
      if (!input_) return Status::OK();
      Status s = input_->next(out, end);
      if (!s.ok() || *end) {
        if (*end) input_.reset();
        return s;
      }
      Element keep;
      GRAPHFN_RETURN_IF_ERROR(predicate_->call(out->data(), static_cast<int>(out->size()), &keep));
      if (keep.size() != 1 || keep[0].dtype() != DType::kBool || keep[0].num_elements() != 1) {
        return errors::InvalidArgument("`predicate` must return a scalar boolean tensor.");
      }
      if (!*keep[0].data<bool>()) {
        input_.reset();
        *end = true;
      }
      return Status::OK();
    }

   private:
    std::unique_ptr<Iterator> input_;
    const CompiledFunction* predicate_;
  };

  DatasetPtr input_;
  FunctionPtr predicate_;
};

}  // namespace

DatasetPtr scan_dataset(DatasetPtr input, std::vector<Tensor> initial_state, FunctionPtr fn) {
  return std::make_shared<ScanDataset>(std::move(input), std::move(initial_state), std::move(fn));
}

DatasetPtr take_while_dataset(DatasetPtr input, FunctionPtr predicate) {
  return std::make_shared<TakeWhileDataset>(std::move(input), std::move(predicate));
}

}  // namespace data
}  // namespace graphfn
