// The protobuf wire format of tf.train.Example (TF's example.proto / feature.proto field numbers),
// read directly by ParseExampleV2's kernel: the C++ core has no protobuf library, and the kernel
// only needs the requested features' values. Python's tf.train.Example classes are real protobuf
// messages (python/graphfn/io/example_pb.py); this reader is for the op only.
//
//   Example  { Features features = 1; }
//   Features { map<string, Feature> feature = 1; }   entry: { string key = 1; Feature value = 2; }
//   Feature  { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3; } }
//   BytesList { repeated bytes value = 1; }  FloatList { repeated float value = 1; }  Int64List { repeated int64 value = 1; }
//
// As protobuf parses: a repeated `features` field merges, a map key seen again replaces the
// earlier entry, a oneof member of another kind replaces the one before, the same kind merges;
// unknown fields are skipped; packed and unpacked numbers are both read.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace graphfn {

struct FeatureView {
  enum Kind { kNone = 0, kBytes = 1, kFloat = 2, kInt64 = 3 } kind = kNone;
  std::vector<std::string_view> lists;  // the serialized BytesList/FloatList/Int64List messages
};

// The features of a serialized Example, in wire order (a later duplicate key wins: look up from
// the back). False if the bytes are not a valid Example.
bool parse_example_features(std::string_view example, std::vector<std::pair<std::string_view, FeatureView>>* out);

// A feature's values; false if a list message is malformed.
bool feature_bytes(const FeatureView& f, std::vector<std::string_view>* out);
bool feature_floats(const FeatureView& f, std::vector<float>* out);
bool feature_int64s(const FeatureView& f, std::vector<int64_t>* out);

}  // namespace graphfn
