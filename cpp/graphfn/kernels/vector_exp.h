// exp over float packets for the Exp kernel (ops/math_cwise.def): Eigen's own pexp_float (its
// range reduction, polynomial and final max with the input, so the same bits for x >= -88.723),
// with two changes:
//  - 2^m is applied as two exact power-of-two factors. Eigen's generic ldexp splits the scale
//    into four factors to cover exponents up to +-278, which exp never needs (|m| <= 150 after
//    the clamp): its four dependent multiplies were most of the loop's time. Both round once, at
//    the last multiply (the first is exact), so they agree wherever both apply.
//  - the lower clamp is -104 (where exp rounds to zero), not -88.723: Eigen's clamp made
//    exp(-inf) and exp(-100) 2.9e-39 instead of 0 and 3.7e-44. (TF prints 0 for both: it also
//    flushes denormal results to zero.)
// tests/python/test_vector_exp.py checks it against float64 exp.
#pragma once
#include <Eigen/Core>
#include <type_traits>

namespace graphfn {
namespace vector_math {

template <typename Packet>
EIGEN_STRONG_INLINE Packet pexp_float(const Packet& x_in) {
  using namespace Eigen::internal;
  using PacketI = typename unpacket_traits<Packet>::integer_packet;
  const Packet one = pset1<Packet>(1.0f);
  const Packet half = pset1<Packet>(0.5f);
  // Eigen's constants (Cephes' expf); exp(-104) rounds to 0.
  const Packet x = pmax(pmin(x_in, pset1<Packet>(88.723f)), pset1<Packet>(-104.0f));
  const Packet m = pfloor(pmadd(x, pset1<Packet>(1.44269504088896341f), half));
  Packet r = pmadd(m, pset1<Packet>(-0.693359375f), x);
  r = pmadd(m, pset1<Packet>(2.12194440e-4f), r);
  const Packet r2 = pmul(r, r);
  const Packet r3 = pmul(r2, r);
  Packet y = pmadd(pset1<Packet>(1.9875691500E-4f), r, pset1<Packet>(1.3981999507E-3f));
  Packet y1 = pmadd(pset1<Packet>(4.1665795894E-2f), r, pset1<Packet>(1.6666665459E-1f));
  const Packet y2 = padd(r, one);
  y = pmadd(y, r, pset1<Packet>(8.3334519073E-3f));
  y1 = pmadd(y1, r, pset1<Packet>(5.0000001201E-1f));
  y = pmadd(y, r3, y1);
  y = pmadd(y, r2, y2);
  // y * 2^m as y * 2^(m >> 1) * 2^(m - (m >> 1)), m in [-150, 128]: both factors are normal floats.
  const PacketI bias = pset1<PacketI>(127);
  const PacketI e = pcast<Packet, PacketI>(m);
  const PacketI e1 = parithmetic_shift_right<1>(e);
  const Packet c1 = preinterpret<Packet>(plogical_shift_left<23>(padd(e1, bias)));
  const Packet c2 = preinterpret<Packet>(plogical_shift_left<23>(padd(psub(e, e1), bias)));
  return pmax(pmul(pmul(y, c1), c2), x_in);
}

// The functor for Eigen's array expressions: x.unaryExpr(ExpFloatOp()) (float arrays only;
// elements outside whole packets take the scalar path, std::exp, as Eigen's x.exp() does).
struct ExpFloatOp {
  float operator()(float x) const { return Eigen::numext::exp(x); }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    return pexp_float(x);
  }
};

// exp of an Eigen array expression: the packet form above for float, Eigen's own otherwise.
template <typename Derived>
auto exp(const Eigen::ArrayBase<Derived>& x) {
  if constexpr (std::is_same_v<typename Derived::Scalar, float>) {
    return x.unaryExpr(ExpFloatOp());
  } else {
    return x.exp();
  }
}

}  // namespace vector_math
}  // namespace graphfn

namespace Eigen {
namespace internal {
template <>
struct functor_traits<graphfn::vector_math::ExpFloatOp> {
  enum { Cost = functor_traits<scalar_exp_op<float>>::Cost, PacketAccess = packet_traits<float>::HasExp };
};
}  // namespace internal
}  // namespace Eigen
