// _core.Tape: the C++ gradient tape (runtime/tape.h) for python/graphfn/eager/backprop.py, which
// adds TF's API (nested structures, variables, errors) on top.
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/runtime/tape.h"

namespace graphfn {
namespace {

const Tensor& eager_tensor(py::handle h) {
  const Tensor* t = eager_tensor_ptr(h);
  if (!t) throw py::type_error("expected an EagerTensor, got " + py::repr(h).cast<std::string>());
  return *t;
}

std::vector<Tensor> tensors_from(py::handle seq, bool allow_none) {
  std::vector<Tensor> out;
  for (auto item : py::reinterpret_borrow<py::sequence>(seq)) {
    if (allow_none && item.is_none()) {
      out.emplace_back();
    } else {
      out.push_back(eager_tensor(item));
    }
  }
  return out;
}

constexpr char kNoGradient[] = "gradient registry has no entry for: ";

}  // namespace

void bind_tape(py::module_& m) {
  py::class_<Tape, std::shared_ptr<Tape>>(m, "Tape")
      .def(py::init<bool, bool>(), py::arg("persistent"), py::arg("watch_accessed_variables"))
      .def("watch", [](Tape& t, py::handle tensor) { t.watch(eager_tensor(tensor)); })
      .def("is_watched", [](Tape& t, py::handle tensor) { return t.is_tracked(eager_tensor(tensor).id_if_any()); })
      .def("push", [](const std::shared_ptr<Tape>& t) { Tape::push(t); })
      .def("pop", [](const std::shared_ptr<Tape>& t) { return Tape::pop(t.get()); })
      .def_property_readonly("active", [](const std::shared_ptr<Tape>& t) { return Tape::is_active(t.get()); })
      .def_property_readonly("num_entries", &Tape::num_entries)
      .def("reset", &Tape::reset)
      .def("gradient", [](Tape& t, py::handle targets, py::handle sources, py::handle output_gradients, bool keep) {
        std::vector<Tensor> target_tensors = tensors_from(targets, false);
        std::vector<Tensor> source_tensors = tensors_from(sources, false);
        std::vector<Tensor> grads =
            output_gradients.is_none() ? std::vector<Tensor>() : tensors_from(output_gradients, true);
        std::vector<Tensor> result;
        const Status s = t.gradient(target_tensors, source_tensors, grads, &result, keep);
        if (!s.ok() && s.code() == Code::kNotFound && s.message().rfind(kNoGradient, 0) == 0) {
          throw py::key_error(s.message());  // replaced by LookupError in Python
        }
        throw_if_error(s);
        py::list out;
        for (Tensor& g : result) {
          if (g.valid()) {
            out.append(py::cast(std::move(g)));
          } else {
            out.append(py::none());
          }
        }
        return out;
      }, py::arg("targets"), py::arg("sources"), py::arg("output_gradients"), py::arg("keep") = false);
  m.def("any_tape_active", &any_tape_active);
}

}  // namespace graphfn
