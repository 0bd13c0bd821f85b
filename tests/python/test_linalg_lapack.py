"""The linalg kernels run on OpenBLAS's LAPACK (the scipy-openblas32 package), loaded on first use
(cpp/graphfn/kernels/lapack.h): TF's values, results equal from several threads, a clear error
when the library cannot be loaded, no loading at import."""

import os
import subprocess
import sys
import threading

import numpy as np

import graphfn as tf


def test_determinant_is_sign_times_exp_of_log_abs_determinant_as_tf():
    # TF 2.21: det([[1, 2], [3, 4]]) is -2.0 in float32 (the product of the pivots is -1.9999999).
    assert tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy() == np.float32(-2.0)
    assert tf.linalg.det(tf.constant([[1.0, 2.0], [2.0, 4.0]])).numpy() == 0.0
    sign, log_abs = tf.linalg.slogdet(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert sign.numpy() == -1.0
    np.testing.assert_allclose(log_abs.numpy(), np.log(2.0), rtol=1e-6)


def test_decompositions_reconstruct_their_input():
    rng = np.random.RandomState(0)
    a = rng.randn(3, 6, 4)
    for dtype, tol in ((np.float32, 1e-5), (np.float64, 1e-12)):
        x = tf.constant(a.astype(dtype))
        s, u, v = tf.linalg.svd(x)
        np.testing.assert_allclose((u * s[:, None, :]) @ np.swapaxes(v.numpy(), 1, 2), a, atol=tol * 10)
        np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=tol * 10)
        q, r = tf.linalg.qr(x, full_matrices=True)
        assert q.shape == (3, 6, 6) and r.shape == (3, 6, 4)
        np.testing.assert_allclose(q.numpy() @ r.numpy(), a, atol=tol * 10)
        np.testing.assert_allclose(np.triu(r.numpy()), r.numpy())
        spd = a @ np.swapaxes(a, 1, 2) + 6 * np.eye(6)
        chol = tf.linalg.cholesky(tf.constant(spd.astype(dtype))).numpy()
        np.testing.assert_allclose(chol @ np.swapaxes(chol, 1, 2), spd, rtol=tol * 10)
        e, vecs = tf.linalg.eigh(tf.constant(spd.astype(dtype)))
        np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(spd), rtol=tol * 10)
        np.testing.assert_allclose(vecs.numpy() @ (e.numpy()[:, :, None] * np.swapaxes(vecs.numpy(), 1, 2)), spd,
                                   rtol=tol * 100)


def test_linalg_from_threads_equals_serial():
    rng = np.random.RandomState(1)
    inputs = [rng.randn(8, 16, 16) + 16 * np.eye(16) for _ in range(8)]

    def compute(a):
        x = tf.constant(a)
        return [tf.linalg.inv(x).numpy(), tf.linalg.svd(x, compute_uv=False).numpy(),
                tf.linalg.det(x).numpy(), tf.linalg.solve(x, x[:, :, :2]).numpy()]

    serial = [compute(a) for a in inputs]
    results = [None] * len(inputs)

    def work(i):
        for _ in range(5):
            results[i] = compute(inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, serial):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def _run_python(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def test_missing_library_is_a_clear_error_not_a_crash():
    result = _run_python(
        "import graphfn as tf\n"
        "try:\n"
        "    tf.linalg.inv(tf.constant([[2.0]]))\n"
        "except tf.errors.FailedPreconditionError as e:\n"
        "    print('error:', e.message)\n",
        GRAPHFN_OPENBLAS_LIBRARY="/nonexistent/libscipy_openblas.so")
    assert result.returncode == 0, result.stderr
    assert ("graphfn's linear algebra kernels need OpenBLAS from the scipy-openblas32 package "
            "(pip install scipy-openblas32), which could not be loaded from "
            "/nonexistent/libscipy_openblas.so") in result.stdout, result.stdout


def test_import_does_not_load_openblas():
    result = _run_python(
        "import graphfn as tf\n"
        "maps = lambda: open('/proc/self/maps').read()\n"
        "print('libscipy_openblas' in maps())\n"
        "tf.linalg.det(tf.constant([[2.0]]))\n"
        "print('libscipy_openblas' in maps())\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]
