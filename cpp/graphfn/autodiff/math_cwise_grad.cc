// Gradients of the element-wise math ops of ops/math_cwise.def: each entry's gradient column,
// an expression of grad_expr.h, becomes the op's gradient function.
#include <type_traits>

#include "graphfn/autodiff/grad_expr.h"
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad_expr::Expr;
using Grads = std::vector<GradValue>;

// Registers what a gradient column gives: a tag, or a function building the gradient(s).
template <typename Gradient>
void set_cwise_gradient(OpRegistry& reg, const char* op, GradFn fn) {
  if constexpr (std::is_same_v<Gradient, grad_expr::NotDifferentiable>) {
    reg.set_not_differentiable(op);
  } else if constexpr (!std::is_same_v<Gradient, grad_expr::NoGradient>) {
    reg.set_gradient(op, fn);
  }
}

// Stores what a gradient column built; tags store nothing (their functions are never registered).
void store(GradBuilder&, const GradInputs&, const Expr& gx, Grads* g) { (*g)[0] = gx.v; }
void store(GradBuilder& b, const GradInputs& in, const grad_expr::Grads& grads, Grads* g) {
  if (grads.a) (*g)[0] = b.reduce_to_shape_of(grads.a, in.inputs[0]);
  if (grads.b) (*g)[1] = b.reduce_to_shape_of(grads.b, in.inputs[1]);
}
void store(GradBuilder&, const GradInputs&, grad_expr::NotDifferentiable, Grads*) {}
void store(GradBuilder&, const GradInputs&, grad_expr::NoGradient, Grads*) {}

// TF's complex gradients are conj(f'(x)) * dy: the column's dy * f'(x), conjugated with dy
// conjugated first. Tags pass through.
Expr conjugate_if(bool complex, const Expr& e) { return complex ? grad_expr::op("Conj", e) : e; }
template <typename Tag>
Tag conjugate_if(bool, Tag tag) { return tag; }

// x, y (the output) and dy as expressions; the column's value is the input's gradient.
#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD)                              \
  auto NAME##_gradient(GradBuilder& b, const GradInputs& in) {                                   \
    using namespace grad_expr;                                                                   \
    const bool complex = is_complex(b.dtype(grad::x(in)));                                       \
    [[maybe_unused]] const Expr x{&b, grad::x(in)}, y{&b, grad::out(in)},                        \
        dy{&b, complex ? b.op("Conj", {grad::dy(in)}) : grad::dy(in)};                           \
    return conjugate_if(complex, GRAD);                                                          \
  }                                                                                              \
  Status NAME##_grad(GradBuilder& b, const GradInputs& in, Grads* g) {                           \
    store(b, in, NAME##_gradient(b, in), g);                                                     \
    return b.status();                                                                           \
  }
// a, b, z (the output) and dz; the column gives both gradients, reduced here to the inputs' shapes.
#define GRAPHFN_BINARY(NAME, A, B, TYPES, ORDER, KTYPES, SCALAR, CHECK, GRAD)                            \
  auto NAME##_gradient(GradBuilder& builder, const GradInputs& in) {                             \
    using namespace grad_expr;                                                                   \
    [[maybe_unused]] const Expr a{&builder, grad::x(in)}, b{&builder, grad::y(in)},              \
        z{&builder, grad::out(in)}, dz{&builder, grad::dy(in)};                                  \
    return GRAD;                                                                                 \
  }                                                                                              \
  Status NAME##_grad(GradBuilder& b, const GradInputs& in, Grads* g) {                           \
    store(b, in, NAME##_gradient(b, in), g);                                                     \
    return b.status();                                                                           \
  }
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY

}  // namespace

void register_math_cwise_gradients(OpRegistry& reg) {
#define GRAPHFN_SET_GRADIENT(NAME) \
  set_cwise_gradient<decltype(NAME##_gradient(std::declval<GradBuilder&>(), std::declval<const GradInputs&>()))>( \
      reg, #NAME, NAME##_grad);
#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD) GRAPHFN_SET_GRADIENT(NAME)
#define GRAPHFN_BINARY(NAME, A, B, TYPES, ORDER, KTYPES, SCALAR, CHECK, GRAD) GRAPHFN_SET_GRADIENT(NAME)
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY
#undef GRAPHFN_SET_GRADIENT
}

}  // namespace graphfn
