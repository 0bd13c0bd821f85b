// The element-wise math table (cpp/graphfn/ops/math_cwise.def): every entry is an op with a
// kernel for each dtype it lists and the gradient declaration its column says, and each float
// kernel (Eigen's array form) agrees with the entry's scalar form.
#include "harness.h"

#include <unsupported/Eigen/SpecialFunctions>
#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>

#include "graphfn/ir/op_registry.h"
#include "graphfn/kernels/functors.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

template <typename... Ts>
std::vector<DType> dtypes_of(TypeList<Ts...>) {
  return {DTypeOf<Ts>::value...};
}

struct TableEntry {
  const char* op;
  std::vector<DType> kernel_dtypes;
  const char* gradient;  // the gradient column as written
};

const std::vector<TableEntry>& table() {
  static const std::vector<TableEntry> entries = {
#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD) {#NAME, dtypes_of(KTYPES{}), #GRAD},
#define GRAPHFN_BINARY(NAME, A, B, TYPES, ORDER, KTYPES, SCALAR, CHECK, GRAD) {#NAME, dtypes_of(KTYPES{}), #GRAD},
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY
  };
  return entries;
}

// Whether a kernel type list has float (the integer-only ops have no float kernel).
template <typename List> struct HasFloat;
template <typename... Ts> struct HasFloat<TypeList<Ts...>> {
  static constexpr bool value = (std::is_same_v<Ts, float> || ...);
};

// The scalar form of each unary entry, for float and double inputs (bools widened to double).
template <typename T>
double scalar_form(const std::string& op, T x) {
  using std::isnan;
#define GRAPHFN_UNARY(NAME, TYPES, OUT, KTYPES, ARRAY, SCALAR, GRAD)          \
  if (op == #NAME) {                                                         \
    if constexpr (!HasFloat<KTYPES>::value) return 0;  /* no float kernel */         \
    else return static_cast<double>(static_cast<OUT>(SCALAR));               \
  }
#define GRAPHFN_BINARY(...)
#include "graphfn/ops/math_cwise.def"
#undef GRAPHFN_UNARY
#undef GRAPHFN_BINARY
  return 0;
}

template <typename T>
void check_array_form_matches_scalar_form(const TableEntry& e, double rtol) {
  const std::vector<T> xs = {T(-2.5), T(-1), T(-0.5), T(-0.25), T(0), T(0.3), T(0.5), T(0.99), T(1), T(1.5), T(2.5),
                             T(7.25), T(30)};
  std::vector<Tensor> out;
  REQUIRE(execute_eager(e.op, {vec<T>(xs)}, AttrMap(), &out).ok());
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = scalar_form<T>(e.op, xs[i]);
    const double got = out[0].dtype() == DType::kBool ? out[0].data<bool>()[i] : out[0].data<T>()[i];
    INFO(e.op << "(" << xs[i] << "): kernel " << got << ", scalar form " << want);
    if (std::isnan(want)) {
      CHECK(std::isnan(got));
    } else if (std::isinf(want)) {
      CHECK(got == want);
    } else {
      CHECK(std::abs(got - want) <= rtol * std::max(1.0, std::abs(want)));
    }
  }
}

}  // namespace

TEST_CASE("every entry of the element-wise math table is an op with its kernels and gradient declaration",
          "[ops][cwise]") {
  REQUIRE(table().size() > 40);
  for (const TableEntry& e : table()) {
    INFO(e.op);
    const OpDef* op = OpRegistry::global().find(e.op);
    REQUIRE(op != nullptr);
    for (DType dt : e.kernel_dtypes) CHECK(op->kernels[static_cast<int>(dt)] != nullptr);
    if (std::strcmp(e.gradient, "no_gradient") == 0) {
      CHECK((op->grad_fn == nullptr && !op->not_differentiable));
    } else if (std::strcmp(e.gradient, "not_differentiable") == 0) {
      CHECK(op->not_differentiable);
    } else {
      CHECK(op->grad_fn != nullptr);
    }
  }
}

TEST_CASE("the unary float kernels (Eigen's array forms) agree with the table's scalar forms", "[kernels][cwise]") {
  for (const TableEntry& e : table()) {
    const OpDef* op = OpRegistry::global().find(e.op);
    if (op->inputs.size() != 1 || op->kernels[static_cast<int>(DType::kFloat32)] == nullptr) continue;
    check_array_form_matches_scalar_form<float>(e, 2e-6);
    check_array_form_matches_scalar_form<double>(e, 1e-13);
  }
}
