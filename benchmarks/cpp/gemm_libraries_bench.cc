// GEMM libraries on this machine, side by side (issue 19): which one MatMul should call.
// Standalone (no graphfn library needed); OpenBLAS and oneDNN are loaded with dlopen.
//
//   g++ -O3 -march=native -std=c++17 -DEIGEN_MPL2_ONLY -I$(EIGEN_INCLUDE) -pthread \
//       benchmarks/cpp/gemm_libraries_bench.cc -ldl -o /tmp/gemm_libraries_bench
//   OPENBLAS=$(python3 -c "import scipy_openblas32 as s; print(s.get_lib_dir())")/libscipy_openblas.so \
//   DNNL=/path/to/libdnnl.so /tmp/gemm_libraries_bench
//
// Columns (milliseconds per product, best of 5 rounds; C = A * B, row-major float32):
//   eigen1   Eigen's GEMM on one thread (graphfn's MatMul before issue 19)
//   eigenTP2 Eigen's tensor contraction on a ThreadPoolDevice with 2 threads
//   blas1    OpenBLAS cblas_sgemm on one thread
//   blas2    OpenBLAS cblas_sgemm with its own 2 threads
//   split2   two single-threaded cblas_sgemm calls on row halves, one on a persistent worker
//   dnnl     oneDNN dnnl_sgemm (its own threads), when DNNL names a loadable libdnnl.so
//
// Report (2-core AMD EPYC, AVX2+FMA, no AVX-512; OpenBLAS 0.3.34 (Haswell kernels), oneDNN
// 2026.1 from the PyPI wheels with their SYCL/TBB runtimes; the machine was shared with four
// other builds, load average 10.4 before and 11.0 after, so compare within a row only):
//   case                      eigen1  eigenTP2     blas1     blas2    split2      dnnl   (ms)
//   10x10x10                  0.0006    0.0009    0.0007    0.0008    0.0301    0.0007
//   64x64x64                  0.0347    0.0370    0.0264    0.0218    0.0573    0.0270
//   128x128x128               0.2775    0.2366    0.1433   39.9936    0.2050    0.1790
//   256x256x256               1.7151    2.3315    0.3600   46.5810    1.2396    1.1534
//   256x256x256 tA            1.9733    1.9452    1.2525   37.1576    1.3277    1.4087
//   256x256x256 tB            1.2187    1.3449    1.1561   44.0060    1.3723    1.2347
//   512x512x512              14.5934   15.0509   10.0630   67.9817    8.9500   11.0197
//   1000x1000x1000          117.5238  135.0865   71.2781  119.0882   76.2043   72.0003
//   1000x1000x1000 tA       132.5204  108.0744   75.1156  127.9814   83.3931   71.9824
//   1000x1000x1000 tB       124.3056  104.7754   69.6100  132.0101   64.2240   72.5599
//   batch64 128x128x128      14.8769   17.9345   10.9802   23.4646   16.0331    8.7449
//   64x784x128 (MLP fwd)      0.6460    0.9402    0.4988    3.5952    0.2028    0.4749
//   784x64x128 (MLP dW)       0.6479    0.2883    0.4435    1.8047    0.2235    0.4631
//   64x128x784 (MLP dX)       0.6159    1.1592    0.5158    0.1447    0.2816    0.5929
// An earlier run at load 16 ordered the columns the same way. Conclusions: OpenBLAS beats Eigen
// 1.3-4x per thread; oneDNN's sgemm is level with it (not the >= 15 % that would pay for its
// ~540 MB of wheels); OpenBLAS's own threads spin and collapse when the other core is busy, so
// kernels/gemm.cc calls it on one thread per row block of the intra-op pool (split2).
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define EIGEN_USE_THREADS
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>

namespace {

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                         float*, int);
using SetThreadsFn = void (*)(int);
// dnnl_status_t dnnl_sgemm(char transa, char transb, dim m, dim n, dim k, float alpha, const float* A,
//                          dim lda, const float* B, dim ldb, float beta, float* C, dim ldc) (row-major)
using DnnlSgemmFn = int (*)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*,
                            int64_t, float, float*, int64_t);

SgemmFn blas_sgemm = nullptr;
SetThreadsFn blas_threads = nullptr;
DnnlSgemmFn dnnl_sgemm = nullptr;

// One persistent worker that runs a job on request (the pool's dispatch cost, not a thread start).
class Worker {
 public:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    { std::lock_guard<std::mutex> l(mu_); stop_ = true; }
    cv_.notify_all();
    thread_.join();
  }
  void run_with(const std::function<void()>& mine, const std::function<void()>& theirs) {
    { std::lock_guard<std::mutex> l(mu_); job_ = theirs; done_ = false; }
    cv_.notify_all();
    mine();
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [this] { return done_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> l(mu_);
    for (;;) {
      cv_.wait(l, [this] { return stop_ || job_; });
      if (stop_) return;
      auto job = std::move(job_);
      job_ = nullptr;
      l.unlock();
      job();
      l.lock();
      done_ = true;
      cv_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool done_ = true, stop_ = false;
  std::thread thread_;
};

template <typename F>
double best_ms(F&& f, double budget_ms = 300) {
  f();
  auto t0 = std::chrono::steady_clock::now();
  f();
  const double one = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const int reps = std::max(1, static_cast<int>(budget_ms / 5 / std::max(one, 1e-4)));
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) f();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  return best;
}

struct Case {
  const char* name;
  int batch, m, k, n;
  bool ta, tb;
};

void run(const Case& cs, Eigen::ThreadPoolDevice& tp2, Worker& worker) {
  const int m = cs.m, k = cs.k, n = cs.n, B = cs.batch;
  std::vector<float> a(static_cast<size_t>(B) * m * k), b(static_cast<size_t>(B) * k * n), c(static_cast<size_t>(B) * m * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7) % 13) / 13.f - 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 5) % 11) / 11.f - 0.5f;
  const int lda = cs.ta ? m : k, ldb = cs.tb ? k : n;
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  auto eigen1 = [&] {
    for (int i = 0; i < B; ++i) {
      Eigen::Map<const Mat> A(a.data() + size_t(i) * m * k, cs.ta ? k : m, cs.ta ? m : k);
      Eigen::Map<const Mat> Bm(b.data() + size_t(i) * k * n, cs.tb ? n : k, cs.tb ? k : n);
      Eigen::Map<Mat> C(c.data() + size_t(i) * m * n, m, n);
      if (!cs.ta && !cs.tb) C.noalias() = A * Bm;
      else if (cs.ta && !cs.tb) C.noalias() = A.transpose() * Bm;
      else if (!cs.ta && cs.tb) C.noalias() = A * Bm.transpose();
      else C.noalias() = A.transpose() * Bm.transpose();
    }
  };
  auto eigen_tp2 = [&] {
    for (int i = 0; i < B; ++i) {
      Eigen::TensorMap<const Eigen::Tensor<float, 2, Eigen::RowMajor>> A(a.data() + size_t(i) * m * k, cs.ta ? k : m, cs.ta ? m : k);
      Eigen::TensorMap<const Eigen::Tensor<float, 2, Eigen::RowMajor>> Bt(b.data() + size_t(i) * k * n, cs.tb ? n : k, cs.tb ? k : n);
      Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>> C(c.data() + size_t(i) * m * n, m, n);
      Eigen::array<Eigen::IndexPair<int>, 1> dims = {Eigen::IndexPair<int>(cs.ta ? 0 : 1, cs.tb ? 1 : 0)};
      C.device(tp2) = A.contract(Bt, dims);
    }
  };
  auto blas = [&](int row0, int rows, int i) {
    const float* ap = a.data() + size_t(i) * m * k + (cs.ta ? row0 : size_t(row0) * k);
    blas_sgemm(101, cs.ta ? 112 : 111, cs.tb ? 112 : 111, rows, n, k, 1.f, ap, lda, b.data() + size_t(i) * k * n, ldb,
               0.f, c.data() + size_t(i) * m * n + size_t(row0) * n, n);
  };
  auto blas_all = [&] { for (int i = 0; i < B; ++i) blas(0, m, i); };
  auto split2 = [&] {
    if (B >= 2) {  // batches: half of them each
      worker.run_with([&] { for (int i = 0; i < B / 2; ++i) blas(0, m, i); },
                      [&] { for (int i = B / 2; i < B; ++i) blas(0, m, i); });
    } else {
      const int h = m / 2;
      worker.run_with([&] { blas(0, h, 0); }, [&] { blas(h, m - h, 0); });
    }
  };
  auto dnnl = [&] {
    for (int i = 0; i < B; ++i) {
      dnnl_sgemm(cs.ta ? 'T' : 'N', cs.tb ? 'T' : 'N', m, n, k, 1.f, a.data() + size_t(i) * m * k, lda,
                 b.data() + size_t(i) * k * n, ldb, 0.f, c.data() + size_t(i) * m * n, n);
    }
  };
  const double t_e1 = best_ms(eigen1), t_etp = best_ms(eigen_tp2);
  blas_threads(1);
  const double t_b1 = best_ms(blas_all);
  blas_threads(2);
  const double t_b2 = best_ms(blas_all);
  blas_threads(1);
  const double t_s2 = best_ms(split2);
  const double t_dn = dnnl_sgemm ? best_ms(dnnl) : -1;
  std::printf("%-22s %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f\n", cs.name, t_e1, t_etp, t_b1, t_b2, t_s2, t_dn);
  std::fflush(stdout);
}

}  // namespace

int main() {
  const char* ob = std::getenv("OPENBLAS");
  void* h = dlopen(ob ? ob : "libscipy_openblas.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) { std::fprintf(stderr, "no OpenBLAS: %s\n", dlerror()); return 1; }
  blas_sgemm = reinterpret_cast<SgemmFn>(dlsym(h, "scipy_cblas_sgemm"));
  blas_threads = reinterpret_cast<SetThreadsFn>(dlsym(h, "scipy_openblas_set_num_threads"));
  if (const char* dn = std::getenv("DNNL")) {
    void* d = dlopen(dn, RTLD_NOW | RTLD_LOCAL);
    if (d) dnnl_sgemm = reinterpret_cast<DnnlSgemmFn>(dlsym(d, "dnnl_sgemm"));
    else std::fprintf(stderr, "no oneDNN: %s\n", dlerror());
  }
  Eigen::ThreadPool pool(2);
  Eigen::ThreadPoolDevice tp2(&pool, 2);
  Worker worker;
  std::printf("%-22s %9s %9s %9s %9s %9s %9s   (ms)\n", "case", "eigen1", "eigenTP2", "blas1", "blas2", "split2", "dnnl");
  const Case cases[] = {
      {"10x10x10", 1, 10, 10, 10, false, false},
      {"64x64x64", 1, 64, 64, 64, false, false},
      {"128x128x128", 1, 128, 128, 128, false, false},
      {"256x256x256", 1, 256, 256, 256, false, false},
      {"256x256x256 tA", 1, 256, 256, 256, true, false},
      {"256x256x256 tB", 1, 256, 256, 256, false, true},
      {"512x512x512", 1, 512, 512, 512, false, false},
      {"1000x1000x1000", 1, 1000, 1000, 1000, false, false},
      {"1000x1000x1000 tA", 1, 1000, 1000, 1000, true, false},
      {"1000x1000x1000 tB", 1, 1000, 1000, 1000, false, true},
      {"batch64 128x128x128", 64, 128, 128, 128, false, false},
      {"64x784x128 (MLP fwd)", 1, 64, 784, 128, false, false},
      {"784x64x128 (MLP dW)", 1, 784, 64, 128, true, false},
      {"64x128x784 (MLP dX)", 1, 64, 128, 784, false, true},
  };
  for (const Case& cs : cases) run(cs, tp2, worker);
  return 0;
}
