"""Convolution and pooling (tf.nn.conv1d/2d/3d, convolution, conv*_transpose, depthwise and
separable convolutions, max/avg pooling 1-D/2-D/3-D, tf.nn.pool) with TF's signatures and
argument handling; the ops are in cpp/graphfn/ops/nn_conv_ops.cc and nn_pool_ops.cc.

Where TF builds a dilated convolution from space_to_batch (Conv3D and depthwise convolutions,
whose CPU kernels take no dilations), graphfn dilates the filter instead (zeros between its
taps): the same values, and the gradient flows through the filter's reshapes."""

import collections.abc

from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export

_CHANNELS_LAST_FORMATS = frozenset({"NWC", "NHC", "NHWC", "NWHC", "NDHWC", "NDWHC", "NHDWC", "NHWDC", "NWDHC", "NWHDC"})


def _get_sequence(value, n, channel_index, name):
    """An int or a list of 1, n or n + 2 ints as the n + 2 values the ops take (TF's rules)."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, list):
        pass
    elif isinstance(value, tuple):
        value = list(value)
    elif isinstance(value, int):
        value = [value]
    elif not isinstance(value, collections.abc.Sized):
        value = [value]
    else:
        value = list(value)
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length {len(value)}")
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def _convert_padding(padding, expected_length=4):
    """'SAME'/'VALID' as they are; a list of [before, after] pairs becomes EXPLICIT padding."""
    explicit_paddings = []
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` must be a "
                         "list.")
    if isinstance(padding, (list, tuple)):
        for i, dim_paddings in enumerate(padding):
            if not isinstance(dim_paddings, (list, tuple)):
                raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                                 f"Received: padding={padding} with element at index {i} of type {type(dim_paddings)}")
            if len(dim_paddings) != 2:
                raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                                 f"Received: padding={padding} with element at index {i} of size {len(dim_paddings)}")
            explicit_paddings.extend(dim_paddings)
        if len(padding) != expected_length:
            raise ValueError(f"When padding is a list, it must be of size {expected_length}. Received: "
                             f"padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    return padding, explicit_paddings


def _rank(t):
    return TensorShape(t.shape).rank


def _with_flat_batch(x, inner_rank, fn):
    """fn on x with its leading batch dims flattened into one (TF's squeeze_batch_dims); static
    dims stay static."""
    shape = TensorShape(x.shape)
    rank = shape.rank
    if rank is None or rank <= inner_rank + 1:
        return fn(x)
    dims = shape.as_list()
    batch, inner = dims[:rank - inner_rank], dims[rank - inner_rank:]
    if None in inner:
        flat = ops.Reshape(x, ops.ConcatV2([[-1], ops.Shape(x)[rank - inner_rank:]], 0))
    else:
        flat = ops.Reshape(x, [-1] + inner)
    result = fn(flat)
    result_dims = TensorShape(result.shape).as_list()[1:]
    if None in batch or None in result_dims:
        return ops.Reshape(result, ops.ConcatV2([ops.Shape(x)[:rank - inner_rank], ops.Shape(result)[1:]], 0))
    return ops.Reshape(result, batch + result_dims)


def _dilated_filter(filters, rates):
    """The filter of a dilated convolution as an undilated one: rate - 1 zeros between taps
    along each spatial dim (the leading len(rates) dims)."""
    for axis, rate in enumerate(rates):
        if rate == 1:
            continue
        shape = TensorShape(filters.shape)
        if not shape.is_fully_defined():
            raise NotImplementedError("graphfn dilates the filter of this convolution, which needs its static shape; "
                                      f"got {shape}")
        dims = shape.as_list()
        taps = dims[axis]
        spread = ops.ExpandDims(filters, axis + 1)  # [..., taps, 1, ...]
        zeros_shape = dims[:axis + 1] + [rate - 1] + dims[axis + 1:]
        zeros = array_ops.zeros(zeros_shape, dtype=filters.dtype)
        spread = ops.ConcatV2([spread, zeros], axis + 1)  # [..., taps, rate, ...]
        merged = ops.Reshape(spread, dims[:axis] + [taps * rate] + dims[axis + 1:])
        begin = [0] * len(dims)
        size = [-1] * len(dims)
        size[axis] = (taps - 1) * rate + 1
        filters = ops.Slice(merged, begin, size)
    return filters


@tf_export("nn.conv2d")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    input = array_ops.convert_to_tensor(input)
    filters = array_ops.convert_to_tensor(filters, dtype=input.dtype)
    channel_index = 1 if data_format.startswith("NC") else 3
    strides = _get_sequence(strides, 2, channel_index, "strides")
    dilations = _get_sequence(dilations, 2, channel_index, "dilations")
    padding, explicit_paddings = _convert_padding(padding)
    op = node("Conv2D", name)
    return _with_flat_batch(input, 3, lambda x: op(
        x, filters, strides=strides, padding=padding, explicit_paddings=explicit_paddings, data_format=data_format,
        dilations=dilations))


@tf_export("nn.conv1d")
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    input = array_ops.convert_to_tensor(input)
    filters = array_ops.convert_to_tensor(filters, dtype=input.dtype)
    if data_format is None or data_format in ("NHWC", "NWC"):
        data_format, spatial_start_dim, channel_index = "NHWC", -3, 2
    elif data_format in ("NCHW", "NCW"):
        data_format, spatial_start_dim, channel_index = "NCHW", -2, 1
    else:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    strides = [1] + _get_sequence(stride, 1, channel_index, "stride")
    dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
    x = ops.ExpandDims(input, spatial_start_dim)
    filters = ops.ExpandDims(filters, 0)
    op = node("Conv2D", name)
    result = _with_flat_batch(x, 3, lambda v: op(v, filters, strides=strides, padding=padding,
                                                 data_format=data_format, dilations=dilations))
    return array_ops.squeeze(result, [spatial_start_dim])


@tf_export("nn.conv3d")
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    if dilations is None:
        dilations = [1, 1, 1, 1, 1]
    if not isinstance(strides, (list, tuple)):
        raise TypeError(f"Expected list for 'strides' argument to 'conv3d' Op, not {strides!r}.")
    input = array_ops.convert_to_tensor(input)
    filters = array_ops.convert_to_tensor(filters, dtype=input.dtype)
    op = node("Conv3D", name)
    return _with_flat_batch(input, 4, lambda x: op(x, filters, strides=list(strides), padding=padding,
                                                   data_format=data_format, dilations=list(dilations)))


@tf_export("nn.convolution")
def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,  # noqa: A002
                name=None):
    input = array_ops.convert_to_tensor(input)
    filters = array_ops.convert_to_tensor(filters, dtype=input.dtype)
    filters_rank, inputs_rank = _rank(filters), _rank(input)
    if filters_rank:
        n = filters_rank - 2
    elif inputs_rank:
        n = inputs_rank - 2
    else:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or `filters.shape.rank` must "
                         f"be known. Received: input.shape={input.shape} of rank {inputs_rank} and "
                         f"filters.shape={filters.shape} of rank {filters_rank}")
    num_batch_dims = inputs_rank - n - 1 if inputs_rank else 1
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={n}.")
    channels_last = data_format is None or data_format in _CHANNELS_LAST_FORMATS
    channel_index = num_batch_dims + n if channels_last else num_batch_dims
    dilations = _get_sequence(dilations, n, channel_index, "dilations")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if n == 2:
        return conv2d(input, filters, strides, padding, data_format=data_format or "NHWC", dilations=dilations,
                      name=name)
    if n == 1:
        return conv1d(input, filters, strides, padding, data_format=data_format, dilations=dilations, name=name)
    spatial = dilations[1:4] if channels_last else dilations[2:5]
    if any(d != 1 for d in spatial):
        if any(s != 1 for s in (strides[1:4] if channels_last else strides[2:5])):
            raise ValueError(f"`strides` > 1 not supported in conjunction with `dilation_rate` > 1. Received: "
                             f"strides={strides} and dilation_rate={spatial}")
        filters = _dilated_filter(filters, spatial)
        dilations = [1] * 5
    return conv3d(input, filters, strides, padding, data_format=data_format or "NDHWC", dilations=dilations,
                  name=name)


@tf_export("nn.conv2d_transpose")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    strides = _get_sequence(strides, 2, channel_index, "strides")
    dilations = _get_sequence(dilations, 2, channel_index, "dilations")
    padding, explicit_paddings = _convert_padding(padding)
    input = array_ops.convert_to_tensor(input)
    filters = array_ops.convert_to_tensor(filters, dtype=input.dtype)
    return node("Conv2DBackpropInput", name)(
        array_ops.convert_to_tensor(output_shape), filters, input, strides=strides, padding=padding,
        explicit_paddings=explicit_paddings, data_format=data_format, dilations=dilations)


@tf_export("nn.conv1d_transpose")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    if data_format is None or data_format == "NWC":
        data_format, spatial_start_dim, channel_index = "NHWC", 1, 2
    elif data_format == "NCW":
        data_format, spatial_start_dim, channel_index = "NCHW", 2, 1
    else:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    strides = [1] + _get_sequence(strides, 1, channel_index, "stride")
    dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
    input = array_ops.convert_to_tensor(input)
    x = ops.ExpandDims(input, spatial_start_dim)
    filters = ops.ExpandDims(array_ops.convert_to_tensor(filters, dtype=input.dtype), 0)
    if isinstance(output_shape, (list, tuple)):
        sizes = list(output_shape[:spatial_start_dim]) + [1] + list(output_shape[spatial_start_dim:])
    else:
        sizes = array_ops.convert_to_tensor(output_shape)
        sizes = ops.ConcatV2([sizes[:spatial_start_dim], [1], sizes[spatial_start_dim:]], 0)
    result = node("Conv2DBackpropInput", name)(
        array_ops.convert_to_tensor(sizes), filters, x, strides=strides, padding=padding, data_format=data_format,
        dilations=dilations)
    return array_ops.squeeze(result, [spatial_start_dim])


@tf_export("nn.conv3d_transpose")
def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    channel_index = 1 if data_format.startswith("NC") else 4
    strides = _get_sequence(strides, 3, channel_index, "strides")
    dilations = _get_sequence(dilations, 3, channel_index, "dilations")
    input = array_ops.convert_to_tensor(input)
    filters = array_ops.convert_to_tensor(filters, dtype=input.dtype)
    return node("Conv3DBackpropInputV2", name)(
        array_ops.convert_to_tensor(output_shape), filters, input, strides=strides, padding=padding,
        data_format=data_format, dilations=dilations)


def _depthwise(input, filter, strides, padding, data_format, dilations, name):  # noqa: A002
    input = array_ops.convert_to_tensor(input)
    filter = array_ops.convert_to_tensor(filter, dtype=input.dtype)  # noqa: A001
    rate = [1, 1] if dilations is None else list(dilations)
    if len(rate) != 2:
        raise ValueError(f"`dilation_rate` must be of length 2. Received: dilation_rate={rate}")
    padding, explicit_paddings = _convert_padding(padding)
    if any(r != 1 for r in rate):
        if any(s != 1 for s in strides[1:3]):
            raise ValueError("`strides` > 1 not supported in conjunction with `dilation_rate` > 1. Received: "
                             f"strides={strides} and dilation_rate={rate}")
        filter = _dilated_filter(filter, rate)  # noqa: A001
    return node("DepthwiseConv2dNative", name)(
        input, filter, strides=list(strides), padding=padding, explicit_paddings=explicit_paddings,
        data_format=data_format or "NHWC")


@tf_export("nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    return _depthwise(input, filter, strides, padding, data_format, dilations, name)


@tf_export("nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    pointwise_filter = array_ops.convert_to_tensor(pointwise_filter)
    shape = TensorShape(pointwise_filter.shape)
    if shape.rank is not None and shape.rank != 4:
        raise ValueError(f"Shape {shape} must have rank 4")
    for dim in (shape.as_list()[:2] if shape.rank is not None else []):
        if dim is not None and dim != 1:
            raise ValueError(f"Dimensions {dim} and 1 are not compatible")
    depthwise = _depthwise(input, depthwise_filter, strides, padding, data_format, dilations, "depthwise")
    return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID", data_format=data_format or "NHWC",
                  name=name)


def _numpy_text(values):
    """A list of ints as TF's message shows its NumPy array ("[2 2]"), without importing NumPy."""
    return "[" + " ".join(str(v) for v in values) + "]"


def _string_padding(padding):
    """AvgPool and MaxPool3D take no explicit padding: TF's op wrapper rejects a list."""
    if not isinstance(padding, (str, bytes)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return padding


def _pool_rank(input, data_format):  # noqa: A002
    shape = TensorShape(input.shape)
    if shape.rank is not None:
        n = shape.rank - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError("`input` must have a static shape or a data format must be given. "
                         f"Received: input.shape={shape} and data_format={data_format}")
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={shape} of rank {n + 2}.")
    return n


@tf_export("nn.max_pool1d")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    if data_format is None:
        data_format = "NWC"
    channel_index = 1 if data_format.startswith("NC") else 2
    ksize = [1] + _get_sequence(ksize, 1, channel_index, "ksize")
    strides = [1] + _get_sequence(strides, 1, channel_index, "strides")
    padding, explicit_paddings = _convert_padding(padding, 3)
    if padding == "EXPLICIT":
        explicit_paddings = [0, 0] + explicit_paddings
    expanding_dim = 1 if data_format == "NWC" else 2
    data_format = "NHWC" if data_format == "NWC" else "NCHW"
    x = ops.ExpandDims(array_ops.convert_to_tensor(input), expanding_dim)
    result = node("MaxPool", name)(x, ksize=ksize, strides=strides, padding=padding,
                                   explicit_paddings=explicit_paddings, data_format=data_format)
    return array_ops.squeeze(result, [expanding_dim])


@tf_export("nn.max_pool2d")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    ksize = _get_sequence(ksize, 2, channel_index, "ksize")
    strides = _get_sequence(strides, 2, channel_index, "strides")
    padding, explicit_paddings = _convert_padding(padding)
    return node("MaxPool", name)(array_ops.convert_to_tensor(input), ksize=ksize, strides=strides, padding=padding,
                                 explicit_paddings=explicit_paddings, data_format=data_format)


@tf_export("nn.max_pool3d")
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    if data_format is None:
        data_format = "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 4
    padding = _string_padding(padding)
    ksize = _get_sequence(ksize, 3, channel_index, "ksize")
    strides = _get_sequence(strides, 3, channel_index, "strides")
    return node("MaxPool3D", name)(array_ops.convert_to_tensor(input), ksize=ksize, strides=strides, padding=padding,
                                   data_format=data_format)


@tf_export("nn.max_pool")
def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    input = array_ops.convert_to_tensor(input)
    n = _pool_rank(input, data_format)
    channel_index = n + 1 if data_format is None else (1 if data_format.startswith("NC") else n + 1)
    if isinstance(padding, (list, tuple)) and data_format == "NCHW_VECT_C":
        raise ValueError(f"`data_format='NCHW_VECT_C'` is not supported with explicit padding. Received: "
                         f"padding={padding}")
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if isinstance(padding, (list, tuple)) and n == 3:
        raise ValueError(f"Explicit padding is not supported with an input tensor of rank 5. Received: padding={padding}")
    kwargs = {} if data_format is None else {"data_format": data_format}
    if n == 1:
        return max_pool1d(input, ksize, strides, padding, name=name, **kwargs)
    if n == 2:
        return max_pool2d(input, ksize, strides, padding, name=name, **kwargs)
    return max_pool3d(input, ksize, strides, padding, name=name, **kwargs)


@tf_export("nn.avg_pool1d")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    if data_format is None:
        data_format = "NWC"
    channel_index = 1 if data_format.startswith("NC") else 2
    padding = _string_padding(padding)
    ksize = [1] + _get_sequence(ksize, 1, channel_index, "ksize")
    strides = [1] + _get_sequence(strides, 1, channel_index, "strides")
    expanding_dim = 1 if data_format == "NWC" else 2
    data_format = "NHWC" if data_format == "NWC" else "NCHW"
    x = ops.ExpandDims(array_ops.convert_to_tensor(input), expanding_dim)
    result = node("AvgPool", name)(x, ksize=ksize, strides=strides, padding=padding, data_format=data_format)
    return array_ops.squeeze(result, [expanding_dim])


@tf_export("nn.avg_pool2d")
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    padding = _string_padding(padding)
    ksize = _get_sequence(ksize, 2, channel_index, "ksize")
    strides = _get_sequence(strides, 2, channel_index, "strides")
    return node("AvgPool", name)(array_ops.convert_to_tensor(input), ksize=ksize, strides=strides, padding=padding,
                                 data_format=data_format)


@tf_export("nn.avg_pool3d")
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    if data_format is None:
        data_format = "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 3  # (TF's index, kept for its error texts)
    padding = _string_padding(padding)
    ksize = _get_sequence(ksize, 3, channel_index, "ksize")
    strides = _get_sequence(strides, 3, channel_index, "strides")
    return node("AvgPool3D", name)(array_ops.convert_to_tensor(input), ksize=ksize, strides=strides, padding=padding,
                                   data_format=data_format)


@tf_export("nn.avg_pool")
def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    input = array_ops.convert_to_tensor(input)
    n = _pool_rank(input, data_format)
    channel_index = n + 1 if data_format is None else (1 if data_format.startswith("NC") else n + 1)
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    kwargs = {} if data_format is None else {"data_format": data_format}
    if n == 1:
        return avg_pool1d(input, ksize, strides, padding, name=name, **kwargs)
    if n == 2:
        return avg_pool2d(input, ksize, strides, padding, name=name, **kwargs)
    return avg_pool3d(input, ksize, strides, padding, name=name, **kwargs)


@tf_export("nn.pool")
def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    input = array_ops.convert_to_tensor(input)
    n = len(window_shape)
    if n < 1 or n > 3:
        raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} of length "
                         f"{len(window_shape)}")
    rank = TensorShape(input.shape).rank
    if rank is not None and rank != n + 2:
        raise ValueError(f"Shape {TensorShape(input.shape)} must have rank {n + 2}")
    strides = [1] * n if strides is None else list(strides)
    rates = [1] * n if dilations is None else list(dilations)
    if len(strides) != n:
        raise ValueError(f"len(strides)={len(strides)} should be {n}")
    if len(rates) != n:
        raise ValueError(f"len(dilation_rate)={len(rates)} should be {n}")
    if any(r < 1 for r in rates):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: dilation_rate={rates}")
    if any(s < 1 for s in strides):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={strides}")
    if any(s > 1 for s in strides) and any(r > 1 for r in rates):
        raise ValueError(f"`strides` > 1 not supported in conjunction with `dilation_rate` > 1. Received: "
                         f"strides={strides} and dilation_rate={rates}")
    if padding == "SAME" and any(r > 1 for r in rates):
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                         f"padding={padding} and dilation_rate={_numpy_text(rates)}")
    if any(s > w for s, w in zip(strides, window_shape)):
        raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                         f"implementations. Received: strides={_numpy_text(strides)} and window_shape={window_shape}")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    if any(r > 1 for r in rates):
        raise NotImplementedError("graphfn's tf.nn.pool does not support dilations > 1 yet")
    if data_format is None or not data_format.startswith("NC"):
        window = [1] + list(window_shape) + [1]
        steps = [1] + strides + [1]
    else:
        window = [1, 1] + list(window_shape)
        steps = [1, 1] + strides
    if n == 1:
        if data_format is None or data_format == "NWC":
            fmt = "NWC"
        elif data_format == "NCW":
            fmt = "NCW"
        else:
            raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}")
        fn = max_pool1d if pooling_type == "MAX" else avg_pool1d
        return fn(input, window[1:-1] if fmt == "NWC" else window[2:], steps[1:-1] if fmt == "NWC" else steps[2:],
                  padding, data_format=fmt, name=name)
    if n == 2:
        fn = max_pool2d if pooling_type == "MAX" else avg_pool2d
        return fn(input, window, steps, padding, data_format=data_format or "NHWC", name=name)
    fn = max_pool3d if pooling_type == "MAX" else avg_pool3d
    return fn(input, window, steps, padding, data_format=data_format or "NDHWC", name=name)
