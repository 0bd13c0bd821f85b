// Einsum: one or two operands and an explicit equation ("ij,jk->ik"; tf.einsum resolves the
// implicit form and splits longer chains into pairs before it reaches the op). Repeated labels
// in an input take a diagonal; repeated labels in the output (the gradient's equations) place
// values on a diagonal of zeros.
#include <map>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/einsum_spec.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// Broadcasts ellipsis dims right-aligned; unknown dims stay unknown unless the other is > 1.
bool broadcast_dim(int64_t a, int64_t b, int64_t* out) {
  if (a == 1) return *out = b, true;
  if (b == 1) return *out = a, true;
  if (a < 0) return *out = b, true;
  if (b < 0) return *out = a, true;
  *out = a;
  return a == b;
}

Status einsum_shape(InferenceContext& c) {
  const std::string* attr = c.attrs().get_string("equation");
  const std::string equation = attr ? *attr : "";
  einsum::Equation eq;
  GRAPHFN_RETURN_IF_ERROR(einsum::parse(equation, &eq));
  const int n = c.num_inputs();
  if (static_cast<int>(eq.inputs.size()) != n) {
    if (c.is_eager()) return errors::InvalidArgument("Expected ", eq.inputs.size(), " inputs but got: ", n);
    return errors::InvalidArgument("Expected ", eq.inputs.size(), " inputs for equation ", equation, " but got: ", n);
  }
  if (n < 1 || n > 2) return errors::InvalidArgument("Expecting 1 or 2 input subscripts in equation '", equation, "' but got: ", n);
  std::map<int, int64_t> dims;  // named label -> dim
  std::vector<int64_t> ellipsis;  // broadcast ellipsis dims (right-aligned)
  bool ellipsis_known = true;
  for (int i = 0; i < n; ++i) {
    const Shape& s = c.input_shape(i);
    if (!s.known_rank()) {
      if (eq.inputs[i].ellipsis_at >= 0) ellipsis_known = false;
      continue;
    }
    std::vector<int> labels;
    int erank = 0;
    Status st = einsum::expand(eq.inputs[i], s.rank(), i, &labels, &erank);
    if (!st.ok()) {
      if (c.is_eager()) return st;
      return errors::InvalidArgument("Shape must be rank ", eq.inputs[i].labels.size(), " but is rank ", s.rank(),
                                     "\n\t for ", i, "th input and equation: ", equation);
    }
    // Ellipsis dims, broadcast right-aligned.
    std::vector<int64_t> mine;
    for (int d = 0; d < s.rank(); ++d) {
      if (labels[d] >= einsum::kEllipsisLabel) mine.push_back(s.dim(d));
    }
    std::vector<int64_t> merged(std::max(mine.size(), ellipsis.size()));
    for (size_t k = 0; k < merged.size(); ++k) {
      const int64_t a = k < ellipsis.size() ? ellipsis[ellipsis.size() - 1 - k] : 1;
      const int64_t b = k < mine.size() ? mine[mine.size() - 1 - k] : 1;
      if (!broadcast_dim(a, b, &merged[merged.size() - 1 - k])) {
        std::string shapes;
        for (int j = 0; j <= i; ++j) shapes += (j ? " vs. " : "") + c.input_shape(j).to_string();
        return errors::InvalidArgument("Invalid broadcasting dimensions: ", shapes);
      }
    }
    ellipsis = merged;
    for (int d = 0; d < s.rank(); ++d) {
      if (labels[d] >= einsum::kEllipsisLabel) continue;
      auto it = dims.find(labels[d]);
      if (it == dims.end() || it->second < 0) {
        if (it == dims.end() || s.dim(d) >= 0) dims[labels[d]] = s.dim(d);
        continue;
      }
      if (s.dim(d) >= 0 && s.dim(d) != it->second) {
        if (!c.is_eager()) return shape_fns::dims_must_be_equal(it->second, s.dim(d));
        return errors::InvalidArgument("Expected dimension ", it->second, " at axis ", d, " of the input shaped ", s,
                                       " but got dimension ", s.dim(d));
      }
    }
  }
  const DType dt = c.input_dtype(0);
  for (int label : eq.output.labels) {
    bool present = false;
    for (const auto& in : eq.inputs) {
      for (int l : in.labels) present |= l == label;
    }
    if (!present) {
      return errors::InvalidArgument("Output subscripts contain the label ", einsum::to_text({{label}, -1}),
                                     " not present in the input subscripts.");
    }
  }
  if (eq.output.ellipsis_at >= 0 && !ellipsis_known) {
    c.set_output(0, dt, Shape::unknown_rank());
    return Status::OK();
  }
  Shape out;
  for (int label : einsum::expand_output(eq.output, static_cast<int>(ellipsis.size()))) {
    if (label >= einsum::kEllipsisLabel) {
      out.add_dim(ellipsis[ellipsis.size() - 1 - (label - einsum::kEllipsisLabel)]);
    } else {
      auto it = dims.find(label);
      out.add_dim(it == dims.end() ? Shape::kUnknownDim : it->second);
    }
  }
  return shape_fns::set_checked_output(c, dt, std::move(out));
}

}  // namespace

void register_einsum_ops(OpRegistry& reg) {
  reg.op("Einsum").input("inputs: N * T").output("output: T").attr("equation: string").attr("N: int >= 1")
      .attr("T: type").shape_fn(einsum_shape, true);
}

}  // namespace graphfn
