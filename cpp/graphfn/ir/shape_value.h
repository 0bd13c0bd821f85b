// The value of a shape tensor as far as graph building can tell (TF's constant_value_as_shape):
// `tf.reshape(x, tf.shape(x))` or `tf.zeros([tf.shape(x)[0], 2])` get static output shapes from
// the ops that built the shape vector, though its value is only known at run time.
#pragma once
#include <optional>

#include "graphfn/core/shape.h"
#include "graphfn/ir/graph.h"

namespace graphfn {

// The partial shape that the 1-D integer tensor `e` will hold: dims come from constants (-1 is
// unknown), from Shape ops, and from Pack / ConcatV2 / StridedSlice of those; other entries are
// unknown. nullopt when not even the length of the vector is known.
std::optional<Shape> partial_shape_value(const Graph& graph, Endpoint e);

}  // namespace graphfn
