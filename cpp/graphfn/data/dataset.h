// The tf.data pipeline runtime: a Dataset is an immutable tree of DatasetNodes; make_iterator()
// builds the matching tree of Iterators, and next() pulls one element (a vector of tensors, the
// flattened structure Python packs back) through it without Python. Several iterators of one
// dataset are independent (each has its own state), so two threads iterating get each the whole
// sequence. One Iterator is used by one thread at a time (the bindings hold a lock per iterator),
// and must not outlive its dataset (the bindings keep the root dataset with the iterator).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"

namespace graphfn {
namespace data {

using Element = std::vector<Tensor>;

// tf.data's cardinality sentinels (tf.data.INFINITE_CARDINALITY, UNKNOWN_CARDINALITY).
constexpr int64_t kInfinite = -1;
constexpr int64_t kUnknown = -2;

class Iterator {
 public:
  virtual ~Iterator() = default;
  // Fills `out` with the next element, or sets *end (and leaves `out` alone) when there is none.
  // After an end or an error, the iterator keeps answering end. `out` may hold the tensors of an
  // earlier element: replace them (never append), or overwrite one in place when its buffer is
  // unshared (use_count 1) and of the element's dtype and shape.
  virtual Status next(Element* out, bool* end) = 0;
};

class DatasetNode {
 public:
  virtual ~DatasetNode() = default;
  virtual std::unique_ptr<Iterator> make_iterator() const = 0;
  // Number of elements, or kInfinite / kUnknown (as tf.data.Dataset.cardinality()).
  virtual int64_t cardinality() const = 0;
  // TF's dataset class name (RangeDataset, BatchDatasetV2, ...), for debugging.
  virtual std::string name() const = 0;
};

using DatasetPtr = std::shared_ptr<const DatasetNode>;

}  // namespace data
}  // namespace graphfn
