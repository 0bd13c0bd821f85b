// Matrix decompositions and solvers (Svd, Qr, Cholesky, SelfAdjointEigV2, Eig, Lu, MatrixDeterminant,
// LogMatrixDeterminant, MatrixInverse, MatrixSolve, MatrixTriangularSolve) and matrix structure
// (MatrixBandPart, MatrixDiag/MatrixDiagPart/MatrixSetDiag in their V1, V2 and V3 forms, Cross). All work on the last
// two dims, batched over the leading ones. Eager calls get the kernel's messages, graph
// building TF's shape-function messages.
#include <algorithm>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

constexpr const char* kFloatTypes = "T: {double, float, half, complex64, complex128}";
constexpr int64_t kUnknown = Shape::kUnknownDim;

Shape batch_of(const Shape& s, int drop) {
  return Shape(std::vector<int64_t>(s.dims().begin(), s.dims().end() - drop));
}

Shape with_dims(Shape s, std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) s.add_dim(d);
  return s;
}

// Rank >= 2 check of input i: the kernel's words eagerly, the shape function's in graphs.
Status check_matrix(InferenceContext& c, int i, const char* eager_text = nullptr) {
  const Shape& s = c.input_shape(i);
  if (!s.known_rank() || s.rank() >= 2) return Status::OK();
  if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
  if (eager_text) return errors::InvalidArgument(eager_text, s.rank());
  return errors::InvalidArgument("Input tensor ", i, " must have rank >= 2, got ", s.rank());
}

// A square matrix (batch). `cols_first`: the graph message names the column count first.
Status check_square(InferenceContext& c, bool cols_first, const char* eager_rank_text = nullptr) {
  GRAPHFN_RETURN_IF_ERROR(check_matrix(c, 0, eager_rank_text));
  const Shape& s = c.input_shape(0);
  if (!s.known_rank()) return Status::OK();
  const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
  if (rows >= 0 && cols >= 0 && rows != cols) {
    if (c.is_eager()) return errors::InvalidArgument("Input matrix must be square.");
    return cols_first ? shape_fns::dims_must_be_equal(cols, rows) : shape_fns::dims_must_be_equal(rows, cols);
  }
  return Status::OK();
}

int64_t merged(int64_t a, int64_t b) { return a >= 0 ? a : b; }

Status determinant_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_square(c, true));
  const Shape& s = c.input_shape(0);
  const DType dt = c.input_dtype(0);
  const Shape out = s.known_rank() ? batch_of(s, 2) : Shape::unknown_rank();
  for (int i = 0; i < (c.op().name == "LogMatrixDeterminant" ? 2 : 1); ++i) c.set_output(i, dt, out);
  return Status::OK();
}

Status square_unchanged_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_square(c, false));
  Shape s = c.input_shape(0);
  if (s.known_rank()) {
    const int64_t n = merged(s.dim(s.rank() - 1), s.dim(s.rank() - 2));
    s.set_dim(s.rank() - 1, n);
    s.set_dim(s.rank() - 2, n);
  }
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

Status lu_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_square(c, false, "Input tensor must have rank >= 2, got "));
  GRAPHFN_RETURN_IF_ERROR(square_unchanged_shape(c));
  const Shape& s = c.output_shape(0);
  const DType idx = c.type_attr("output_idx_type");
  c.set_output(1, idx, s.known_rank() ? batch_of(s, 1) : Shape::unknown_rank());
  return Status::OK();
}

Status eig_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_square(c, false));
  const Shape& s = c.input_shape(0);
  const DType dt = c.input_dtype(0);
  const bool compute_v = c.attrs().get_bool("compute_v", true);
  if (!s.known_rank()) {
    c.set_output(0, dt, Shape::unknown_rank());
    c.set_output(1, dt, compute_v ? Shape::unknown_rank() : Shape{0});
    return Status::OK();
  }
  const int64_t n = merged(s.dim(s.rank() - 1), s.dim(s.rank() - 2));
  c.set_output(0, dt, with_dims(batch_of(s, 2), {n}));
  c.set_output(1, dt, compute_v ? with_dims(batch_of(s, 2), {n, n}) : Shape{0});
  return Status::OK();
}

// Eig: complex eigenvalues (and eigenvectors) of type Tout. Without eigenvectors, v is TF's
// placeholder: [0] in graphs, a scalar eagerly (TF's kernel allocates it so).
Status general_eig_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_square(c, false));
  const Shape& s = c.input_shape(0);
  const DType dt = c.attrs().get_type("Tout", DType::kComplex64);
  const bool compute_v = c.attrs().get_bool("compute_v", true);
  const Shape no_v = c.is_eager() ? Shape() : Shape{0};
  if (!s.known_rank()) {
    c.set_output(0, dt, Shape::unknown_rank());
    c.set_output(1, dt, compute_v ? Shape::unknown_rank() : no_v);
    return Status::OK();
  }
  const int64_t n = merged(s.dim(s.rank() - 1), s.dim(s.rank() - 2));
  c.set_output(0, dt, with_dims(batch_of(s, 2), {n}));
  c.set_output(1, dt, compute_v ? with_dims(batch_of(s, 2), {n, n}) : no_v);
  return Status::OK();
}

Status svd_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_matrix(c, 0));
  const Shape& s = c.input_shape(0);
  const DType dt = c.input_dtype(0);
  const bool uv = c.attrs().get_bool("compute_uv", true), full = c.attrs().get_bool("full_matrices", false);
  if (!s.known_rank()) {
    for (int i = 0; i < 3; ++i) c.set_output(i, dt, i == 0 || uv ? Shape::unknown_rank() : Shape{0});
    return Status::OK();
  }
  const int64_t m = s.dim(s.rank() - 2), n = s.dim(s.rank() - 1);
  const int64_t p = m >= 0 && n >= 0 ? std::min(m, n) : kUnknown;
  const Shape b = batch_of(s, 2);
  c.set_output(0, dt, with_dims(b, {p}));
  c.set_output(1, dt, uv ? with_dims(b, {m, full ? m : p}) : Shape{0});
  c.set_output(2, dt, uv ? with_dims(b, {n, full ? n : p}) : Shape{0});
  return Status::OK();
}

Status qr_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_matrix(c, 0));
  const Shape& s = c.input_shape(0);
  const DType dt = c.input_dtype(0);
  if (!s.known_rank()) {
    c.set_output(0, dt, Shape::unknown_rank());
    c.set_output(1, dt, Shape::unknown_rank());
    return Status::OK();
  }
  const bool full = c.attrs().get_bool("full_matrices", false);
  const int64_t m = s.dim(s.rank() - 2), n = s.dim(s.rank() - 1);
  const int64_t p = m >= 0 && n >= 0 ? std::min(m, n) : kUnknown;
  const Shape b = batch_of(s, 2);
  c.set_output(0, dt, with_dims(b, {m, full ? m : p}));
  c.set_output(1, dt, with_dims(b, {full ? m : p, n}));
  return Status::OK();
}

// MatrixSolve: same batch dims (no broadcasting), square matrix, rhs rows = matrix rows.
Status solve_shape(InferenceContext& c) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  GRAPHFN_RETURN_IF_ERROR(check_matrix(c, 0));
  if (c.is_eager() && a.rank() != b.rank()) return errors::InvalidArgument("All input tensors must have the same rank.");
  GRAPHFN_RETURN_IF_ERROR(check_matrix(c, 1));
  if (!a.known_rank() || !b.known_rank()) {
    c.set_output(0, c.input_dtype(0), b.known_rank() ? b : Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t rows = a.dim(a.rank() - 2), cols = a.dim(a.rank() - 1), rhs_rows = b.dim(b.rank() - 2);
  if (c.is_eager()) {
    if (a.rank() != b.rank()) return errors::InvalidArgument("All input tensors must have the same rank.");
    if (rows != cols) return errors::InvalidArgument("First input (lhs) must be a square matrix.");
    for (int d = 0; d + 2 < a.rank(); ++d) {
      if (a.dim(d) != b.dim(d)) return errors::InvalidArgument("All input tensors must have the same outer dimensions.");
    }
    if (rhs_rows != rows) return errors::InvalidArgument("Input matrix and rhs are incompatible.");
  } else {
    if (rows >= 0 && cols >= 0 && rows != cols) return shape_fns::dims_must_be_equal(rows, cols);
    if (a.rank() != b.rank()) {
      return errors::InvalidArgument("Shapes must be equal rank, but are ", a.rank() - 2, " and ", b.rank() - 2);
    }
    for (int d = 0; d + 2 < a.rank(); ++d) {
      if (a.dim(d) >= 0 && b.dim(d) >= 0 && a.dim(d) != b.dim(d)) {
        return errors::InvalidArgument("Dimension ", d, " in both shapes must be equal, but are ", a.dim(d), " and ",
                                       b.dim(d), ". Shapes are ", batch_of(a, 2), " and ", batch_of(b, 2), ".");
      }
    }
    const int64_t n = merged(rows, cols);
    if (n >= 0 && rhs_rows >= 0 && n != rhs_rows) return shape_fns::dims_must_be_equal(n, rhs_rows);
  }
  Shape out = b;
  for (int d = 0; d + 2 < a.rank(); ++d) out.set_dim(d, merged(a.dim(d), b.dim(d)));
  out.set_dim(out.rank() - 2, merged(a.dim(a.rank() - 2), merged(a.dim(a.rank() - 1), rhs_rows)));
  c.set_output(0, c.input_dtype(0), out);
  return Status::OK();
}

// MatrixTriangularSolve: batch dims broadcast, as BatchMatMul.
Status triangular_solve_shape(InferenceContext& c) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  for (int i = 0; i < 2; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && s.rank() < 2) {
      if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
      return errors::InvalidArgument("In[", i, "] ndims must be >= 2: ", s.rank());
    }
  }
  if (!a.known_rank() || !b.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t rows = a.dim(a.rank() - 2), cols = a.dim(a.rank() - 1), rhs_rows = b.dim(b.rank() - 2);
  const bool lower = c.attrs().get_bool("lower", true), adjoint = c.attrs().get_bool("adjoint", false);
  if (c.is_eager()) {
    if (rows != cols) {
      return errors::InvalidArgument("In[0] matrices in the last dimensions must be square (", cols, " =/= ", rows, ")");
    }
  } else if (rows >= 0 && cols >= 0 && rows != cols) {
    return shape_fns::dims_must_be_equal(rows, cols);
  }
  Shape out;
  if (!broadcast_shapes(batch_of(a, 2), batch_of(b, 2), &out).ok()) {
    return errors::InvalidArgument("In[0] and In[1] must have compatible batch dimensions: ", a, " vs. ", b);
  }
  const int64_t n = merged(rows, cols);
  if (n >= 0 && rhs_rows >= 0 && n != rhs_rows) {
    if (!c.is_eager()) return shape_fns::dims_must_be_equal(n, rhs_rows);
    return errors::InvalidArgument("In[0] mismatch In[1] shape: ", n, " vs. ", rhs_rows, ": ", a, " ", b, " ",
                                   lower ? 1 : 0, " ", adjoint ? 1 : 0);
  }
  out.add_dim(merged(n, rhs_rows));
  out.add_dim(b.dim(b.rank() - 1));
  c.set_output(0, c.input_dtype(0), out);
  return Status::OK();
}

// A scalar integer input's value, when known (k, num_lower...).
bool scalar_value(InferenceContext& c, int i, int64_t* v) {
  const Tensor* t = c.input_value(i);
  if (!t) return false;
  std::vector<int64_t> vals;
  if (!tensor_to_int64s(*t, &vals).ok() || vals.empty()) return false;
  *v = vals[0];
  return true;
}

Status band_part_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (s.known_rank() && s.rank() < 2) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
    return errors::InvalidArgument("input must be at least 2-dim, received shape: ", s);
  }
  const char* names[] = {"num_lower", "num_upper"};
  for (int i = 1; i <= 2; ++i) {
    const Shape& ks = c.input_shape(i);
    if (ks.known_rank() && ks.rank() != 0) {
      if (!c.is_eager()) return errors::InvalidArgument("Shape must be rank 0 but is rank ", ks.rank());
      return errors::InvalidArgument(names[i - 1], " must be scalar, got shape ", ks);
    }
    int64_t v = 0;
    if (c.is_eager() && scalar_value(c, i, &v)) {
      const int64_t limit = s.dim(s.rank() - (i == 1 ? 2 : 1));
      if (v > limit) {
        return errors::InvalidArgument(names[i - 1], " must be negative or less or equal to number of ",
                                       i == 1 ? "rows" : "columns", " (", limit, ") got: ", v);
      }
    }
  }
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

Status cross_shape(InferenceContext& c) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  if (c.is_eager()) {
    if (a != b) return errors::InvalidArgument("Both inputs must be of same shape: ", a, " vs. ", b);
    if (a.rank() < 1) return errors::InvalidArgument("Input must be at least 1D", a);
    if (a.dim(a.rank() - 1) != 3) return errors::FailedPrecondition("Cross-products are only defined for 3-element vectors.");
  } else {
    for (const Shape* s : {&a, &b}) {
      if (s->known_rank() && s->rank() < 1) return errors::InvalidArgument("Shape must be at least rank 1 but is rank 0");
    }
    if (a.known_rank() && b.known_rank()) {
      if (a.rank() != b.rank()) return errors::InvalidArgument("Shapes must be equal rank, but are ", a.rank(), " and ", b.rank());
      for (int d = 0; d < a.rank(); ++d) {
        if (a.dim(d) >= 0 && b.dim(d) >= 0 && a.dim(d) != b.dim(d)) {
          return errors::InvalidArgument("Dimension ", d, " in both shapes must be equal, but are ", a.dim(d), " and ", b.dim(d),
                                         ". Shapes are ", a, " and ", b, ".");
        }
      }
    }
    for (const Shape* s : {&a, &b}) {
      if (s->known_rank() && s->dim(s->rank() - 1) >= 0 && s->dim(s->rank() - 1) != 3) {
        return errors::InvalidArgument("Dimension must be 3 but is ", s->dim(s->rank() - 1));
      }
    }
  }
  c.set_output(0, c.input_dtype(0), a.known_rank() ? a : b);
  return Status::OK();
}

Status check_align(InferenceContext& c) {
  const std::string* a = c.attrs().get_string("align");
  if (!a || *a == "LEFT_RIGHT" || *a == "RIGHT_LEFT" || *a == "LEFT_LEFT" || *a == "RIGHT_RIGHT") return Status::OK();
  return errors::InvalidArgument("Value for attr 'align' of \"", *a,
                                 "\" is not in the list of allowed values: \"LEFT_RIGHT\", \"RIGHT_LEFT\", \"LEFT_LEFT\", "
                                 "\"RIGHT_RIGHT\"");
}

// k: a scalar or a pair [lower, upper].
bool diag_range(InferenceContext& c, int i, int64_t* lo, int64_t* hi) {
  const Tensor* t = c.input_value(i);
  if (!t) return false;
  std::vector<int64_t> v;
  if (!tensor_to_int64s(*t, &v).ok() || v.empty()) return false;
  *lo = v[0];
  *hi = v.size() > 1 ? v[1] : v[0];
  return true;
}

Status check_k(InferenceContext& c, int i, int64_t lo, int64_t hi) {
  const Shape& ks = c.input_shape(i);
  if (ks.known_rank() && (ks.rank() > 1 || (ks.rank() == 1 && (ks.dim(0) < 1 || ks.dim(0) > 2)))) {
    if (c.is_eager()) {
      return errors::InvalidArgument("diag_index must have only one or two elements, received ", ks.num_elements(),
                                     " elements.");
    }
    return errors::InvalidArgument("diag_index must be a vector with one or two elements. It has ", ks.num_elements(),
                                   " elements.");
  }
  if (lo > hi) {
    return errors::InvalidArgument("lower_diag_index must not be larger than upper_diag_index: ", lo, " > ", hi);
  }
  return Status::OK();
}

Status diag_part_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (s.known_rank() && s.rank() < 2) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
    return errors::InvalidArgument("input must be at least 2-dim, received shape: ", s);
  }
  int64_t lo = 0, hi = 0;
  const bool known = diag_range(c, 1, &lo, &hi);
  GRAPHFN_RETURN_IF_ERROR(check_align(c));
  GRAPHFN_RETURN_IF_ERROR(check_k(c, 1, lo, hi));
  const Shape& ps = c.input_shape(2);
  if (ps.known_rank() && ps.rank() != 0) {
    return errors::InvalidArgument("padding_value must be a scalar, got shape ", ps);
  }
  if (!s.known_rank() || !known) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
  if (rows >= 0 && cols >= 0) {
    if (lo != 0 && (-rows >= lo || cols <= lo) && c.is_eager()) {  // TF allows k = 0 on empty matrices
      return errors::InvalidArgument("lower_diag_index is out of bound: ", lo, ". It must be between ", -rows, " and ", cols);
    }
    if (hi != 0 && (-rows >= hi || cols <= hi) && c.is_eager()) {
      return errors::InvalidArgument("upper_diag_index is out of bound: ", hi, " It must be between ", -rows, " and ", cols);
    }
  }
  Shape out = batch_of(s, 2);
  if (lo != hi) out.add_dim(hi - lo + 1);
  if (rows >= 0 && cols >= 0) {
    out.add_dim(std::max<int64_t>(0, std::min(rows + std::min<int64_t>(hi, 0), cols - std::max<int64_t>(lo, 0))));
  } else {
    out.add_dim(kUnknown);
  }
  return shape_fns::set_checked_output(c, c.input_dtype(0), out);
}

Status diag_shape(InferenceContext& c) {
  const Shape& d = c.input_shape(0);
  if (d.known_rank() && d.rank() < 1) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 1 but is rank 0");
    return errors::InvalidArgument("diagonal must be at least 1-dim, received shape: ", d);
  }
  int64_t lo = 0, hi = 0, rows = -1, cols = -1;
  const bool known = diag_range(c, 1, &lo, &hi);
  GRAPHFN_RETURN_IF_ERROR(check_align(c));
  GRAPHFN_RETURN_IF_ERROR(check_k(c, 1, lo, hi));
  const Shape& ps = c.input_shape(4);
  if (ps.known_rank() && ps.rank() != 0) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be rank 0 but is rank ", ps.rank());
    return errors::InvalidArgument("padding_value must be a scalar");
  }
  const bool rows_known = scalar_value(c, 2, &rows), cols_known = scalar_value(c, 3, &cols);
  if (!d.known_rank() || !known || !rows_known || !cols_known) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t max_len = d.dim(d.rank() - 1);
  if (lo != hi) {
    const int64_t num = d.rank() >= 2 ? d.dim(d.rank() - 2) : -1;
    if (d.rank() < 2 || (num >= 0 && num != hi - lo + 1)) {
      if (!c.is_eager() && d.rank() < 2) return errors::InvalidArgument("Shape must be at least rank 2 but is rank 1");
      return errors::InvalidArgument(
          "The number of diagonals provided in the input does not match the lower_diag_index and upper_diag_index "
          "range.");
    }
  }
  if (max_len < 0) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t min_rows = max_len - std::min<int64_t>(hi, 0), min_cols = max_len + std::max<int64_t>(lo, 0);
  // -1 asks for the smallest size; other negative sizes are too small (TF's checks).
  if (rows == -1 && cols == -1) {
    rows = std::max(min_rows, min_cols);
    cols = rows;
  } else if (rows == -1) {
    rows = min_rows;
  } else if (cols == -1) {
    cols = min_cols;
  }
  if (rows < min_rows) return errors::InvalidArgument("The number of rows is too small.");
  if (cols < min_cols) return errors::InvalidArgument("The number of columns is too small.");
  if (rows != min_rows && cols != min_cols) {
    return errors::InvalidArgument(
        "The number of rows or columns is not consistent with the specified d_lower, d_upper, and diagonal.");
  }
  Shape out = batch_of(d, lo == hi ? 1 : 2);
  out.add_dim(rows);
  out.add_dim(cols);
  return shape_fns::set_checked_output(c, c.input_dtype(0), out);
}

Status set_diag_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  const Shape& d = c.input_shape(1);
  if (s.known_rank() && s.rank() < 2) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
    return errors::InvalidArgument("input must be at least 2-dim, received shape: ", s);
  }
  int64_t lo = 0, hi = 0;
  const bool known = diag_range(c, 2, &lo, &hi);
  GRAPHFN_RETURN_IF_ERROR(check_align(c));
  GRAPHFN_RETURN_IF_ERROR(check_k(c, 2, lo, hi));
  if (!c.is_eager() && known && s.known_rank()) {
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    if (rows >= 0 && cols >= 0 && lo != 0 && (-rows >= lo || cols <= lo)) {
      return errors::InvalidArgument("lower_diag_index is out of bound.");
    }
    if (rows >= 0 && cols >= 0 && hi != 0 && (-rows >= hi || cols <= hi)) {
      return errors::InvalidArgument("upper_diag_index is out of bound.");
    }
  }
  if (c.is_eager() && known) {
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    if (lo != 0 && (-rows >= lo || cols <= lo)) {  // (no period after the index: TF's text)
      return errors::InvalidArgument("lower_diag_index is out of bound: ", lo, " It must be between ", -rows, " and ", cols);
    }
    if (hi != 0 && (-rows >= hi || cols <= hi)) {
      return errors::InvalidArgument("upper_diag_index is out of bound: ", hi, " It must be between ", -rows, " and ", cols);
    }
    const int64_t max_len = std::max<int64_t>(0, std::min(rows + std::min<int64_t>(hi, 0), cols - std::max<int64_t>(lo, 0)));
    Shape want = batch_of(s, 2);
    if (lo != hi) want.add_dim(hi - lo + 1);
    want.add_dim(max_len);
    if (d != want) {
      return errors::InvalidArgument(
          "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to "
          "the longests diagonal in range [lower_diag_index:upper_diag_index].\nInput shape: ",
          s, "\nDiagonal shape: ", d, "\nExpected diagonal shape: ", want);
    }
  }
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

// The V1 ops (MatrixDiag, MatrixDiagPart, MatrixSetDiag): the main diagonal only.
Status diag_v1_shape(InferenceContext& c) {
  const Shape& d = c.input_shape(0);
  if (!d.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  if (d.rank() < 1) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 1 but is rank 0");
    return errors::InvalidArgument("diagonal must be at least 1-dim, received shape: ", d);
  }
  Shape out = d;
  out.add_dim(d.dim(d.rank() - 1));
  return shape_fns::set_checked_output(c, c.input_dtype(0), out);
}

int64_t shorter_side(int64_t rows, int64_t cols) { return rows < 0 || cols < 0 ? kUnknown : std::min(rows, cols); }

Status diag_part_v1_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (!s.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  if (s.rank() < 2) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
    return errors::InvalidArgument("input must be at least 2-dim, received shape: ", s);
  }
  Shape out = batch_of(s, 2);
  out.add_dim(shorter_side(s.dim(s.rank() - 2), s.dim(s.rank() - 1)));
  return shape_fns::set_checked_output(c, c.input_dtype(0), out);
}

Status set_diag_v1_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  const Shape& d = c.input_shape(1);
  const bool eager = c.is_eager();
  if (s.known_rank() && s.rank() < 2) {
    if (!eager) return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", s.rank());
    return errors::InvalidArgument("input must be at least 2-dim, received shape: ", s);
  }
  if (d.known_rank() && d.rank() < 1) {
    if (!eager) return errors::InvalidArgument("Shape must be at least rank 1 but is rank 0");
    return errors::InvalidArgument("diagonal must be at least 1-dim, received shape: ", d);
  }
  if (!s.known_rank()) {
    Shape out = d.known_rank() ? batch_of(d, 1) : Shape::unknown_rank();
    if (d.known_rank()) out = with_dims(out, {kUnknown, kUnknown});
    c.set_output(0, c.input_dtype(0), out);
    return Status::OK();
  }
  const int64_t len = shorter_side(s.dim(s.rank() - 2), s.dim(s.rank() - 1));
  if (eager) {
    Shape want = with_dims(batch_of(s, 2), {len});
    if (d != want) {
      return errors::InvalidArgument(
          "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to "
          "the longests diagonal in range [lower_diag_index:upper_diag_index].\nInput shape: ",
          s, "\nDiagonal shape: ", d, "\nExpected diagonal shape: ", want);
    }
  } else if (d.known_rank() && len >= 0 && d.dim(d.rank() - 1) >= 0 && d.dim(d.rank() - 1) != len) {
    return errors::InvalidArgument("Dimensions must be equal, but are ", len, " and ", d.dim(d.rank() - 1));
  }
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

}  // namespace

void register_linalg_more_ops(OpRegistry& reg) {
  reg.op("MatrixDeterminant").input("input: T").output("output: T")
      .attr("T: {half, float, double, complex64, complex128}").shape_fn(determinant_shape, true);
  reg.op("LogMatrixDeterminant").input("input: T").output("sign: T").output("log_abs_determinant: T")
      .attr("T: {half, float, double, complex64, complex128}").shape_fn(determinant_shape, true);
  reg.op("MatrixInverse").input("input: T").output("output: T").attr("adjoint: bool = false").attr(kFloatTypes)
      .shape_fn(square_unchanged_shape, true);
  reg.op("Cholesky").input("input: T").output("output: T").attr(kFloatTypes).shape_fn(square_unchanged_shape, true);
  reg.op("Lu").input("input: T").output("lu: T").output("p: output_idx_type").attr(kFloatTypes)
      .attr("output_idx_type: {int32, int64} = DT_INT32").shape_fn(lu_shape, true);
  reg.op("SelfAdjointEigV2").input("input: T").output("e: T").output("v: T").attr("compute_v: bool = true")
      .attr(kFloatTypes).shape_fn(eig_shape, true);
  reg.op("Eig").input("input: T").output("e: Tout").output("v: Tout").attr("compute_v: bool = true")
      .attr("T: {float, double, complex64, complex128}").attr("Tout: {complex64, complex128}")
      .shape_fn(general_eig_shape, true);
  reg.op("Svd").input("input: T").output("s: T").output("u: T").output("v: T").attr("compute_uv: bool = true")
      .attr("full_matrices: bool = false").attr(kFloatTypes).shape_fn(svd_shape, true);
  reg.op("Qr").input("input: T").output("q: T").output("r: T").attr("full_matrices: bool = false").attr(kFloatTypes)
      .shape_fn(qr_shape, true);
  reg.op("MatrixSolve").input("matrix: T").input("rhs: T").output("output: T").attr("adjoint: bool = false")
      .attr(kFloatTypes).shape_fn(solve_shape, true);
  reg.op("MatrixTriangularSolve").input("matrix: T").input("rhs: T").output("output: T").attr("lower: bool = true")
      .attr("adjoint: bool = false").attr("T: {bfloat16, double, float, half, complex64, complex128}")
      .shape_fn(triangular_solve_shape, true);
  reg.op("MatrixBandPart").input("input: T").input("num_lower: Tindex").input("num_upper: Tindex").output("band: T")
      .attr("T: type").attr("Tindex: {int32, int64} = DT_INT64").needs_value("num_lower").needs_value("num_upper")
      .shape_fn(band_part_shape, true);
  const char* align = "align: string = RIGHT_LEFT";
  reg.op("MatrixDiagV3").input("diagonal: T").input("k: int32").input("num_rows: int32").input("num_cols: int32")
      .input("padding_value: T").output("output: T").attr("T: type").attr(align).needs_value("k")
      .needs_value("num_rows").needs_value("num_cols").shape_fn(diag_shape, true);
  reg.op("MatrixDiagPartV3").input("input: T").input("k: int32").input("padding_value: T").output("diagonal: T")
      .attr("T: type").attr(align).needs_value("k").shape_fn(diag_part_shape, true);
  reg.op("MatrixSetDiagV3").input("input: T").input("diagonal: T").input("k: int32").output("output: T")
      .attr("T: type").attr(align).needs_value("k").shape_fn(set_diag_shape, true);
  // V2: V3's inputs without `align` (always LEFT_LEFT); V1: the main diagonal, no padding.
  reg.op("MatrixDiagV2").input("diagonal: T").input("k: int32").input("num_rows: int32").input("num_cols: int32")
      .input("padding_value: T").output("output: T").attr("T: type").needs_value("k").needs_value("num_rows")
      .needs_value("num_cols").shape_fn(diag_shape, true);
  reg.op("MatrixDiagPartV2").input("input: T").input("k: int32").input("padding_value: T").output("diagonal: T")
      .attr("T: type").needs_value("k").shape_fn(diag_part_shape, true);
  reg.op("MatrixSetDiagV2").input("input: T").input("diagonal: T").input("k: int32").output("output: T")
      .attr("T: type").needs_value("k").shape_fn(set_diag_shape, true);
  reg.op("MatrixDiag").input("diagonal: T").output("output: T").attr("T: type").shape_fn(diag_v1_shape, true);
  reg.op("MatrixDiagPart").input("input: T").output("diagonal: T").attr("T: type").shape_fn(diag_part_v1_shape, true);
  reg.op("MatrixSetDiag").input("input: T").input("diagonal: T").output("output: T").attr("T: type")
      .shape_fn(set_diag_v1_shape, true);
  reg.op("Cross").input("a: T").input("b: T").output("product: T").attr("T: {realnumbertype}")
      .shape_fn(cross_shape, true);
}

}  // namespace graphfn
