"""FFT kernels (kernels/signal_fft.cc, pocketfft) sharded over the intra-op pool: one thread and
three threads give the same bits, for odd line lengths, strided axes (fft2d/fft3d's outer axes),
a Bluestein length (the prime 1009) and both precisions; the values agree with NumPy's float64
transforms."""

import textwrap

import numpy as np

from thread_count_runs import run_with_threads

# Enough lines that every transform splits into several shards (2^15 samples per shard).
_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import graphfn as tf
    rng = np.random.default_rng(3)
    def real(*shape):
        return rng.standard_normal(shape)
    def cplx(*shape):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    out = {}
    for bits, rdt, cdt in [(32, np.float32, np.complex64), (64, np.float64, np.complex128)]:
        x = real(3001, 37).astype(rdt)
        out["rfft_%d" % bits] = tf.signal.rfft(tf.constant(x))
        out["irfft_%d" % bits] = tf.signal.irfft(tf.constant(cplx(2999, 11).astype(cdt)), [21])
        out["fft_%d" % bits] = tf.signal.fft(tf.constant(cplx(2001, 45).astype(cdt)))
        out["ifft_prime_%d" % bits] = tf.signal.ifft(tf.constant(cplx(67, 1009).astype(cdt)))
        out["fft2d_%d" % bits] = tf.signal.fft2d(tf.constant(cplx(7, 129, 67).astype(cdt)))
        out["fft3d_%d" % bits] = tf.signal.fft3d(tf.constant(cplx(5, 33, 31, 29).astype(cdt)))
        out["rfft2d_%d" % bits] = tf.signal.rfft2d(tf.constant(real(9, 257, 61).astype(rdt)))
        out["irfft2d_%d" % bits] = tf.signal.irfft2d(tf.constant(cplx(9, 257, 31).astype(cdt)), [257, 60])
    np.savez(sys.argv[1], **{k: v.numpy() for k, v in out.items()})
""")


def _references():
    """NumPy's float64 transforms of the script's inputs, drawn in the same order."""
    rng = np.random.default_rng(3)
    real = rng.standard_normal

    def cplx(*shape):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    refs = {}
    for bits, rdt, cdt in [(32, np.float32, np.complex64), (64, np.float64, np.complex128)]:
        refs["rfft_%d" % bits] = np.fft.rfft(real((3001, 37)).astype(rdt).astype(np.float64))
        spectrum = cplx(2999, 11).astype(cdt).astype(np.complex128)
        spectrum[:, 0] = spectrum[:, 0].real  # the DC term's imaginary part is ignored (as TF)
        refs["irfft_%d" % bits] = np.fft.irfft(spectrum, 21)
        refs["fft_%d" % bits] = np.fft.fft(cplx(2001, 45).astype(cdt).astype(np.complex128))
        refs["ifft_prime_%d" % bits] = np.fft.ifft(cplx(67, 1009).astype(cdt).astype(np.complex128))
        refs["fft2d_%d" % bits] = np.fft.fft2(cplx(7, 129, 67).astype(cdt).astype(np.complex128))
        refs["fft3d_%d" % bits] = np.fft.fftn(cplx(5, 33, 31, 29).astype(cdt).astype(np.complex128), axes=(1, 2, 3))
        refs["rfft2d_%d" % bits] = np.fft.rfft2(real((9, 257, 61)).astype(rdt).astype(np.float64))
        half = cplx(9, 257, 31).astype(cdt).astype(np.complex128)
        refs["irfft2d_%d" % bits] = np.fft.irfft2(half, (257, 60))
    return refs


def test_one_thread_and_three_threads_give_the_same_bits(tmp_path):
    one, three = run_with_threads(_SCRIPT, tmp_path, 1), run_with_threads(_SCRIPT, tmp_path, 3)
    assert sorted(one.files) == sorted(three.files)
    for name in one.files:
        assert one[name].dtype == three[name].dtype, name
        np.testing.assert_array_equal(one[name], three[name], err_msg=name)


def test_threaded_transforms_match_numpy(tmp_path):
    three = run_with_threads(_SCRIPT, tmp_path, 3)
    for name, expected in _references().items():
        actual = three[name]
        assert actual.shape == expected.shape, name
        scale = np.abs(expected).max()
        tolerance = 1e-5 if name.endswith("_32") else 1e-12
        np.testing.assert_allclose(actual, expected, rtol=0, atol=tolerance * scale, err_msg=name)
