// The tf.data pipeline nodes (cpp/graphfn/data/), Python-free: element order, batching edge
// cases, cardinalities and errors as TF 2.21's tf.data gives them.
#include <algorithm>
#include <thread>

#include "harness.h"

#include "graphfn/core/dataset_resource.h"
#include "graphfn/data/dataset_resource.h"
#include "graphfn/data/datasets.h"

using namespace graphfn;
using namespace graphfn::data;

namespace {

DatasetPtr range_of(int64_t start, int64_t stop, int64_t step = 1) {
  DatasetPtr d;
  REQUIRE(range_dataset(start, stop, step, DType::kInt64, &d).ok());
  return d;
}

// The int64 scalars (or the first component's values) of every element.
std::vector<std::vector<int64_t>> values(const DatasetNode& d) {
  std::vector<Element> elements;
  Status s = collect(d, &elements);
  REQUIRE(s.ok());
  std::vector<std::vector<int64_t>> out;
  for (const Element& e : elements) {
    const Tensor& t = e[0];
    out.emplace_back(t.data<int64_t>(), t.data<int64_t>() + t.num_elements());
  }
  return out;
}

std::vector<int64_t> scalars(const DatasetNode& d) {
  std::vector<int64_t> out;
  for (const auto& v : values(d)) out.push_back(v[0]);
  return out;
}

}  // namespace

TEST_CASE("range: TF's start/stop/step, negative steps, cardinality") {
  CHECK(scalars(*range_of(2, 10, 3)) == std::vector<int64_t>{2, 5, 8});
  CHECK(scalars(*range_of(10, 0, -3)) == std::vector<int64_t>{10, 7, 4, 1});
  CHECK(range_of(10, 0, -3)->cardinality() == 4);
  CHECK(range_of(0, 10, -1)->cardinality() == 0);
  DatasetPtr d;
  Status s = range_dataset(1, 2, 0, DType::kInt64, &d);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "step must be a non-zero integer.");
}

TEST_CASE("tensor slices: rows of every component; mismatched first dimensions fail") {
  DatasetPtr d;
  REQUIRE(tensor_slices_dataset({Tensor::vector<int64_t>({4, 5, 6})}, &d).ok());
  CHECK(scalars(*d) == std::vector<int64_t>{4, 5, 6});
  CHECK(d->cardinality() == 3);
  Status s = tensor_slices_dataset({Tensor::vector<int64_t>({1, 2}), Tensor::vector<int64_t>({1, 2, 3})}, &d);
  CHECK(s.message() == "Dimensions 2 and 3 are not compatible");
  s = tensor_slices_dataset({Tensor::scalar<int64_t>(5)}, &d);
  CHECK(s.message() == "Unbatching a tensor is only supported for rank >= 1");
}

TEST_CASE("batch: remainder kept or dropped, cardinality, bad sizes") {
  DatasetPtr b;
  REQUIRE(batch_dataset(range_of(0, 10), 3, false, &b).ok());
  CHECK(values(*b) == std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}});
  CHECK(b->cardinality() == 4);
  REQUIRE(batch_dataset(range_of(0, 10), 3, true, &b).ok());
  CHECK(values(*b).size() == 3);
  CHECK(b->cardinality() == 3);
  CHECK(batch_dataset(range_of(0, 10), 0, false, &b).message() == "Batch size must be greater than zero.");
  REQUIRE(batch_dataset(repeat_dataset(range_of(0, 3), -1), 2, false, &b).ok());
  CHECK(b->cardinality() == kInfinite);
}

TEST_CASE("padded_batch pads to the longest element; unbatch splits rows again") {
  DatasetPtr rows;
  // Elements [1], [2, 2], [3, 3, 3] as TF's range(1, 4).map(lambda x: tf.fill([x], x)).
  std::vector<Tensor> parts = {Tensor::vector<int64_t>({1}), Tensor::vector<int64_t>({2, 2}),
                               Tensor::vector<int64_t>({3, 3, 3})};
  DatasetPtr c1 = tensor_dataset({parts[0]}), c2 = tensor_dataset({parts[1]}), c3 = tensor_dataset({parts[2]});
  DatasetPtr all = concatenate_dataset(concatenate_dataset(c1, c2), c3);
  DatasetPtr padded;
  REQUIRE(padded_batch_dataset(all, 2, false, {Shape{-1}}, {Tensor::scalar<int64_t>(0)}, &padded).ok());
  CHECK(values(*padded) == std::vector<std::vector<int64_t>>{{1, 0, 2, 2}, {3, 3, 3}});
  REQUIRE(padded_batch_dataset(all, 2, false, {Shape{4}}, {Tensor::scalar<int64_t>(-1)}, &padded).ok());
  CHECK(values(*padded) == std::vector<std::vector<int64_t>>{{1, -1, -1, -1, 2, 2, -1, -1}, {3, 3, 3, -1}});
  REQUIRE(padded_batch_dataset(all, 2, false, {Shape{2}}, {Tensor::scalar<int64_t>(0)}, &padded).ok());
  std::vector<Element> out;
  Status too_small = collect(*padded, &out);
  CHECK(too_small.code() == Code::kDataLoss);
  CHECK(too_small.message() == "Attempted to pad to a smaller size than the input element.");
  // Plain batch of different shapes fails as TF's.
  DatasetPtr b;
  REQUIRE(batch_dataset(all, 2, false, &b).ok());
  CHECK(collect(*b, &out).message() ==
        "Cannot add tensor to the batch: number of elements does not match. Shapes are: [tensor]: [1], [batch]: [2]");
  DatasetPtr batched;
  REQUIRE(batch_dataset(range_of(0, 10), 4, false, &batched).ok());
  DatasetPtr un = unbatch_dataset(batched);
  CHECK(scalars(*un) == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(un->cardinality() == kUnknown);
}

TEST_CASE("repeat, take, skip, zip, concatenate: order and TF's cardinalities") {
  CHECK(scalars(*repeat_dataset(range_of(0, 3), 2)) == std::vector<int64_t>{0, 1, 2, 0, 1, 2});
  CHECK(scalars(*repeat_dataset(range_of(0, 3), 0)).empty());
  CHECK(repeat_dataset(range_of(0, 10), 3)->cardinality() == 30);
  CHECK(repeat_dataset(range_of(0, 10), -1)->cardinality() == kInfinite);
  CHECK(scalars(*repeat_dataset(range_of(0, 0), -1)).empty());  // an empty epoch ends it
  CHECK(scalars(*take_dataset(range_of(0, 3), 10)) == std::vector<int64_t>{0, 1, 2});
  CHECK(take_dataset(repeat_dataset(range_of(0, 10), -1), 5)->cardinality() == 5);
  CHECK(take_dataset(range_of(0, 10), -1)->cardinality() == 10);
  CHECK(scalars(*skip_dataset(range_of(0, 5), 3)) == std::vector<int64_t>{3, 4});
  CHECK(skip_dataset(range_of(0, 10), 30)->cardinality() == 0);
  CHECK(skip_dataset(range_of(0, 10), -1)->cardinality() == 0);
  CHECK(scalars(*skip_dataset(range_of(0, 10), -1)).empty());
  CHECK(skip_dataset(repeat_dataset(range_of(0, 10), -1), 5)->cardinality() == kInfinite);
  DatasetPtr z = zip_dataset({range_of(0, 3), range_of(5, 10)});
  CHECK(z->cardinality() == 3);
  std::vector<Element> pairs;
  REQUIRE(collect(*z, &pairs).ok());
  REQUIRE(pairs.size() == 3);
  CHECK(*pairs[2][1].data<int64_t>() == 7);
  CHECK(concatenate_dataset(range_of(0, 3), range_of(0, 4))->cardinality() == 7);
  CHECK(scalars(*concatenate_dataset(range_of(0, 2), range_of(7, 9))) == std::vector<int64_t>{0, 1, 7, 8});
}

TEST_CASE("shuffle: same multiset, deterministic per seed, reshuffled per iteration") {
  DatasetPtr s1, s2, fixed;
  REQUIRE(shuffle_dataset(range_of(0, 100), 10, 1, 2, true, &s1).ok());
  REQUIRE(shuffle_dataset(range_of(0, 100), 10, 1, 2, true, &s2).ok());
  std::vector<int64_t> a = scalars(*s1), b = scalars(*s2), again = scalars(*s1);
  CHECK(a == b);       // same seed, first iteration
  CHECK(a != again);   // reshuffle_each_iteration
  std::vector<int64_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == scalars(*range_of(0, 100)));
  CHECK(a != scalars(*range_of(0, 100)));
  REQUIRE(shuffle_dataset(range_of(0, 100), 10, 1, 2, false, &fixed).ok());
  CHECK(scalars(*fixed) == scalars(*fixed));
  CHECK(shuffle_dataset(range_of(0, 3), 0, 1, 2, true, &fixed).message() ==
        "buffer_size must be greater than zero or UNKNOWN_CARDINALITY");
}

TEST_CASE("prefetch: same elements in order from a background thread; early destruction joins it") {
  DatasetPtr p;
  REQUIRE(prefetch_dataset(range_of(0, 1000), 3, &p).ok());
  CHECK(scalars(*p) == scalars(*range_of(0, 1000)));
  CHECK(p->cardinality() == 1000);
  {
    auto it = p->make_iterator();
    Element e;
    bool end = false;
    REQUIRE(it->next(&e, &end).ok());
  }  // destroyed with the producer blocked on a full buffer
  DatasetPtr infinite;
  REQUIRE(prefetch_dataset(repeat_dataset(range_of(0, 3), -1), -1, &infinite).ok());
  CHECK(scalars(*take_dataset(infinite, 7)) == std::vector<int64_t>{0, 1, 2, 0, 1, 2, 0});
}

TEST_CASE("two threads iterating one dataset get each the whole sequence") {
  DatasetPtr p;
  REQUIRE(prefetch_dataset(range_of(0, 5000), 8, &p).ok());
  std::vector<int64_t> first, second;
  std::thread t1([&] { first = scalars(*p); });
  std::thread t2([&] { second = scalars(*p); });
  t1.join();
  t2.join();
  CHECK(first == scalars(*range_of(0, 5000)));
  CHECK(second == first);
}

TEST_CASE("a dataset as a resource tensor: iterators peek with has_next and end with OutOfRange") {
  Tensor handle = dataset_resource_tensor(range_of(0, 2));
  auto dataset = std::dynamic_pointer_cast<DatasetResource>(*handle.data<ResourceHandle>());
  REQUIRE(dataset);
  auto it = dataset->make_element_iterator();
  bool has = false;
  std::vector<Tensor> e;
  REQUIRE(it->has_next(&has).ok());
  CHECK(has);
  REQUIRE(it->has_next(&has).ok());  // a second peek keeps the same element
  REQUIRE(it->get_next(&e).ok());
  CHECK(*e[0].data<int64_t>() == 0);
  REQUIRE(it->get_next(&e).ok());  // without a peek
  CHECK(*e[0].data<int64_t>() == 1);
  REQUIRE(it->has_next(&has).ok());
  CHECK_FALSE(has);
  Status s = it->get_next(&e);
  CHECK(s.code() == Code::kOutOfRange);
  CHECK(s.message() == "End of sequence");
  auto fresh = dataset->make_element_iterator();  // a new iterator starts over
  REQUIRE(fresh->get_next(&e).ok());
  CHECK(*e[0].data<int64_t>() == 0);
}

namespace {

// A compiled function of one int64 scalar: `op`(x, c) (Mul, AddV2, Greater, ...).
FunctionPtr binary_with_constant(const std::string& op, int64_t c) {
  auto graph = std::make_shared<Graph>();
  int x = 0, k = 0, out = 0;
  REQUIRE(graph->add_placeholder(DType::kInt64, Shape{}, "x", &x).ok());
  graph->arguments.push_back(x);
  REQUIRE(graph->add_const(Tensor::scalar<int64_t>(c), "c", &k).ok());
  REQUIRE(graph->add_node(op, "out", {Endpoint{x, 0}, Endpoint{k, 0}}, AttrMap(), &out).ok());
  graph->results = {Endpoint{out, 0}};
  std::shared_ptr<const CompiledFunction> fn;
  REQUIRE(CompiledFunction::create(graph, "f", OptimizerOptions(), &fn).ok());
  return fn;
}

}  // namespace

TEST_CASE("map (sequential and on worker threads) keeps input order; filter; reduce") {
  FunctionPtr times3 = binary_with_constant("Mul", 3);
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 2000; ++i) expected.push_back(3 * i);
  CHECK(scalars(*map_dataset(range_of(0, 2000), times3, 0)) == expected);
  CHECK(scalars(*map_dataset(range_of(0, 2000), times3, 3)) == expected);
  CHECK(scalars(*map_dataset(range_of(0, 2000), times3, -1)) == expected);
  CHECK(map_dataset(range_of(0, 2000), times3, 2)->cardinality() == 2000);
  // An infinite input is read only as far as needed, and the workers stop with the iterator.
  CHECK(scalars(*take_dataset(map_dataset(repeat_dataset(range_of(0, 2), -1), times3, 2), 3)) ==
        std::vector<int64_t>{0, 3, 0});
  FunctionPtr over4 = binary_with_constant("Greater", 4);
  DatasetPtr big = filter_dataset(range_of(0, 8), over4);
  CHECK(scalars(*big) == std::vector<int64_t>{5, 6, 7});
  CHECK(big->cardinality() == kUnknown);
  FunctionPtr add = [] {
    auto graph = std::make_shared<Graph>();
    int s = 0, x = 0, out = 0;
    REQUIRE(graph->add_placeholder(DType::kInt64, Shape{}, "s", &s).ok());
    REQUIRE(graph->add_placeholder(DType::kInt64, Shape{}, "x", &x).ok());
    graph->arguments = {s, x};
    REQUIRE(graph->add_node("AddV2", "out", {Endpoint{s, 0}, Endpoint{x, 0}}, AttrMap(), &out).ok());
    graph->results = {Endpoint{out, 0}};
    std::shared_ptr<const CompiledFunction> fn;
    REQUIRE(CompiledFunction::create(graph, "add", OptimizerOptions(), &fn).ok());
    return fn;
  }();
  std::vector<Tensor> state;
  REQUIRE(reduce_dataset(*range_of(0, 5), {Tensor::scalar<int64_t>(0)}, *add, &state).ok());
  CHECK(*state[0].data<int64_t>() == 10);
  // A predicate that does not return a bool fails the iteration.
  std::vector<Element> out;
  CHECK(collect(*filter_dataset(range_of(0, 3), times3), &out).message() ==
        "Filter predicate `f` must return a scalar bool.");
}
