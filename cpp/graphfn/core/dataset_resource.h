// How graph kernels reach tf.data pipelines. The pipeline runtime (cpp/graphfn/data/) sits above
// the kernels, so the kernels see a dataset and an iterator through these two resource
// interfaces, which the data layer implements (data/dataset_resource.cc). A dataset is a scalar
// resource tensor in a graph (TF's dataset variant); an iterator is one too.
#pragma once
#include <memory>
#include <vector>

#include "graphfn/core/resource.h"

namespace graphfn {

class ElementIteratorResource : public Resource {
 public:
  // Whether an element follows; fetches and keeps it for get_next (a peek).
  virtual Status has_next(bool* out) = 0;
  // The next element's components; OutOfRange "End of sequence" after the last.
  virtual Status get_next(std::vector<Tensor>* out) = 0;
  // get_next straight into a kernel's `n` output slots, the element checked against `types`:
  // the element's tensors are swapped in, and what the slots held (the previous element, when a
  // loop left it there unshared) goes back to the iterator, for a source to overwrite in place
  // (a loop over scalars then allocates nothing per element).
  virtual Status take_next(const std::vector<DType>& types, Tensor* outputs, int n) = 0;
};

class DatasetResource : public Resource {
 public:
  virtual std::shared_ptr<ElementIteratorResource> make_element_iterator() const = 0;
};

}  // namespace graphfn
