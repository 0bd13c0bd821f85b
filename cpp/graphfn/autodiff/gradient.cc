#include "graphfn/autodiff/gradient.h"

#include <Eigen/Core>
#include <complex>

#include <atomic>

#include "graphfn/ir/op_registry.h"

namespace graphfn {
namespace {

const AttrValue* attr_or_default(const GradInputs& in, const std::string& name) {
  if (const AttrValue* v = in.attrs->find(name)) return v;
  const AttrDef* def = in.op->find_attr(name);
  return def && def->has_default ? &def->default_value : nullptr;
}

template <typename T>
T attr_as(const GradInputs& in, const std::string& name, T fallback) {
  const AttrValue* v = attr_or_default(in, name);
  if (!v) return fallback;
  const T* p = std::get_if<T>(v);
  return p ? *p : fallback;
}

}  // namespace

bool GradInputs::attr_bool(const std::string& name) const { return attr_as<bool>(*this, name, false); }
int64_t GradInputs::attr_int(const std::string& name) const { return attr_as<int64_t>(*this, name, 0); }
DType GradInputs::attr_type(const std::string& name) const { return attr_as<DType>(*this, name, DType::kInvalid); }
std::vector<int64_t> GradInputs::attr_ints(const std::string& name) const {
  return attr_as<std::vector<int64_t>>(*this, name, {});
}

Tensor scalar_tensor(DType dt, double value) {
  Tensor t(dt, Shape());
  const bool ok = visit_dtype(dt, NumericTypes{}, [&](auto zero) {
    using T = decltype(zero);
    *t.data<T>() = static_cast<T>(value);
  });
  if (!ok && dt == DType::kBool) *t.data<bool>() = value != 0;
  if (!ok && dt == DType::kHalf) *t.data<Eigen::half>() = Eigen::half(static_cast<float>(value));
  if (!ok && dt == DType::kBFloat16) *t.data<Eigen::bfloat16>() = Eigen::bfloat16(static_cast<float>(value));
  if (!ok && dt == DType::kComplex64) *t.data<std::complex<float>>() = static_cast<float>(value);
  if (!ok && dt == DType::kComplex128) *t.data<std::complex<double>>() = value;
  return t;
}

bool is_trainable_dtype(DType dt) {
  // TF's trainable dtypes: the floating and complex ones (and handles to variables of them).
  return is_floating(dt) || is_complex(dt) || dt == DType::kResource;
}

std::vector<GradValue> GradBuilder::op_n(const std::string& op_name, const std::vector<GradValue>& inputs,
                                         AttrMap attrs) {
  std::vector<GradValue> outputs;
  if (!status_.ok()) return outputs;
  const OpDef* def = OpRegistry::global().find(op_name);
  if (!def) {
    set_error(errors::NotFound("Op type not registered '", op_name, "'"));
    return outputs;
  }
  for (const GradValue& v : inputs) {
    if (v.is_null()) {
      set_error(errors::Internal("gradient of ", op_name, ": null input"));
      return outputs;
    }
  }
  set_error(run(*def, inputs, attrs, &outputs));
  if (!status_.ok()) outputs.clear();
  return outputs;
}

GradValue GradBuilder::op(const std::string& op_name, std::initializer_list<GradValue> inputs, AttrMap attrs) {
  std::vector<GradValue> outputs = op_n(op_name, std::vector<GradValue>(inputs), std::move(attrs));
  return outputs.empty() ? GradValue() : std::move(outputs[0]);
}

GradValue GradBuilder::scalar(DType dt, double value) { return constant(scalar_tensor(dt, value)); }

GradValue GradBuilder::int_vector(const std::vector<int64_t>& values) {
  Tensor t(DType::kInt32, Shape{static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
  return constant(t);
}

GradValue GradBuilder::shape_of(const GradValue& v) {
  const Shape s = static_shape(v);
  if (s.known_rank() && s.fully_defined()) {
    std::vector<int64_t> dims(s.dims().begin(), s.dims().end());
    return int_vector(dims);
  }
  return op("Shape", {v});
}

GradValue GradBuilder::zeros_like(const GradValue& v) { return op("ZerosLike", {v}); }
GradValue GradBuilder::ones_like(const GradValue& v) { return op("OnesLike", {v}); }

GradValue GradBuilder::reduce_to_shape_of(const GradValue& grad, const GradValue& like) {
  if (grad.is_null()) return grad;
  const Shape gs = static_shape(grad), ls = static_shape(like);
  const bool known = gs.known_rank() && ls.known_rank() && gs.fully_defined() && ls.fully_defined();
  if (known && gs == ls) return grad;
  if (known) {  // the axes are known now: no BroadcastGradientArgs at run time
    std::vector<int64_t> axes, unused;
    const std::vector<int64_t> g_dims(gs.dims().begin(), gs.dims().end()), l_dims(ls.dims().begin(), ls.dims().end());
    Status s = broadcast_gradient_axes(l_dims, g_dims, &axes, &unused);
    if (!s.ok()) {
      set_error(s);
      return GradValue();
    }
    GradValue summed = axes.empty() ? grad : op("Sum", {grad, int_vector(axes)});
    if (summed.is_null() || static_shape(summed) == ls) return summed;
    return op("Reshape", {summed, shape_of(like)});
  }
  const GradValue like_shape = shape_of(like);
  std::vector<GradValue> axes = op_n("BroadcastGradientArgs", {like_shape, shape_of(grad)});
  if (axes.empty()) return GradValue();
  const GradValue summed = op("Sum", {grad, axes[0]});
  return op("Reshape", {summed, like_shape});
}

GradValue GradBuilder::add_n(const std::vector<GradValue>& values) {
  std::vector<GradValue> present;
  for (const GradValue& v : values) {
    if (!v.is_null()) present.push_back(v);
  }
  if (present.empty()) return GradValue();
  if (present.size() == 1) return present[0];
  if (present.size() == 2 && dtype(present[0]) != DType::kResource) return op("AddV2", {present[0], present[1]});
  AttrMap attrs;
  attrs.set("N", static_cast<int64_t>(present.size()));
  std::vector<GradValue> sum = op_n("AddN", present, attrs);
  return sum.empty() ? GradValue() : sum[0];
}

namespace {
std::atomic<GradientOverride> g_gradient_override{nullptr};
}  // namespace

void set_gradient_override(GradientOverride handler) { g_gradient_override.store(handler); }

const OpDef& custom_gradient_op() {
  static const OpDef* op = [] {
    auto* def = new OpDef();
    def->name = "CustomGradient";
    return def;
  }();
  return *op;
}

Status call_gradient(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* input_grads) {
  if (const std::string* name = in.attrs ? in.attrs->get_string("_gradient_op_type") : nullptr) {
    const GradientOverride handler = g_gradient_override.load();
    if (!handler) return errors::NotFound("gradient registry has no entry for: ", *name);
    input_grads->assign(in.inputs.size(), GradValue());
    GRAPHFN_RETURN_IF_ERROR(handler(*name, b, in, input_grads));
    GRAPHFN_RETURN_IF_ERROR(b.status());
    input_grads->resize(in.inputs.size());
    return Status::OK();
  }
  if (!in.op->grad_fn) {
    return errors::NotFound("gradient registry has no entry for: ", in.op->name);
  }
  input_grads->assign(in.inputs.size(), GradValue());
  GRAPHFN_RETURN_IF_ERROR(in.op->grad_fn(b, in, input_grads));
  GRAPHFN_RETURN_IF_ERROR(b.status());
  input_grads->resize(in.inputs.size());
  return Status::OK();
}

}  // namespace graphfn
