// The built-in op library: every op definition (ops/), kernel (kernels/) and gradient
// function, installed into OpRegistry::global(). Entry points call it before anything else (the
// Python module's init, SavedModel::load, the C++ test main); it is cheap after the first call.
#pragma once

namespace graphfn {

void install_builtin_ops();

}  // namespace graphfn
