// Thread-pool configuration for tf.config.threading (python/graphfn/framework/threading_config.py).
#include "graphfn/bindings/bind.h"
#include "graphfn/core/thread_pool.h"

namespace graphfn {

void bind_threading(py::module_& m) {
  m.def("set_intra_op_threads", &set_intra_op_threads,
        "Requests the intra-op pool size (0: default); False once the runtime has started.");
  m.def("set_inter_op_threads", &set_inter_op_threads);
  m.def("parallel_threads", &parallel_threads, "The intra-op pool's threads (fixes the size).");
  m.def("threading_runtime_started", &runtime_started,
        "Whether a kernel has run or the pool size is fixed (TF's context initialisation).");
}

}  // namespace graphfn
