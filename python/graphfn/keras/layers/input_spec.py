"""InputSpec: what a layer accepts as its first input (rank limits, fixed axes), checked on
every call with Keras's messages."""


class InputSpec:
    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtype
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})
        self.name = name

    def __repr__(self):
        spec = []
        for key in ("dtype", "shape", "ndim", "max_ndim", "min_ndim", "axes"):
            value = getattr(self, key)
            if value:
                spec.append("%s=%s" % (key, value))
        return "InputSpec(%s)" % ", ".join(spec)


def _fail(spec, layer_name, detail):
    raise ValueError("Input 0 with name '%s' of layer '%s' is incompatible with the layer: %s"
                     % (spec.name, layer_name, detail))


def assert_input_compatibility(spec, shape, layer_name):
    """`shape` is the input's shape as a tuple (None for unknown dimensions)."""
    if spec is None or shape is None:
        return
    ndim = len(shape)
    if spec.ndim is not None and ndim != spec.ndim:
        _fail(spec, layer_name, "expected ndim=%s, found ndim=%d. Full shape received: %s" % (spec.ndim, ndim, shape))
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        _fail(spec, layer_name, "expected max_ndim=%s, found ndim=%d" % (spec.max_ndim, ndim))
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        _fail(spec, layer_name, "expected min_ndim=%s, found ndim=%d. Full shape received: %s"
              % (spec.min_ndim, ndim, shape))
    for axis, value in spec.axes.items():
        dim = shape[axis] if -ndim <= axis < ndim else None
        if value is not None and dim not in (value, None):
            _fail(spec, layer_name, "expected axis %d of input shape to have value %s, but received input with "
                  "shape %s" % (axis, value, shape))
