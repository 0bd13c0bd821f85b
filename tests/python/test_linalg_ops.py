"""tf.matmul / tf.linalg.matmul / `@`. Values are checked against NumPy; dtypes, op choices and
error texts were printed by TensorFlow 2.21 (TF_ENABLE_ONEDNN_OPTS=0, whose kernel names match
ours) for the same calls."""

import numpy as np
import pytest

import graphfn as tf

PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def tf_error(op, text):
    return PREFIX % op + text + " [Op:%s] name: " % op


def operand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(-5, 6, size=shape).astype(dtype)


DTYPES = [np.float32, np.float64, np.int32, np.int64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (2, 3, 4), (10, 10, 10), (7, 1, 9), (65, 70, 50)])
@pytest.mark.parametrize("ta, tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_matches_numpy(dtype, m, k, n, ta, tb):
    a = operand((k, m) if ta else (m, k), dtype, 1)
    b = operand((n, k) if tb else (k, n), dtype, 2)
    got = tf.matmul(tf.constant(a), tf.constant(b), transpose_a=ta, transpose_b=tb)
    want = np.matmul(a.T if ta else a, b.T if tb else b)
    assert got.dtype == tf.as_dtype(dtype)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("adj", [(True, False), (False, True)])
def test_adjoint_is_transpose_for_real_dtypes(adj):
    a, b = operand((3, 2), np.float32, 3), operand((3, 2), np.float32, 4)
    got = tf.matmul(a, b, adjoint_a=adj[0], adjoint_b=adj[1])
    np.testing.assert_array_equal(got.numpy(), (a.T @ b) if adj[0] else (a @ b.T))


def test_large_float_product_is_close_to_numpy():
    a, b = np.random.default_rng(0).random((2, 200, 300), dtype=np.float32)
    got = tf.matmul(a, b[:, :150], transpose_a=True)
    np.testing.assert_allclose(got.numpy(), a.T @ b[:, :150], rtol=1e-5)


@pytest.mark.parametrize("a_shape, b_shape", [
    ((2, 3, 4), (2, 4, 5)), ((3, 1, 2, 3), (5, 3, 4)), ((2, 2), (2, 2, 2)), ((4, 2, 3), (3, 2)),
    ((1, 2, 3), (6, 3, 1)), ((0, 2, 3), (3, 3)), ((1, 0, 3), (5, 3, 3)), ((2, 2, 0), (2, 0, 3)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.int64])
def test_batched_matmul_broadcasts_like_numpy(a_shape, b_shape, dtype):
    a, b = operand(a_shape, dtype, 5), operand(b_shape, dtype, 6)
    got = tf.matmul(a, b)
    want = np.matmul(a, b)
    assert got.dtype == tf.as_dtype(dtype) and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_batched_adjoints():
    a, b = operand((2, 4, 3), np.float64, 7), operand((2, 5, 4), np.float64, 8)
    got = tf.matmul(a, b, transpose_a=True, adjoint_b=True)
    np.testing.assert_array_equal(got.numpy(), np.swapaxes(a, -1, -2) @ np.swapaxes(b, -1, -2))


@pytest.mark.parametrize("ta, tb", [(np.int8, np.int8), (np.int8, np.uint8), (np.uint8, np.int8),
                                    (np.uint8, np.uint8)])
def test_output_type_int32_for_8_bit_inputs(ta, tb):
    a = np.array([[-128 if ta is np.int8 else 255, 2]], ta)
    b = np.array([[255 if tb is np.uint8 else 127], [3]], tb)
    got = tf.matmul(tf.constant(a), tf.constant(b), output_type=tf.int32)
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), a.astype(np.int32) @ b.astype(np.int32))
    batched = tf.matmul(tf.constant(a[None]), tf.constant(b[None]), output_type=tf.int32)
    np.testing.assert_array_equal(batched.numpy(), a[None].astype(np.int32) @ b[None].astype(np.int32))


def test_values_observed_in_tensorflow():
    r = tf.matmul(tf.constant([[-128]], tf.int8), tf.constant([[255]], tf.uint8), output_type=tf.int32)
    assert r.numpy().tolist() == [[-32640]]
    # A NumPy b is cast to a's dtype first (TF's dtype_hint), so 255 becomes int8 -1.
    r = tf.matmul(np.array([[-128, 2]], np.int8), np.array([[255], [3]], np.uint8), output_type=tf.int32)
    assert r.numpy().tolist() == [[134]]
    assert tf.matmul(tf.constant([[1, 2]]), [[2**40], [3]]).numpy().tolist() == [[6]]
    # int32 products wrap.
    assert tf.matmul(tf.constant([[2**31 - 1, 1]]), tf.constant([[2], [0]])).numpy().tolist() == [[-2]]
    assert tf.matmul(np.zeros([2, 0], np.float32), np.zeros([0, 4], np.float32)).numpy().tolist() == [[0.0] * 4] * 2
    assert tf.matmul(tf.constant([[1., 2.]]), [[3], [4]]).dtype == tf.float32
    assert tf.matmul([[1, 2]], [[3], [4]]).numpy().tolist() == [[11]]
    assert tf.matmul(np.ones([1, 3]), np.ones([3, 3])).dtype == tf.float64
    # A NumPy operand is cast to the other operand's dtype.
    assert tf.matmul(tf.constant([[1, 2]]), np.array([[1.5], [2.]])).numpy().tolist() == [[5]]
    assert tf.matmul(np.ones([2, 3], np.float32), np.ones([3, 4], np.float32),
                     a_is_sparse=True).numpy().tolist() == [[3.0] * 4] * 2


def test_matmul_operator():
    a = tf.constant([[1, 2]])
    assert (a @ tf.constant([[1], [2]])).numpy().tolist() == [[5]]
    assert (a @ [[1], [2]]).numpy().tolist() == [[5]]
    assert ([[1, 2]] @ tf.constant([[1], [2]])).numpy().tolist() == [[5]]


def test_exports():
    assert tf.linalg.matmul is tf.matmul


def test_transpose_and_adjoint_together_is_a_value_error():
    a = tf.constant([[1.]])
    with pytest.raises(ValueError) as info:
        tf.matmul(a, a, transpose_a=True, adjoint_a=True)
    assert str(info.value) == ("Only one of `transpose_a` and `adjoint_a` can be True. Received "
                               "`transpose_a`=True, `adjoint_a`=True.")
    with pytest.raises(ValueError, match=r"Only one of `transpose_b` and `adjoint_b` can be True\. "
                                         r"Received `transpose_b`=True, `adjoint_b`=True\."):
        tf.matmul(a, a, transpose_b=True, adjoint_b=True)


@pytest.mark.parametrize("a_shape, b_shape, kwargs, op, text", [
    ((1, 2), (1, 2), {}, "MatMul", "Matrix size-incompatible: In[0]: [1,2], In[1]: [1,2]"),
    ((2, 3), (2, 4), {"transpose_a": True, "transpose_b": True}, "MatMul",
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,4]"),
    ((2,), (2,), {}, "MatMul", "In[0] and In[1] ndims must be == 2: 1"),
    ((), (2,), {}, "MatMul", "In[0] and In[1] has different ndims: [] vs. [2]"),
    ((2, 1, 2), (2, 1, 2), {}, "BatchMatMulV2", "Matrix size-incompatible: In[0]: [2,1,2], In[1]: [2,1,2]"),
    ((5, 2, 3), (5, 2, 4), {"adjoint_a": True, "adjoint_b": True}, "BatchMatMulV2",
     "Matrix size-incompatible: In[0]: [5,2,3], In[1]: [5,2,4]"),
    ((2, 2, 3), (3, 3, 4), {}, "BatchMatMulV2",
     "In[0] and In[1] must have compatible batch dimensions: [2,2,3] vs. [3,3,4]"),
    ((2, 1, 2), (2,), {}, "BatchMatMulV2", "In[1] ndims must be >= 2: 1"),
])
def test_shape_errors_match_tensorflow(a_shape, b_shape, kwargs, op, text):
    a = tf.constant(np.ones(a_shape, np.float32))
    b = tf.constant(np.ones(b_shape, np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.matmul(a, b, **kwargs)
    assert str(info.value) == tf_error(op, text)


def test_dtype_errors_match_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.matmul(tf.constant([[1.]]), tf.constant([[1]]))
    assert str(info.value) == ("cannot compute MatMul as input #1(zero-based) was expected to be a "
                               "float tensor but is a int32 tensor [Op:MatMul] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"expected to be a int32 tensor but is a float tensor \[Op:MatMul\]"):
        tf.matmul(tf.constant([[1]]), [[1.5]])
    for x in [tf.constant([[1]], tf.int8), tf.constant([[1]], tf.int16), tf.constant([[True]])]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"(?s)^Value for attr 'T' of %s is not in the list of allowed values: "
                                 r".*; NodeDef: \{\{node MatMul\}\}.* \[Op:MatMul\] name: $" % x.dtype.name):
            tf.matmul(x, x)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"(?s)Value for attr 'T' of int8 .*BatchMatMulV2"):
        tf.matmul(np.ones([1, 1, 1], np.int8), np.ones([1, 1, 1], np.int8))
    # TF validates attr values, then finds the kernel, then checks the inputs against it.
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Value for attr 'T' of string"):
        tf.matmul(tf.constant([["a"]]), 1)
    with pytest.raises(tf.errors.NotFoundError, match=r"BatchMatMulV2\[T=DT_UINT8"):
        tf.matmul(np.ones([2, 1, 2], np.uint8), tf.constant([[1, 2]]))
    u8 = tf.constant([[1]], tf.uint8)
    with pytest.raises(tf.errors.NotFoundError,
                       match=r"^Could not find device for node: \{\{node MatMul\}\} = MatMul\[T=DT_UINT8"):
        tf.matmul(u8, u8)
    with pytest.raises(tf.errors.NotFoundError, match=r"BatchMatMulV3\[Ta=DT_INT32, Tb=DT_INT32, Tout=DT_INT64"):
        tf.matmul(tf.constant([[1]]), tf.constant([[1]]), output_type=tf.int64)
    with pytest.raises(tf.errors.NotFoundError, match=r"BatchMatMulV3\[Ta=DT_INT16, Tb=DT_INT16, Tout=DT_INT32"):
        tf.matmul(np.ones([2, 3], np.int16), np.ones([3, 3], np.int16), output_type=tf.int32)


def test_bool_operands_that_tf_would_conjugate_are_type_errors():
    # TF conjugates operands it folds into an adjoint; conj rejects bool.
    b2, b3 = tf.constant([[True]]), tf.constant([[[True]]])
    for a, b, kwargs in [(b2, b2, {"adjoint_a": True}), (b3, b3, {"transpose_b": True})]:
        with pytest.raises(TypeError) as info:
            tf.matmul(a, b, **kwargs)
        assert str(info.value) == "Expected numeric or variant tensor, got dtype tf.bool."
    for a, kwargs in [(b2, {"transpose_a": True}), (b3, {"adjoint_a": True})]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Value for attr 'T' of bool"):
            tf.matmul(a, a, **kwargs)


def test_sparse_hints_use_sparse_matmul_for_float32():
    # TF: SparseMatMul leaves out the terms where the sparse operand is 0.
    r = tf.matmul(tf.constant([[0., 1.]]), tf.constant([[np.nan], [1.]]), a_is_sparse=True)
    assert r.numpy().tolist() == [[1.0]]
    assert np.isnan(tf.matmul(tf.constant([[0., 1.]]), tf.constant([[np.inf], [1.]]), b_is_sparse=True).numpy()).all()
    a = operand((2, 3), np.float32, 9)
    np.testing.assert_array_equal(tf.matmul(a, a, b_is_sparse=True, adjoint_b=True).numpy(), a @ a.T)
    assert tf.matmul(np.ones([2, 3], np.float64), np.ones([3, 3]), a_is_sparse=True).dtype == tf.float64
    cases = [((2, 3), (2, 3), "SparseMatMul", "Matrix size incompatible: a: [2,3], b: [2,3]"),
             ((3,), (2, 3), "SparseMatMul", "a is not a matrix"),
             ((2, 2, 3), (2, 3), "SparseMatMul", "a is not a matrix"),
             ((2, 3), (2, 3, 1), "SparseMatMul", "b is not a matrix")]
    for a_shape, b_shape, op, text in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.matmul(tf.constant(np.ones(a_shape, np.float32)), tf.constant(np.ones(b_shape, np.float32)),
                      a_is_sparse=True)
        assert str(info.value) == tf_error(op, text)
    # Sparse hints never take the batched ops.
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.matmul(tf.constant([[1, 2]]), np.ones([2, 1, 2], np.int32), b_is_sparse=True)
    assert str(info.value) == tf_error("MatMul", "In[0] and In[1] has different ndims: [1,2] vs. [2,1,2]")
