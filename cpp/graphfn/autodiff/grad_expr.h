// Gradient expressions: the gradient column of an element-wise op table (ops/math_cwise.def) is
// ordinary C++ on `Expr` values, so `dy * op("Cos", x)` builds Mul(dy, Cos(x)) through the
// GradBuilder, eagerly or as graph nodes. A number beside an Expr becomes a scalar of the Expr's
// dtype (`1 - op("Square", x)`), as TF's gradient code writes constants.
#pragma once
#include "graphfn/autodiff/gradient.h"

namespace graphfn {
namespace grad_expr {

struct Expr {
  GradBuilder* b;
  GradValue v;
};

// Tags for the gradient column: TF registers no gradient, or one that returns None.
struct NoGradient {};
struct NotDifferentiable {};
inline constexpr NoGradient no_gradient{};
inline constexpr NotDifferentiable not_differentiable{};

// The two gradients of a binary op; `none` for an input TF does not differentiate.
struct None {};
inline constexpr None none{};
struct Grads {
  GradValue a, b;
};
inline Grads grads(const Expr& ga, const Expr& gb) { return {ga.v, gb.v}; }
inline Grads grads(None, const Expr& gb) { return {GradValue(), gb.v}; }

inline Expr op(const char* name, const Expr& x) { return {x.b, x.b->op(name, {x.v})}; }
inline Expr op(const char* name, const Expr& x, const Expr& y) { return {x.b, x.b->op(name, {x.v, y.v})}; }

// A scalar of `like`'s dtype.
inline Expr scalar(const Expr& like, double value) { return {like.b, like.b->scalar(like.b->dtype(like.v), value)}; }
inline Expr zeros_like(const Expr& x) { return {x.b, x.b->zeros_like(x.v)}; }
// 1 where x != 0, else 0, in x's dtype.
inline Expr nonzero(const Expr& x) {
  AttrMap cast;
  cast.set("DstT", x.b->dtype(x.v));
  return {x.b, x.b->op("Cast", {x.b->op("NotEqual", {x.v, scalar(x, 0).v})}, cast)};
}

inline Expr operator-(const Expr& x) { return op("Neg", x); }
inline Expr operator+(const Expr& x, const Expr& y) { return op("AddV2", x, y); }
inline Expr operator-(const Expr& x, const Expr& y) { return op("Sub", x, y); }
inline Expr operator*(const Expr& x, const Expr& y) { return op("Mul", x, y); }
inline Expr operator/(const Expr& x, const Expr& y) { return op("RealDiv", x, y); }
inline Expr operator+(const Expr& x, double c) { return x + scalar(x, c); }
inline Expr operator+(double c, const Expr& x) { return scalar(x, c) + x; }
inline Expr operator-(const Expr& x, double c) { return x - scalar(x, c); }
inline Expr operator-(double c, const Expr& x) { return scalar(x, c) - x; }
inline Expr operator*(const Expr& x, double c) { return x * scalar(x, c); }
inline Expr operator*(double c, const Expr& x) { return scalar(x, c) * x; }
inline Expr operator/(const Expr& x, double c) { return x / scalar(x, c); }
inline Expr operator/(double c, const Expr& x) { return scalar(x, c) / x; }

}  // namespace grad_expr
}  // namespace graphfn
