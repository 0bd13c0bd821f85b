"""tf.nn beyond convolutions and pooling: activations, normalization, dropout, embeddings and
losses. Fused ops (Elu, Selu, Relu6, LeakyRelu, Softplus, Softsign, BiasAdd, LRN, L2Loss) call
their kernels; the rest are compositions of ops, as TF's Python layer writes them, inside TF's
name scopes, so their graphs look like TF's."""

import functools
import math
import numbers

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import random_seed
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import _fast_path, array_ops, math_ops, random_ops, reduction_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export


def _tensor(value, dtype=None):
    return value if isinstance(value, Tensor) else array_ops.convert_to_tensor(value, dtype=dtype)


def _scalar(value, like):
    return _core.to_tensor(value, like._dtype_enum)


def _cast(x, dtype):
    """TF's cast: a tensor that has the dtype already is returned as it is (no Cast node)."""
    x = _tensor(x)
    return x if x.dtype == dtype else ops.Cast(x, DstT=dtype)


# --- math ops that another op family provides: used when registered, composed otherwise -------

@functools.lru_cache(maxsize=None)
def _registered(op_type):
    return op_type in _core.op_names()


def _rsqrt(x):
    if _registered("Rsqrt"):
        return ops.Rsqrt(x)
    return ops.RealDiv(_scalar(1, x), ops.Sqrt(x))


def _squared_difference(x, y):
    if _registered("SquaredDifference"):
        return ops.SquaredDifference(x, y)
    return ops.Square(ops.Sub(x, y))


def _log1p(x):
    if _registered("Log1p"):
        return ops.Log1p(x)
    return ops.Log(ops.AddV2(_scalar(1, x), x))


def _div_no_nan(x, y):
    if _registered("DivNoNan"):
        return ops.DivNoNan(x, y)
    zero = ops.Equal(y, _scalar(0, y))
    quotient = ops.RealDiv(x, ops.SelectV2(zero, _scalar(1, y), y))
    return ops.SelectV2(zero, ops.ZerosLike(quotient), quotient)


def _erf(x):
    if _registered("Erf"):
        return ops.Erf(x)
    # Near 0 its Taylor series (exact derivatives there, where |x|'s are not); elsewhere
    # Abramowitz and Stegun 7.1.26, sign(x) (1 - poly(t) exp(-x^2)). Both within 2e-7.
    x2 = x * x
    taylor = 1.1283791670955126 * x * (1.0 + x2 * (-1 / 3 + x2 * (1 / 10 + x2 * (-1 / 42 + x2 * (1 / 216 + x2 * (-1 / 1320))))))
    a = abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    tail = ops.Sign(x) * (1.0 - poly * ops.Exp(-x2))
    return ops.SelectV2(ops.Less(a, _scalar(0.5, a)), taylor, tail)


# --- activations --------------------------------------------------------------------------------

def _call(op_type, name, x, **attrs):
    """One op on one input; a list or tuple input takes TF's slow path (errors without " name: ")."""
    return _fast_path.call(_fast_path.is_plain(x), node(op_type, name), x, **attrs)


@tf_export("nn.elu")
def elu(features, name=None):
    return _call("Elu", name, features)


@tf_export("nn.selu")
def selu(features, name=None):
    return _call("Selu", name, features)


@tf_export("nn.relu6")
def relu6(features, name=None):
    with name_scope(name or "Relu6") as scope:
        return node("Relu6", scope)(_tensor(features))


@tf_export("nn.softplus", "math.softplus")
def softplus(features, name=None):
    return _call("Softplus", name, features)


@tf_export("nn.softsign", "math.softsign")
def softsign(features, name=None):
    return _call("Softsign", name, features)


@tf_export("nn.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
    """Integer features are cast to float32 first, as TF does."""
    with name_scope(name or "LeakyRelu") as scope:
        features = _tensor(features)
        if features.dtype.is_integer:
            features = ops.Cast(features, DstT=dtypes.float32)
        if hasattr(alpha, "item") and not isinstance(alpha, Tensor):
            alpha = alpha.item()
        return node("LeakyRelu", scope)(features, alpha=float(alpha))


@tf_export("nn.gelu")
def gelu(features, approximate=False, name=None):
    with name_scope(name or "Gelu"):
        features = _tensor(features)
        if not features.dtype.is_floating:
            raise ValueError("`features.dtype` must be a floating point tensor.Received:features.dtype=%s"
                             % (features.dtype,))
        half = 0.5 * features  # first, as TF's expression order names the nodes
        if approximate:
            coeff = _scalar(0.044715, features)
            inner = features + coeff * ops.Pow(features, _scalar(3, features))
            return half * (1.0 + ops.Tanh(0.7978845608028654 * inner))
        return half * (1.0 + _erf(features / _scalar(1.4142135623730951, features)))


@tf_export("nn.silu", "nn.swish")
def silu(features, beta=1.0):
    features = _tensor(features)
    beta = ops.Cast(_tensor(beta), DstT=features.dtype)
    return ops.Mul(features, ops.Sigmoid(ops.Mul(beta, features)))


swish = silu


# --- normalization ------------------------------------------------------------------------------

@tf_export("nn.bias_add")
def bias_add(value, bias, data_format=None, name=None):
    with name_scope(name or "BiasAdd") as scope:
        attrs = {}
        if data_format is not None:
            if data_format.startswith("NC"):
                attrs["data_format"] = "NCHW"
            elif data_format.startswith("N") and data_format.endswith("C"):
                attrs["data_format"] = "NHWC"
            else:
                raise ValueError("`data_format` must be of the form `N...C` or `NC...`. Received: data_format=%s"
                                 % data_format)
        if _core.current_graph() is not None:
            value = _tensor(value)
            bias = array_ops.convert_to_tensor(bias, dtype=value.dtype)
        fast = _fast_path.is_plain(value) and _fast_path.is_plain(bias)
        return _fast_path.call(fast, node("BiasAdd", scope), value, bias, **attrs)


@tf_export("nn.batch_normalization")
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """x * inv + (offset - mean * inv) with inv = scale / sqrt(variance + epsilon), as TF's."""
    with name_scope(name or "batchnorm"):
        inv = _rsqrt(_tensor(variance + variance_epsilon))
        if scale is not None:
            inv = inv * scale
        x = _tensor(x)
        shift = offset - mean * inv if offset is not None else -mean * inv
        return x * _cast(inv, x.dtype) + _cast(shift, x.dtype)


def _squeeze_axes(t, axes):
    return ops.Squeeze(t, squeeze_dims=[int(a) for a in axes])


def _axes_list(axes):
    if isinstance(axes, Tensor):
        return [int(a) for a in axes.numpy().reshape(-1)]
    return [int(a) for a in axes] if isinstance(axes, (list, tuple)) else [int(axes)]


@tf_export("nn.moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    """Mean and variance over `axes`; `shift` is ignored, as in TF 2."""
    del shift
    with name_scope(name or "moments"):
        y = _tensor(x)
        axes_tensor = axes if isinstance(axes, (Tensor, list, tuple, int)) else _tensor(axes, dtype=dtypes.int32)
        if isinstance(axes, (list, tuple)) and not axes:
            axes_tensor = reduction_ops.all_axes(0)  # an empty int32 vector ([] alone would be float32)
        mean = node("Mean", "mean")(y, axes_tensor, keep_dims=True)
        variance = node("Mean", "variance")(_squared_difference(y, ops.StopGradient(mean)), axes_tensor,
                                            keep_dims=True)
        if not keepdims:
            mean = _squeeze_axes(mean, _axes_list(axes))
            variance = _squeeze_axes(variance, _axes_list(axes))
        return mean, variance


@tf_export("nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    with name_scope(name or "weighted_moments"):
        x = _tensor(x)
        frequency_weights = _tensor(frequency_weights)
        if frequency_weights.dtype != x.dtype:
            frequency_weights = ops.Cast(frequency_weights, DstT=x.dtype)
        weighted_input_sum = reduction_ops.reduce_sum(frequency_weights * x, axes, keepdims=True)
        broadcasted_weights = frequency_weights + ops.ZerosLike(x)
        sum_of_weights = reduction_ops.reduce_sum(broadcasted_weights, axes, keepdims=True)
        weighted_mean = _div_no_nan(weighted_input_sum, sum_of_weights)
        weighted_distsq = reduction_ops.reduce_sum(frequency_weights * _squared_difference(x, weighted_mean), axes,
                                                   keepdims=True)
        weighted_variance = _div_no_nan(weighted_distsq, sum_of_weights)
        if not keepdims:
            weighted_mean = _squeeze_axes(weighted_mean, _axes_list(axes))
            weighted_variance = _squeeze_axes(weighted_variance, _axes_list(axes))
        return weighted_mean, weighted_variance


@tf_export("nn.local_response_normalization", "nn.lrn")
def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):  # noqa: A002
    # Attrs given as ints need converting: TF's slow path (its errors lack " name: ").
    fast = _fast_path.is_plain(input) and all(isinstance(v, float) for v in (bias, alpha, beta))
    return _fast_path.call(fast, node("LRN", name), input, depth_radius=int(depth_radius), bias=float(bias),
                           alpha=float(alpha), beta=float(beta))


lrn = local_response_normalization


@tf_export("nn.l2_normalize", "math.l2_normalize", "linalg.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    with name_scope(name or "l2_normalize") as scope:
        x = _tensor(x)
        square_sum = reduction_ops.reduce_sum(ops.Square(x), axis, keepdims=True)
        x_inv_norm = _rsqrt(math_ops.maximum(square_sum, epsilon))
        return node("Mul", scope)(x, x_inv_norm)


@tf_export("nn.l2_loss")
def l2_loss(t, name=None):
    return _call("L2Loss", name, t)


# --- dropout ------------------------------------------------------------------------------------

def _noise_shape(x, noise_shape):
    """None dims of a noise shape take x's dims, as TF's dropout fills them in."""
    if noise_shape is None:
        return ops.Shape(x)
    try:
        wanted = TensorShape(noise_shape)
    except (TypeError, ValueError):
        return noise_shape
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and wanted.rank == len(dims):
        return TensorShape([d if w is None and d is not None else w for w, d in zip(wanted.as_list(), dims)])
    return noise_shape


@tf_export("nn.dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeros each element with probability `rate` and scales the kept ones by 1 / (1 - rate)."""
    return dropout_with_sampler(
        x, rate, noise_shape, lambda shape, dtype: random_ops.random_uniform(shape, dtype=dtype, seed=seed),
        lambda: random_seed.get_seed(seed), name or "dropout")  # as TF: the fast path still advances the op seed


def dropout_with_sampler(x, rate, noise_shape, uniform_sampler, skip_random_step, name):
    """TF's dropout with the uniform noise drawn by uniform_sampler(shape, dtype): the stateful
    tf.nn.dropout and tf.nn.experimental.stateless_dropout share it. skip_random_step() runs when
    rate is 0 and no noise is drawn."""
    with name_scope(name):
        is_rate_number = isinstance(rate, numbers.Real) and not isinstance(rate, Tensor)
        if is_rate_number and (rate < 0 or rate >= 1):
            raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s" % rate)
        x = _tensor(x)
        if not x.dtype.is_floating:
            raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=%s"
                             % (x.dtype,))
        if is_rate_number and rate == 0:
            skip_random_step()
            return x
        if not isinstance(rate, Tensor):
            if not is_rate_number:
                raise ValueError("`rate` must be a scalar or scalar tensor. Received: rate=%s" % (rate,))
            scaled = ops.Mul(x, _scalar(1 / (1 - rate), x))
            rate = _scalar(rate, x)
        else:
            if rate.shape.rank is not None and rate.shape.rank != 0:
                raise ValueError("Shape %s must have rank 0" % (rate.shape,))
            if rate.dtype != x.dtype:
                raise ValueError("`x.dtype` must be compatible with `rate.dtype`. Received: x.dtype=%s and "
                                 "rate.dtype=%s" % (x.dtype, rate.dtype))
            scaled = ops.RealDiv(x, ops.Sub(_scalar(1, x), rate))
        random_tensor = uniform_sampler(_noise_shape(x, noise_shape), x.dtype)
        keep_mask = ops.GreaterEqual(random_tensor, rate)
        return ops.SelectV2(keep_mask, scaled, _scalar(0, x))


# --- embeddings ---------------------------------------------------------------------------------

def _clip_rows(values, ids, max_norm):
    """Scales each looked-up row whose L2 norm exceeds max_norm down to it (TF's clip_by_norm over
    the axes the params add to the ids)."""
    ids_rank = ids.shape.rank
    axes = list(range(ids_rank, values.shape.rank))
    l2sum = reduction_ops.reduce_sum(values * values, axes, keepdims=True)
    positive = ops.Greater(l2sum, _scalar(0, l2sum))
    l2norm = ops.SelectV2(positive, ops.Sqrt(ops.SelectV2(positive, l2sum, ops.OnesLike(l2sum))), l2sum)
    clip = _scalar(max_norm, values)
    return ops.RealDiv(values * clip, ops.Maximum(l2norm, clip))


@tf_export("nn.embedding_lookup")
def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of `params` (a tensor, or a list of tensors partitioned by TF 2's "div" strategy,
    which lays the ids out in order, so the list's concatenation is the table)."""
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("Length of params is currently 0. Need at least one param.")
        params = [_tensor(p) for p in params]
    with name_scope(name or "embedding_lookup"):
        ids = _tensor(ids)
        if isinstance(params, list):
            if len(params) == 1:
                table = params[0]
            else:
                _check_div_partitions(params)
                table = ops.ConcatV2(params, _core.to_tensor(0))
        else:
            table = _tensor(params)
        result = ops.GatherV2(table, ids, _core.to_tensor(0))
        if max_norm is not None:
            result = _clip_rows(result, ids, max_norm)
        return result


def _check_div_partitions(params):
    """The div strategy gives the first (total % n) partitions one row more than the others; a
    list laid out otherwise is not a div-partitioned table."""
    sizes = [p.shape.as_list()[0] if p.shape.rank else None for p in params]
    if any(s is None for s in sizes):
        return
    per, extras = divmod(sum(sizes), len(sizes))
    for i, s in enumerate(sizes):
        if s != per + (1 if i < extras else 0):
            raise ValueError("embedding_lookup: the params are not partitioned by the 'div' strategy: "
                             "partition %d has %d rows, expected %d" % (i, s, per + (1 if i < extras else 0)))


# --- losses -------------------------------------------------------------------------------------

def _same_shape(a, b, a_name, b_name):
    if not TensorShape(b.shape).is_compatible_with(TensorShape(a.shape)):
        raise ValueError("`%s` and `%s` must have the same shape, received (%s vs %s)."
                         % (a_name, b_name, a.shape, b.shape))


def _neg_abs_softplus(x):
    """log1p(exp(-|x|)), the stable tail of the logistic losses."""
    return _log1p(ops.Exp(ops.Neg(ops.Abs(x))))


@tf_export("nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for sigmoid_cross_entropy_with_logits"
                         "Received: labels=%s and logits=%s" % (labels, logits))
    with name_scope(name or "logistic_loss") as scope:
        logits = _tensor(logits)
        labels = _tensor(labels)
        _same_shape(logits, labels, "logits", "labels")
        zeros = node("ZerosLike", "zeros_like")(logits)
        cond = ops.GreaterEqual(logits, zeros)
        relu_logits = node("SelectV2", "Select")(cond, logits, zeros)
        neg_abs_logits = node("SelectV2", "Select")(cond, ops.Neg(logits), logits)
        difference = node("Sub", "sub")(relu_logits, node("Mul", "mul")(logits, labels))
        return node("AddV2", scope)(difference, _log1p(ops.Exp(neg_abs_logits)))


@tf_export("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    with name_scope(name or "logistic_loss") as scope:
        logits = _tensor(logits)
        labels = _tensor(labels)
        _same_shape(logits, labels, "logits", "labels")
        log_weight = 1 + (pos_weight - 1) * labels
        tail = _neg_abs_softplus(logits) + ops.Relu(ops.Neg(logits))
        return node("AddV2", scope)((1 - labels) * logits, log_weight * tail)


@tf_export("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    with name_scope(name or "log_poisson_loss"):
        log_input = _tensor(log_input)
        targets = _tensor(targets)
        _same_shape(log_input, targets, "log_input", "targets")
        result = ops.Exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = _scalar(0.5, targets)
            two_pi = _scalar(2 * math.pi, targets)
            stirling_approx = targets * ops.Log(targets) - targets + point_five * ops.Log(two_pi * targets)
            zeros = ops.ZerosLike(targets)
            ones = ops.OnesLike(targets)
            cond = ops.LogicalAnd(ops.GreaterEqual(targets, zeros), ops.LessEqual(targets, ones))
            result += ops.SelectV2(cond, zeros, stirling_approx)
        return result


@tf_export("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (the batch size by default;
    one replica)."""
    per_example_loss = _tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    if per_example_loss.shape.rank == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         "Received per_example_loss=%s with rank 0" % (format(per_example_loss),))
    if sample_weight is not None:
        weights = ops.Cast(_tensor(sample_weight), DstT=dtypes.float32)
        per_example_loss = ops.Mul(ops.Cast(per_example_loss, DstT=dtypes.float32), weights)
    per_example_loss = math_ops.cast(per_example_loss, input_dtype)
    if global_batch_size is None:
        global_batch_size = ops.Shape(per_example_loss)[0]
    global_batch_size = _tensor(global_batch_size)
    if global_batch_size.shape.rank not in (0, None):
        raise ValueError("global_batch_size must be scalar.")
    if not global_batch_size.dtype.is_integer:
        raise TypeError('global_batch_size must be an integer..  Expected "x" to be integer type.  Found: tensor of '
                        "dtype %s" % (global_batch_size.dtype,))
    total = reduction_ops.reduce_sum(per_example_loss)
    global_batch_size = math_ops.cast(global_batch_size, input_dtype)
    if not input_dtype.is_floating:  # div_no_nan divides integers as floats (float64)
        total = ops.Cast(total, DstT=dtypes.float64)
        global_batch_size = ops.Cast(global_batch_size, DstT=dtypes.float64)
    return _div_no_nan(total, global_batch_size)


@tf_export("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
    """The loss summed and divided by the number of replicas (one)."""
    if isinstance(regularization_loss, (list, tuple)):
        regularization_loss = ops.AddN([_tensor(v) for v in regularization_loss]) if all(
            isinstance(v, Tensor) for v in regularization_loss) else _tensor(sum(regularization_loss))
    return math_ops.truediv(reduction_ops.reduce_sum(regularization_loss), 1)
