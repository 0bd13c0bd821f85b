// Kernels of ops/complex_ops.cc: Complex (broadcasting), Real, Imag, Angle, ComplexAbs, Conj.
#include <cmath>
#include <complex>
#include <string>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// The kernels are chosen by T alone, but TF registers each only with the matching Tout
// (complex64 <-> float, complex128 <-> double): another Tout must fail as TF's kernel lookup does,
// not write values of the wrong width into the output (a heap overflow for Complex(double) ->
// complex64). ComplexAbs's lookup succeeds in TF and its signature check fails instead. Eagerly
// TF's error is NotFoundError, in graphs (c.node set) InvalidArgumentError.
Status check_result_type(const KernelContext& c, const char* op, DType in, DType expected) {
  const DType out = c.output_dtypes[0];
  if (out == expected) return Status::OK();
  if (std::string(op) == "ComplexAbs") {
    return errors::InvalidArgument("Signature mismatch, have: ", dtype_tf_string(in), "->", dtype_tf_string(out),
                                   " expected: ", dtype_tf_string(in), "->", dtype_tf_string(expected));
  }
  if (c.node != nullptr) {
    // In a graph TF fails when it makes the node's kernel: InvalidArgumentError with the pairs it has.
    const bool to_complex = std::string(op) == "Complex";
    const char* pairs = to_complex ? "  device='CPU'; T in [DT_DOUBLE]; Tout in [DT_COMPLEX128]\n"
                                     "  device='CPU'; T in [DT_FLOAT]; Tout in [DT_COMPLEX64]\n"
                                   : "  device='CPU'; T in [DT_COMPLEX128]; Tout in [DT_DOUBLE]\n"
                                     "  device='CPU'; T in [DT_COMPLEX64]; Tout in [DT_FLOAT]\n";
    return errors::InvalidArgument("No OpKernel was registered to support Op '", op, "' used by {{node ", op,
                                   "}} with these attrs: [Tout=", dtype_tf_enum(out), ", T=", dtype_tf_enum(in),
                                   "]\nRegistered devices: [CPU]\nRegistered kernels:\n", pairs);
  }
  return errors::NotFound("Could not find device for node: {{node ", op, "}} = ", op, "[T=", dtype_tf_enum(in),
                          ", Tout=", dtype_tf_enum(out), "]");
}

template <typename R>
struct ComplexKernel {
  static Status compute(KernelContext& c) {
    GRAPHFN_RETURN_IF_ERROR(check_result_type(c, "Complex", DTypeOf<R>::value, DTypeOf<std::complex<R>>::value));
    broadcast_binary_loop<R, std::complex<R>>(c.input(0), c.input(1), c.allocate_output(0),
                                              [](R re, R im) { return std::complex<R>(re, im); });
    return Status::OK();
  }
};

// complex -> real, element by element.
template <typename F>
struct ToReal {
  template <typename C>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using R = typename C::value_type;
      GRAPHFN_RETURN_IF_ERROR(check_result_type(c, F::kOp, DTypeOf<C>::value, DTypeOf<R>::value));
      const Tensor& x = c.input(0);
      const C* in = x.data<C>();
      R* out = c.allocate_output(0).data<R>();
      for (int64_t i = 0; i < x.num_elements(); ++i) out[i] = F::apply(in[i]);
      return Status::OK();
    }
  };
};

struct RealPart {
  static constexpr const char* kOp = "Real";
  template <typename C> static auto apply(const C& z) { return z.real(); }
};
struct ImagPart {
  static constexpr const char* kOp = "Imag";
  template <typename C> static auto apply(const C& z) { return z.imag(); }
};
struct Argument {
  static constexpr const char* kOp = "Angle";
  template <typename C> static auto apply(const C& z) { return std::arg(z); }
};
// std::abs of a complex is hypot(re, im): no overflow for large parts, as TF's.
struct Modulus {
  static constexpr const char* kOp = "ComplexAbs";
  template <typename C> static auto apply(const C& z) { return std::abs(z); }
};

template <typename C>
struct ConjKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const C* in = x.data<C>();
    C* out = c.allocate_output(0).data<C>();
    for (int64_t i = 0; i < x.num_elements(); ++i) out[i] = std::conj(in[i]);
    return Status::OK();
  }
};

}  // namespace

void register_complex_kernels(OpRegistry& reg) {
  register_kernels<ComplexKernel>(reg, "Complex", FloatTypes{});
  register_kernels<ToReal<RealPart>::Kernel>(reg, "Real", ComplexTypes{});
  register_kernels<ToReal<ImagPart>::Kernel>(reg, "Imag", ComplexTypes{});
  register_kernels<ToReal<Argument>::Kernel>(reg, "Angle", ComplexTypes{});
  register_kernels<ToReal<Modulus>::Kernel>(reg, "ComplexAbs", ComplexTypes{});
  register_kernels<ConjKernel>(reg, "Conj", ComplexTypes{});
}

}  // namespace graphfn
