// Matrix products: MatMul (rank 2) and BatchMatMulV2/V3 (batched, NumPy-broadcast batch dims).
// The shape functions carry TF's kernel error texts, so kernels only compute.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// Rows/cols of a matrix operand, after the transpose/adjoint flag.
int64_t rows(const Shape& s, bool t) { return s.dim(s.rank() - (t ? 1 : 2)); }
int64_t cols(const Shape& s, bool t) { return s.dim(s.rank() - (t ? 2 : 1)); }

Status size_incompatible(const Shape& a, const Shape& b) {
  return errors::InvalidArgument("Matrix size-incompatible: In[0]: ", a, ", In[1]: ", b);
}

Status matmul_shape(InferenceContext& c) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  const bool ta = c.attrs().get_bool("transpose_a", false);
  const bool tb = c.attrs().get_bool("transpose_b", false);
  if (!c.is_eager()) {  // TF's graph-building words
    for (const Shape* s : {&a, &b}) {
      if (s->known_rank() && s->rank() != 2) {
        return errors::InvalidArgument("Shape must be rank 2 but is rank ", s->rank());
      }
    }
    if (a.known_rank() && b.known_rank() && cols(a, ta) >= 0 && rows(b, tb) >= 0 && cols(a, ta) != rows(b, tb)) {
      return shape_fns::dims_must_be_equal(cols(a, ta), rows(b, tb));
    }
  }
  if (!a.known_rank() || !b.known_rank()) {  // while tracing: a matrix, with the dims known so far
    const int64_t r = a.known_rank() && a.rank() == 2 ? rows(a, ta) : Shape::kUnknownDim;
    const int64_t k = b.known_rank() && b.rank() == 2 ? cols(b, tb) : Shape::kUnknownDim;
    c.set_output(0, c.input_dtype(0), Shape{r, k});
    return Status::OK();
  }
  if (a.rank() != b.rank()) {
    return errors::InvalidArgument("In[0] and In[1] has different ndims: ", a, " vs. ", b);
  }
  if (a.rank() != 2) return errors::InvalidArgument("In[0] and In[1] ndims must be == 2: ", a.rank());
  const int64_t inner_a = cols(a, ta), inner_b = rows(b, tb);
  if (inner_a != inner_b && inner_a != Shape::kUnknownDim && inner_b != Shape::kUnknownDim) {
    return size_incompatible(a, b);
  }
  return shape_fns::set_checked_output(c, c.input_dtype(0), Shape{rows(a, ta), cols(b, tb)});
}

// BatchMatMulV3 has CPU kernels for (T, T) -> T and (u)int8 x (u)int8 -> int32 only. TF finds
// that out when it looks the kernel up, before any shape check.
Status check_v3_types(InferenceContext& c) {
  const DType ta = c.type_attr("Ta"), tb = c.type_attr("Tb"), tout = c.type_attr("Tout");
  auto small_int = [](DType d) { return d == DType::kInt8 || d == DType::kUInt8; };
  if ((small_int(ta) && small_int(tb) && tout == DType::kInt32) || (ta == tb && tb == tout)) {
    return Status::OK();
  }
  return errors::NotFound("Could not find device for node: {{node BatchMatMulV3}} = BatchMatMulV3[Ta=",
                          dtype_tf_enum(ta), ", Tb=", dtype_tf_enum(tb), ", Tout=", dtype_tf_enum(tout),
                          "]\nAll kernels registered for op BatchMatMulV3:\n  device='CPU'; Ta, Tb in "
                          "[DT_INT8, DT_UINT8]; Tout in [DT_INT32]\n  device='CPU'; Ta = Tb = Tout in "
                          "[DT_INT16, DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE]");
}

Status batch_matmul_shape(InferenceContext& c) {
  const bool v3 = c.op().name == "BatchMatMulV3";
  if (v3) GRAPHFN_RETURN_IF_ERROR(check_v3_types(c));
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  if (a.rank() < 2) return errors::InvalidArgument("In[0] ndims must be >= 2: ", a.rank());
  if (b.rank() < 2) return errors::InvalidArgument("In[1] ndims must be >= 2: ", b.rank());
  const Shape a_batch(std::vector<int64_t>(a.dims().begin(), a.dims().end() - 2));
  const Shape b_batch(std::vector<int64_t>(b.dims().begin(), b.dims().end() - 2));
  Shape out;
  if (!broadcast_shapes(a_batch, b_batch, &out).ok()) {
    return errors::InvalidArgument("In[0] and In[1] must have compatible batch dimensions: ", a,
                                   " vs. ", b);
  }
  const bool adj_x = c.attrs().get_bool("adj_x", false);
  const bool adj_y = c.attrs().get_bool("adj_y", false);
  if (cols(a, adj_x) != rows(b, adj_y)) return size_incompatible(a, b);
  out.add_dim(rows(a, adj_x));
  out.add_dim(cols(b, adj_y));
  const DType out_type = v3 ? c.type_attr("Tout") : c.input_dtype(0);
  return shape_fns::set_checked_output(c, out_type, std::move(out));
}

// SparseMatMul (tf.matmul with a_is_sparse/b_is_sparse on float32) has its own messages.
Status sparse_matmul_shape(InferenceContext& c) {
  const Shape& a = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  if (a.rank() != 2) return errors::InvalidArgument("a is not a matrix");
  if (b.rank() != 2) return errors::InvalidArgument("b is not a matrix");
  const bool ta = c.attrs().get_bool("transpose_a", false);
  const bool tb = c.attrs().get_bool("transpose_b", false);
  if (cols(a, ta) != rows(b, tb)) {
    return errors::InvalidArgument("Matrix size incompatible: a: ", a, ", b: ", b);
  }
  return shape_fns::set_checked_output(c, DType::kFloat32, Shape{rows(a, ta), cols(b, tb)});
}

}  // namespace

void register_linalg_ops(OpRegistry& reg) {
  // uint8 is an allowed T without a CPU kernel, as in TF (NotFound rather than InvalidArgument).
  reg.op("MatMul").input("a: T").input("b: T").output("product: T")
      .attr("transpose_a: bool = false").attr("transpose_b: bool = false")
      .attr("T: {bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128}")
      .attr("grad_a: bool = false").attr("grad_b: bool = false")
      .shape_fn(matmul_shape, true);
  // Leaves out the terms where a sparse operand is 0 (float32 only: graphfn has no bfloat16).
  reg.op("SparseMatMul").input("a: Ta").input("b: Tb").output("product: float32")
      .attr("transpose_a: bool = false").attr("transpose_b: bool = false")
      .attr("a_is_sparse: bool = false").attr("b_is_sparse: bool = false")
      .attr("Ta: {float, bfloat16} = DT_FLOAT").attr("Tb: {float, bfloat16} = DT_FLOAT")
      .shape_fn(sparse_matmul_shape);
  // tf.matmul's batched op when no output_type is asked for.
  reg.op("BatchMatMulV2").input("x: T").input("y: T").output("output: T")
      .attr("T: {bfloat16, half, float, double, int16, int32, int64, uint8, uint16, uint32, uint64, complex64, "
            "complex128}")
      .attr("adj_x: bool = false").attr("adj_y: bool = false")
      .attr("grad_x: bool = false").attr("grad_y: bool = false")
      .shape_fn(batch_matmul_shape);
  // Mixed input types; the kernel accepts (T, T) -> T and (u)int8 x (u)int8 -> int32.
  reg.op("BatchMatMulV3").input("x: Ta").input("y: Tb").output("output: Tout")
      .attr("Ta: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, complex128}")
      .attr("Tb: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, complex128}")
      .attr("Tout: {bfloat16, half, float, double, int16, int32, int64, complex64, complex128}")
      .attr("adj_x: bool = false").attr("adj_y: bool = false")
      .attr("grad_x: bool = false").attr("grad_y: bool = false")
      .shape_fn(batch_matmul_shape);
}

}  // namespace graphfn
