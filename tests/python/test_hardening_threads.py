"""Threads calling issue 18's kernels at once: sparse ops, regular expressions (RE2 patterns
compiled once and shared through a cache), Unicode, FFTs (pocketfft's shared plan cache, and the
thread pool inside each transform), ragged ranges and complex math. Each thread's results must
equal the serial ones; a data race shows as a wrong value or, under the sanitizers, a report."""

import threading

import numpy as np

import graphfn as tf

R = tf.raw_ops
THREADS = 8
ROUNDS = 12


def _calls():
    """name -> a function of a thread-specific k computing something from several kernels."""
    rng = np.random.default_rng(5)
    signal = rng.standard_normal([3, 96]).astype(np.float32)
    complex_signal = (rng.standard_normal([4, 45]) + 1j * rng.standard_normal([4, 45])).astype(np.complex64)
    texts = np.array([b"alpha beta", "h\u00e9llo w\u00f6rld".encode(), b"\xff\xfebad", b"x1 y22 z333"] * 4, dtype=object)

    def sparse(k):
        indices = tf.constant([[0, k % 3], [1, 1], [2, 0], [2, 3]], tf.int64)
        values = tf.constant([1.0, 2.0, 3.0, float(k)])
        shape = tf.constant([3, 4], tf.int64)
        added = R.SparseAdd(a_indices=indices, a_values=values, a_shape=shape, b_indices=indices, b_values=values,
                            b_shape=shape, thresh=tf.constant(0.5))
        dense = R.SparseToDense(sparse_indices=tf.constant([[0], [2], [3]], tf.int64), output_shape=tf.constant([5], tf.int64),
                                sparse_values=tf.constant([k, 2, 3]), default_value=tf.constant(-1))
        matmul = R.SparseTensorDenseMatMul(a_indices=tf.constant([[0, 0], [1, 2]], tf.int64),
                                           a_values=tf.constant([1.5, -2.0]), a_shape=tf.constant([2, 3], tf.int64),
                                           b=tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2) + k))
        reduced = R.SparseReduceSum(input_indices=indices, input_values=values, input_shape=shape,
                                    reduction_axes=tf.constant([1]))
        return [*added, dense, matmul, reduced]

    def strings(k):
        patterns = ["[aeiou]", "(\\w)(\\d+)", "\\s+", "[^a-z]"]
        pattern = patterns[k % len(patterns)]
        return [R.RegexReplace(input=tf.constant(texts), pattern=tf.constant(pattern), rewrite=tf.constant("<\\0>")),
                R.RegexFullMatch(input=tf.constant(texts), pattern=tf.constant(".*" + pattern + ".*")),
                R.StaticRegexReplace(input=tf.constant(texts), pattern=pattern, rewrite="_"),
                *R.UnicodeDecode(input=tf.constant(texts), input_encoding="UTF-8"),
                R.StringUpper(input=tf.constant(texts), encoding="utf-8"),
                *R.StringSplitV2(input=tf.constant(texts), sep=tf.constant(" ")),
                R.StringToHashBucketFast(input=tf.constant(texts), num_buckets=97 + k)]

    def fft(k):
        length = [96, 90, 64, 77][k % 4]
        return [R.RFFT(input=tf.constant(signal), fft_length=tf.constant([length])),
                R.IRFFT(input=R.RFFT(input=tf.constant(signal), fft_length=tf.constant([96])),
                        fft_length=tf.constant([96])),
                R.FFT(input=tf.constant(complex_signal)), R.IFFT2D(input=tf.constant(complex_signal)),
                R.RFFT2D(input=tf.constant(signal), fft_length=tf.constant([3, length]))]

    def ragged_and_complex(k):
        return [*R.RaggedRange(starts=tf.constant([0, k, -3]), limits=tf.constant([5, 2 * k + 1, 9]),
                               deltas=tf.constant([1, 2, 3])),
                R.ComplexAbs(x=tf.constant(complex_signal)), R.Angle(input=tf.constant(complex_signal)),
                tf.matmul(tf.constant(complex_signal), tf.constant(complex_signal), transpose_b=True),
                tf.cast(tf.constant(signal * 1000.0), tf.bfloat16), tf.cast(tf.constant(signal), tf.float16)]

    return {"sparse": sparse, "strings": strings, "fft": fft, "ragged_and_complex": ragged_and_complex}


def _numpy(outputs):
    return [np.asarray(o) for o in outputs]


def _assert_same(got, want):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.dtype == object:
            assert a.tolist() == b.tolist()
        else:  # bitwise: the same kernels on the same inputs
            np.testing.assert_array_equal(a.view(np.uint8) if a.dtype.kind in "fc" else a,
                                          b.view(np.uint8) if b.dtype.kind in "fc" else b)


def test_threads_calling_new_kernels_at_once_match_serial_results():
    calls = _calls()
    names = sorted(calls)
    serial = {(name, k): _numpy(calls[name](k)) for name in names for k in range(THREADS)}
    failures = []
    start = threading.Barrier(THREADS)

    def worker(k):
        try:
            start.wait()
            for round_ in range(ROUNDS):
                name = names[(k + round_) % len(names)]
                _assert_same(_numpy(calls[name](k)), serial[(name, k)])
        except Exception as e:  # reported by the main thread
            failures.append((k, repr(e)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_threads_in_one_function_match_eager_results():
    """The same kernels inside one traced function, called from several threads."""
    calls = _calls()

    @tf.function
    def all_families(k):
        del k
        return [*calls["sparse"](1), *calls["fft"](2), *calls["ragged_and_complex"](3)]

    want = _numpy(all_families(tf.constant(0)))
    failures = []

    def worker():
        try:
            for _ in range(ROUNDS):
                _assert_same(_numpy(all_families(tf.constant(0))), want)
        except Exception as e:
            failures.append(repr(e))

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
