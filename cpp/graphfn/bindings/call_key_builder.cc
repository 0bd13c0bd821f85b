#include "graphfn/bindings/call_key_builder.h"

#include <algorithm>
#include <string_view>

#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/interned.h"
#include "graphfn/bindings/variable_object.h"
#include "graphfn/core/resource.h"

namespace graphfn {
namespace {

constexpr int kMaxKeyDepth = 64;

// A namedtuple's class: namedtuples of different classes never share a trace.
class ClassKey : public OpaqueKey {
 public:
  explicit ClassKey(py::object type) : type_(std::move(type)) {}
  size_t hash() const override { return std::hash<const void*>()(type_.ptr()); }
  bool equals(const OpaqueKey& other) const override {
    auto* o = dynamic_cast<const ClassKey*>(&other);
    return o && o->type_.ptr() == type_.ptr();
  }

 private:
  py::object type_;
};

// An object whose class keeps object's identity equality and hash: TF's Weakref trace type
// reduces to identity, which C++ can compare. A dead object never matches.
class IdentityKey : public OpaqueKey {
 public:
  IdentityKey(py::object ref, PyObject* object) : ref_(std::move(ref)), object_(object) {}
  size_t hash() const override { return std::hash<const void*>()(object_); }
  bool equals(const OpaqueKey& other) const override {
    auto* o = dynamic_cast<const IdentityKey*>(&other);
    return o && o->object_ == object_ && PyWeakref_GetObject(ref_.ptr()) == object_ &&
           PyWeakref_GetObject(o->ref_.ptr()) == object_;
  }

 private:
  py::object ref_;    // a weak reference to the object
  PyObject* object_;  // compared only while the reference is alive
};

// A trace type computed in Python (function/trace_type.py), compared with its own __eq__.
class PythonKey : public OpaqueKey {
 public:
  PythonKey(py::object type, size_t hash) : type_(std::move(type)), hash_(hash) {}
  size_t hash() const override { return hash_; }
  bool equals(const OpaqueKey& other) const override {
    auto* o = dynamic_cast<const PythonKey*>(&other);
    if (!o) return false;
    const int eq = PyObject_RichCompareBool(type_.ptr(), o->type_.ptr(), Py_EQ);
    if (eq < 0) PyErr_Clear();
    return eq == 1;
  }

 private:
  py::object type_;
  size_t hash_;
};

bool has_identity_semantics(PyTypeObject* type) {
  return type->tp_hash == PyBaseObject_Type.tp_hash && type->tp_richcompare == PyBaseObject_Type.tp_richcompare &&
         type->tp_weaklistoffset > 0;
}

}  // namespace

CallKeyHooks& call_key_hooks() {
  static CallKeyHooks* hooks = new CallKeyHooks();  // never destroyed: holds Python objects
  return *hooks;
}

bool call_key_hooks_set() { return static_cast<bool>(call_key_hooks().variable_type); }

void CallKeyBuilder::clear() {
  key_.clear();
  feeds_.clear();
  feed_objects_.clear();
  trainable_variables_.clear();
  handles_.clear();
}

bool CallKeyBuilder::add(PyObject* value) { return add_value(value, 0); }

bool CallKeyBuilder::add_value(PyObject* v, int depth) {
  if (depth > kMaxKeyDepth) return false;
  if (const Tensor* t = eager_tensor_ptr(v)) {
    key_.add_tensor(t->dtype(), t->shape());
    feeds_.push_back(t);
    feed_objects_.push_back(py::reinterpret_borrow<py::object>(v));
    return true;
  }
  if (v == Py_None) {
    key_.add_none();
    return true;
  }
  if (PyBool_Check(v)) {
    key_.add_int(v == Py_True);
    return true;
  }
  if (PyLong_CheckExact(v)) {
    int overflow = 0;
    const long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow) return add_other(v);
    key_.add_int(i);
    return true;
  }
  if (PyFloat_CheckExact(v)) {
    key_.add_float(PyFloat_AS_DOUBLE(v));
    return true;
  }
  if (PyUnicode_CheckExact(v)) {
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(v, &size);
    if (!s) {
      PyErr_Clear();
      return false;
    }
    key_.add_string(std::string_view(s, size), false);
    return true;
  }
  if (PyBytes_CheckExact(v)) {
    key_.add_string(std::string_view(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v)), true);
    return true;
  }
  if (PyList_CheckExact(v) || PyTuple_Check(v)) {
    const bool is_tuple = PyTuple_Check(v);
    if (is_tuple && !PyTuple_CheckExact(v)) {
      // A namedtuple (a tuple subclass with _fields) is keyed by its class too.
      static PyObject* fields = interned("_fields");
      if (!PyObject_HasAttr(v, fields)) return false;
      key_.add_opaque(std::make_shared<ClassKey>(py::reinterpret_borrow<py::object>((PyObject*)Py_TYPE(v))));
    }
    const Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(v) : PyList_GET_SIZE(v);
    key_.begin_sequence(is_tuple, static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!is_tuple && i >= PyList_GET_SIZE(v)) return false;  // changed by Python code run meanwhile
      PyObject* item = is_tuple ? PyTuple_GET_ITEM(v, i) : PyList_GET_ITEM(v, i);
      py::object keep = py::reinterpret_borrow<py::object>(item);
      if (!add_value(item, depth + 1)) return false;
    }
    return true;
  }
  if (PyDict_CheckExact(v)) return add_dict(v, depth);
  const CallKeyHooks& hooks = call_key_hooks();
  if (PyType_IsSubtype(Py_TYPE(v), reinterpret_cast<PyTypeObject*>(hooks.variable_type.ptr()))) {
    return add_variable(v);
  }
  return add_other(v);
}

bool CallKeyBuilder::add_dict(PyObject* dict, int depth) {
  // nest's order: sorted keys. Only str keys are keyed here (code-point order is UTF-8 order).
  struct Item {
    std::string_view key;  // the UTF-8 of key_object
    PyObject* key_object;  // new references: Python code run below must not free them
    PyObject* value;
  };
  constexpr Py_ssize_t kInline = 8;  // small dicts need no allocation
  const Py_ssize_t n = PyDict_GET_SIZE(dict);
  Item inline_items[kInline];
  std::vector<Item> heap_items(n > kInline ? n : 0);
  Item* items = n > kInline ? heap_items.data() : inline_items;
  Py_ssize_t count = 0;
  struct Release {
    Item* items;
    Py_ssize_t* count;
    ~Release() {
      for (Py_ssize_t i = 0; i < *count; ++i) {
        Py_DECREF(items[i].key_object);
        Py_DECREF(items[i].value);
      }
    }
  } release{items, &count};
  PyObject *k = nullptr, *item = nullptr;
  Py_ssize_t pos = 0;
  while (count < n && PyDict_Next(dict, &pos, &k, &item)) {
    if (!PyUnicode_CheckExact(k)) return false;
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(k, &size);  // cached in the (interned or held) key
    if (!s) {
      PyErr_Clear();
      return false;
    }
    Py_INCREF(k);
    Py_INCREF(item);
    items[count++] = Item{std::string_view(s, size), k, item};
  }
  // Small argument dicts (the common case) by insertion sort: std::sort's setup costs more.
  const auto by_key = [](const Item& a, const Item& b) { return a.key < b.key; };
  if (count > kInline) std::sort(items, items + count, by_key);
  for (Py_ssize_t i = 1; i < count && count <= kInline; ++i) {
    const Item item = items[i];
    Py_ssize_t j = i;
    for (; j > 0 && by_key(item, items[j - 1]); --j) items[j] = items[j - 1];
    items[j] = item;
  }
  key_.begin_dict(static_cast<size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    key_.add_string(items[i].key, false);
    if (!add_value(items[i].value, depth + 1)) return false;
  }
  return true;
}

bool CallKeyBuilder::add_variable(PyObject* variable) {
  // graphfn.Variable derives from VariableBase (checked when the hooks are set): its handle,
  // resource and `_trainable` are C fields. `_trainable` is as created: a Keras variable's
  // `trainable` flag may change later, but TF keys and watches the underlying variable
  // (function/trace_type.py does the same).
  const VariableObject* v = reinterpret_cast<const VariableObject*>(variable);
  if (!v->resource || !v->trainable) return false;
  const int is_trainable = v->trainable == Py_True ? 1 : v->trainable == Py_False ? 0 : PyObject_IsTrue(v->trainable);
  if (is_trainable < 0) {
    PyErr_Clear();
    return false;
  }
  // Aliases: variables sharing a handle object share one placeholder (as tracing does).
  PyObject* handle = v->handle;
  int alias = 0;
  while (alias < static_cast<int>(handles_.size()) && handles_[alias].ptr() != handle) ++alias;
  if (alias == static_cast<int>(handles_.size())) {
    feeds_.push_back(v->handle_tensor);
    feed_objects_.push_back(py::reinterpret_borrow<py::object>(handle));
    handles_.push_back(py::reinterpret_borrow<py::object>(handle));
  }
  key_.add_variable(v->resource->dtype(), v->resource->shape(), is_trainable != 0, alias);
  if (is_trainable) trainable_variables_.push_back(variable);
  return true;
}

bool CallKeyBuilder::add_other(PyObject* v) {
  PyTypeObject* type = Py_TYPE(v);
  const CallKeyHooks& hooks = call_key_hooks();
  if (PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(hooks.tensor_type.ptr()))) return false;
  if (has_identity_semantics(type)) {
    PyObject* ref = PyWeakref_NewRef(v, nullptr);  // the object's shared plain reference, if any
    if (!ref) {
      PyErr_Clear();
      return false;
    }
    key_.add_opaque(std::make_shared<IdentityKey>(py::reinterpret_steal<py::object>(ref), v));
    return true;
  }
  py::object type_key = py::reinterpret_steal<py::object>(PyObject_CallOneArg(hooks.opaque_key.ptr(), v));
  if (!type_key || type_key.is_none()) {
    PyErr_Clear();
    return false;
  }
  const Py_hash_t h = PyObject_Hash(type_key.ptr());
  if (h == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  key_.add_opaque(std::make_shared<PythonKey>(std::move(type_key), static_cast<size_t>(h)));
  return true;
}

}  // namespace graphfn
