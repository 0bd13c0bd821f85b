// _core.data_*: the tf.data pipeline runtime (cpp/graphfn/data/) seen from Python. Datasets are
// opaque nodes graphfn.data.Dataset builds and holds; an iterator pulls elements with the GIL
// released, so prefetch and parallel map threads run while Python waits or works.
#include <pybind11/stl.h>

#include <mutex>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/data/dataset_resource.h"
#include "graphfn/data/datasets.h"

namespace graphfn {

void bind_data_sources(py::module_& m);  // bind_data_sources.cc: sources, file datasets, cache

namespace {

using data::DatasetPtr;
using DatasetHandle = std::shared_ptr<data::DatasetNode>;  // pybind11 holders are non-const

DatasetHandle data_handle(DatasetPtr d) { return std::const_pointer_cast<data::DatasetNode>(std::move(d)); }

std::vector<Tensor> data_tensors_of(const std::vector<const Tensor*>& tensors) {
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (const Tensor* t : tensors) out.push_back(*t);
  return out;
}

py::list data_wrap_all(std::vector<Tensor>&& tensors) {
  py::list out(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) out[i] = wrap_eager_tensor(std::move(tensors[i]));
  return out;
}

// One Python iterator: an iterator resource (which keeps the root dataset alive), read here with
// the GIL released and, through handle(), by functions the iterator is passed to. Its lock makes
// two Python threads calling next() take turns.
class PyIterator {
 public:
  explicit PyIterator(DatasetPtr dataset) : resource_(data::element_iterator_resource(std::move(dataset))) {}
  ~PyIterator() {
    // Worker threads (prefetch, parallel map) may be waiting for the GIL in a py_function: join
    // them without it (when this holds the last reference; OwnedIterator drops its handle
    // tensor first).
    if (Py_IsInitialized() && PyGILState_Check()) {
      py::gil_scoped_release release;
      resource_.reset();
    }
  }
  // The next element's tensors, or None at the end.
  py::object next() {
    std::vector<Tensor> element;
    bool has = false;
    Status s;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu_);
      s = resource_->has_next(&has);
      if (s.ok() && has) s = resource_->get_next(&element);
    }
    throw_if_error(s);
    if (!has) return py::none();
    return data_wrap_all(std::move(element));
  }
  // The iterator as a scalar resource tensor.
  py::object handle() const { return wrap_eager_tensor(make_resource_tensor(resource_)); }

 private:
  std::shared_ptr<ElementIteratorResource> resource_;
  std::mutex mu_;
};

DatasetHandle data_checked(Status s, DatasetPtr d) {
  throw_if_error(s);
  return data_handle(std::move(d));
}

}  // namespace

// Names start with data_ (and the classes with Dataset): one flat module keeps _core.pyi one file.
void bind_data(py::module_& m) {
  py::class_<data::DatasetNode, DatasetHandle>(m, "DatasetNode")
      .def("cardinality", &data::DatasetNode::cardinality)
      .def_property_readonly("name", &data::DatasetNode::name)
      // The dataset as a scalar resource tensor, for the dataset-loop ops of traced functions.
      .def("as_tensor", [](const DatasetHandle& d) { return wrap_eager_tensor(data::dataset_resource_tensor(d)); });
  py::class_<PyIterator>(m, "DatasetIterator")
      .def(py::init([](const DatasetHandle& d) { return new PyIterator(d); }))
      .def("next", &PyIterator::next)
      .def("handle", &PyIterator::handle);

  m.def("data_tensor_slices", [](const std::vector<const Tensor*>& components) {
    DatasetPtr d;
    Status s = data::tensor_slices_dataset(data_tensors_of(components), &d);
    return data_checked(s, d);
  });
  m.def("data_tensors", [](const std::vector<const Tensor*>& c) { return data_handle(data::tensor_dataset(data_tensors_of(c))); });
  m.def("data_range", [](int64_t start, int64_t stop, int64_t step, int64_t dtype) {
    DatasetPtr d;
    Status s = data::range_dataset(start, stop, step, dtype_from_number(dtype), &d);
    return data_checked(s, d);
  });
  m.def("data_batch", [](const DatasetHandle& in, int64_t batch_size, bool drop_remainder) {
    DatasetPtr d;
    Status s = data::batch_dataset(in, batch_size, drop_remainder, &d);
    return data_checked(s, d);
  });
  m.def("data_padded_batch", [](const DatasetHandle& in, int64_t batch_size, bool drop_remainder,
                           const std::vector<std::vector<int64_t>>& padded_shapes,
                           const std::vector<const Tensor*>& padding_values) {
    std::vector<Shape> shapes;
    for (const auto& dims : padded_shapes) shapes.emplace_back(dims);
    DatasetPtr d;
    Status s = data::padded_batch_dataset(in, batch_size, drop_remainder, std::move(shapes),
                                          data_tensors_of(padding_values), &d);
    return data_checked(s, d);
  });
  m.def("data_unbatch", [](const DatasetHandle& in) { return data_handle(data::unbatch_dataset(in)); });
  m.def("data_repeat", [](const DatasetHandle& in, int64_t count) { return data_handle(data::repeat_dataset(in, count)); });
  m.def("data_take", [](const DatasetHandle& in, int64_t count) { return data_handle(data::take_dataset(in, count)); });
  m.def("data_skip", [](const DatasetHandle& in, int64_t count) { return data_handle(data::skip_dataset(in, count)); });
  m.def("data_zip", [](const std::vector<DatasetHandle>& inputs) {
    return data_handle(data::zip_dataset(std::vector<DatasetPtr>(inputs.begin(), inputs.end())));
  });
  m.def("data_concatenate",
        [](const DatasetHandle& a, const DatasetHandle& b) { return data_handle(data::concatenate_dataset(a, b)); });
  m.def("data_map", [](const DatasetHandle& in, std::shared_ptr<CompiledFunction> fn, int64_t num_parallel_calls) {
    return data_handle(data::map_dataset(in, std::move(fn), num_parallel_calls));
  });
  m.def("data_filter", [](const DatasetHandle& in, std::shared_ptr<CompiledFunction> predicate) {
    return data_handle(data::filter_dataset(in, std::move(predicate)));
  });
  m.def("data_reduce", [](const DatasetHandle& in, const std::vector<const Tensor*>& initial_state,
                     std::shared_ptr<CompiledFunction> fn) {
    std::vector<Tensor> state;
    Status s;
    {
      py::gil_scoped_release release;
      s = data::reduce_dataset(*in, data_tensors_of(initial_state), *fn, &state);
    }
    throw_if_error(s);
    return data_wrap_all(std::move(state));
  });
  m.def("data_shuffle", [](const DatasetHandle& in, int64_t buffer_size, uint64_t seed, uint64_t seed2, bool reshuffle) {
    DatasetPtr d;
    Status s = data::shuffle_dataset(in, buffer_size, seed, seed2, reshuffle, &d);
    return data_checked(s, d);
  });
  m.def("data_prefetch", [](const DatasetHandle& in, int64_t buffer_size) {
    DatasetPtr d;
    Status s = data::prefetch_dataset(in, buffer_size, &d);
    return data_checked(s, d);
  });
  bind_data_sources(m);
}

}  // namespace graphfn

