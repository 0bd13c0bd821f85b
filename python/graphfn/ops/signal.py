"""tf.signal: the FFT ops (kernels/signal_fft.cc, pocketfft) and the functions TF
builds on them (fftshift, frame, windows, stft/inverse_stft, mel matrices, DCT type II, MFCCs).
The composite functions are written with graphfn's public ops, so they trace into graphs and
differentiate like any other code."""

import math

from graphfn.framework import dtypes
from graphfn.framework import tensor as tensor_lib
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import Tensor
from graphfn.ops import array_ops
from graphfn.ops import complex_ops
from graphfn.ops import gradient_ops
from graphfn.ops import math_cwise
from graphfn.ops import math_ops
from graphfn.ops import shape_index
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export

_COMPLEX_FOR_REAL = {"float32": dtypes.complex64, "float64": dtypes.complex128}
_SUFFIX = {1: "", 2: "2D", 3: "3D"}


def _static_int_list(value):
    """The value as a list of Python ints when known now (Python, NumPy or eager), else None."""
    if isinstance(value, (list, tuple)):
        items = [_static_int_list(v) for v in value]
        return None if any(i is None for i in items) else [v for i in items for v in i]
    if tensor_lib.is_tensor(value):
        try:
            value = value.numpy()
        except Exception:  # a graph tensor: only known when the graph runs
            return None
    if hasattr(value, "reshape"):  # a NumPy array or scalar
        return [int(v) for v in value.reshape(-1).tolist()]
    return [int(value)]


def _rank_at_least(x, rank):
    if x.shape.rank is not None and x.shape.rank < rank:
        raise ValueError("Shape %s must have rank at least %d" % (x.shape, rank))


def _scalar(x):
    if x.shape.rank is not None and x.shape.rank != 0:
        raise ValueError("Shape %s must have rank 0" % (x.shape,))


def _inner_dims(x, rank):
    """The last `rank` dims of x: Python ints when static, else a tensor."""
    static = x.shape.as_list()[-rank:] if x.shape.rank is not None else [None]
    if None not in static:
        return static
    return array_ops.shape(x)[-rank:]


def _complex_fft(op_type, rank):
    def transform(input, name=None):  # noqa: A002 (TF's argument name)
        with name_scope(name or op_type) as scope:
            if not isinstance(input, Tensor):
                input = array_ops.convert_to_tensor(input, dtype_hint=dtypes.complex64, name="input")
            return node(op_type, scope)(input)

    transform.__name__ = op_type.lower()
    transform.__doc__ = "TF's %s: the %d-D %s transform of the innermost dims of a complex tensor." % (
        op_type, rank, "inverse discrete Fourier" if op_type.startswith("I") else "discrete Fourier")
    return transform


def _pad_inner_to(x, rank, target):
    """Zero-pads the last `rank` dims of x up to `target` (a list of ints or a tensor)."""
    dims = _inner_dims(x, rank)
    if isinstance(dims, list) and not tensor_lib.is_tensor(target):
        amounts = [max(0, int(t) - d) for t, d in zip(target, dims)]
        if not any(amounts):
            return x
        return shape_index.pad(x, [[0, 0]] * (x.shape.rank - rank) + [[0, a] for a in amounts])
    amounts = math_ops.maximum(0, math_ops.cast(target, dtypes.int32) - math_ops.cast(dims, dtypes.int32))
    outer = array_ops.zeros([array_ops.rank(x) - rank, 2], dtypes.int32)
    return shape_index.pad(x, array_ops.concat([outer, array_ops.stack([array_ops.zeros_like(amounts), amounts], 1)], 0))


def _real_fft(rank):
    op_type = "RFFT" + _SUFFIX[rank]

    def transform(input_tensor, fft_length=None, name=None):
        with name_scope(name or "rfft" + _SUFFIX[rank].lower()) as scope:
            x = array_ops.convert_to_tensor(input_tensor, dtype_hint=dtypes.float32, name="input_tensor")
            if x.dtype not in (dtypes.float32, dtypes.float64):
                raise ValueError("RFFT requires tf.float32 or tf.float64 inputs, got: %s" % (x,))
            _rank_at_least(x, rank)
            if fft_length is None:
                fft_length = _inner_dims(x, rank)
            lengths = _static_int_list(fft_length)
            x = _pad_inner_to(x, rank, lengths if lengths is not None else fft_length)
            fft_length = lengths if lengths is not None else math_ops.cast(fft_length, dtypes.int32)
            return node(op_type, scope)(x, fft_length, Tcomplex=_COMPLEX_FOR_REAL[x.dtype.name])

    transform.__name__ = op_type.lower()
    transform.__doc__ = ("TF's %s: the %d-D FFT of a real signal's innermost dims, keeping the "
                         "fft_length[-1] // 2 + 1 non-negative frequencies; shorter inputs are "
                         "zero-padded to fft_length, longer ones cropped." % (op_type, rank))
    return transform


def _inverse_real_fft(rank):
    op_type = "IRFFT" + _SUFFIX[rank]

    def transform(input_tensor, fft_length=None, name=None):
        with name_scope(name or "irfft" + _SUFFIX[rank].lower()) as scope:
            x = array_ops.convert_to_tensor(input_tensor, dtype_hint=dtypes.complex64, name="input_tensor")
            _rank_at_least(x, rank)
            if x.dtype not in (dtypes.complex64, dtypes.complex128):
                raise ValueError("IRFFT requires tf.complex64 or tf.complex128 inputs, got: %s" % (x,))
            if fft_length is None:
                dims = _inner_dims(x, rank)
                if isinstance(dims, list):
                    fft_length = dims[:-1] + [2 * (dims[-1] - 1)]
                else:
                    fft_length = array_ops.concat([dims[:-1], 2 * (dims[-1:] - 1)], 0)
            lengths = _static_int_list(fft_length)
            if lengths is not None:
                x = _pad_inner_to(x, rank, lengths[:-1] + [lengths[-1] // 2 + 1])
                fft_length = lengths
            else:
                fft_length = math_ops.cast(fft_length, dtypes.int32)
                x = _pad_inner_to(x, rank, array_ops.concat([fft_length[:-1], fft_length[-1:] // 2 + 1], 0))
            return node(op_type, scope)(x, fft_length, Treal=x.dtype.real_dtype)

    transform.__name__ = op_type.lower()
    transform.__doc__ = ("TF's %s: the real %d-D inverse FFT of a half spectrum; fft_length defaults "
                         "to 2 * (inner dim - 1)." % (op_type, rank))
    return transform


for _rank in (1, 2, 3):
    for _op in ("FFT", "IFFT"):
        _name = _op.lower() + _SUFFIX[_rank].lower()
        globals()[_name] = tf_export("signal." + _name)(_complex_fft(_op + _SUFFIX[_rank], _rank))
    _name = "rfft" + _SUFFIX[_rank].lower()
    globals()[_name] = tf_export("signal." + _name)(_real_fft(_rank))
    _name = "irfft" + _SUFFIX[_rank].lower()
    globals()[_name] = tf_export("signal." + _name)(_inverse_real_fft(_rank))


def _shifts(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.shape.rank))
        shift = array_ops.shape(x) // 2
    elif isinstance(axes, int):
        shift = array_ops.shape(x)[axes] // 2
    else:
        axes = array_ops.where(math_ops.less(axes, 0), axes + array_ops.rank(x), axes)
        shift = array_ops.gather(array_ops.shape(x), axes) // 2
    return axes, shift if sign > 0 else -shift


@tf_export("signal.fftshift")
def fftshift(x, axes=None, name=None):
    """Rolls the zero frequency to the middle of `axes` (all axes by default), as np.fft.fftshift."""
    with name_scope(name or "fftshift"):
        x = array_ops.convert_to_tensor(x)
        axes, shift = _shifts(x, axes, 1)
        return shape_index.roll(x, shift, axes)


@tf_export("signal.ifftshift")
def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift (they differ for odd lengths)."""
    with name_scope(name or "ifftshift"):
        x = array_ops.convert_to_tensor(x)
        axes, shift = _shifts(x, axes, -1)
        return shape_index.roll(x, shift, axes)


@tf_export("signal.frame")
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Slides a window of frame_length samples, frame_step apart, along `axis`: that axis becomes
    [num_frames, frame_length]. With pad_end, the end is padded with pad_value so that every
    sample is in a frame (ceil(length / frame_step) frames)."""
    with name_scope(name or "frame"):
        signal = array_ops.convert_to_tensor(signal, name="signal")
        _rank_at_least(signal, 1)
        static = [_static_int_list(frame_length), _static_int_list(frame_step)]
        frame_length = array_ops.convert_to_tensor(frame_length, dtypes.int32, name="frame_length")
        frame_step = array_ops.convert_to_tensor(frame_step, dtypes.int32, name="frame_step")
        rank = signal.shape.rank
        if rank is not None:
            axis = axis + rank if axis < 0 else axis
            length = signal.shape[axis]
        else:
            axis = array_ops.where(axis < 0, axis + array_ops.rank(signal), axis)
            length = None
        if length is not None and None not in static:  # sizes known now: static shapes in graphs
            frame_length, frame_step = static[0][0], static[1][0]
        else:
            length = array_ops.shape(signal)[axis]
        if pad_end:
            num_frames = -(-length // frame_step)
            padded = (num_frames - 1) * frame_step + frame_length - length
            padded = max(0, padded) if isinstance(padded, int) else math_ops.maximum(0, padded)
            if rank is not None:
                paddings = [[0, 0]] * rank
                paddings[axis] = [0, padded]
            else:
                paddings = array_ops.one_hot(axis, array_ops.rank(signal), on_value=padded, off_value=0, dtype=dtypes.int32)
                paddings = array_ops.stack([array_ops.zeros_like(paddings), paddings], 1)
            signal = shape_index.pad(signal, paddings, constant_values=math_ops.cast(pad_value, signal.dtype))
        else:
            num_frames = 1 + (length - frame_length) // frame_step
            num_frames = max(0, num_frames) if isinstance(num_frames, int) else math_ops.maximum(0, num_frames)
        starts = array_ops.range_(num_frames) * frame_step
        indices = array_ops.expand_dims(starts, 1) + array_ops.expand_dims(array_ops.range_(frame_length), 0)
        return array_ops.gather(signal, indices, axis=axis)


def _raised_cosine_window(default_name, window_length, periodic, dtype, name, a, b):
    with name_scope(name or default_name):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError("dtype must be a floating point type. Found %s" % dtype)
        static = _static_int_list(window_length)
        window_length = array_ops.convert_to_tensor(window_length, dtypes.int32, name="window_length")
        _scalar(window_length)
        if static == [1]:
            return array_ops.ones([1], dtype)
        periodic = math_ops.cast(array_ops.convert_to_tensor(periodic, dtypes.bool), dtypes.int32)
        even = 1 - window_length % 2
        denominator = math_ops.cast(window_length + periodic * even - 1, dtype)
        count = math_ops.cast(array_ops.range_(window_length), dtype)
        return math_ops.cast(a - b * math_cwise.cos(array_ops.constant(2 * math.pi, dtype) * count / denominator), dtype)


@tf_export("signal.hann_window")
def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.5 - 0.5 cos(2 pi n / N), N = window_length (periodic) or window_length - 1."""
    return _raised_cosine_window("hann_window", window_length, periodic, dtype, name, 0.5, 0.5)


@tf_export("signal.hamming_window")
def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.54 - 0.46 cos(2 pi n / N), N = window_length (periodic) or window_length - 1."""
    return _raised_cosine_window("hamming_window", window_length, periodic, dtype, name, 0.54, 0.46)


def _enclosing_power_of_two(value):
    static = _static_int_list(value)
    if static is not None:
        return int(2 ** math.ceil(math.log(static[0]) / math.log(2.0)))
    return math_ops.cast(math_ops.pow(2.0, math_cwise.ceil(math_ops.log(math_ops.cast(value, dtypes.float32)) / math.log(2.0))), value.dtype)


@tf_export("signal.stft")
def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """Short-time Fourier transform: rfft of windowed frames of the innermost axis, giving
    [..., frames, fft_length // 2 + 1] (fft_length defaults to the power of 2 >= frame_length)."""
    with name_scope(name or "stft"):
        signals = array_ops.convert_to_tensor(signals, name="signals")
        _rank_at_least(signals, 1)
        if fft_length is None:
            fft_length = _enclosing_power_of_two(frame_length)
        _scalar(array_ops.convert_to_tensor(frame_length, name="frame_length"))
        _scalar(array_ops.convert_to_tensor(frame_step, name="frame_step"))
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed = framed * window_fn(frame_length, dtype=framed.dtype)
        return rfft(framed, [fft_length])


@tf_export("signal.overlap_and_add")
def overlap_and_add(signal, frame_step, name=None):
    """Sums frames [..., n, length] placed frame_step apart: [..., (n - 1) * frame_step + length]."""
    with name_scope(name or "overlap_and_add"):
        signal = array_ops.convert_to_tensor(signal, name="signal")
        _rank_at_least(signal, 2)
        frame_step = array_ops.convert_to_tensor(frame_step, name="frame_step")
        _scalar(frame_step)
        if not frame_step.dtype.is_integer:
            raise ValueError("frame_step must be an integer. Got %s" % frame_step.dtype)
        return _overlap_and_add(signal, frame_step)


def _overlap_and_add(frames, frame_step):
    rank = array_ops.rank(frames)
    num_frames, length = array_ops.shape(frames)[-2], array_ops.shape(frames)[-1]
    positions = array_ops.expand_dims(array_ops.range_(num_frames) * frame_step, 1) + array_ops.expand_dims(array_ops.range_(length), 0)
    moved = array_ops.transpose(frames, array_ops.concat([[rank - 2, rank - 1], array_ops.range_(rank - 2)], 0))
    total = math_ops.maximum(0, (num_frames - 1) * frame_step + length)
    summed = gradient_ops.unsorted_segment_sum(moved, positions, total)
    return array_ops.transpose(summed, array_ops.concat([array_ops.range_(1, rank - 1), [0]], 0))


@tf_export("signal.inverse_stft")
def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """The inverse of stft up to the window: irfft of each frame, cropped or zero-padded to
    frame_length, windowed and overlap-added (use inverse_stft_window_fn for perfect
    reconstruction; graphfn does not have it yet)."""
    with name_scope(name or "inverse_stft"):
        stfts = array_ops.convert_to_tensor(stfts, name="stfts")
        _rank_at_least(stfts, 2)
        if fft_length is None:
            fft_length = _enclosing_power_of_two(frame_length)
        frame_length = array_ops.convert_to_tensor(frame_length, name="frame_length")
        _scalar(frame_length)
        frame_step = array_ops.convert_to_tensor(frame_step, name="frame_step")
        _scalar(frame_step)
        frames = irfft(stfts, [fft_length])
        frames = frames[..., :frame_length]
        missing = math_ops.maximum(0, frame_length - array_ops.shape(frames)[-1])
        paddings = array_ops.concat([array_ops.zeros([array_ops.rank(frames) - 1, 2], dtypes.int32), [[0, missing]]], 0)
        frames = shape_index.pad(frames, paddings)
        if window_fn is not None:
            frames = frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype)
        return _overlap_and_add(frames, frame_step)


_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz):
    return _MEL_HIGH_FREQUENCY_Q * math_ops.log(1.0 + hertz / _MEL_BREAK_FREQUENCY_HERTZ)


@tf_export("signal.linear_to_mel_weight_matrix")
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """[num_spectrogram_bins, num_mel_bins] triangular filters, HTK's mel scale
    (1127 ln(1 + f / 700)); the DC bin's row is zero."""
    with name_scope(name or "linear_to_mel_weight_matrix"):
        dtype = dtypes.as_dtype(dtype)
        if tensor_lib.is_tensor(sample_rate) and _static_float(sample_rate) is not None:
            sample_rate = _static_float(sample_rate)  # an eager value is checked like a number
        _check_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype)
        sample_rate = math_ops.cast(sample_rate, dtype)
        lower = array_ops.convert_to_tensor(lower_edge_hertz, dtype)
        upper = array_ops.convert_to_tensor(upper_edge_hertz, dtype)
        zero = array_ops.convert_to_tensor(0.0, dtype)
        frequencies = shape_index.linspace(zero, sample_rate / 2.0, num_spectrogram_bins)[1:]  # no DC bin
        bins_mel = array_ops.expand_dims(_hertz_to_mel(frequencies), 1)
        edges = frame(shape_index.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2), 3, 1)
        lower_mel, center_mel, upper_mel = (array_ops.reshape(t, [1, num_mel_bins]) for t in shape_index.split(edges, 3, axis=1))
        rising = (bins_mel - lower_mel) / (center_mel - lower_mel)
        falling = (upper_mel - bins_mel) / (upper_mel - center_mel)
        weights = math_ops.maximum(zero, math_ops.minimum(rising, falling))
        return shape_index.pad(weights, [[1, 0], [0, 0]])


def _static_float(t):
    try:
        return float(t.numpy())
    except Exception:
        return None


def _check_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype):
    if num_mel_bins <= 0:
        raise ValueError("num_mel_bins must be positive. Got: %s" % num_mel_bins)
    if lower_edge_hertz < 0.0:
        raise ValueError("lower_edge_hertz must be non-negative. Got: %s" % lower_edge_hertz)
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" % (lower_edge_hertz, upper_edge_hertz))
    if not tensor_lib.is_tensor(sample_rate):
        if sample_rate <= 0.0:
            raise ValueError("sample_rate must be positive. Got: %s" % sample_rate)
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                             "Got %s for sample_rate: %s" % (upper_edge_hertz, sample_rate))
    if not dtype.is_floating:
        raise ValueError("dtype must be a floating point type. Got: %s" % dtype)


@tf_export("signal.dct")
def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 (TF's names)
    """The type-II discrete cosine transform of the innermost axis (norm None or "ortho"),
    computed from an rfft of twice the length. graphfn has type II only."""
    if type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if type != 2:
        raise NotImplementedError("graphfn implements the type II DCT only. Got type: %s" % type)
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if axis != -1:
        raise NotImplementedError("axis must be -1. Got: %s" % axis)
    if norm not in (None, "ortho"):
        raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
    with name_scope(name or "dct"):
        x = array_ops.convert_to_tensor(input)
        if n is not None:
            length = x.shape[-1]
            if length is not None and n < length:
                x = x[..., :n]
            elif length is None or n > length:
                x = _pad_inner_to(x, 1, [n])
        length = x.shape[-1] if x.shape[-1] is not None else array_ops.shape(x)[-1]
        length_float = math_ops.cast(length, x.dtype)
        zero = math_ops.cast(0.0, x.dtype)
        # X_k = 2 Re(exp(-i pi k / 2N) * rfft(x padded to 2N)_k), k < N.
        phase = complex_ops.complex(zero, -array_ops.range_(length_float) * math.pi * 0.5 / length_float)
        scale = 2.0 * math_ops.exp(phase)
        # Real and imaginary parts are cut to N separately: sliced float tensors differentiate
        # in every dtype.
        spectrum = rfft(x, fft_length=[2 * length])
        real, imag = complex_ops.real(spectrum)[..., :length], complex_ops.imag(spectrum)[..., :length]
        result = real * complex_ops.real(scale) - imag * complex_ops.imag(scale)
        if norm == "ortho":
            first = 0.5 * math_cwise.rsqrt(length_float)
            rest = first * math.sqrt(2.0)
            result = result * shape_index.pad(array_ops.expand_dims(first, 0), [[0, length - 1]], constant_values=rest)
        return result


@tf_export("signal.mfccs_from_log_mel_spectrograms")
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients: the type-II DCT of each log-mel spectrum, scaled by
    1 / sqrt(2 num_mel_bins) (HTK's scaling)."""
    with name_scope(name or "mfccs_from_log_mel_spectrograms"):
        spectrograms = array_ops.convert_to_tensor(log_mel_spectrograms, dtype=dtypes.float32)
        bins = spectrograms.shape[-1] if spectrograms.shape.rank else None
        if bins == 0:
            raise ValueError("num_mel_bins must be positive. Got: %s" % (spectrograms,))
        if bins is None:
            bins = array_ops.shape(spectrograms)[-1]
        coefficients = dct(spectrograms, type=2)
        return coefficients * math_cwise.rsqrt(math_ops.cast(bins, coefficients.dtype) * 2.0)
