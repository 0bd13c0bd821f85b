// CallKey: the cache key of a Function call built without Python objects, for the cache-hit
// fast path. One part per positional argument: a tensor's dtype and exact shape, or a Python
// literal's value. Numbers are compared by value across int, float and bool (TF keys 1, 1.0
// and True the same), NaN equals NaN, and strings differ from bytes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graphfn/core/dtype.h"
#include "graphfn/core/shape.h"

namespace graphfn {

struct KeyPart {
  enum Kind : uint8_t { kTensor, kNumber, kBigInt, kNaN, kString, kBytes, kNone } kind;
  DType dtype = DType::kInvalid;  // kTensor
  std::vector<int64_t> dims;      // kTensor
  double number = 0;              // kNumber
  int64_t big = 0;                // kBigInt: an int too large to be exact as a double
  std::string text;               // kString / kBytes

  bool operator==(const KeyPart& o) const;
};

class CallKey {
 public:
  void add_tensor(DType dtype, const Shape& shape);
  void add_int(int64_t v);
  void add_float(double v);
  void add_string(std::string s, bool is_bytes);
  void add_none();
  bool operator==(const CallKey& o) const { return parts_ == o.parts_; }
  size_t hash() const;
  size_t size() const { return parts_.size(); }

 private:
  std::vector<KeyPart> parts_;
};

struct CallKeyHash {
  size_t operator()(const CallKey& k) const { return k.hash(); }
};

}  // namespace graphfn
