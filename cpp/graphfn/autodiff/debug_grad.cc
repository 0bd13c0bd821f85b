// CheckNumerics' gradient: the incoming gradient, itself checked, with TF's message (which
// shows the forward message as Python bytes, b'...', as TF's gradient function formats it).
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

Status check_numerics_grad(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* grads) {
  const std::string* message = in.attrs ? in.attrs->get_string("message") : nullptr;
  const std::string text = "Not a number (NaN) or infinity (Inf) values detected in gradient. b'" +
                           (message ? *message : std::string()) + "'";
  (*grads)[0] = b.op("CheckNumerics", {grad::dy(in)}, grad::attrs({{"message", text}}));
  return b.status();
}

}  // namespace

void register_debug_gradients(OpRegistry& reg) { reg.set_gradient("CheckNumerics", check_numerics_grad); }

}  // namespace graphfn
