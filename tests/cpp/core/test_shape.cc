#include "harness.h"

#include "graphfn/core/shape.h"
#include "graphfn/core/shape_merge.h"

using namespace graphfn;

TEST_CASE("broadcast_shapes follows NumPy rules", "[core][shape]") {
  Shape out;
  REQUIRE(broadcast_shapes(Shape{3, 1}, Shape{4}, &out).ok());
  CHECK(out == Shape({3, 4}));
  REQUIRE(broadcast_shapes(Shape{}, Shape{2, 5}, &out).ok());
  CHECK(out == Shape({2, 5}));
  REQUIRE(broadcast_shapes(Shape{2, 1, 3}, Shape{4, 1}, &out).ok());
  CHECK(out == Shape({2, 4, 3}));
  REQUIRE(broadcast_shapes(Shape{0}, Shape{1}, &out).ok());
  CHECK(out == Shape({0}));
}

TEST_CASE("incompatible shapes give TF's message", "[core][shape]") {
  Shape out;
  Status s = broadcast_shapes(Shape{3}, Shape{2}, &out);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "Incompatible shapes: [3] vs. [2]");
}

TEST_CASE("unknown dims broadcast against known ones", "[core][shape]") {
  Shape out;
  REQUIRE(broadcast_shapes(Shape{-1, 3}, Shape{3}, &out).ok());
  CHECK(out == Shape({-1, 3}));
  CHECK(out.to_string() == "[?,3]");
  REQUIRE(broadcast_shapes(Shape::unknown_rank(), Shape{3}, &out).ok());
  CHECK_FALSE(out.known_rank());
}

TEST_CASE("normalize_axis accepts [-rank, rank) only", "[core][shape]") {
  int axis = 0;
  REQUIRE(normalize_axis(-1, 3, &axis).ok());
  CHECK(axis == 2);
  CHECK_FALSE(normalize_axis(3, 3, &axis).ok());
  CHECK_FALSE(normalize_axis(-4, 3, &axis).ok());
}

TEST_CASE("checked_num_elements rejects hostile shapes", "[core][shape]") {
  int64_t n = 0;
  CHECK(checked_num_elements(Shape{1 << 30, 1 << 30, 1 << 30}, &n).code() == Code::kResourceExhausted);
  CHECK_FALSE(checked_num_elements(Shape{-1, 2}, &n).ok());
  REQUIRE(checked_num_elements(Shape{2, 3}, &n).ok());
  CHECK(n == 6);
}

TEST_CASE("most_specific_common_shape keeps the agreed dims of a common rank", "[core][shape]") {
  CHECK(most_specific_common_shape(Shape{2, 3}, Shape{2, 3}) == Shape({2, 3}));
  const Shape mixed = most_specific_common_shape(Shape{2, 3}, Shape{2, 4});
  REQUIRE(mixed.rank() == 2);
  CHECK(mixed.dim(0) == 2);
  CHECK(mixed.dim(1) == Shape::kUnknownDim);
  CHECK_FALSE(most_specific_common_shape(Shape{2}, Shape{2, 1}).known_rank());
  CHECK_FALSE(most_specific_common_shape(Shape::unknown_rank(), Shape{2}).known_rank());
  CHECK(most_specific_common_shape(Shape(), Shape()) == Shape());
}
