"""tf.image: resizing, cropping and padding, flips and rotations, dtype conversion, colour
adjustments and image metrics, as TF's Python layer composes them. The resize and colour kernels
are C++ ops (cpp/graphfn/ops/image_ops.cc); the rest is tensor math over existing ops.

Shapes are checked statically where TF checks them statically (its ValueErrors); dims known only
when the graph runs are checked with Assert ops, as TF does."""

from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops import check_ops
from graphfn.ops import control_dependency_ops
from graphfn.ops import control_flow_ops
from graphfn.ops import linalg_ops
from graphfn.ops import math_ops
from graphfn.ops import random_ops
from graphfn.ops import reduction_ops
from graphfn.ops import stateless_random_ops
from graphfn.ops._op_table import ops
from graphfn.util.lazy_numpy import numpy
from graphfn.util.tf_export import tf_export


# ---- shape helpers ---------------------------------------------------------------------------

def _dims(t):
    """Static dims: a list with None for unknown dims, or None when the rank is unknown."""
    d = array_ops.static_dims(t)
    return None if d is None else list(d)


def _shape_text(t):
    return str(TensorShape(_dims(t)))


def _is_tensor(x):
    return isinstance(x, Tensor)


def _dynamic_dims(t, rank):
    """Each dim as a Python int when static, else a scalar int32 tensor (TF's _ImageDimensions)."""
    static = _dims(t)
    if static is not None and None not in static:
        return static
    dynamic = array_ops.shape(t)
    return [s if s is not None else dynamic[i] for i, s in enumerate(static or [None] * rank)]


def _assert(cond, message):
    """A Python condition raises ValueError now; a tensor one becomes an Assert (TF's _assert)."""
    if _is_tensor(cond):
        op = check_ops.Assert(cond, [message])
        return [op] if op is not None else []
    if not cond:
        raise ValueError(message)
    return []


def _with_dependencies(deps, t):
    if not deps:
        return t
    with control_dependency_ops.control_dependencies(deps):
        return array_ops.identity(t)


def _check_at_least_3d(image):
    """TF's _CheckAtLeast3DImage(require_static=False): the static part of its checks, plus
    Asserts for inner dims known only at run time."""
    dims = _dims(image)
    if dims is None:
        return []
    if len(dims) < 3:
        raise ValueError("'image' (shape %s) must be at least three-dimensional." % _shape_text(image))
    if any(d == 0 for d in dims[-3:]):
        raise ValueError("inner 3 dims of 'image.shape' must be > 0: %s" % _shape_text(image))
    if None in dims[-3:]:
        inner = array_ops.shape(image)[-3:]
        return _assert(reduction_ops.reduce_all(math_ops.greater(inner, 0)),
                       "inner 3 dims of 'image.shape' must be > 0.")
    return []


def _assert_at_least_3d(image):
    return _with_dependencies(_check_at_least_3d(image), image)


def _rank_3_or_4(image, message="'image' (shape %s) must have either 3 or 4 dimensions."):
    dims = _dims(image)
    if dims is None:
        raise ValueError("'image' contains no shape.")
    if len(dims) not in (3, 4):
        raise ValueError(message % _shape_text(image))
    return len(dims)


def _as_batch(image):
    """(4-D image, whether the input was already a batch)."""
    rank = _rank_3_or_4(image)
    if rank == 3:
        return array_ops.expand_dims(image, 0), False
    return image, True


def _unbatch(image, is_batch):
    return image if is_batch else array_ops.squeeze(image, axis=[0])


def _reverse(image, axis):
    return image[(slice(None),) * axis + (slice(None, None, -1),)]


def _int32(value):
    return value if _is_tensor(value) else array_ops.convert_to_tensor(value, dtypes.int32)


def _pack(values):
    return array_ops.stack([_int32(v) if _is_tensor(v) else v for v in values]) \
        if any(_is_tensor(v) for v in values) else array_ops.convert_to_tensor(values, dtypes.int32)


def _max(x, y):
    return math_ops.maximum(x, y) if _is_tensor(x) or _is_tensor(y) else max(x, y)


def _min(x, y):
    return math_ops.minimum(x, y) if _is_tensor(x) or _is_tensor(y) else min(x, y)


def _floor(x):
    """floor of a float tensor (x - x mod 1)."""
    return math_ops.subtract(x, math_ops.floormod(x, array_ops.constant(1, x.dtype)))


def _round_half_even(x):
    """TF's Round (banker's rounding) of a float tensor."""
    half = array_ops.constant(0.5, x.dtype)
    up = _floor(math_ops.add(x, half))
    tie_to_odd = math_ops.logical_and(
        math_ops.equal(math_ops.subtract(up, x), half),
        math_ops.equal(math_ops.floormod(up, array_ops.constant(2, x.dtype)), array_ops.constant(1, x.dtype)))
    return array_ops.where(tie_to_odd, math_ops.subtract(up, array_ops.constant(1, x.dtype)), up)


# ---- dtype conversion ------------------------------------------------------------------------

def _saturate_cast(value, dtype):
    """Clamps to dtype's range (when the input's is wider), then casts, as tf.dtypes.saturate_cast."""
    if value.dtype.min < dtype.min:
        value = math_ops.maximum(value, array_ops.constant(dtype.min, value.dtype))
    if value.dtype.max > dtype.max:
        value = math_ops.minimum(value, array_ops.constant(dtype.max, value.dtype))
    return math_ops.cast(value, dtype)


@tf_export("image.convert_image_dtype")
def convert_image_dtype(image, dtype, saturate=False, name=None):
    image = array_ops.convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return array_ops.identity(image, name=name)
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = image.dtype.max, dtype.max
        if scale_in > scale_out:
            # Integer division by the ratio of ranges keeps the top bits.
            scaled = math_ops.floordiv(image, array_ops.constant((scale_in + 1) // (scale_out + 1), image.dtype))
            return _saturate_cast(scaled, dtype) if saturate else math_ops.cast(scaled, dtype)
        cast = _saturate_cast(image, dtype) if saturate else math_ops.cast(image, dtype)
        return math_ops.multiply(cast, array_ops.constant((scale_out + 1) // (scale_in + 1), dtype))
    if image.dtype.is_floating and dtype.is_floating:
        return math_ops.cast(image, dtype)
    if image.dtype.is_integer:
        return math_ops.multiply(math_ops.cast(image, dtype), array_ops.constant(1.0 / image.dtype.max, dtype))
    # float -> int: scale [0, 1] to [0, max]; + 0.5 so that 1.0 does not round below max.
    scaled = math_ops.multiply(image, array_ops.constant(dtype.max + 0.5, image.dtype))
    return _saturate_cast(scaled, dtype) if saturate else math_ops.cast(scaled, dtype)


def _to_float(image):
    """The image as float32 for a float kernel (float32 images as they are)."""
    return image if image.dtype == dtypes.float32 else convert_image_dtype(image, dtypes.float32)


# ---- resize ----------------------------------------------------------------------------------

@tf_export("image.ResizeMethod")
class ResizeMethod:
    """See `tf.image.resize` for details."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_SCALE_AND_TRANSLATE_METHODS = (ResizeMethod.LANCZOS3, ResizeMethod.LANCZOS5, ResizeMethod.GAUSSIAN,
                                ResizeMethod.MITCHELLCUBIC)


def _aspect_preserving_size(images, size):
    """The largest size within `size` with the images' aspect ratio, rounded as TF (float32)."""
    np = numpy()
    _, height, width, _ = _dynamic_dims(images, 4)
    size_value = size.numpy() if hasattr(size, "numpy") else None
    if size_value is not None and not _is_tensor(height) and not _is_tensor(width):
        f32 = np.float32
        factor = min(f32(size_value[0]) / f32(height), f32(size_value[1]) / f32(width))
        return array_ops.convert_to_tensor([int(np.round(f32(factor * f32(height)))),
                                            int(np.round(f32(factor * f32(width))))], dtypes.int32)
    f_height = math_ops.cast(height, dtypes.float32)
    f_width = math_ops.cast(width, dtypes.float32)
    factor = math_ops.minimum(math_ops.cast(size[0], dtypes.float32) / f_height,
                              math_ops.cast(size[1], dtypes.float32) / f_width)
    new_height = math_ops.cast(_round_half_even(factor * f_height), dtypes.int32)
    new_width = math_ops.cast(_round_half_even(factor * f_width), dtypes.int32)
    return array_ops.stack([new_height, new_width])


def _scale_and_translate(images, size, kernel_type, antialias):
    scale = math_ops.cast(size, dtypes.float32) / math_ops.cast(array_ops.shape(images)[1:3], dtypes.float32)
    return ops.ScaleAndTranslate(images, size, scale, array_ops.zeros([2]), kernel_type=kernel_type,
                                 antialias=antialias)


def _resize_4d(images, size, method, antialias):
    if method == ResizeMethod.BILINEAR:
        if antialias:
            return _scale_and_translate(images, size, "triangle", antialias)
        return ops.ResizeBilinear(images, size, half_pixel_centers=True)
    if method == ResizeMethod.NEAREST_NEIGHBOR:
        return ops.ResizeNearestNeighbor(images, size, half_pixel_centers=True)
    if method == ResizeMethod.BICUBIC:
        if antialias:
            return _scale_and_translate(images, size, "keyscubic", antialias)
        return ops.ResizeBicubic(images, size, half_pixel_centers=True)
    if method == ResizeMethod.AREA:
        return ops.ResizeArea(images, size)
    if method in _SCALE_AND_TRANSLATE_METHODS:
        return _scale_and_translate(images, size, method, antialias)
    raise ValueError("Resize method is not implemented: {}".format(method))


@tf_export("image.resize")
def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    images = array_ops.convert_to_tensor(images)
    if _dims(images) is None:
        raise ValueError("'images' contains no shape.")
    if len(_dims(images)) not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    images, is_batch = _as_batch(images)
    try:
        size = array_ops.convert_to_tensor(size, dtypes.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    size_dims = _dims(size)
    if size_dims is not None and (len(size_dims) != 1 or size_dims[0] not in (None, 2)):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if preserve_aspect_ratio:
        size = _aspect_preserving_size(images, size)
    return _unbatch(_resize_4d(images, size, method, antialias), is_batch)


@tf_export("image.resize_with_pad")
def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR, antialias=False):
    np = numpy()
    image = array_ops.convert_to_tensor(image)
    image, is_batch = _as_batch(image)
    checks = _check_at_least_3d(image)
    checks += _assert(target_width > 0, "target_width must be > 0.")
    checks += _assert(target_height > 0, "target_height must be > 0.")
    image = _with_dependencies(checks, image)
    _, height, width, _ = _dynamic_dims(image, 4)
    if not any(_is_tensor(v) for v in (height, width, target_height, target_width)):
        # All sizes known: TF's float32 arithmetic, done now.
        f32 = np.float32
        ratio = max(f32(width) / f32(target_width), f32(height) / f32(target_height))
        resized_h, resized_w = f32(height) / ratio, f32(width) / ratio
        new_size = [int(np.floor(resized_h)), int(np.floor(resized_w))]
        pad_h = max(0, int(np.floor((f32(target_height) - resized_h) / f32(2))))
        pad_w = max(0, int(np.floor((f32(target_width) - resized_w) / f32(2))))
    else:
        def f(v):
            return math_ops.cast(v, dtypes.float32)
        ratio = math_ops.maximum(f(width) / f(target_width), f(height) / f(target_height))
        resized_h, resized_w = f(height) / ratio, f(width) / ratio
        new_size = array_ops.stack([math_ops.cast(_floor(resized_h), dtypes.int32),
                                    math_ops.cast(_floor(resized_w), dtypes.int32)])
        pad_h = math_ops.maximum(0, math_ops.cast(_floor((f(target_height) - resized_h) / 2), dtypes.int32))
        pad_w = math_ops.maximum(0, math_ops.cast(_floor((f(target_width) - resized_w) / 2), dtypes.int32))
    resized = resize(image, new_size, method, antialias=antialias)
    padded = pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width)
    return _unbatch(padded, is_batch)


@tf_export("image.crop_and_resize")
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    image = array_ops.convert_to_tensor(image)
    boxes = array_ops.convert_to_tensor(boxes, dtypes.float32)
    box_indices = array_ops.convert_to_tensor(box_indices, dtypes.int32)
    crop_size = array_ops.convert_to_tensor(crop_size, dtypes.int32)
    return ops.CropAndResize(image, boxes, box_indices, crop_size, method=method,
                             extrapolation_value=float(extrapolation_value))


# ---- crop and pad ----------------------------------------------------------------------------

def _zeros(shape, dtype):
    return ops.Fill(_pack(shape), array_ops.constant(0, dtype))


@tf_export("image.pad_to_bounding_box")
def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    image = array_ops.convert_to_tensor(image)
    image, is_batch = _as_batch(image)
    batch, height, width, depth = _dynamic_dims(image, 4)
    after_width = target_width - offset_width - width
    after_height = target_height - offset_height - height
    checks = _check_at_least_3d(image)
    checks += _assert(offset_height >= 0, "offset_height must be >= 0")
    checks += _assert(offset_width >= 0, "offset_width must be >= 0")
    checks += _assert(after_width >= 0, "width must be <= target - offset")
    checks += _assert(after_height >= 0, "height must be <= target - offset")
    image = _with_dependencies(checks, image)
    # Zeros above and below, then left and right (concatenation keeps the gradient simple).
    dtype = image.dtype
    rows = array_ops.concat([_zeros([batch, offset_height, width, depth], dtype), image,
                             _zeros([batch, after_height, width, depth], dtype)], 1)
    padded = array_ops.concat([_zeros([batch, target_height, offset_width, depth], dtype), rows,
                               _zeros([batch, target_height, after_width, depth], dtype)], 2)
    if array_ops.tracing():
        padded.set_shape([None if _is_tensor(d) else d for d in (batch, target_height, target_width, depth)])
    return _unbatch(padded, is_batch)


@tf_export("image.crop_to_bounding_box")
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    image = array_ops.convert_to_tensor(image)
    image, is_batch = _as_batch(image)
    checks = _check_at_least_3d(image)
    batch, height, width, depth = _dynamic_dims(image, 4)
    checks += _assert(offset_width >= 0, "offset_width must be >= 0.")
    checks += _assert(offset_height >= 0, "offset_height must be >= 0.")
    checks += _assert(target_width > 0, "target_width must be > 0.")
    checks += _assert(target_height > 0, "target_height must be > 0.")
    checks += _assert(width >= (target_width + offset_width), "width must be >= target + offset.")
    checks += _assert(height >= (target_height + offset_height), "height must be >= target + offset.")
    image = _with_dependencies(checks, image)
    cropped = ops.Slice(image, _pack([0, offset_height, offset_width, 0]), _pack([-1, target_height, target_width, -1]))
    return _unbatch(cropped, is_batch)


@tf_export("image.resize_with_crop_or_pad")
def resize_with_crop_or_pad(image, target_height, target_width):
    image = array_ops.convert_to_tensor(image)
    image, is_batch = _as_batch(image)
    checks = _check_at_least_3d(image)
    checks += _assert(target_width > 0, "target_width must be > 0.")
    checks += _assert(target_height > 0, "target_height must be > 0.")
    image = _with_dependencies(checks, image)
    _, height, width, _ = _dynamic_dims(image, 4)
    width_diff = target_width - width
    height_diff = target_height - height
    cropped = crop_to_bounding_box(image, _max(-height_diff // 2, 0), _max(-width_diff // 2, 0),
                                   _min(target_height, height), _min(target_width, width))
    resized = pad_to_bounding_box(cropped, _max(height_diff // 2, 0), _max(width_diff // 2, 0),
                                  target_height, target_width)
    return _unbatch(resized, is_batch)


@tf_export("image.central_crop")
def central_crop(image, central_fraction):
    image = array_ops.convert_to_tensor(image)
    fraction = central_fraction.numpy() if hasattr(central_fraction, "numpy") else central_fraction
    if _is_tensor(fraction):
        raise NotImplementedError("central_crop: central_fraction must be known when the function is traced")
    if fraction <= 0.0 or fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if fraction == 1.0:
        return image
    _check_at_least_3d(image)
    rank = len(_dims(image) or [])
    if rank not in (3, 4):
        raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {}.".format(rank))
    dims = _dynamic_dims(image, rank)
    h, w = dims[-3], dims[-2]

    def start(size):
        if _is_tensor(size):
            fsize = math_ops.cast(size, dtypes.float64)
            return math_ops.cast((fsize - fsize * float(fraction)) / 2, dtypes.int32)
        return int((float(size) - float(size) * fraction) / 2)

    h_start, w_start = start(h), start(w)
    begin = [h_start, w_start, 0] if rank == 3 else [0, h_start, w_start, 0]
    size = [h - h_start * 2, w - w_start * 2, -1] if rank == 3 else [-1, h - h_start * 2, w - w_start * 2, -1]
    return ops.Slice(image, _pack(begin), _pack(size))


# ---- flips, rotations ------------------------------------------------------------------------

def _flip(image, flip_index, rank_message):
    image = array_ops.convert_to_tensor(image)
    image = _assert_at_least_3d(image)
    rank = _rank_3_or_4(image, rank_message)
    return _reverse(image, flip_index if rank == 3 else flip_index + 1)


@tf_export("image.flip_left_right")
def flip_left_right(image):
    return _flip(image, 1, "'image' (shape %s)must have either 3 or 4 dimensions.")


@tf_export("image.flip_up_down")
def flip_up_down(image):
    return _flip(image, 0, "'image' (shape %s)must have either 3 or 4 dimensions.")


def _random_flip(image, flip_index, random_func):
    image = array_ops.convert_to_tensor(image)
    image = _assert_at_least_3d(image)
    rank = _rank_3_or_4(image)
    if rank == 3:
        mirror = math_ops.less(random_func(shape=[], minval=0, maxval=1.0), 0.5)
        return control_flow_ops.cond(mirror, lambda: _reverse(image, flip_index), lambda: image)
    batch_size = array_ops.shape(image)[0]
    uniform = random_func(shape=array_ops.stack([batch_size]), minval=0, maxval=1.0)
    # round(u) for u in [0, 1) is 1 exactly when u > 0.5 (0.5 rounds to even).
    flips = math_ops.cast(ops.Reshape(math_ops.greater(uniform, 0.5), _pack([batch_size, 1, 1, 1])), image.dtype)
    flipped = _reverse(image, flip_index + 1)
    return flips * flipped + (1 - flips) * image


def _seeded_uniform(seed):
    return lambda shape, minval, maxval: random_ops.random_uniform(shape, minval, maxval, seed=seed)


def _stateless_uniform(seed):
    return lambda shape, minval, maxval: stateless_random_ops.stateless_random_uniform(
        shape, seed=seed, minval=minval, maxval=maxval)


@tf_export("image.random_flip_left_right")
def random_flip_left_right(image, seed=None):
    return _random_flip(image, 1, _seeded_uniform(seed))


@tf_export("image.random_flip_up_down")
def random_flip_up_down(image, seed=None):
    return _random_flip(image, 0, _seeded_uniform(seed))


@tf_export("image.stateless_random_flip_left_right")
def stateless_random_flip_left_right(image, seed):
    return _random_flip(image, 1, _stateless_uniform(seed))


@tf_export("image.stateless_random_flip_up_down")
def stateless_random_flip_up_down(image, seed):
    return _random_flip(image, 0, _stateless_uniform(seed))


def _rot90_static(image, k, rank):
    h, w = (0, 1) if rank == 3 else (1, 2)
    perm = [1, 0, 2] if rank == 3 else [0, 2, 1, 3]
    if k == 1:
        return array_ops.transpose(_reverse(image, w), perm)
    if k == 2:
        return _reverse(_reverse(image, h), w)
    if k == 3:
        return _reverse(array_ops.transpose(image, perm), w)
    return image


@tf_export("image.rot90")
def rot90(image, k=1, name=None):
    image = array_ops.convert_to_tensor(image)
    image = _assert_at_least_3d(image)
    k = array_ops.convert_to_tensor(k, dtypes.int32)
    if _dims(k) is not None and len(_dims(k)) != 0:
        raise ValueError("Shape %s must have rank 0" % _shape_text(k))
    rank = _rank_3_or_4(image)
    if hasattr(k, "numpy"):
        return _rot90_static(image, int(k.numpy()) % 4, rank)
    k = math_ops.floormod(k, 4)
    return control_flow_ops.switch_case(k, [lambda q=q: _rot90_static(image, q, rank) for q in range(4)])


@tf_export("image.transpose")
def transpose(image, name=None):
    image = array_ops.convert_to_tensor(image)
    image = _assert_at_least_3d(image)
    rank = _rank_3_or_4(image)
    return array_ops.transpose(image, [1, 0, 2] if rank == 3 else [0, 2, 1, 3], name=name or "transpose")


# ---- colour ----------------------------------------------------------------------------------

@tf_export("image.rgb_to_grayscale")
def rgb_to_grayscale(images, name=None):
    images = array_ops.convert_to_tensor(images)
    orig_dtype = images.dtype
    flt = convert_image_dtype(images, dtypes.float32)
    # tensordot(flt, weights, [-1, -1]): a [pixels, 3] x [3, 1] matmul.
    weights = array_ops.constant([[0.2989], [0.5870], [0.1140]], dtypes.float32)
    gray = linalg_ops.matmul(ops.Reshape(flt, [-1, 3]), weights)
    out_shape = array_ops.concat([array_ops.shape(flt)[:-1], [1]], 0)
    return convert_image_dtype(ops.Reshape(gray, out_shape), orig_dtype, name=name)


@tf_export("image.grayscale_to_rgb")
def grayscale_to_rgb(images, name=None):
    images = array_ops.convert_to_tensor(images)
    dims = _dims(images)
    checks = []
    if dims is not None:
        if len(dims) < 2:
            raise ValueError("A grayscale image (shape %s) must be at least two-dimensional." % _shape_text(images))
        if dims[-1] is not None and dims[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        if dims[-1] is None:
            checks = _assert(math_ops.equal(array_ops.shape(images)[-1], 1),
                             "Last dimension of a grayscale image should be size 1.")
    images = _with_dependencies(checks, images)
    return array_ops.concat([images, images, images], -1, name=name or "concat")


@tf_export("image.rgb_to_hsv")
def rgb_to_hsv(images, name=None):
    return ops.RGBToHSV(images)


@tf_export("image.hsv_to_rgb")
def hsv_to_rgb(images, name=None):
    return ops.HSVToRGB(images)


@tf_export("image.adjust_brightness")
def adjust_brightness(image, delta):
    image = array_ops.convert_to_tensor(image)
    flt = _to_float(image)
    adjusted = math_ops.add(flt, math_ops.cast(delta, flt.dtype))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


@tf_export("image.adjust_contrast")
def adjust_contrast(images, contrast_factor):
    images = array_ops.convert_to_tensor(images)
    adjusted = ops.AdjustContrastv2(_to_float(images), math_ops.cast(contrast_factor, dtypes.float32))
    return convert_image_dtype(adjusted, images.dtype, saturate=True)


@tf_export("image.adjust_saturation")
def adjust_saturation(image, saturation_factor, name=None):
    image = array_ops.convert_to_tensor(image)
    adjusted = ops.AdjustSaturation(_to_float(image), math_ops.cast(saturation_factor, dtypes.float32))
    return convert_image_dtype(adjusted, image.dtype)


@tf_export("image.adjust_hue")
def adjust_hue(image, delta, name=None):
    if not array_ops.tracing() and (delta < -1 or delta > 1):
        raise ValueError("delta must be in the interval [-1, 1]")
    image = array_ops.convert_to_tensor(image)
    adjusted = ops.AdjustHue(_to_float(image), math_ops.cast(delta, dtypes.float32))
    return convert_image_dtype(adjusted, image.dtype)


@tf_export("image.adjust_gamma")
def adjust_gamma(image, gamma=1, gain=1):
    image = array_ops.convert_to_tensor(image)
    flt = _to_float(image)
    checks = _assert(gamma >= 0, "Gamma should be a non-negative real number.")
    if checks:
        gamma = _with_dependencies(checks, gamma)
    adjusted = gain * flt ** gamma
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


@tf_export("image.per_image_standardization")
def per_image_standardization(image):
    image = array_ops.convert_to_tensor(image)
    image = _assert_at_least_3d(image)
    image = math_ops.cast(image, dtypes.float32)
    num_pixels = reduction_ops.reduce_prod(array_ops.shape(image)[-3:])
    mean = reduction_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    centered = image - mean
    stddev = math_ops.sqrt(reduction_ops.reduce_mean(math_ops.square(centered), axis=[-1, -2, -3], keepdims=True))
    min_stddev = 1.0 / math_ops.sqrt(math_ops.cast(num_pixels, dtypes.float32))
    return math_ops.divide(centered, math_ops.maximum(stddev, min_stddev))


# ---- random colour adjustments ---------------------------------------------------------------

def _check_lower_upper(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def _check_hue_delta(max_delta):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


@tf_export("image.random_brightness")
def random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, random_ops.random_uniform([], -max_delta, max_delta, seed=seed))


@tf_export("image.stateless_random_brightness")
def stateless_random_brightness(image, max_delta, seed):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = stateless_random_ops.stateless_random_uniform([], seed, minval=-max_delta, maxval=max_delta)
    return adjust_brightness(image, delta)


@tf_export("image.random_contrast")
def random_contrast(image, lower, upper, seed=None):
    _check_lower_upper(lower, upper)
    return adjust_contrast(image, random_ops.random_uniform([], lower, upper, seed=seed))


@tf_export("image.stateless_random_contrast")
def stateless_random_contrast(image, lower, upper, seed):
    _check_lower_upper(lower, upper)
    return adjust_contrast(image, stateless_random_ops.stateless_random_uniform([], seed, minval=lower, maxval=upper))


@tf_export("image.random_saturation")
def random_saturation(image, lower, upper, seed=None):
    _check_lower_upper(lower, upper)
    return adjust_saturation(image, random_ops.random_uniform([], lower, upper, seed=seed))


@tf_export("image.stateless_random_saturation")
def stateless_random_saturation(image, lower, upper, seed=None):
    _check_lower_upper(lower, upper)
    factor = stateless_random_ops.stateless_random_uniform([], seed, minval=lower, maxval=upper)
    return adjust_saturation(image, factor)


@tf_export("image.random_hue")
def random_hue(image, max_delta, seed=None):
    _check_hue_delta(max_delta)
    return adjust_hue(image, random_ops.random_uniform([], -max_delta, max_delta, seed=seed))


@tf_export("image.stateless_random_hue")
def stateless_random_hue(image, max_delta, seed):
    _check_hue_delta(max_delta)
    return adjust_hue(image, stateless_random_ops.stateless_random_uniform([], seed, minval=-max_delta,
                                                                           maxval=max_delta))


def _crop_offset(value, size, uniform_int):
    value = array_ops.convert_to_tensor(value)
    size = array_ops.convert_to_tensor(size, dtypes.int32)
    shape = array_ops.shape(value)
    check = check_ops.Assert(reduction_ops.reduce_all(math_ops.greater_equal(shape, size)),
                             ["Need value.shape >= size, got ", shape, size], summarize=1000)
    shape = _with_dependencies([check] if check is not None else [], shape)
    limit = shape - size + 1
    offset = math_ops.floormod(uniform_int(array_ops.shape(shape)), limit)
    return ops.Slice(value, offset, size)


@tf_export("image.random_crop")
def random_crop(value, size, seed=None, name=None):
    return _crop_offset(value, size, lambda shape: random_ops.random_uniform(
        shape, maxval=dtypes.int32.max, dtype=dtypes.int32, seed=seed))


@tf_export("image.stateless_random_crop")
def stateless_random_crop(value, size, seed, name=None):
    return _crop_offset(value, size, lambda shape: stateless_random_ops.stateless_random_uniform(
        shape, seed, maxval=dtypes.int32.max, dtype=dtypes.int32))


# ---- metrics and filters ---------------------------------------------------------------------

@tf_export("image.total_variation")
def total_variation(images, name=None):
    images = array_ops.convert_to_tensor(images)
    ndims = len(_dims(images)) if _dims(images) is not None else None
    if ndims == 3:
        dif1 = images[1:, :, :] - images[:-1, :, :]
        dif2 = images[:, 1:, :] - images[:, :-1, :]
        axis = None
    elif ndims == 4:
        dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
        dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
        axis = [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return (reduction_ops.reduce_sum(math_ops.abs(dif1), axis=axis) +
            reduction_ops.reduce_sum(math_ops.abs(dif2), axis=axis))


def _verify_compatible(img1, img2):
    """TF's static checks of two images (or batches) compared by psnr and ssim."""
    d1, d2 = _dims(img1), _dims(img2)
    for d, t in ((d1, img1), (d2, img2)):
        if d is not None and len(d) < 3:
            raise ValueError("Shape %s must have rank at least 3" % _shape_text(t))
    if d1 is None or d2 is None:
        return
    inner1, inner2 = TensorShape(d1[-3:]), TensorShape(d2[-3:])
    if not inner1.is_compatible_with(inner2):
        raise ValueError("Shapes %s and %s are incompatible" % (inner1, inner2))
    for a, b in zip(reversed(d1[:-3]), reversed(d2[:-3])):
        if not (a == 1 or b == 1 or a is None or b is None or a == b):
            raise ValueError("Two images are not compatible: %s and %s" % (_shape_text(img1), _shape_text(img2)))


@tf_export("image.psnr")
def psnr(a, b, max_val, name=None):
    np = numpy()
    a = array_ops.convert_to_tensor(a)
    b = array_ops.convert_to_tensor(b)
    max_val = convert_image_dtype(math_ops.cast(max_val, a.dtype), dtypes.float32)
    a = convert_image_dtype(a, dtypes.float32)
    b = convert_image_dtype(b, dtypes.float32)
    mse = reduction_ops.reduce_mean(math_ops.square(a - b), [-3, -2, -1])
    value = math_ops.subtract(20 * math_ops.log(max_val) / math_ops.log(array_ops.constant(10.0)),
                              np.float32(10 / np.log(10)) * math_ops.log(mse))
    _verify_compatible(a, b)
    return value


def _gaussian_taps(size, sigma):
    """The normalized 1-D Gaussian whose outer product is TF's 2-D SSIM window."""
    np = numpy()
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / np.float32(2)
    g = np.square(coords) * (np.float32(-0.5) / np.square(np.float32(sigma)))
    e = np.exp(g - g.max())
    return (e / e.sum()).astype(np.float32)


def _valid_filter(x, taps, axis):
    """Correlates x with a 1-D filter along `axis` (VALID padding)."""
    n = len(taps)
    length = array_ops.shape(x)[axis] - (n - 1)
    total = None
    for i, w in enumerate(taps):
        begin = [0, 0, 0, 0]
        begin[axis] = i
        size = [-1, -1, -1, -1]
        size[axis] = length
        term = ops.Slice(x, _pack(begin), _pack(size)) * float(w)
        total = term if total is None else total + term
    return total


@tf_export("image.ssim")
def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    img1 = array_ops.convert_to_tensor(img1)
    img2 = array_ops.convert_to_tensor(img2)
    _verify_compatible(img1, img2)
    max_val = convert_image_dtype(math_ops.cast(max_val, img1.dtype), dtypes.float32)
    img1 = convert_image_dtype(img1, dtypes.float32)
    img2 = convert_image_dtype(img2, dtypes.float32)
    shape1, shape2 = array_ops.shape(img1), array_ops.shape(img2)
    checks = []
    for shape in (shape1, shape2):
        op = check_ops.Assert(reduction_ops.reduce_all(math_ops.greater_equal(shape[-3:-1], filter_size)),
                              [shape, filter_size], summarize=8)
        if op is not None:
            checks.append(op)
    img1 = _with_dependencies(checks, img1)
    taps = _gaussian_taps(int(filter_size), float(filter_sigma))

    def reducer(x):
        shape = array_ops.shape(x)
        flat = ops.Reshape(x, array_ops.concat([[-1], shape[-3:]], 0))
        y = _valid_filter(_valid_filter(flat, taps, 1), taps, 2)
        return ops.Reshape(y, array_ops.concat([shape[:-3], array_ops.shape(y)[1:]], 0))

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(math_ops.square(img1) + math_ops.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if return_index_map:
        per_channel = luminance * cs
    else:
        per_channel = reduction_ops.reduce_mean(luminance * cs, [-3, -2])
    return reduction_ops.reduce_mean(per_channel, [-1])


def _reflect_pad_1(x, axis):
    """Pads one pixel on both sides of `axis` by reflection (TF's REFLECT mode)."""
    n = _dynamic_dims(x, 4)[axis]

    def at(i):
        begin = [0, 0, 0, 0]
        begin[axis] = i
        size = [-1, -1, -1, -1]
        size[axis] = 1
        return ops.Slice(x, _pack(begin), _pack(size))
    return array_ops.concat([at(1), x, at(n - 2)], axis)


@tf_export("image.sobel_edges")
def sobel_edges(image):
    image = array_ops.convert_to_tensor(image)
    dims = _dims(image)
    if dims is not None and len(dims) != 4:
        raise ValueError("Shape must be rank 4 but is rank %d" % len(dims))
    padded = _reflect_pad_1(_reflect_pad_1(image, 1), 2)
    shape = _dynamic_dims(image, 4)
    kernels = ([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]])
    outputs = []
    for kernel in kernels:
        total = None
        for i in range(3):
            for j in range(3):
                if kernel[i][j] == 0:
                    continue
                window = ops.Slice(padded, _pack([0, i, j, 0]), _pack(shape))
                term = window * array_ops.constant(kernel[i][j], image.dtype)
                total = term if total is None else total + term
        outputs.append(total)
    return array_ops.stack(outputs, axis=-1)
