#include "harness.h"

#include "../passes/graph_builder.h"
#include "graphfn/ir/shape_value.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// `tf.shape(x)[i]`: StridedSlice(Shape(x), [i], [i + 1], [1]) with shrink_axis_mask = 1.
int shape_element(TestGraph& t, int shape, int i) {
  const AttrMap shrink = attrs_of({{"shrink_axis_mask", int64_t{1}}, {"Index", DType::kInt32}});
  return t.op("StridedSlice", {shape, t.constant(vec<int32_t>({i})), t.constant(vec<int32_t>({i + 1})),
                               t.constant(vec<int32_t>({1}))}, shrink);
}

}  // namespace

TEST_CASE("shape values derive from Shape, Pack, ConcatV2 and constants", "[ir][shape_value]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{-1, 3});
  int shape = t.op("Shape", {x}, attrs_of({{"out_type", DType::kInt32}}));
  CHECK(*partial_shape_value(t.g, {shape, 0}) == Shape{-1, 3});
  int rows = shape_element(t, shape, 0), cols = shape_element(t, shape, 1);
  int two = t.constant(scalar<int32_t>(2)), minus_one = t.constant(scalar<int32_t>(-1));
  int packed = t.op("Pack", {rows, cols, two, minus_one}, attrs_of({{"axis", int64_t{0}}}));
  CHECK(*partial_shape_value(t.g, {packed, 0}) == Shape{-1, 3, 2, -1});
  int axis = t.constant(scalar<int32_t>(0));
  int joined = t.op("ConcatV2", {shape, t.constant(vec<int32_t>({5})), axis});
  CHECK(*partial_shape_value(t.g, {joined, 0}) == Shape{-1, 3, 5});
  // Reshape and Fill take the derived dims as their static output shape.
  CHECK(t.node(t.op("Reshape", {x, shape})).output_shapes[0] == Shape{-1, 3});
  CHECK(t.node(t.op("Fill", {packed, t.constant(scalar<float>(1))})).output_shapes[0] == Shape{-1, 3, 2, -1});
}

TEST_CASE("a fully derived shape value acts as a constant", "[ir][shape_value]") {
  TestGraph t;
  int x = t.placeholder(DType::kFloat32, Shape{2, 3});
  int shape = t.op("Shape", {x}, attrs_of({{"out_type", DType::kInt32}}));
  int rows = shape_element(t, shape, 0);
  int packed = t.op("Pack", {rows, t.constant(scalar<int32_t>(-1))}, attrs_of({{"axis", int64_t{0}}}));
  // [2, -1]: the -1 is inferred from the input's 6 elements.
  CHECK(t.node(t.op("Reshape", {x, packed})).output_shapes[0] == Shape{2, 3});
  int zeros_dims = t.op("Pack", {rows, t.constant(scalar<int32_t>(2))}, attrs_of({{"axis", int64_t{0}}}));
  CHECK(t.node(t.op("Fill", {zeros_dims, t.constant(scalar<float>(0))})).output_shapes[0] == Shape{2, 2});
}

TEST_CASE("shape values stay unknown for other producers and huge vectors", "[ir][shape_value]") {
  TestGraph t;
  int v = t.placeholder(DType::kInt32, Shape{-1}, "v");
  CHECK_FALSE(partial_shape_value(t.g, {v, 0}).has_value());
  int w = t.placeholder(DType::kInt32, Shape{2}, "w");
  CHECK(*partial_shape_value(t.g, {w, 0}) == Shape{-1, -1});
  int long_shape = t.placeholder(DType::kInt32, Shape{1000000000}, "long_shape");
  CHECK_FALSE(partial_shape_value(t.g, {long_shape, 0}).has_value());
  Tensor big(DType::kInt32, Shape{1000});
  for (int i = 0; i < 1000; ++i) big.data<int32_t>()[i] = 1;
  CHECK_FALSE(partial_shape_value(t.g, {t.constant(big), 0}).has_value());
}
