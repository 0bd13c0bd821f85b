"""The linalg/einsum/norm cases whose results TensorFlow 2.21 recorded in linalg_tf_records.json.

Each case is an expression over `tf` (TensorFlow when recording, graphfn when testing) and the
input helpers below, so both run the very same code. Record again with

    PYTHONPATH=python ~/tf/bin/python tests/python/linalg_cases.py --record
"""

import json
import os
import sys

import numpy as np

RECORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linalg_tf_records.json")


def array(shape, seed=0, dtype="float64"):
    """Deterministic, well-conditioned inputs: values in [-1, 1] from a fixed generator."""
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)


def spd(n, seed=0, batch=(), dtype="float64"):
    """A symmetric positive definite matrix (or batch)."""
    a = array(tuple(batch) + (n, n), seed, dtype)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def sym(n, seed=0, batch=(), dtype="float64"):
    """A symmetric matrix with well-separated eigenvalues."""
    a = array(tuple(batch) + (n, n), seed, dtype)
    return ((a + np.swapaxes(a, -1, -2)) / 2 + np.diag(np.arange(n) * 2.0)).astype(dtype)


def weights(shape):
    """The weights w of the loss sum(w * f(x)) whose gradient the gradient cases record."""
    n = int(np.prod(shape)) if shape else 1
    return np.cos(np.arange(n) * 0.7 + 0.3).reshape(shape)


# (expression) -> value, dtype, shape, or exception type and message.
VALUE_CASES = [
    # einsum: matrix products, transposes, reductions, diagonals, ellipses, broadcasting, chains
    "tf.einsum('ij,jk->ik', array((2, 3)), array((3, 4), 1))",
    "tf.einsum('ij,jk', array((2, 3)), array((3, 4), 1))",
    "tf.einsum('ij->ji', array((2, 3)))",
    "tf.einsum('ij->', array((2, 3)))",
    "tf.einsum('ij->j', array((2, 3)))",
    "tf.einsum('ii->i', array((3, 3)))",
    "tf.einsum('ii', array((3, 3)))",
    "tf.einsum('iij->ij', array((3, 3, 2)))",
    "tf.einsum('bij,bjk->bik', array((2, 3, 4)), array((2, 4, 5), 1))",
    "tf.einsum('bij,bkj->bik', array((2, 3, 4)), array((2, 5, 4), 1))",
    "tf.einsum('i,j->ij', array((3,)), array((4,), 1))",
    "tf.einsum('i,i->', array((3,)), array((3,), 1))",
    "tf.einsum('ij,ij->i', array((2, 3)), array((2, 3), 1))",
    "tf.einsum('ij,kj->', array((2, 3)), array((3, 3), 1))",
    "tf.einsum('ij,jk,kl->il', array((2, 3)), array((3, 4), 1), array((4, 5), 2))",
    "tf.einsum('i,i,i->i', array((3,)), array((3,), 1), array((3,), 2))",
    "tf.einsum('...ij,...jk->...ik', array((5, 2, 3)), array((3, 4), 1))",
    "tf.einsum('...ij,...jk->...ik', array((5, 1, 2, 3)), array((4, 3, 4), 1))",
    "tf.einsum('a...,a->...', array((2, 3)), array((2,), 1))",
    "tf.einsum('ij->j...', array((2, 3)))",
    "tf.einsum('...i->...', array((3, 4)))",
    "tf.einsum('ij...->i', array((2, 3)))",
    "tf.einsum('...,...->...', array((2, 1)), array((3,), 1))",
    "tf.einsum('i j -> j i', array((2, 3)))",
    "tf.einsum('ijk,kji->ij', array((2, 3, 4)), array((4, 3, 2), 1))",
    "tf.einsum('abc,cd->abd', array((2, 3, 4)), array((4, 2), 1))",
    "tf.einsum('ij,jk->ki', array((2, 3)), array((3, 4), 1))",
    "tf.einsum('bhqd,bhkd->bhqk', array((2, 2, 3, 4)), array((2, 2, 5, 4), 1))",
    "tf.einsum('ij->i', array((0, 3)))",
    "tf.einsum('ij,jk->ik', tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]]))",
    "tf.einsum('ij->ji', tf.constant([[1, 2], [3, 4]], tf.int64))",
    "tf.einsum('ij,jk->ik', array((2, 3), dtype='float32'), array((3, 4), 1, 'float32'))",
    # einsum errors
    "tf.einsum('ii->i', array((2, 3)))",
    "tf.einsum('ij,jk->ik', array((2, 3)), array((2, 3)))",
    "tf.einsum('ij->k', array((2, 3)))",
    "tf.einsum('ij->ii', array((2, 3)))",
    "tf.einsum('ijk->ij', array((2, 3)))",
    "tf.einsum('ij,jk->ik', array((2, 3)))",
    "tf.einsum('...ij,...jk->...ik', array((5, 2, 3)), array((2, 3, 4)))",
    "tf.einsum('ij->Ji', array((2, 3)))",
    "tf.einsum('i1->i', array((2, 3)))",
    "tf.einsum('ij->i.j', array((2, 3)))",
    "tf.einsum('i->i->i', array((3,)))",
    "tf.einsum('ij-ji', array((2, 3)))",
    "tf.einsum('ab,ab->', array((2, 1)), array((2, 3)))",
    "tf.einsum('ij,jk->ik', array((2, 3)), array((3, 4), dtype='float32'))",
    "tf.einsum('ij->ji', tf.constant([[True]]))",
    # norm
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]))",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=1)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=np.inf)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=3)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=0.5)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=True)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=0)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=-1)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=[0, 1])",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 1), ord=1)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(1, 0), ord=1)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 1), ord=2)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 1), ord=np.inf)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 1), ord='fro')",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=[0, 1], keepdims=True)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), keepdims=True)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=1, keepdims=True, ord=1)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=np.inf, axis=1)",
    "tf.norm(array((2, 3, 4)), axis=(1, 2), ord=2)",
    "tf.norm(array((2, 3, 4)), axis=(2, 0), ord=2)",
    "tf.norm(array((2, 3, 4)), ord='fro', axis=(0, 2))",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord='fro')",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord=-1)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), ord='nuc')",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 1), ord=3)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 0))",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=(0, 1, 2))",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=1.5)",
    "tf.norm(tf.constant([[1., -2., 3.], [-4., 5., -6.]]), axis=2)",
    "tf.norm(tf.constant([1, 2]))",
    # decompositions and solvers (sign-free views of u, v, q: their absolute values)
    "tf.linalg.svd(array((3, 3)), compute_uv=False)",
    "[tf.abs(t) for t in tf.linalg.svd(array((4, 3)))]",
    "[tf.abs(t) for t in tf.linalg.svd(array((2, 3, 5)))]",
    "[tf.abs(t) for t in tf.linalg.svd(array((4, 3)), full_matrices=True)]",
    "[t.shape for t in tf.linalg.svd(array((2, 4, 3)), full_matrices=True)]",
    "tf.linalg.svd(array((0, 3)))",
    "tf.linalg.svd(tf.constant([[np.nan, 1.], [1., 1.]]))",
    "tf.linalg.svd(tf.constant([1., 2., 3.]))",
    "tf.linalg.svd(tf.constant([[1, 2], [3, 4]]))",
    "[tf.abs(t) for t in tf.linalg.qr(array((4, 3)))]",
    "[tf.abs(t) for t in tf.linalg.qr(array((4, 3)), full_matrices=True)]",
    "[tf.abs(t) for t in tf.linalg.qr(array((2, 3, 5)))]",
    "tf.linalg.qr(tf.constant([[1, 2], [3, 4]]))",
    "tf.linalg.eigh(sym(4))[0]",
    "tf.abs(tf.linalg.eigh(sym(4))[1])",
    "tf.linalg.eigh(sym(3, batch=(2,)))[0]",
    "tf.linalg.eigvalsh(sym(3))",
    "tf.linalg.eigh(tf.constant([[np.nan, 1.], [1., 1.]]))",
    "tf.linalg.eigh(tf.ones([2, 3]))",
    "tf.linalg.det(array((3, 3)))",
    "tf.linalg.det(array((2, 4, 4), 1))",
    "tf.linalg.det(tf.constant([[1., 2.], [2., 4.]]))",
    "tf.linalg.det(tf.zeros([2, 0, 0]))",
    "tf.linalg.det(tf.ones([2, 3]))",
    "tf.linalg.det(tf.constant([1., 2.]))",
    "tf.linalg.det(tf.constant([[1, 2], [3, 4]]))",
    "tf.linalg.slogdet(array((3, 3)))",
    "tf.linalg.slogdet(array((2, 4, 4), 1))",
    "tf.linalg.slogdet(tf.constant([[1., 2.], [2., 4.]]))",
    "tf.linalg.logdet(spd(3))",
    "tf.linalg.inv(array((3, 3)))",
    "tf.linalg.inv(array((3, 3)), adjoint=True)",
    "tf.linalg.inv(tf.constant([[1., 2.], [2., 4.]]))",
    "tf.linalg.inv(tf.zeros([0, 0]))",
    "tf.linalg.inv(tf.ones([2, 3]))",
    "tf.linalg.solve(array((3, 3)), array((3, 2), 1))",
    "tf.linalg.solve(array((3, 3)), array((3, 2), 1), adjoint=True)",
    "tf.linalg.solve(array((2, 3, 3)), array((2, 3, 1), 1))",
    "tf.linalg.solve(tf.constant([[1., 2.], [2., 4.]]), tf.ones([2, 1]))",
    "tf.linalg.solve(tf.eye(2), tf.ones([3, 1]))",
    "tf.linalg.solve(tf.eye(2), tf.ones([2]))",
    "tf.linalg.solve(tf.ones([2, 3]), tf.ones([2, 1]))",
    "tf.linalg.solve(tf.eye(2, batch_shape=[3]), tf.ones([1, 2, 1]))",
    "tf.linalg.triangular_solve(tf.linalg.band_part(array((3, 3)) + 3 * tf.eye(3, dtype=tf.float64), -1, 0), array((3, 2), 1))",
    "tf.linalg.triangular_solve(tf.linalg.band_part(array((3, 3)) + 3 * tf.eye(3, dtype=tf.float64), 0, -1), array((3, 2), 1), lower=False)",
    "tf.linalg.triangular_solve(tf.linalg.band_part(array((3, 3)) + 3 * tf.eye(3, dtype=tf.float64), -1, 0), array((3, 2), 1), adjoint=True)",
    "tf.linalg.triangular_solve(array((3, 3)) + 3 * tf.eye(3, dtype=tf.float64), array((2, 3, 2), 1))",
    "tf.linalg.triangular_solve(tf.constant([[0., 0.], [1., 1.]]), tf.ones([2, 1]))",
    "tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1]))",
    "tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1]), adjoint=True, lower=False)",
    "tf.linalg.triangular_solve(tf.ones([2, 3]), tf.ones([2, 1]))",
    "tf.linalg.triangular_solve(tf.eye(2, batch_shape=[3]), tf.ones([2, 2, 1]))",
    "tf.linalg.triangular_solve(tf.eye(2), tf.ones([2]))",
    "tf.linalg.cholesky(spd(4))",
    "tf.linalg.cholesky(spd(3, batch=(2,)))",
    "tf.linalg.cholesky(tf.constant([[1., 2.], [2., 4.]]))",
    "tf.linalg.cholesky(tf.constant([[1, 2], [3, 4]]))",
    "tf.linalg.cholesky_solve(tf.linalg.cholesky(spd(3)), array((3, 2), 1))",
    "tf.linalg.lu(array((3, 3)))",
    "tf.linalg.lu(tf.constant([[1., 2.], [3., 4.]]), output_idx_type=tf.int64)",
    "tf.linalg.lu(tf.constant([[1., 2.], [2., 4.]]))",
    "tf.linalg.lu(tf.ones([2, 3]))",
    "tf.linalg.lstsq(tf.constant([[1., 0.], [0., 1.], [1., 1.]]), tf.constant([[1.], [2.], [3.]]))",
    "tf.linalg.lstsq(tf.constant([[1., 0.], [0., 1.], [1., 1.]]), tf.constant([[1.], [2.], [3.]]), l2_regularizer=0.5)",
    "tf.linalg.lstsq(tf.constant([[1., 0., 1.], [0., 1., 1.]]), tf.constant([[1.], [2.]]), l2_regularizer=0.5)",
    "tf.linalg.lstsq(array((5, 3)), array((5, 2), 1))",
    "tf.linalg.lstsq(tf.constant([[1., 0.], [0., 1.], [1., 1.]]), tf.constant([[1.], [2.], [3.]]), fast=False)",
    "tf.linalg.pinv(tf.constant([[1., 2.], [3., 4.], [5., 6.]]))",
    "tf.linalg.pinv(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), rcond=0.5)",
    "tf.linalg.pinv(array((2, 3, 4)))",
    "tf.linalg.pinv(tf.constant([1., 2.]))",
    "tf.linalg.pinv(tf.constant([[1, 2], [3, 4]]))",
    # structure
    "tf.linalg.band_part(array((3, 4)), 1, 0)",
    "tf.linalg.band_part(array((3, 4)), -1, 1)",
    "tf.linalg.band_part(array((3, 4)), 0, -1)",
    "tf.linalg.band_part(tf.ones([2, 3], tf.int32), 0, -1)",
    "tf.linalg.band_part(tf.ones([2, 3]), -2, 1)",
    "tf.linalg.band_part(tf.ones([3]), 0, 0)",
    "tf.linalg.band_part(tf.ones([2, 3]), 5, 1)",
    "tf.linalg.band_part(tf.ones([2, 3]), 0, 4)",
    "tf.linalg.diag([1., 2., 3.])",
    "tf.linalg.diag([1., 2., 3.], k=1)",
    "tf.linalg.diag([1., 2.], k=-1)",
    "tf.linalg.diag(tf.ones([2, 3]), k=(0, 1))",
    "tf.linalg.diag([1., 2., 3.], num_rows=4)",
    "tf.linalg.diag([1., 2.], num_rows=3, num_cols=2, padding_value=9)",
    "tf.linalg.diag(tf.constant([[1, 2], [3, 4]]))",
    "tf.linalg.diag(1.0)",
    "tf.linalg.diag([1., 2., 3.], num_rows=2)",
    "tf.linalg.diag([1., 2.], num_cols=1)",
    "tf.linalg.diag(tf.ones([2, 3]), k=(0, 2))",
    "tf.linalg.diag_part(array((3, 4)))",
    "tf.linalg.diag_part(array((2, 3, 3)))",
    "tf.linalg.diag_part(tf.reshape(tf.range(12.), [3, 4]), k=(-1, 1), padding_value=9)",
    "tf.linalg.diag_part(tf.reshape(tf.range(12.), [3, 4]), k=(-1, 1), padding_value=9, align='LEFT_LEFT')",
    "tf.linalg.diag_part(tf.reshape(tf.range(12.), [3, 4]), k=(-2, 2), align='LEFT_RIGHT')",
    "tf.linalg.diag_part(tf.reshape(tf.range(12.), [3, 4]), k=1)",
    "tf.linalg.diag_part(tf.ones([3]))",
    "tf.linalg.diag_part(tf.ones([2, 3]), k=5)",
    "tf.linalg.diag_part(tf.ones([2, 3]), k=(1, 0))",
    "tf.linalg.set_diag(tf.zeros([2, 3]), [1., 2.])",
    "tf.linalg.set_diag(tf.zeros([2, 3]), [[1., 2.], [3., 4.]], k=(0, 1))",
    "tf.linalg.trace(array((3, 3)))",
    "tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))",
    "tf.linalg.trace(array((2, 3, 4)))",
    "tf.linalg.trace(tf.ones([3]))",
    "tf.linalg.cross(array((3,)), array((3,), 1))",
    "tf.linalg.cross(array((2, 3)), array((2, 3), 1))",
    "tf.linalg.cross(tf.constant([1, 2, 3]), tf.constant([4, 5, 6]))",
    "tf.linalg.cross(tf.ones([2]), tf.ones([2]))",
    "tf.linalg.cross(tf.ones([2, 3]), tf.ones([3, 3]))",
    "tf.linalg.matvec(array((2, 3)), array((3,), 1))",
    "tf.linalg.matvec(array((4, 2, 3)), array((3,), 1))",
    "tf.linalg.matvec(array((3, 2)), array((3,), 1), transpose_a=True)",
    "tf.tensordot(array((2, 3)), array((3, 4), 1), 1)",
    "tf.tensordot(array((2, 3, 4)), array((4, 3, 5), 1), [[1, 2], [1, 0]])",
    "tf.tensordot(array((2,)), array((3,), 1), 0)",
    "tf.tensordot(array((2, 3)), array((2, 3), 1), 2)",
    "tf.tensordot(array((2, 3)), array((3, 4), 1), 3)",
    "tf.tensordot(array((2, 3)), array((3, 4), 1), -1)",
    "tf.tensordot(array((2, 3)), array((3, 4), 1), [[1, 0], [0]])",
    "tf.linalg.global_norm([tf.ones([2]), None, tf.ones([3, 3])])",
    "tf.linalg.global_norm(tf.ones([2]))",
    "tf.clip_by_global_norm([tf.ones([2]) * 3, None, tf.ones([2]) * 4], 1.0)",
    "tf.clip_by_global_norm([tf.constant([np.inf, 1.])], 1.0)",
    "tf.clip_by_global_norm([tf.ones([2]) * 3], 10.0)",
    "tf.clip_by_norm(tf.constant([[3., 4.], [6., 8.]]), 5.0, axes=[1])",
    "tf.clip_by_norm(tf.constant([[3., 4.], [6., 8.]]), 5.0)",
    "tf.clip_by_norm(tf.zeros([2]), 1.0)",
    "tf.clip_by_norm(tf.constant([3, 4]), 5)",
    # expm
    "tf.linalg.expm(tf.constant([[0., 1.], [-1., 0.]]))",
    "tf.linalg.expm(tf.constant([[1., 2.], [3., 4.]], tf.float64))",
    "tf.linalg.expm(array((3, 3)))",
    "tf.linalg.expm(np.stack([array((3, 3)) * 0.01, array((3, 3), 1) * 20.0]))",
    "tf.linalg.expm(tf.zeros([2, 2]))",
    "tf.linalg.expm(tf.constant([[1, 2], [3, 4]]))",
]

# (function of the inputs, input expressions): the gradient of sum(weights * f(inputs)).
GRAD_CASES = [
    ("lambda a, b: tf.einsum('ij,jk->ik', a, b)", ["array((2, 3))", "array((3, 4), 1)"]),
    ("lambda a: tf.einsum('ij->ji', a)", ["array((2, 3))"]),
    ("lambda a: tf.einsum('ij->', a)", ["array((2, 3))"]),
    ("lambda a: tf.einsum('ii->i', a)", ["array((3, 3))"]),
    ("lambda a: tf.einsum('ii', a)", ["array((3, 3))"]),
    ("lambda a: tf.einsum('iij->j', a)", ["array((3, 3, 2))"]),
    ("lambda a, b: tf.einsum('ij,ij->i', a, b)", ["array((2, 3))", "array((2, 3), 1)"]),
    ("lambda a, b: tf.einsum('bij,bkj->bik', a, b)", ["array((2, 3, 4))", "array((2, 5, 4), 1)"]),
    ("lambda a, b: tf.einsum('ij,kl->', a, b)", ["array((2, 3))", "array((2, 2), 1)"]),
    ("lambda a, b: tf.einsum('...ij,...jk->...ik', a, b)", ["array((5, 2, 3))", "array((3, 4), 1)"]),
    ("lambda a, b: tf.einsum('...ij,...jk->...ik', a, b)", ["array((5, 1, 2, 3))", "array((4, 3, 4), 1)"]),
    ("lambda a, b: tf.einsum('a...,a->...', a, b)", ["array((2, 3))", "array((2,), 1)"]),
    ("lambda a, b: tf.einsum('ii,ij->j', a, b)", ["array((3, 3))", "array((3, 2), 1)"]),
    ("lambda a, b, c: tf.einsum('ij,jk,kl->il', a, b, c)", ["array((2, 3))", "array((3, 4), 1)", "array((4, 2), 2)"]),
    ("lambda a: tf.norm(a)", ["array((2, 3))"]),
    ("lambda a: tf.norm(a, ord=1, axis=1)", ["array((2, 3))"]),
    ("lambda a: tf.norm(a, ord=3, axis=0)", ["array((2, 3))"]),
    ("lambda a: tf.norm(a, ord=np.inf, axis=[0, 1])", ["array((2, 3))"]),
    ("lambda a: tf.norm(a, ord=2, axis=[0, 1])", ["array((3, 3))"]),
    ("lambda a: tf.linalg.det(a)", ["array((3, 3))"]),
    ("lambda a: tf.linalg.slogdet(a)[1]", ["array((2, 3, 3))"]),
    ("lambda a: tf.linalg.logdet(a)", ["spd(3)"]),
    ("lambda a: tf.linalg.inv(a)", ["array((3, 3))"]),
    ("lambda a: tf.linalg.inv(a, adjoint=True)", ["array((3, 3))"]),
    ("lambda a, b: tf.linalg.solve(a, b)", ["array((3, 3))", "array((3, 2), 1)"]),
    ("lambda a, b: tf.linalg.solve(a, b, adjoint=True)", ["array((3, 3))", "array((3, 2), 1)"]),
    ("lambda a, b: tf.linalg.triangular_solve(a, b)", ["array((3, 3)) + 3 * np.eye(3)", "array((3, 2), 1)"]),
    ("lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True)",
     ["array((3, 3)) + 3 * np.eye(3)", "array((3, 2), 1)"]),
    ("lambda a, b: tf.linalg.triangular_solve(a, b)", ["array((3, 3)) + 3 * np.eye(3)", "array((2, 3, 2), 1)"]),
    ("lambda a: tf.linalg.cholesky(a)", ["spd(3)"]),
    ("lambda a, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(a), b)", ["spd(3)", "array((3, 2), 1)"]),
    ("lambda a: tf.linalg.eigh(a)[0]", ["sym(3)"]),
    ("lambda a: tf.abs(tf.linalg.eigh(a)[1])", ["sym(3)"]),
    ("lambda a: tf.linalg.svd(a, compute_uv=False)", ["array((3, 3))"]),
    ("lambda a: tf.linalg.svd(a)[0]", ["array((4, 3))"]),
    ("lambda a: tf.abs(tf.linalg.svd(a)[1])", ["array((4, 3))"]),
    ("lambda a: tf.abs(tf.linalg.svd(a)[2])", ["array((3, 5))"]),
    ("lambda a: tf.abs(tf.linalg.svd(a)[1])", ["array((3, 3))"]),
    ("lambda a: tf.abs(tf.linalg.qr(a)[0])", ["array((4, 3))"]),
    ("lambda a: tf.abs(tf.linalg.qr(a)[1])", ["array((3, 3))"]),
    ("lambda a: tf.linalg.pinv(a)", ["array((3, 2))"]),
    ("lambda a, b: tf.linalg.lstsq(a, b)", ["array((4, 2))", "array((4, 1), 1)"]),
    ("lambda a: tf.linalg.band_part(a, 1, 0)", ["array((3, 4))"]),
    ("lambda a: tf.linalg.diag(a, k=(0, 1))", ["array((2, 3))"]),
    ("lambda a: tf.linalg.diag_part(a, k=(-1, 1))", ["array((3, 4))"]),
    ("lambda a, b: tf.linalg.set_diag(a, b)", ["array((2, 3))", "array((2,), 1)"]),
    ("lambda a: tf.linalg.trace(a)", ["array((2, 3, 3))"]),
    ("lambda a, b: tf.linalg.cross(a, b)", ["array((2, 3))", "array((2, 3), 1)"]),
    ("lambda a, b: tf.linalg.matvec(a, b)", ["array((2, 3))", "array((3,), 1)"]),
    ("lambda a, b: tf.tensordot(a, b, [[1, 2], [1, 0]])", ["array((2, 3, 4))", "array((4, 3, 5), 1)"]),
    ("lambda a, b: tf.clip_by_norm(a * b, 1.0)", ["array((3,))", "array((3,), 1)"]),
    ("lambda a, b: tf.clip_by_global_norm([a, b], 1.0)[0][0]", ["array((3,))", "array((2,), 1)"]),
    ("lambda a: tf.linalg.expm(a)", ["array((3, 3))"]),
    ("lambda a: tf.linalg.expm(a)", ["array((2, 3, 3)) * 8.0"]),
]


def to_plain(value):
    """A result as JSON: tensors as {dtype, shape, value}, sequences as lists."""
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        arr = np.asarray(value.numpy())
        return {"dtype": value.dtype.name, "shape": list(arr.shape),
                "value": [None if isinstance(v, float) and np.isnan(v) else v for v in arr.reshape(-1).tolist()]
                if arr.dtype.kind == "f" else arr.reshape(-1).tolist()}
    if value is None:
        return None
    if type(value).__name__ == "TensorShape":
        return {"shape_only": list(value)}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    raise TypeError("cannot record %r" % (value,))


def evaluate(tf, expr):
    try:
        return {"result": to_plain(eval(expr, {"tf": tf, "np": np, "array": array, "spd": spd, "sym": sym}))}
    except Exception as e:  # noqa: BLE001 (recording what TF raises)
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


def gradients(tf, fn_src, input_exprs):
    env = {"tf": tf, "np": np, "array": array, "spd": spd, "sym": sym}
    fn = eval(fn_src, env)
    inputs = [tf.constant(eval(e, env)) for e in input_exprs]
    with tf.GradientTape() as tape:
        for x in inputs:
            tape.watch(x)
        out = fn(*inputs)
        loss = tf.reduce_sum(out * tf.constant(weights(tuple(out.shape)), dtype=out.dtype))
    return tape.gradient(loss, inputs), inputs


def record():
    import tensorflow as tf
    values = {expr: evaluate(tf, expr) for expr in VALUE_CASES}
    grads = {}
    for fn_src, input_exprs in GRAD_CASES:
        got, _ = gradients(tf, fn_src, input_exprs)
        grads[fn_src + " @ " + ", ".join(input_exprs)] = to_plain(list(got))
    with open(RECORDS, "w") as f:
        json.dump({"tensorflow": tf.__version__, "values": values, "gradients": grads}, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    if "--record" in sys.argv:
        record()


# --- checks shared by test_einsum.py, test_norm.py and test_linalg_more.py --------------------

def load_records():
    with open(RECORDS) as f:
        return json.load(f)


def core_message(message):
    """TF's eager text without the '{{function_node ...}} ' prefix and ' [Op:...]' suffix."""
    if message.startswith("{{function_node"):
        message = message.split("}} ", 1)[1]
    message = message.split(" [Op:")[0]
    return message.split(" Received <class")[0]  # the class's module path is the library's own


def assert_same(got, want, where=""):
    if want is None:
        assert got is None, where
        return
    if isinstance(want, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), where
        for g, w in zip(got, want):
            assert_same(g, w, where)
        return
    if "shape_only" in want:
        assert list(got) == want["shape_only"], where
        return
    assert got.dtype.name == want["dtype"], (where, got.dtype.name, want["dtype"])
    arr = np.asarray(got.numpy())
    assert list(arr.shape) == want["shape"], (where, arr.shape, want["shape"])
    expected = np.array([np.nan if v is None else v for v in want["value"]], dtype=arr.dtype).reshape(want["shape"])
    if arr.dtype.kind == "f":
        tol = 2e-4 if arr.dtype == np.float32 else 1e-9
        np.testing.assert_allclose(arr, expected, rtol=tol, atol=tol, equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(arr, expected, err_msg=where)


def check_value(tf, expr, records, in_function=False):
    """graphfn's result (or error) for expr is TF's recorded one."""
    want = records["values"][expr]
    env = {"tf": tf, "np": np, "array": array, "spd": spd, "sym": sym}
    if "error" in want:
        import builtins
        error_type = getattr(tf.errors, want["error"], None) or getattr(builtins, want["error"])
        try:
            eval(expr, env)
        except error_type as e:
            expected = core_message(want["message"])
            if want["error"] == "NotFoundError":  # graphfn's generic text lists the type attr only
                expected = expected.split(" = ")[0]
            assert expected in str(e), (expr, str(e), want["message"])
            return
        raise AssertionError("%s: expected %s" % (expr, want["error"]))
    if in_function:
        got = tf.function(lambda: eval(expr, env))()
    else:
        got = eval(expr, env)
    assert_same(got, want["result"], expr)


def check_gradient(tf, fn_src, input_exprs, records, in_function=False):
    want = records["gradients"][fn_src + " @ " + ", ".join(input_exprs)]
    if in_function:
        env = {"tf": tf, "np": np, "array": array, "spd": spd, "sym": sym}
        fn = eval(fn_src, env)
        inputs = [tf.constant(eval(e, env)) for e in input_exprs]

        @tf.function
        def grads(*xs):
            with tf.GradientTape() as tape:
                for x in xs:
                    tape.watch(x)
                out = fn(*xs)
                loss = tf.reduce_sum(out * tf.constant(weights(tuple(out.shape)), dtype=out.dtype))
            return tape.gradient(loss, list(xs))
        got = grads(*inputs)
    else:
        got, _ = gradients(tf, fn_src, input_exprs)
    assert_same(list(got), want, fn_src)


def finite_difference_check(tf, fn_src, input_exprs, eps=1e-6):
    """graphfn's gradient agrees with central differences of the same loss (float64)."""
    env = {"tf": tf, "np": np, "array": array, "spd": spd, "sym": sym}
    fn = eval(fn_src, env)
    values = [np.asarray(eval(e, env), dtype=np.float64) for e in input_exprs]
    got, _ = gradients(tf, fn_src, input_exprs)

    def loss(vals):
        out = fn(*[tf.constant(v) for v in vals])
        return float(np.sum(out.numpy() * weights(tuple(out.shape))))
    for i, v in enumerate(values):
        numeric = np.zeros_like(v)
        for idx in np.ndindex(v.shape):
            plus = [x.copy() for x in values]
            minus = [x.copy() for x in values]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            numeric[idx] = (loss(plus) - loss(minus)) / (2 * eps)
        np.testing.assert_allclose(got[i].numpy(), numeric, rtol=1e-4, atol=1e-5, err_msg=fn_src)
