#include "graphfn/kernels/lapack.h"

#include <dlfcn.h>

#include <cstdlib>
#include <limits>
#include <mutex>

namespace graphfn {
namespace lapack {
namespace {

// scipy-openblas32 prefixes every exported name with "scipy_" so that it cannot clash with
// another BLAS in the process (NumPy's own OpenBLAS, say).
constexpr const char* kPrefix = "scipy_";
constexpr const char* kDefaultName = "libscipy_openblas.so";

struct Library {
  std::mutex mu;     // guards path
  std::string path;  // set_library_path
  std::once_flag loaded;
  Status status;     // load's result, written once
  Routines<float> f{};
  Routines<double> d{};
};

Library& library() {
  static Library* lib = new Library();  // never destroyed: kernels may run during exit
  return *lib;
}

template <typename Fn>
bool find(void* handle, const std::string& name, Fn* out, std::string* missing) {
  *out = reinterpret_cast<Fn>(dlsym(handle, (kPrefix + name).c_str()));
  if (*out == nullptr && missing->empty()) *missing = kPrefix + name;
  return *out != nullptr;
}

template <typename T>
void find_all(void* h, char p, Routines<T>* r, std::string* missing) {
  const std::string lapacke = std::string("LAPACKE_") + p;
  find(h, lapacke + "getrf", &r->getrf, missing);
  find(h, lapacke + "getri", &r->getri, missing);
  find(h, lapacke + "getrs", &r->getrs, missing);
  find(h, lapacke + "potrf", &r->potrf, missing);
  find(h, lapacke + "syevd", &r->syevd, missing);
  find(h, lapacke + "geqrf", &r->geqrf, missing);
  find(h, lapacke + "orgqr", &r->orgqr, missing);
  find(h, lapacke + "gesdd", &r->gesdd, missing);
  find(h, std::string("cblas_") + p + "trsm", &r->trsm, missing);
  find(h, std::string("cblas_") + p + "gemm", &r->gemm, missing);
}

Status load(Library& lib) {
  const char* env = std::getenv("GRAPHFN_OPENBLAS_LIBRARY");
  const std::string path = env && *env ? env : !lib.path.empty() ? lib.path : kDefaultName;
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* why = dlerror();
    return errors::FailedPrecondition(
        "graphfn's linear algebra kernels need OpenBLAS from the scipy-openblas32 package "
        "(pip install scipy-openblas32), which could not be loaded from ", path, ": ", why ? why : "");
  }
  std::string missing;
  find_all(h, 's', &lib.f, &missing);
  find_all(h, 'd', &lib.d, &missing);
  void (*set_nancheck)(int) = nullptr;
  void (*set_threads)(int) = nullptr;
  find(h, "LAPACKE_set_nancheck", &set_nancheck, &missing);
  find(h, "openblas_set_num_threads", &set_threads, &missing);
  if (!missing.empty()) {
    return errors::FailedPrecondition("The OpenBLAS library ", path, " has no ", missing,
                                      ": graphfn needs the scipy-openblas32 package's library");
  }
  // NaN inputs are the kernels' business (TF gives NaN results, not errors).
  set_nancheck(0);
  // One thread per call: the kernels split batches over threads themselves, and OpenBLAS's
  // spinning workers slowed every call down many times over on a busy 2-core machine.
  set_threads(1);
  return Status::OK();
}

template <typename T>
const Routines<T>& table(Library& lib);
template <>
const Routines<float>& table(Library& lib) { return lib.f; }
template <>
const Routines<double>& table(Library& lib) { return lib.d; }

}  // namespace

void set_library_path(const std::string& path) {
  Library& lib = library();
  std::lock_guard<std::mutex> lock(lib.mu);
  lib.path = path;
}

template <typename T>
Status routines(const Routines<T>** out) {
  Library& lib = library();
  // Loaded once; later calls (every linalg kernel run) take no lock.
  std::call_once(lib.loaded, [&lib] {
    std::lock_guard<std::mutex> lock(lib.mu);
    lib.status = load(lib);
  });
  *out = &table<T>(lib);
  return lib.status;
}

template Status routines<float>(const Routines<float>**);
template Status routines<double>(const Routines<double>**);

Status lapack_dim(int64_t n, const char* op, int* out) {
  if (n > std::numeric_limits<int>::max()) {
    return errors::InvalidArgument(op, ": a matrix dimension of ", n, " is too large for LAPACK's 32-bit indices");
  }
  *out = static_cast<int>(n);
  return Status::OK();
}

}  // namespace lapack
}  // namespace graphfn
