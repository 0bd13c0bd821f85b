#include "graphfn/bindings/output_structure.h"

#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/eager_tensor_object.h"

namespace graphfn {

std::shared_ptr<OutputStructure> OutputStructure::tensor(int index) {
  auto s = std::make_shared<OutputStructure>();
  s->kind_ = kTensor;
  s->index_ = index;
  return s;
}

std::shared_ptr<OutputStructure> OutputStructure::constant(py::object value) {
  auto s = std::make_shared<OutputStructure>();
  s->kind_ = kConstant;
  s->value_ = std::move(value);
  return s;
}

std::shared_ptr<OutputStructure> OutputStructure::container(
    Kind kind, py::object type, py::object keys, std::vector<std::shared_ptr<const OutputStructure>> children) {
  auto s = std::make_shared<OutputStructure>();
  s->kind_ = kind;
  s->value_ = std::move(type);
  s->keys_ = std::move(keys);
  s->children_ = std::move(children);
  if (kind == kDict && (!PyTuple_Check(s->keys_.ptr()) || py::len(s->keys_) != s->children_.size())) {
    throw py::value_error("OutputStructure: a dict needs a tuple of keys, one per child");
  }
  return s;
}

int OutputStructure::num_tensors() const {
  int n = kind_ == kTensor ? 1 : 0;
  for (const auto& c : children_) n += c->num_tensors();
  return n;
}

py::object OutputStructure::pack(std::vector<Tensor>& results) const {
  switch (kind_) {
    case kTensor:
      if (index_ < 0 || static_cast<size_t>(index_) >= results.size()) {
        throw py::value_error("OutputStructure: the function returned fewer results than its structure has tensors");
      }
      return wrap_eager_tensor(std::move(results[index_]));
    case kConstant: return value_;
    case kList:
    case kTuple:
    case kNamedTuple: {
      const bool plain = value_.is_none();
      py::list items(children_.size());
      for (size_t i = 0; i < children_.size(); ++i) items[i] = children_[i]->pack(results);
      if (kind_ == kNamedTuple) return value_(*items);
      if (!plain) return value_(items);
      if (kind_ == kList) return std::move(items);
      return py::tuple(items);
    }
    case kDict: {
      py::dict out;
      for (size_t i = 0; i < children_.size(); ++i) {
        out[py::handle(PyTuple_GET_ITEM(keys_.ptr(), i))] = children_[i]->pack(results);
      }
      if (value_.is_none()) return std::move(out);
      return value_(out.attr("items")());
    }
  }
  return py::none();
}

void bind_output_structure(py::module_& m) {
  py::class_<OutputStructure, std::shared_ptr<OutputStructure>> cls(m, "OutputStructure");
  py::enum_<OutputStructure::Kind>(cls, "Kind")
      .value("list", OutputStructure::kList)
      .value("tuple", OutputStructure::kTuple)
      .value("namedtuple", OutputStructure::kNamedTuple)
      .value("dict", OutputStructure::kDict);
  cls.def_static("tensor", &OutputStructure::tensor, py::arg("index"))
      .def_static("constant", &OutputStructure::constant, py::arg("value"))
      .def_static("container",
                  [](OutputStructure::Kind kind, py::object type, py::object keys,
                     const std::vector<std::shared_ptr<OutputStructure>>& children) {
                    std::vector<std::shared_ptr<const OutputStructure>> c(children.begin(), children.end());
                    return OutputStructure::container(kind, std::move(type), std::move(keys), std::move(c));
                  },
                  py::arg("kind"), py::arg("type"), py::arg("keys"), py::arg("children"))
      .def_property_readonly("num_tensors", &OutputStructure::num_tensors)
      .def("pack", [](const OutputStructure& s, std::vector<Tensor> results) { return s.pack(results); });
}

}  // namespace graphfn
