// _core.data_* for the sources, file datasets and cache of tf.data (cpp/graphfn/data/
// file_datasets.cc, choose.cc, cache.cc, host_source.cc). Dataset.from_generator is the one
// source that runs Python per element: its iterator takes the GIL only around the call of
// graphfn.data.generator's per-iterator object, so prefetch and parallel map threads pull from
// it while Python runs elsewhere.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <atomic>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/data/csv_reader.h"
#include "graphfn/data/datasets.h"

namespace graphfn {
namespace {

using data::DatasetPtr;
using DatasetHandle = std::shared_ptr<data::DatasetNode>;

DatasetHandle sources_handle(DatasetPtr d) { return std::const_pointer_cast<data::DatasetNode>(std::move(d)); }

DatasetHandle sources_checked(const Status& s, DatasetPtr d) {
  throw_if_error(s);
  return sources_handle(std::move(d));
}

// Cleared at interpreter exit: generator iterators still running on pipeline threads then end
// instead of calling into a finalizing interpreter.
std::atomic<bool> python_available{true};

// A Python object that may be released on a thread without the GIL (a dataset freed by a
// pipeline thread or a graph run).
struct GilObject {
  py::object object;
  explicit GilObject(py::object o) : object(std::move(o)) {}
  ~GilObject() {
    if (!object) return;
    if (!python_available.load() || !Py_IsInitialized()) {
      object.release();  // leaked: no interpreter left to free it
      return;
    }
    py::gil_scoped_acquire gil;
    object = py::object();
  }
};

// One iterator of a from_generator dataset: state.next_flat() returns (0, [tensors]), (0, None)
// at the end, or (TF error code, message) for a generator that failed or yielded a bad value.
class GeneratorIterator : public data::Iterator {
 public:
  explicit GeneratorIterator(std::unique_ptr<GilObject> state) : state_(std::move(state)) {}
  Status next(data::Element* out, bool* end) override {
    *end = true;
    if (!python_available.load()) return Status(Code::kCancelled, "the Python interpreter is shutting down");
    py::gil_scoped_acquire gil;
    try {
      py::tuple result = state_->object.attr("next_flat")();
      const int code = result[0].cast<int>();
      if (code != 0) return Status(static_cast<Code>(code), result[1].cast<std::string>());
      if (result[1].is_none()) return Status::OK();
      out->clear();
      for (py::handle item : result[1]) {
        const Tensor* t = eager_tensor_ptr(item);
        if (!t) return errors::Internal("from_generator: a converted value is not a tensor");
        out->push_back(*t);
      }
      *end = false;
      return Status::OK();
    } catch (py::error_already_set& e) {
      return Status(Code::kUnknown, e.what());
    }
  }

 private:
  std::unique_ptr<GilObject> state_;
};

data::HostIteratorOpener generator_opener(py::object make_state) {
  auto factory = std::make_shared<GilObject>(std::move(make_state));
  return [factory](std::unique_ptr<data::Iterator>* out) -> Status {
    if (!python_available.load()) return Status(Code::kCancelled, "the Python interpreter is shutting down");
    py::gil_scoped_acquire gil;
    try {
      py::tuple result = factory->object();  // (0, state) or (code, message)
      const int code = result[0].cast<int>();
      if (code != 0) return Status(static_cast<Code>(code), result[1].cast<std::string>());
      *out = std::make_unique<GeneratorIterator>(std::make_unique<GilObject>(py::reinterpret_borrow<py::object>(result[1])));
      return Status::OK();
    } catch (py::error_already_set& e) {
      return Status(Code::kUnknown, e.what());
    }
  };
}

std::vector<Tensor> sources_tensors(const std::vector<const Tensor*>& tensors) {
  std::vector<Tensor> out;
  for (const Tensor* t : tensors) out.push_back(*t);
  return out;
}

}  // namespace

void bind_data_sources(py::module_& m) {
  m.def("data_text_line", [](const DatasetHandle& filenames, const std::string& compression, int64_t buffer_size,
                             int64_t num_parallel_reads) {
    return sources_handle(data::text_line_dataset(filenames, compression, buffer_size, num_parallel_reads));
  });
  m.def("data_tfrecord", [](const DatasetHandle& filenames, const std::string& compression, int64_t buffer_size,
                            int64_t num_parallel_reads) {
    return sources_handle(data::tfrecord_dataset(filenames, compression, buffer_size, num_parallel_reads));
  });
  m.def("data_csv", [](const DatasetHandle& filenames, const std::string& compression, int64_t buffer_size,
                       const std::vector<const Tensor*>& defaults, const std::vector<int64_t>& select_cols, bool header,
                       const std::string& field_delim, bool use_quote_delim, const std::string& na_value,
                       int64_t num_parallel_reads) {
    data::CsvOptions options;
    options.defaults = sources_tensors(defaults);
    options.select_cols = select_cols;
    options.header = header;
    options.delim_text = field_delim;
    options.use_quote_delim = use_quote_delim;
    options.na_value = na_value;
    DatasetPtr d;
    Status s = data::csv_dataset(filenames, compression, buffer_size, std::move(options), num_parallel_reads, &d);
    return sources_checked(s, d);
  });
  m.def("data_directed_interleave", [](const DatasetHandle& selector, const std::vector<DatasetHandle>& inputs,
                                       bool stop_on_empty) {
    DatasetPtr d;
    Status s = data::directed_interleave_dataset(selector, std::vector<DatasetPtr>(inputs.begin(), inputs.end()),
                                                 stop_on_empty, &d);
    return sources_checked(s, d);
  });
  m.def("data_categorical_selector", [](const std::vector<double>& weights, uint64_t seed, uint64_t seed2) {
    return sources_handle(data::categorical_selector_dataset(weights, seed, seed2));
  });
  m.def("data_counter", [](const Tensor& start, const Tensor& step) {
    DatasetPtr d;
    Status s = data::counter_dataset(start, step, &d);
    return sources_checked(s, d);
  });
  m.def("data_cache", [](const DatasetHandle& in, const std::string& filename, const std::vector<int64_t>& dtypes) {
    std::vector<DType> types;
    for (int64_t t : dtypes) types.push_back(dtype_from_number(t));
    return sources_handle(data::cache_dataset(in, filename, std::move(types)));
  });
  m.def("data_load", [](const std::string& prefix, const std::vector<int64_t>& dtypes, int64_t cardinality) {
    std::vector<DType> types;
    for (int64_t t : dtypes) types.push_back(dtype_from_number(t));
    return sources_handle(data::load_cache_dataset(prefix, std::move(types), cardinality));
  });
  // make_state() -> (0, state) per iterator, state.next_flat() per element (graphfn/data/generator.py).
  m.def("data_from_generator", [](py::object make_state) {
    return sources_handle(data::host_source_dataset(generator_opener(std::move(make_state))));
  });
  m.def("data_generators_shutdown", []() { python_available.store(false); });
}

}  // namespace graphfn
