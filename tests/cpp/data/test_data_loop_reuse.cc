// What makes `for x in dataset` in a function allocate nothing per element: range overwrites an
// earlier element's scalar in place when nothing else holds it (Iterator::next's contract), and
// the iterator resource swaps elements into a kernel's output slots, taking the slots' old
// tensors back for the source to overwrite.
#include "harness.h"

#include "graphfn/core/dataset_resource.h"
#include "graphfn/core/resource.h"
#include "graphfn/data/dataset_resource.h"
#include "graphfn/data/datasets.h"

using namespace graphfn;
using namespace graphfn::data;

namespace {

DatasetPtr range_to(int64_t stop, DType dtype = DType::kInt64) {
  DatasetPtr d;
  REQUIRE(range_dataset(0, stop, 1, dtype, &d).ok());
  return d;
}

std::shared_ptr<ElementIteratorResource> iterator_of(const DatasetPtr& d) {
  Tensor handle = dataset_resource_tensor(d);
  auto dataset = std::dynamic_pointer_cast<DatasetResource>(*handle.data<ResourceHandle>());
  REQUIRE(dataset);
  return dataset->make_element_iterator();
}

}  // namespace

TEST_CASE("range overwrites an unshared scalar of the earlier element in place") {
  auto it = range_to(3)->make_iterator();
  Element e;
  bool end = false;
  REQUIRE(it->next(&e, &end).ok());
  const void* first = e[0].raw_data();
  REQUIRE(it->next(&e, &end).ok());
  CHECK(e[0].raw_data() == first);
  CHECK(*e[0].data<int64_t>() == 1);
}

TEST_CASE("range never overwrites a scalar someone else holds, nor one of another dtype") {
  auto it = range_to(3)->make_iterator();
  Element e;
  bool end = false;
  REQUIRE(it->next(&e, &end).ok());
  Tensor kept = e[0];  // shared now
  REQUIRE(it->next(&e, &end).ok());
  CHECK(*kept.data<int64_t>() == 0);
  CHECK(*e[0].data<int64_t>() == 1);
  e = {Tensor::scalar<int32_t>(7), Tensor::scalar<int32_t>(8)};  // replaced, never appended to
  REQUIRE(it->next(&e, &end).ok());
  REQUIRE(e.size() == 1);
  CHECK(e[0].dtype() == DType::kInt64);
  CHECK(*e[0].data<int64_t>() == 2);
}

TEST_CASE("take_next swaps the element into the output slots and checks it") {
  auto it = iterator_of(range_to(3));
  Tensor slot;
  REQUIRE(it->take_next({DType::kInt64}, &slot, 1).ok());
  CHECK(*slot.data<int64_t>() == 0);
  const void* first = slot.raw_data();
  REQUIRE(it->take_next({DType::kInt64}, &slot, 1).ok());  // made while the slot held element 0
  CHECK(*slot.data<int64_t>() == 1);
  REQUIRE(it->take_next({DType::kInt64}, &slot, 1).ok());
  CHECK(*slot.data<int64_t>() == 2);
  CHECK(slot.raw_data() == first);  // element 0's scalar went back to the iterator and was overwritten
  Status s = it->take_next({DType::kInt64}, &slot, 1);
  CHECK(s.code() == Code::kOutOfRange);
  CHECK(s.message() == "End of sequence");

  auto other = iterator_of(range_to(2));
  s = other->take_next({DType::kInt32}, &slot, 1);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "Component 0 of the dataset's element is int64, expected int32");
  Tensor two[2];
  s = other->take_next({DType::kInt64, DType::kInt64}, two, 2);
  CHECK(s.message() == "The dataset's elements have 1 components, expected 2");
}
