// TFRecord files for Python: _core.RecordWriter (tf.io.TFRecordWriter) and _core.RecordReader
// (tf.compat.v1.io.tf_record_iterator), and _core.crc32c_extend. Converts and forwards to kernels/record_io.h; file work
// runs with the GIL released.
#include <pybind11/pybind11.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/kernels/crc32c.h"
#include "graphfn/kernels/record_io.h"

namespace graphfn {
namespace {

RecordCompression compression_of(const std::string& name) {
  RecordCompression c;
  throw_if_error(parse_record_compression(name, &c));
  return c;
}

}  // namespace

void bind_io(py::module_& m) {
  py::class_<RecordWriter>(m, "RecordWriter")
      .def(py::init([](const std::string& path, const std::string& compression) {
             std::unique_ptr<RecordWriter> w;
             const RecordCompression c = compression_of(compression);
             Status s;
             {
               py::gil_scoped_release release;
               s = RecordWriter::open(path, c, &w);
             }
             throw_if_error(s);
             return w;
           }),
           py::arg("path"), py::arg("compression_type") = "")
      .def("write",
           [](RecordWriter& w, py::bytes record) {
             std::string_view view = record;  // kept alive by `record` while the GIL is released
             Status s;
             {
               py::gil_scoped_release release;
               s = w.write(view);
             }
             throw_if_error(s);
           })
      .def("flush", [](RecordWriter& w) { throw_if_error(w.flush()); })
      .def("close", [](RecordWriter& w) { throw_if_error(w.close()); })
      .def_property_readonly("closed", &RecordWriter::closed);

  py::class_<RecordReader>(m, "RecordReader")
      .def(py::init([](const std::string& path, const std::string& compression) {
             std::unique_ptr<RecordReader> r;
             const RecordCompression c = compression_of(compression);
             throw_if_error(RecordReader::open(path, c, &r));
             return r;
           }),
           py::arg("path"), py::arg("compression_type") = "")
      // The next record as bytes, or None after the last.
      .def("read", [](RecordReader& r) -> py::object {
        std::string record;
        Status s;
        {
          py::gil_scoped_release release;
          s = r.read(&record);
        }
        if (s.code() == Code::kOutOfRange) return py::none();
        throw_if_error(s);
        return py::bytes(record);
      })
      .def_property_readonly("offset", &RecordReader::offset);

  // CRC-32C for TensorFlow's checkpoint files (python/graphfn/checkpoint/tensor_bundle.py): any
  // buffer (bytes, a contiguous NumPy array), continuing from `crc`.
  m.def(
      "crc32c_extend",
      [](uint32_t crc, py::buffer data) {
        const py::buffer_info info = data.request();
        const size_t n = static_cast<size_t>(info.size) * static_cast<size_t>(info.itemsize);
        py::gil_scoped_release release;
        return crc32c_extend(crc, static_cast<const char*>(info.ptr), n);
      },
      py::arg("crc"), py::arg("data"));
}

}  // namespace graphfn
