// A tensor's values as tf.print shows them: "[[1 2]\n [3 4]]", "[0 1 2 ... 7 8 9]" with
// `summarize` entries kept at each end of every dimension (-1: all), bools as 1/0, strings
// quoted, floats in the shortest of %.6g/%.9g (doubles %.15g/%.17g) that reads back exactly.
#pragma once
#include <string>

#include "graphfn/core/tensor.h"

namespace graphfn {

std::string tensor_text(const Tensor& t, int64_t summarize);

}  // namespace graphfn
