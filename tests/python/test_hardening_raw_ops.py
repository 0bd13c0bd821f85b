"""Hostile raw-op calls on the kernels issue 18 added (sparse, strings/Unicode, ragged), found by
running them and the op fuzzer under AddressSanitizer and UndefinedBehaviorSanitizer: integer
overflow (C++ undefined behaviour, TF wraps), huge or overflowing shapes, and TF's check order and
texts. Every expected value, error type and message was recorded from TensorFlow 2.21 with the
same call (`tf.raw_ops.X(...)`)."""

import numpy as np
import pytest

import graphfn as tf

R = tf.raw_ops
I64 = tf.int64
NAMESPACE = {"tf": tf, "np": np, "R": R, "I64": I64, "c": tf.constant}

NGRAMS = "separator=' ', left_pad='', right_pad='', preserve_short_sequences=False"

# (call, TF's outputs as nested lists)
RESULTS = [
    # Integer sums wrap; a sum that wrapped to the most negative value has TF's |s| < 0 and is
    # dropped by the threshold, while entries of one operand alone are never thresholded.
    ("R.SparseAdd(a_indices=c([[0]],I64), a_values=c([2**31-1]), a_shape=c([2],I64), b_indices=c([[0]],I64), "
     "b_values=c([1]), b_shape=c([2],I64), thresh=c(0))", [[], [], [2]]),
    ("R.SparseAdd(a_indices=c([[0]],I64), a_values=c([2**63-1],I64), a_shape=c([2],I64), b_indices=c([[0]],I64), "
     "b_values=c([1],I64), b_shape=c([2],I64), thresh=c(0,I64))", [[], [], [2]]),
    ("R.SparseAdd(a_indices=c([[0],[1]],I64), a_values=c([-2**31, 5]), a_shape=c([2],I64), b_indices=c([[1]],I64), "
     "b_values=c([-2**31]), b_shape=c([2],I64), thresh=c(0))", [[[0], [1]], [-2147483648, -2147483643], [2]]),
    ("R.SparseAdd(a_indices=c([[0]],I64), a_values=c([100],tf.int8), a_shape=c([2],I64), b_indices=c([[0]],I64), "
     "b_values=c([100],tf.int8), b_shape=c([2],I64), thresh=c(0,tf.int8))", [[[0]], [-56], [2]]),
    ("R.SparseAdd(a_indices=c([[0],[1]],I64), a_values=c([0.5, 0.25]), a_shape=c([3],I64), b_indices=c([[1],[2]],I64), "
     "b_values=c([0.5, 0.1]), b_shape=c([3],I64), thresh=c(1.0))", [[[0], [2]], [0.5, 0.10000000149011612], [3]]),
    ("R.SparseTensorDenseAdd(a_indices=c([[0,0]],I64), a_values=c([2**31-1]), a_shape=c([2,2],I64), b=c([[1,2],[3,4]]))",
     [[-2147483648, 2], [3, 4]]),
    ("R.SparseTensorDenseMatMul(a_indices=c([[0,0]],I64), a_values=c([2**31-1]), a_shape=c([2,2],I64), b=c([[2,2],[3,4]]))",
     [[-2, -2], [0, 0]]),
    ("R.SparseTensorDenseMatMul(a_indices=c([[0,0],[0,1]],I64), a_values=c([2**31-1, 2**31-1]), a_shape=c([1,2],I64), "
     "b=c([[2],[3]]))", [[2147483643]]),
    ("R.SparseTensorDenseMatMul(a_indices=c([[0,0]],I64), a_values=c([2**31-1]), a_shape=c([2,2],I64), "
     "b=c([[2,2],[3,4]]), adjoint_a=True, adjoint_b=True)", [[-2, 2147483645], [0, 0]]),
    ("R.SparseReduceSum(input_indices=c([[0,0],[1,0]],I64), input_values=c([2**31-1, 1]), input_shape=c([2,2],I64), "
     "reduction_axes=c([0]))", [-2147483648, 0]),
    ("R.SparseReduceSum(input_indices=c([[0,0],[1,0]],I64), input_values=c([2**63-1, 1],I64), input_shape=c([2,2],I64), "
     "reduction_axes=c([0]), keep_dims=True)", [[-9223372036854775808, 0]]),
    ("R.SparseReduceSumSparse(input_indices=c([[0,0],[1,0]],I64), input_values=c([2**31-1, 1]), "
     "input_shape=c([2,2],I64), reduction_axes=c([0]))", [[[0]], [-2147483648], [2]]),
    ("R.SparseFillEmptyRowsGrad(reverse_index_map=c(np.zeros([0]),I64), grad_values=c([2**31-1, 1]))",
     [[], -2147483648]),
    # The step after a row's last value would leave the type's range (not an error in TF).
    ("R.RaggedRange(starts=c(2**31-2), limits=c(2**31-1), deltas=c(10))", [[0, 1], [2147483646]]),
    ("R.RaggedRange(starts=c(-2**31), limits=c(2**31-1), deltas=c(2**31-1))",
     [[0, 3], [-2147483648, -1, 2147483646]]),
    ("R.RaggedRange(starts=c([2**31-3, -2**31+2]), limits=c([2**31-1, -2**31]), deltas=c([3, -1]))",
     [[0, 1, 3], [2147483645, -2147483646, -2147483647]]),
    ("R.RaggedRange(starts=c(-2**63, I64), limits=c(2**63-1, I64), deltas=c(2**62, I64))",
     [[0, 4], [-9223372036854775808, -4611686018427387904, 0, 4611686018427387904]]),
    # A UTF-16 high surrogate followed by a truncated unit is one ill-formed part (ICU's reading).
    ("R.UnicodeDecode(input=c([b'\\xd8\\x00\\x00', b'a\\x00\\xd8']), input_encoding='UTF-16-BE')",
     [[0, 1, 3], [65533, 24832, 65533]]),
    # replacement_char may be any code point up to U+10FFFF, surrogates too; UTF-8 output writes
    # a surrogate as U+FFFD, UTF-16/32 write it as it is.
    ("R.UnicodeDecode(input=c([b'\\xff abc']), input_encoding='UTF-8', replacement_char=0xD800)",
     [[0, 5], [55296, 32, 97, 98, 99]]),
    ("R.UnicodeTranscode(input=c([b'\\xff abc']), input_encoding='UTF-8', output_encoding='UTF-8', "
     "replacement_char=0xD800)", [b"\xef\xbf\xbd abc"]),
    ("R.UnicodeTranscode(input=c([b'\\xff abc']), input_encoding='UTF-8', output_encoding='UTF-16-BE', "
     "replacement_char=0xD800)", [b"\xd8\x00\x00 \x00a\x00b\x00c"]),
    ("R.UnicodeEncode(input_values=c([65, -1]), input_splits=c([0,2],I64), output_encoding='UTF-8', "
     "replacement_char=0xD800)", [b"A\xef\xbf\xbd"]),
    ("R.UnicodeEncode(input_values=c([65, -1]), input_splits=c([0,2],I64), output_encoding='UTF-16-BE', "
     "replacement_char=0xD800)", [b"\x00A\xd8\x00"]),
]

# (call, TF's exception type, a substring of TF's message)
ERRORS = [
    # Dense shapes whose element count overflows int64: TF's TensorShape text, with its product.
    ("R.SparseReshape(input_indices=c([[0,0]],I64), input_shape=c([2**62,4],I64), new_shape=c([-1],I64))",
     tf.errors.InvalidArgumentError, "Encountered overflow when multiplying 4611686018427387904 with 4, result: -1"),
    ("R.SparseReshape(input_indices=c([[0,0]],I64), input_shape=c([2,2],I64), new_shape=c([2**62,4],I64))",
     tf.errors.InvalidArgumentError, "Encountered overflow when multiplying 4611686018427387904 with 4, result: -1"),
    ("R.SparseReshape(input_indices=c([[0,0]],I64), input_shape=c([2,2],I64), new_shape=c([2**62,2,0],I64))",
     tf.errors.InvalidArgumentError,
     "Encountered overflow when multiplying 4611686018427387904 with 2, result: -9223372036854775808"),
    ("R.SparseReshape(input_indices=c([[0,0]],I64), input_shape=c([2,2],I64), new_shape=c([0,2**62,2,2],I64))",
     tf.errors.InvalidArgumentError, "Input to reshape is a tensor with 4 dense values, but the requested shape has 0"),
    ("R.SparseReduceSum(input_indices=c([[0,0]],I64), input_values=c([1.0]), input_shape=c([2**40,2**40],I64), "
     "reduction_axes=c([0]))",
     tf.errors.InvalidArgumentError, "Encountered overflow when multiplying 1099511627776 with 1099511627776, result: -1"),
    ("R.SparseReduceSumSparse(input_indices=c([[0,0]],I64), input_values=c([1.0]), input_shape=c([2**40,2**40],I64), "
     "reduction_axes=c([0]))",
     tf.errors.InvalidArgumentError, "Encountered overflow when multiplying 1099511627776 with 1099511627776, result: -1"),
    ("R.SparseReduceMax(input_indices=c([[0,0]],I64), input_values=c([1.0]), input_shape=c([2**62,2**40],I64), "
     "reduction_axes=c([1]))",
     tf.errors.InvalidArgumentError, "Encountered overflow when multiplying 4611686018427387904 with 1099511627776, result: -1"),
    # TF allocates the [dense_shape[0]] bool indicator first: out of memory there.
    ("R.SparseFillEmptyRows(indices=c([[0,0]],I64), values=c([1.0]), dense_shape=c([2**62,2],I64), default_value=c(0.0))",
     tf.errors.ResourceExhaustedError, "OOM when allocating tensor with shape[4611686018427387904] and type bool"),
    ("R.SparseFillEmptyRows(indices=c([[0,0]],I64), values=c([1.0]), dense_shape=c([2**40,2],I64), default_value=c(0.0))",
     tf.errors.ResourceExhaustedError, "OOM when allocating tensor with shape[1099511627776] and type bool"),
    ("R.SparseAddGrad(backprop_val_grad=c([1.0]), a_indices=c([[0]],I64), b_indices=c([[1,1]],I64), sum_indices=c([[0]],I64))",
     tf.errors.InvalidArgumentError, "The densified operands should have the same ndims; for A, B, sum got: 121"),
    # StringNGrams reads its int attrs as int32, then checks the splits in TF's order.
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,2],I64), ngram_widths=[2**40], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Attr ngram_widths has value 1099511627776 out of range for an int32"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,2],I64), ngram_widths=[2**31], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Attr ngram_widths has value 2147483648 out of range for an int32"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,2],I64), ngram_widths=[2], pad_width=2**40, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Attr pad_width has value 1099511627776 out of range for an int32"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,2],I64), ngram_widths=[2], pad_width=-2**40, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Attr pad_width has value -1099511627776 out of range for an int32"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([1,2],I64), ngram_widths=[2], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "First split value must be 0, got 1"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([1,0],I64), ngram_widths=[2], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "First split value must be 0, got 1"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,1],I64), ngram_widths=[2], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Last split value must be data size. Expected 2, got 1"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,-1,2],I64), ngram_widths=[2], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Invalid split value -1, must be in [0, 2]"),
    ("R.StringNGrams(data=c(['a','b']), data_splits=c([0,3,2],I64), ngram_widths=[2], pad_width=0, " + NGRAMS + ")",
     tf.errors.InvalidArgumentError, "Invalid split value 3, must be in [0, 2]"),
    # UnicodeEncode: some splits, first zero, last the value count, then each split in order.
    ("R.UnicodeEncode(input_values=c([65, -1]), input_splits=c([0,4],I64), output_encoding='UTF-8')",
     tf.errors.InvalidArgumentError, "Last value in input_splits must be equal to length of input_tensor."),
    ("R.UnicodeEncode(input_values=c([65, 66]), input_splits=c([0,2,1],I64), output_encoding='UTF-8')",
     tf.errors.InvalidArgumentError, "Last value in input_splits must be equal to length of input_tensor."),
    ("R.UnicodeEncode(input_values=c([65, 66]), input_splits=c([0,3,2],I64), output_encoding='UTF-8')",
     tf.errors.InvalidArgumentError, "Values in input_splits must be less than or equal to input_tensor length."),
    ("R.UnicodeEncode(input_values=c([65, 66]), input_splits=c([0,-1,2],I64), output_encoding='UTF-8')",
     tf.errors.InvalidArgumentError, "Values in input_splits must be equal or in ascending order."),
    ("R.UnicodeEncode(input_values=c([65, 66]), input_splits=c(np.zeros([0]),I64), output_encoding='UTF-8')",
     tf.errors.InvalidArgumentError, "Input_splits should contain elements, but given input_values has 0 elements"),
    ("R.UnicodeEncode(input_values=c([65, -1]), input_splits=c([0,2],I64), output_encoding='UTF-8', errors='ignore', "
     "replacement_char=-5)", tf.errors.InvalidArgumentError, "replacement_char out of unicode codepoint range"),
    ("R.UnicodeDecode(input=c([b'\\xff']), input_encoding='UTF-8', replacement_char=0x110000)",
     tf.errors.InvalidArgumentError, "replacement_char out of unicode codepoint range"),
    ("R.ReduceJoin(inputs=c([['a','b'],['c','d']]), reduction_indices=c([0,-2]))",
     tf.errors.InvalidArgumentError, "Duplicate reduction dimension -2"),
    # The complex kernels are picked by T; a Tout TF has no kernel for wrote values of the wrong
    # width (Complex of doubles into complex64: a heap overflow).
    ("R.Complex(real=c([1.0, 2.0], tf.float64), imag=c([1.0, 2.0], tf.float64))",
     tf.errors.NotFoundError, "Could not find device for node: {{node Complex}} = Complex[T=DT_DOUBLE, Tout=DT_COMPLEX64]"),
    ("R.Complex(real=c([1.0]), imag=c(np.ones([4, 3]), tf.float64))", tf.errors.InvalidArgumentError,
     "cannot compute Complex as input #1(zero-based) was expected to be a float tensor but is a double tensor"),
    ("R.Complex(real=c([1.0, 2.0]), imag=c([1.0, 2.0]), Tout=tf.complex128)",
     tf.errors.NotFoundError, "Could not find device for node: {{node Complex}} = Complex[T=DT_FLOAT, Tout=DT_COMPLEX128]"),
    ("R.Real(input=c([1+2j], tf.complex128))",
     tf.errors.NotFoundError, "Could not find device for node: {{node Real}} = Real[T=DT_COMPLEX128, Tout=DT_FLOAT]"),
    ("R.Real(input=c([1+2j], tf.complex64), Tout=tf.float64)",
     tf.errors.NotFoundError, "Could not find device for node: {{node Real}} = Real[T=DT_COMPLEX64, Tout=DT_DOUBLE]"),
    ("R.Imag(input=c([1+2j], tf.complex128), Tout=tf.float32)",
     tf.errors.NotFoundError, "Could not find device for node: {{node Imag}} = Imag[T=DT_COMPLEX128, Tout=DT_FLOAT]"),
    ("R.Angle(input=c([1+2j], tf.complex64), Tout=tf.float64)",
     tf.errors.NotFoundError, "Could not find device for node: {{node Angle}} = Angle[T=DT_COMPLEX64, Tout=DT_DOUBLE]"),
    ("R.ComplexAbs(x=c([1+2j], tf.complex128))",
     tf.errors.InvalidArgumentError, "Signature mismatch, have: complex128->float expected: complex128->double"),
    # The real FFTs check the input's length before the dtype pair.
    ("R.IRFFT(input=c([1+0j,2+0j]), fft_length=c([9]))",
     tf.errors.InvalidArgumentError, "Input dimension 0 must have length of at least 5 but got: 2"),
    ("R.IRFFT(input=c([1+0j,2+0j]), fft_length=c([1]))",
     tf.errors.InvalidArgumentError, "Wrong types for backward real FFT: in=18 out=1"),
    ("R.RFFT(input=c([1.0,2.0],tf.float64), fft_length=c([5]), Tcomplex=tf.complex64)",
     tf.errors.InvalidArgumentError, "Input dimension 0 must have length of at least 5 but got: 2"),
    # Already right before; kept as the table's baseline of index checks.
    ("R.SparseToDense(sparse_indices=c([[0],[5]],I64), output_shape=c([3],I64), sparse_values=c([1,2]), "
     "default_value=c(0))", tf.errors.InvalidArgumentError, "indices[1] = [5] is out of bounds: need 0 <= index < [3]"),
    ("R.SparseToDense(sparse_indices=c([[0,0]],I64), output_shape=c([2**40,2**40],I64), sparse_values=c([1]), "
     "default_value=c(0))", tf.errors.InvalidArgumentError,
     "Shape [1099511627776,1099511627776] would have more than 2**63 - 1 elements"),
    ("R.SparseReduceSum(input_indices=c([[9,9]],I64), input_values=c([1.0]), input_shape=c([2,2],I64), "
     "reduction_axes=c([0]))", tf.errors.InternalError, "Obtained a write index of 9 which is outside of bounds of [0, 2)"),
    ("R.SparseFillEmptyRowsGrad(reverse_index_map=c([-1],I64), grad_values=c([1.0]))",
     tf.errors.InvalidArgumentError, "Elements in reverse index must be in [0, 1) but got -1"),
    ("R.RaggedRange(starts=c(0, I64), limits=c(2**40, I64), deltas=c(1, I64), Tsplits=tf.int32)",
     tf.errors.InvalidArgumentError, "Requires ((limit - start) / delta) <= 2147483647"),
]


def _as_lists(value):
    if isinstance(value, (list, tuple)):
        return [np.asarray(v).tolist() for v in value]
    return np.asarray(value).tolist()


@pytest.mark.parametrize("call, expected", RESULTS)
def test_hostile_call_gives_tensorflows_values(call, expected):
    assert _as_lists(eval(call, NAMESPACE)) == expected


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_hostile_call_raises_tensorflows_error(call, error, message):
    with pytest.raises(error) as info:
        eval(call, NAMESPACE)
    assert message in str(info.value)


@pytest.mark.parametrize("n", [1009, 2 * 1021, 20011])
def test_fft_of_a_length_with_a_large_prime_factor(n):
    """Lengths with a large prime factor (pocketfft's plans use Bluestein's algorithm for them,
    O(n log n) where a direct prime butterfly is O(p^2)). The expected values
    are the DFT's, from NumPy in float64; TF's are the same within float32 rounding."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal([2, n]).astype(np.float32)
    spectrum = R.RFFT(input=tf.constant(x), fft_length=tf.constant([n])).numpy()
    want = np.fft.rfft(x.astype(np.float64))
    np.testing.assert_allclose(spectrum, want, rtol=0, atol=2e-5 * np.abs(want).max())
    back = R.IRFFT(input=tf.constant(spectrum), fft_length=tf.constant([n])).numpy()
    np.testing.assert_allclose(back, x, rtol=0, atol=2e-5 * np.abs(x).max())
    z = (x[0] + 1j * x[1]).astype(np.complex128)
    np.testing.assert_allclose(R.FFT(input=tf.constant(z)).numpy(), np.fft.fft(z), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(R.IFFT(input=tf.constant(z)).numpy(), np.fft.ifft(z), rtol=1e-12, atol=1e-12)
    # The 2-D real transform runs the long rows through the real path and the short axis through the complex one.
    np.testing.assert_allclose(R.RFFT2D(input=tf.constant(x), fft_length=tf.constant([2, n])).numpy(),
                               np.fft.rfft2(x.astype(np.float64)), rtol=0, atol=2e-5 * np.abs(want).max() * 2)
