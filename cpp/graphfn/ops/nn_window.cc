#include "graphfn/ops/nn_window.h"

#include <climits>

#include "graphfn/ir/op_def_text.h"

namespace graphfn {

namespace {

std::string quoted_list(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& v : values) text += (text.empty() ? "\"" : ", \"") + v + "\"";
  return text;
}

// TF's message for a string attr outside its allowed list (raised before any kernel runs).
Status not_allowed(const OpDef& op, const char* attr, const std::string& value, const std::vector<std::string>& allowed) {
  return errors::InvalidArgument("Value for attr '", attr, "' of \"", value, "\" is not in the list of allowed values: ",
                                 quoted_list(allowed), "\n\t; NodeDef: {{node ", op.name, "}}; ", summarize_op_def(op));
}

}  // namespace

Status read_padding(const OpDef& op, const AttrMap& attrs, bool explicit_allowed, Padding* out) {
  const std::string* p = attrs.get_string("padding");
  const std::string value = p ? *p : "";
  if (value == "SAME") {
    *out = Padding::kSame;
  } else if (value == "VALID") {
    *out = Padding::kValid;
  } else if (value == "EXPLICIT" && explicit_allowed) {
    *out = Padding::kExplicit;
  } else {
    std::vector<std::string> allowed{"SAME", "VALID"};
    if (explicit_allowed) allowed.push_back("EXPLICIT");
    return not_allowed(op, "padding", value, allowed);
  }
  return Status::OK();
}

Status read_data_format(const OpDef& op, const AttrMap& attrs, const std::vector<std::string>& formats,
                        bool* channels_last) {
  const std::string* f = attrs.get_string("data_format");
  const std::string value = f ? *f : formats[0];
  for (const std::string& allowed : formats) {
    if (value == allowed) {
      *channels_last = value == formats[0];
      return Status::OK();
    }
  }
  return not_allowed(op, "data_format", value, formats);
}

Status read_int32_list(const OpDef& op, const AttrMap& attrs, const char* name, std::vector<int64_t>* out) {
  const std::vector<int64_t>* v = attrs.get_int_list(name);
  if (v == nullptr) {  // not given: the op's default
    const AttrDef* def = op.find_attr(name);
    if (def != nullptr && def->has_default) v = std::get_if<std::vector<int64_t>>(&def->default_value);
  }
  out->clear();
  if (v == nullptr) return Status::OK();
  for (int64_t x : *v) {
    if (x < INT_MIN || x > INT_MAX) {
      return errors::InvalidArgument("Attr ", name, " has value ", x, " out of range for an int32");
    }
  }
  *out = *v;
  return Status::OK();
}

Status read_explicit_paddings(const AttrMap& attrs, Padding padding, int dims, WindowGeometry* g) {
  std::vector<int64_t> pads;
  if (const std::vector<int64_t>* v = attrs.get_int_list("explicit_paddings")) pads = *v;
  if (padding != Padding::kExplicit) {
    if (!pads.empty()) {
      return errors::InvalidArgument("explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT");
    }
    return Status::OK();
  }
  if (static_cast<int64_t>(pads.size()) != 2 * dims) {
    return errors::InvalidArgument("explicit_paddings attribute must contain ", 2 * dims, " values, but got: ",
                                   pads.size());
  }
  for (int64_t p : pads) {
    if (p < 0) return errors::InvalidArgument("All elements of explicit_paddings must be nonnegative");
  }
  if (pads[0] != 0 || pads[1] != 0 || pads[2 * dims - 2] != 0 || pads[2 * dims - 1] != 0) {
    return errors::InvalidArgument("Nonzero explicit padding in the batch or depth dimensions is not supported");
  }
  for (int i = 0; i < dims - 2; ++i) {
    g->pad_before[i] = pads[2 + 2 * i];
    g->pad_after[i] = pads[3 + 2 * i];
  }
  return Status::OK();
}

Status windowed_output_size(int64_t in, int64_t window, int64_t dilation, int64_t stride, Padding padding,
                            int64_t explicit_before, int64_t explicit_after, int64_t* out, int64_t* before,
                            int64_t* after) {
  if (stride <= 0) return errors::InvalidArgument("Stride must be > 0, but got ", stride);
  if (dilation < 1) return errors::InvalidArgument("Dilation rate must be >= 1, but got ", dilation);
  // Attrs are int32, so this cannot overflow int64.
  const int64_t effective = (window - 1) * dilation + 1;
  if (in < 0) {  // unknown while tracing
    *out = Shape::kUnknownDim;
    *before = *after = 0;
    return Status::OK();
  }
  switch (padding) {
    case Padding::kValid:
      *out = (in - effective + stride) / stride;
      *before = *after = 0;
      break;
    case Padding::kSame: {
      *out = (in + stride - 1) / stride;
      const int64_t needed = std::max<int64_t>(0, (*out - 1) * stride + effective - in);
      *before = needed / 2;
      *after = needed - *before;
      break;
    }
    case Padding::kExplicit:
      *out = (in + explicit_before + explicit_after - effective + stride) / stride;
      *before = explicit_before;
      *after = explicit_after;
      break;
  }
  if (*out < 0) {
    return errors::InvalidArgument("Computed output size would be negative: ", *out, " [input_size: ", in,
                                   ", effective_filter_size: ", effective, ", stride: ", stride, "]");
  }
  return Status::OK();
}

Status windowed_output_sizes(WindowGeometry* g) {
  for (int i = 0; i < g->spatial; ++i) {
    GRAPHFN_RETURN_IF_ERROR(windowed_output_size(g->in[i], g->window[i], g->dilation[i], g->stride[i], g->padding,
                                                 g->pad_before[i], g->pad_after[i], &g->out[i], &g->pad_before[i],
                                                 &g->pad_after[i]));
  }
  return Status::OK();
}

Shape window_output_shape(const WindowGeometry& g, int64_t depth) {
  std::vector<int64_t> dims{g.batch};
  for (int i = 0; i < g.spatial; ++i) dims.push_back(g.out[i]);
  dims.push_back(depth);
  return Shape(dims);
}

}  // namespace graphfn
