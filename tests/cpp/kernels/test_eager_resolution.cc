// Eager execution remembers, per thread, how a call without attrs resolved (type attrs and
// kernel) for its op and input dtypes. A remembered resolution must give exactly what a fresh
// one gives: values, and errors with TF's decorations.
#include "harness.h"

#include <thread>

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("a repeated eager call resolves as the first one did, per input dtypes", "[eager]") {
  for (int round = 0; round < 3; ++round) {
    CHECK(values<float>(run1("AddV2", {scalar<float>(1.5f), scalar<float>(2.5f)})) == std::vector<float>{4.0f});
    CHECK(values<int32_t>(run1("AddV2", {scalar<int32_t>(2), scalar<int32_t>(3)})) == std::vector<int32_t>{5});
    CHECK(values<double>(run1("AddV2", {vec<double>({1, 2}), scalar<double>(0.5)})) == std::vector<double>{1.5, 2.5});
  }
}

TEST_CASE("errors after a remembered resolution are those of a fresh call", "[eager]") {
  run1("AddV2", {scalar<float>(1.0f), scalar<float>(2.0f)});
  // Mixed dtypes: TF's eager input check (derived from the op's signature: input #1 must match T).
  const Status mixed = run_error("AddV2", {scalar<float>(1.0f), scalar<int32_t>(2)});
  CHECK(message(mixed) ==
        "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 tensor "
        "[Op:AddV2] name: ");
  // An explicit attr that contradicts the inputs is never answered from memory.
  AttrMap attrs;
  attrs.set("T", DType::kInt32);
  const Status contradicted = run_error("AddV2", {scalar<float>(1.0f), scalar<float>(2.0f)}, attrs);
  CHECK(contains(contradicted, "[Op:AddV2]"));
  // A kernel's own error (incompatible shapes) keeps the wrapped-function prefix on every call.
  const Status first = run_error("AddV2", {vec<float>({1, 2}), vec<float>({1, 2, 3})});
  const Status again = run_error("AddV2", {vec<float>({1, 2}), vec<float>({1, 2, 3})});
  CHECK(message(first) == message(again));
  CHECK(contains(first, "Incompatible shapes: [2] vs. [3]"));
  CHECK(contains(first, "{{function_node __wrapped__AddV2_device_/job:localhost/replica:0/task:0/device:CPU:0}}"));
  // A dtype the op has no kernel for fails the same way before and after successes.
  const Status no_kernel_first = run_error("AddV2", {scalar<bool>(true), scalar<bool>(false)});
  run1("AddV2", {scalar<float>(1.0f), scalar<float>(2.0f)});
  const Status no_kernel_again = run_error("AddV2", {scalar<bool>(true), scalar<bool>(false)});
  CHECK(message(no_kernel_first) == message(no_kernel_again));
}

TEST_CASE("threads resolving different dtypes of one op get their own results", "[eager][threads]") {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 2000; ++i) {
        std::vector<Tensor> out;
        if ((i + t) % 2 == 0) {
          const Status s = execute_eager("AddV2", {Tensor::scalar<float>(float(i)), Tensor::scalar<float>(0.5f)},
                                         AttrMap(), &out);
          if (!s.ok() || out[0].dtype() != DType::kFloat32 || out[0].data<float>()[0] != float(i) + 0.5f) ++failures[t];
        } else {
          const Status s = execute_eager("AddV2", {Tensor::scalar<int64_t>(i), Tensor::scalar<int64_t>(t)},
                                         AttrMap(), &out);
          if (!s.ok() || out[0].dtype() != DType::kInt64 || out[0].data<int64_t>()[0] != i + t) ++failures[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures == std::vector<int>(4, 0));
}
