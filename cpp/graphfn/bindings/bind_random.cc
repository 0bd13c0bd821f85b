// Random-stream control for tf.random.set_seed (the stream table lives in kernels/random_streams).
#include "graphfn/bindings/bind.h"
#include "graphfn/kernels/random_streams.h"

namespace graphfn {

void bind_random(py::module_& m) {
  m.def("reset_random_streams", &reset_random_streams,
        "Rewinds every random op's stream (run by tf.random.set_seed).");
  m.def("num_random_streams", &num_random_streams);
}

}  // namespace graphfn
