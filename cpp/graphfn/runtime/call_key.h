// CallKey: the cache key of a graphfn.function call, built without Python objects, so the C++
// call cache can answer a call without running Python. It encodes TF's trace types of the bound
// arguments, in parameter order, as a flat word list (plus the bytes of strings), so building a
// key for a probe allocates nothing once the scratch key has grown:
//   - a tensor: dtype and exact shape (TensorSpec);
//   - a Python number, string, bytes or None: its value (Literal). Numbers compare by value
//     across int, float and bool (TF keys 1, 1.0 and True the same), NaN equals NaN, -0.0 equals
//     0.0, and strings differ from bytes;
//   - a list, tuple or dict: a header with its length, then its elements (a dict's entries in
//     sorted key order, each key a string part), so key order does not matter, as in TF;
//   - a variable: dtype, declared shape, trainable and its alias number (which earlier variable
//     argument it is, so f(v, v) and f(v, w) differ but f(v) and f(w) agree);
//   - anything else: an OpaqueKey made by the caller (a namedtuple's class, an object keyed by
//     identity, a trace type computed in Python), compared with its own equality.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "graphfn/core/dtype.h"
#include "graphfn/core/shape.h"

namespace graphfn {

// A key part whose equality and hash the key's builder defines (bindings/ give Python objects).
class OpaqueKey {
 public:
  virtual ~OpaqueKey() = default;
  virtual size_t hash() const = 0;
  virtual bool equals(const OpaqueKey& other) const = 0;
};

class CallKey {
 public:
  enum Tag : uint64_t {
    kTensor = 1, kNumber, kBigInt, kNaN, kString, kBytes, kNone, kList, kTuple, kDict, kVariable, kOpaque
  };

  void clear();
  void add_tensor(DType dtype, const Shape& shape);
  void add_int(int64_t v);
  void add_float(double v);
  void add_string(std::string_view s, bool is_bytes);
  void add_none();
  // A list or tuple of `size` elements (their parts follow).
  void begin_sequence(bool is_tuple, size_t size);
  // A dict of `size` entries: each a string part (the key) then the value's parts, in sorted
  // key order.
  void begin_dict(size_t size);
  void add_variable(DType dtype, const Shape& shape, bool trainable, int alias);
  void add_opaque(std::shared_ptr<const OpaqueKey> part);

  bool operator==(const CallKey& o) const;
  size_t hash() const;
  bool empty() const { return words_.empty(); }

 private:
  void add_shape(const Shape& shape);
  std::vector<uint64_t> words_;
  std::string bytes_;  // the strings' bytes, in order (their lengths are in words_)
  std::vector<std::shared_ptr<const OpaqueKey>> opaque_;
};

struct CallKeyHash {
  size_t operator()(const CallKey& k) const { return k.hash(); }
};

}  // namespace graphfn
