"""Model.summary(): Keras 3's table of top-level layers (name, type, output shape, weights)
and the parameter totals with their sizes."""

import numpy as np

_WIDTHS = (33, 24, 15)  # column widths between the vertical rules


def _count(variables):
    return int(sum(np.prod(v.shape.as_list(), dtype=np.int64) for v in variables))


def _size(variables):
    return int(sum(np.prod(v.shape.as_list(), dtype=np.int64) * v.dtype.size for v in variables))


def _readable(size):
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return "%.2f %s" % (size, unit)
        size /= 1024.0


def _rule(left, middle, right, fill):
    return left + middle.join(fill * w for w in _WIDTHS) + right


def _row(cells, edge):
    name, shape, params = cells
    return (edge + " " + name.ljust(_WIDTHS[0] - 2) + " " + edge + " " + shape.ljust(_WIDTHS[1] - 2) + " " + edge +
            " " + params.rjust(_WIDTHS[2] - 2) + " " + edge)


def _output_shape(layer):
    shape = layer.__dict__.get("_output_shape")
    return "?" if shape is None else str(shape)


def summary_lines(model):
    lines = ['Model: "%s"' % model.name, _rule("\u250f", "\u2533", "\u2513", "\u2501"),
             _row(("Layer (type)", "Output Shape", "Param #"), "\u2503"), _rule("\u2521", "\u2547", "\u2529", "\u2501")]
    layers = model.layers
    for i, layer in enumerate(layers):
        params = "%s" % format(layer.count_params(), ",") if layer.built else "0 (unbuilt)"
        lines.append(_row(("%s (%s)" % (layer.name, type(layer).__name__), _output_shape(layer), params), "\u2502"))
        if i < len(layers) - 1:
            lines.append(_rule("\u251c", "\u253c", "\u2524", "\u2500"))
    lines.append(_rule("\u2514", "\u2534", "\u2518", "\u2500"))
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    optimizer = getattr(model, "optimizer", None)
    optimizer_variables = optimizer.variables if optimizer is not None and optimizer.built else []
    total = trainable + non_trainable + optimizer_variables
    for label, variables in (("Total", total), ("Trainable", trainable), ("Non-trainable", non_trainable)):
        lines.append(" %s params: %s (%s)" % (label, format(_count(variables), ","), _readable(_size(variables))))
    if optimizer_variables:
        lines.append(" Optimizer params: %s (%s)" % (format(_count(optimizer_variables), ","),
                                                    _readable(_size(optimizer_variables))))
    return lines
