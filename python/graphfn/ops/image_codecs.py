"""Image codecs: tf.io.decode_jpeg / decode_png / decode_bmp / decode_gif / decode_image,
encode_jpeg / encode_png, extract_jpeg_shape and is_jpeg (also under tf.image). Each is one C++ op
(cpp/graphfn/ops/image_codec_ops.cc) whose kernel calls libjpeg-turbo, libpng or giflib, so graphs
using them run without Python (graphfn-run too). graphfn has no uint16 dtype: 16-bit PNG samples
are available only scaled to float32 through decode_image(dtype=tf.float32)."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import is_tensor
from graphfn.ops import array_ops
from graphfn.ops import image_ops
from graphfn.ops import io_ops
from graphfn.ops import math_ops
from graphfn.ops import random_ops
from graphfn.ops import reduction_ops
from graphfn.ops import stateless_random_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


def _contents(contents):
    return array_ops.convert_to_tensor(contents, dtypes.string)


def _is_uint16(dtype):
    """"uint16", np.uint16 or np.dtype("uint16") (graphfn's dtypes have no uint16)."""
    return (isinstance(dtype, str) and dtype == "uint16") or getattr(dtype, "__name__", None) == "uint16" or (
        getattr(dtype, "name", None) == "uint16")


def _no_uint16(function):
    return TypeError("graphfn has no uint16 dtype: %s(dtype=uint16) is not supported; use dtype=tf.uint8%s"
                     % (function, " or tf.float32" if function == "decode_image" else ""))


@tf_export("io.decode_jpeg", "image.decode_jpeg")
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """A JPEG (or PNG, or one-frame GIF) as a uint8 [height, width, channels] tensor."""
    return node("DecodeJpeg", name)(_contents(contents), channels=channels, ratio=ratio,
                                    fancy_upscaling=fancy_upscaling, try_recover_truncated=try_recover_truncated,
                                    acceptable_fraction=acceptable_fraction, dct_method=dct_method)


@tf_export("io.decode_and_crop_jpeg", "image.decode_and_crop_jpeg")
def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """The window [y, x, height, width] (int32) of a JPEG, decoding only that part (uint8)."""
    return node("DecodeAndCropJpeg", name)(
        _contents(contents), array_ops.convert_to_tensor(crop_window, dtypes.int32), channels=channels, ratio=ratio,
        fancy_upscaling=fancy_upscaling, try_recover_truncated=try_recover_truncated,
        acceptable_fraction=acceptable_fraction, dct_method=dct_method)


@tf_export("io.decode_png", "image.decode_png")
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """A PNG (or JPEG, or one-frame GIF) as a [height, width, channels] tensor of dtype uint8."""
    if _is_uint16(dtype):
        raise _no_uint16("decode_png")
    return node("DecodePng", name)(_contents(contents), channels=channels, dtype=dtypes.as_dtype(dtype))


@tf_export("io.decode_bmp", "image.decode_bmp")
def decode_bmp(contents, channels=0, name=None):
    """An uncompressed BMP (8, 24 or 32 bits per pixel) as a uint8 [height, width, channels] tensor."""
    return node("DecodeBmp", name)(_contents(contents), channels=channels)


@tf_export("io.decode_gif", "image.decode_gif")
def decode_gif(contents, name=None):
    """A GIF's frames as uint8 [num_frames, height, width, 3]; a JPEG or PNG given to it decodes as
    one frame, as in TF."""
    return node("DecodeGif", name)(_contents(contents))


@tf_export("io.decode_image", "image.decode_image")
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Sniffs the format (BMP, GIF, JPEG, PNG) and decodes it: uint8, or float32 in [0, 1]."""
    if _is_uint16(dtype):
        raise _no_uint16("decode_image")
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.float32):
        # TF decodes to uint16 and converts from there, which graphfn (no uint16) cannot.
        raise TypeError("graphfn has no uint16 dtype: decode_image(dtype=%s), which TensorFlow decodes through "
                        "uint16, is not supported; use dtype=tf.uint8 or tf.float32" % dtype.name)
    with name_scope(name or "decode_image"):
        channels = 0 if channels is None else channels
        image = node("DecodeImage")(_contents(contents), channels=channels, dtype=dtype,
                                    expand_animations=expand_animations)
        if not expand_animations:
            image.set_shape([None, None, channels or None])
        return image


@tf_export("io.encode_jpeg", "image.encode_jpeg")
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                density_unit="in", x_density=300, y_density=300, xmp_metadata="", name=None):
    """A uint8 [height, width, 1 or 3] image as JPEG bytes (a scalar string)."""
    if _core.current_graph() is not None:  # TF's graph-building words (eagerly the op's own)
        _check_choice("format", format, ("", "grayscale", "rgb"))
        _check_choice("density_unit", density_unit, ("in", "cm"))
    return node("EncodeJpeg", name)(array_ops.convert_to_tensor(image, dtypes.uint8), format=format,
                                    quality=quality, progressive=progressive, optimize_size=optimize_size,
                                    chroma_downsampling=chroma_downsampling, density_unit=density_unit,
                                    x_density=x_density, y_density=y_density, xmp_metadata=xmp_metadata)


def _check_choice(attr, value, allowed):
    if value not in allowed:
        raise ValueError("Attr '%s' of 'EncodeJpeg' Op passed string '%s' not in: %s." % (
            attr, value, ", ".join('"%s"' % a for a in allowed)))


@tf_export("io.encode_png", "image.encode_png")
def encode_png(image, compression=-1, name=None):
    """A uint8 [..., height, width, 1-4] image as PNG bytes, one string per image of the batch."""
    return node("EncodePng", name)(array_ops.convert_to_tensor(image), compression=compression)


@tf_export("io.extract_jpeg_shape", "image.extract_jpeg_shape")
def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG, from its header."""
    return node("ExtractJpegShape", name)(_contents(contents), output_type=dtypes.as_dtype(output_type))


_JPEG_MAGIC = (0xFF, 0xD8, 0xFF)


@tf_export("io.is_jpeg", "image.is_jpeg")
def is_jpeg(contents, name=None):
    """Whether each string starts with JPEG's magic bytes FF D8 FF (a bool of contents' shape).
    TF compares a Substr of 3 bytes; graphfn compares the first 3 bytes read as numbers
    (zero-padded, so a shorter string is never a JPEG)."""
    with name_scope(name or "is_jpeg"):
        head = io_ops.decode_raw(_contents(contents), dtypes.uint8, fixed_length=3)
        same = math_ops.equal(head, array_ops.constant(_JPEG_MAGIC, dtypes.uint8))
        return reduction_ops.reduce_all(same, axis=-1)


# ---- JPEG noise (tf.image.adjust_jpeg_quality and its random forms) ----------------------------

@tf_export("image.adjust_jpeg_quality")
def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG round trip at `jpeg_quality` (EncodeJpegVariableQuality, then
    decode_jpeg), in its own dtype (through uint8, saturating, as TF)."""

    with name_scope(name or "adjust_jpeg_quality"):
        image = array_ops.convert_to_tensor(image)
        channels = image.shape.as_list()[-1]
        original_dtype = image.dtype
        image = image_ops.convert_image_dtype(image, dtypes.uint8, saturate=True)
        if not is_tensor(jpeg_quality):
            jpeg_quality = array_ops.convert_to_tensor(jpeg_quality, dtypes.int32)
        encoded = node("EncodeJpegVariableQuality")(image, jpeg_quality)
        image = node("DecodeJpeg")(encoded, channels=channels or 0, dct_method=dct_method)
        return image_ops.convert_image_dtype(image, original_dtype, saturate=True)


def _check_jpeg_quality_range(min_jpeg_quality, max_jpeg_quality):
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or max_jpeg_quality > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


@tf_export("image.random_jpeg_quality")
def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality at a quality drawn uniformly from [min_jpeg_quality, max_jpeg_quality)."""

    _check_jpeg_quality_range(min_jpeg_quality, max_jpeg_quality)
    quality = random_ops.random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)


@tf_export("image.stateless_random_jpeg_quality")
def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """adjust_jpeg_quality at a quality drawn from [min, max) by the stateless generator."""

    _check_jpeg_quality_range(min_jpeg_quality, max_jpeg_quality)
    quality = stateless_random_ops.stateless_random_uniform(
        shape=[], minval=min_jpeg_quality, maxval=max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)
