// The tf.strings ops (TF's raw op names and attrs): element-wise text ops (StringLength, StringLower,
// StringUpper, StringStrip, Substr, StringToNumber, the hash buckets), joins (StringJoin,
// ReduceJoin), regular expressions (RegexReplace, RegexFullMatch and their Static forms), Unicode
// (UnicodeDecode[WithOffsets], UnicodeEncode, UnicodeTranscode, UnicodeScript) and the ops whose
// results are ragged (StringSplitV2, StringSplit, StringNGrams: values plus row splits or indices).
#include <algorithm>
#include <initializer_list>
#include <string>

#include "graphfn/ir/op_def_text.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

// TF checks a string attr's allowed values when the node is built: its message.
Status check_strings_choice_attr(InferenceContext& c, const char* name, std::initializer_list<const char*> allowed,
                         const char* fallback) {
  const std::string* value = c.attrs().get_string(name);
  const std::string v = value ? *value : fallback;
  std::string list;
  for (const char* a : allowed) {
    if (v == a) return Status::OK();
    list += std::string(list.empty() ? "" : ", ") + "\"" + a + "\"";
  }
  return errors::InvalidArgument("Value for attr '", name, "' of \"", v, "\" is not in the list of allowed values: ",
                                 list, "\n\t; NodeDef: {{node ", c.op().name, "}}; ", summarize_op_def(c.op()));
}

// A rank check: graph building words it as TF's shape functions do; eager calls as TF's kernel
// does (`eager_text` followed by the shape), when it has its own text.
Status rank_input(InferenceContext& c, int i, int rank, const char* eager_text = nullptr) {
  const Shape& s = c.input_shape(i);
  if (!s.known_rank() || s.rank() == rank) return Status::OK();
  if (c.is_eager() && eager_text) return errors::InvalidArgument(eager_text, s.to_string());
  return errors::InvalidArgument("Shape must be rank ", rank, " but is rank ", s.rank());
}

Status scalar_input(InferenceContext& c, int i, const char* eager_text = nullptr) {
  return rank_input(c, i, 0, eager_text);
}

Status vector_input(InferenceContext& c, int i, const char* eager_text = nullptr) {
  return rank_input(c, i, 1, eager_text);
}

Status same_shape_as_input(InferenceContext& c, DType dt) {
  c.set_output(0, dt, c.input_shape(0));
  return Status::OK();
}

const std::initializer_list<const char*> kUnits = {"BYTE", "UTF8_CHAR"};
const std::initializer_list<const char*> kErrorModes = {"strict", "replace", "ignore"};
const std::initializer_list<const char*> kOutputEncodings = {"UTF-8", "UTF-16-BE", "UTF-32-BE"};

Status substr_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "unit", kUnits, "BYTE"));
  const Shape& pos = c.input_shape(1);
  const Shape& len = c.input_shape(2);
  if (!c.is_eager() && pos.known_rank() && len.known_rank() && pos.rank() != len.rank()) {
    return errors::InvalidArgument("Shape must be rank ", len.rank(), " but is rank ", pos.rank());
  }
  if (pos.fully_defined() && len.fully_defined() && pos != len) {
    return errors::InvalidArgument("pos and len should have the same shape, got: ", pos.to_string(), " vs. ",
                                   len.to_string());
  }
  if (!c.input_shape(0).known_rank() || !pos.known_rank()) {
    c.set_output(0, DType::kString, Shape::unknown_rank());
    return Status::OK();
  }
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(broadcast_shapes(c.input_shape(0), pos, &out));
  c.set_output(0, DType::kString, out);
  return Status::OK();
}

Status string_join_shape(InferenceContext& c) {
  Shape out;  // a scalar unless some input is not
  bool have_shape = false;
  for (int i = 0; i < c.num_inputs(); ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && s.rank() == 0) continue;
    if (!have_shape) {
      out = s;
      have_shape = true;
    } else if (s.fully_defined() && out.fully_defined() && s != out) {
      return errors::InvalidArgument("Input shapes do not match: ", out.to_string(), " vs. ", s.to_string());
    }
  }
  c.set_output(0, DType::kString, out);
  return Status::OK();
}

Status reduce_join_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  const Tensor* axes_value = c.input_value(1);
  const bool keep_dims = c.attrs().get_bool("keep_dims", false);
  if (!in.known_rank() || !axes_value) {
    c.set_output(0, DType::kString, Shape::unknown_rank());
    return Status::OK();
  }
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(*axes_value, &axes));
  const int rank = in.rank();
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      return errors::OutOfRange("Invalid reduction dimension ", a, " for input with ", rank, " dimension(s)");
    }
    const int64_t d = a < 0 ? a + rank : a;
    if (reduced[d]) return errors::InvalidArgument("Duplicate reduction dimension ", a);  // as given, as TF
    reduced[d] = true;
  }
  Shape out;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      out.add_dim(in.dim(d));
    } else if (keep_dims) {
      out.add_dim(1);
    }
  }
  c.set_output(0, DType::kString, out);
  return Status::OK();
}

// A split's sparse listing of tokens: indices [n, 2], values [n], dense shape [2].
Status split_outputs(InferenceContext& c) {
  c.set_output(0, DType::kInt64, Shape{Shape::kUnknownDim, 2});
  c.set_output(1, DType::kString, Shape{Shape::kUnknownDim});
  c.set_output(2, DType::kInt64, Shape{2});
  return Status::OK();
}

Status string_split_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(vector_input(c, 0, "input must be a vector, got shape: "));
  GRAPHFN_RETURN_IF_ERROR(scalar_input(c, 1, "sep must be a scalar, got shape: "));
  return split_outputs(c);
}

// Decoding: one row per input string, so the splits have num_elements + 1 entries.
Status unicode_decode_shape(InferenceContext& c, bool with_offsets) {
  GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "errors", kErrorModes, "replace"));
  const int64_t n = c.input_shape(0).num_elements();
  const DType splits = c.type_attr("Tsplits");
  c.set_output(0, splits == DType::kInvalid ? DType::kInt64 : splits, Shape{n < 0 ? Shape::kUnknownDim : n + 1});
  c.set_output(1, DType::kInt32, Shape{Shape::kUnknownDim});
  if (with_offsets) c.set_output(2, DType::kInt64, Shape{Shape::kUnknownDim});
  return Status::OK();
}

Status unicode_encode_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "errors", {"ignore", "replace", "strict"}, "replace"));
  GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "output_encoding", kOutputEncodings, ""));
  GRAPHFN_RETURN_IF_ERROR(vector_input(c, 0));
  GRAPHFN_RETURN_IF_ERROR(vector_input(c, 1));
  const Shape& splits = c.input_shape(1);
  const int64_t rows = splits.known_rank() && splits.dim(0) >= 0 ? std::max<int64_t>(splits.dim(0) - 1, 0)
                                                                   : Shape::kUnknownDim;
  c.set_output(0, DType::kString, Shape{rows});
  return Status::OK();
}

Status ngrams_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(vector_input(c, 0));
  GRAPHFN_RETURN_IF_ERROR(vector_input(c, 1));
  c.set_output(0, DType::kString, Shape{Shape::kUnknownDim});
  c.set_output(1, c.type_attr("Tsplits"), c.input_shape(1));
  return Status::OK();
}

}  // namespace

void register_strings_ops(OpRegistry& reg) {
  reg.op("StringLength").input("input: string").output("output: int32").attr("unit: string = 'BYTE'")
      .shape_fn([](InferenceContext& c) {
        GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "unit", kUnits, "BYTE"));
        return same_shape_as_input(c, DType::kInt32);
      }, true);
  for (const char* op : {"StringLower", "StringUpper"}) {
    reg.op(op).input("input: string").output("output: string").attr("encoding: string = ''")
        .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kString); }, true);
  }
  reg.op("StringStrip").input("input: string").output("output: string")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kString); }, true);
  reg.op("Substr").input("input: string").input("pos: T").input("len: T").output("output: string")
      .attr("T: {int32, int64}").attr("unit: string = 'BYTE'").shape_fn(substr_shape, true);
  reg.op("StringToNumber").input("string_tensor: string").output("output: out_type")
      .attr("out_type: {float, double, int32, int64, uint32, uint64} = DT_FLOAT")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, c.type_attr("out_type")); }, true);
  reg.op("StringToHashBucket").input("string_tensor: string").output("output: int64").attr("num_buckets: int >= 1")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kInt64); }, true);
  reg.op("StringToHashBucketStrong").input("input: string").output("output: int64").attr("num_buckets: int >= 1")
      .attr("key: list(int)")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kInt64); }, true);
  reg.op("StringJoin").input("inputs: N * string").output("output: string").attr("N: int >= 0")
      .attr("separator: string = ''").shape_fn(string_join_shape, true);
  reg.op("ReduceJoin").input("inputs: string").input("reduction_indices: int32").output("output: string")
      .attr("keep_dims: bool = false").attr("separator: string = ''").shape_fn(reduce_join_shape, true);
  reg.op("RegexReplace").input("input: string").input("pattern: string").input("rewrite: string")
      .output("output: string").attr("replace_global: bool = true")
      .shape_fn([](InferenceContext& c) {
        GRAPHFN_RETURN_IF_ERROR(scalar_input(c, 1, "Pattern must be scalar, but received "));
        GRAPHFN_RETURN_IF_ERROR(scalar_input(c, 2, "Rewrite must be scalar, but received "));
        return same_shape_as_input(c, DType::kString);
      }, true);
  reg.op("StaticRegexReplace").input("input: string").output("output: string").attr("pattern: string")
      .attr("rewrite: string").attr("replace_global: bool = true")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kString); }, true);
  reg.op("RegexFullMatch").input("input: string").input("pattern: string").output("output: bool")
      .shape_fn([](InferenceContext& c) {
        GRAPHFN_RETURN_IF_ERROR(scalar_input(c, 1, "Pattern must be scalar, but received "));
        return same_shape_as_input(c, DType::kBool);
      }, true);
  reg.op("StaticRegexFullMatch").input("input: string").output("output: bool").attr("pattern: string")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kBool); }, true);
  reg.op("UnicodeScript").input("input: int32").output("output: int32")
      .shape_fn([](InferenceContext& c) { return same_shape_as_input(c, DType::kInt32); }, true);
  reg.op("UnicodeTranscode").input("input: string").output("output: string").attr("input_encoding: string")
      .attr("output_encoding: string").attr("errors: string = 'replace'").attr("replacement_char: int = 65533")
      .attr("replace_control_characters: bool = false")
      .shape_fn([](InferenceContext& c) {
        GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "output_encoding", kOutputEncodings, ""));
        GRAPHFN_RETURN_IF_ERROR(check_strings_choice_attr(c, "errors", kErrorModes, "replace"));
        return same_shape_as_input(c, DType::kString);
      }, true);
  reg.op("UnicodeDecode").input("input: string").output("row_splits: Tsplits").output("char_values: int32")
      .attr("input_encoding: string").attr("errors: string = 'replace'").attr("replacement_char: int = 65533")
      .attr("replace_control_characters: bool = false").attr("Tsplits: {int32, int64} = DT_INT64")
      .shape_fn([](InferenceContext& c) { return unicode_decode_shape(c, false); }, true);
  reg.op("UnicodeDecodeWithOffsets").input("input: string").output("row_splits: Tsplits")
      .output("char_values: int32").output("char_to_byte_starts: int64").attr("input_encoding: string")
      .attr("errors: string = 'replace'").attr("replacement_char: int = 65533")
      .attr("replace_control_characters: bool = false").attr("Tsplits: {int32, int64} = DT_INT64")
      .shape_fn([](InferenceContext& c) { return unicode_decode_shape(c, true); }, true);
  reg.op("UnicodeEncode").input("input_values: int32").input("input_splits: Tsplits").output("output: string")
      .attr("errors: string = 'replace'").attr("output_encoding: string").attr("replacement_char: int = 65533")
      .attr("Tsplits: {int32, int64} = DT_INT64").shape_fn(unicode_encode_shape, true);
  reg.op("StringSplitV2").input("input: string").input("sep: string").output("indices: int64")
      .output("values: string").output("shape: int64").attr("maxsplit: int = -1").shape_fn(string_split_shape, true);
  reg.op("StringSplit").input("input: string").input("delimiter: string").output("indices: int64")
      .output("values: string").output("shape: int64").attr("skip_empty: bool = true")
      .shape_fn([](InferenceContext& c) {
        GRAPHFN_RETURN_IF_ERROR(vector_input(c, 0, "input must be a vector, got shape: "));
        GRAPHFN_RETURN_IF_ERROR(scalar_input(c, 1, "delimiter must be a scalar, got shape: "));
        return split_outputs(c);
      }, true);
  reg.op("StringNGrams").input("data: string").input("data_splits: Tsplits").output("ngrams: string")
      .output("ngrams_splits: Tsplits").attr("separator: string").attr("ngram_widths: list(int)")
      .attr("left_pad: string").attr("right_pad: string").attr("pad_width: int").attr("preserve_short_sequences: bool")
      .attr("Tsplits: {int32, int64} = DT_INT64").shape_fn(ngrams_shape, true);
}

}  // namespace graphfn
