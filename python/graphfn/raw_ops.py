"""graphfn.raw_ops: every registered op as a keyword-only function, as TF's `tf.raw_ops`.

Nothing here is written per op: the functions are made from the C++ op registry the first time
a name is looked up. `raw_ops.Cast(x=..., DstT=..., Truncate=False, name=None)` takes the op's
inputs, then the attrs its inputs do not determine (those without a default first), then
`name`; type attrs of inputs (`T`) and list lengths (`N`) come from the inputs, as in TF.
An op with several outputs returns a namedtuple of them, named after the op; a list output is
a Python list.
"""

import builtins
import collections
import functools
import keyword
import re

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.ops._op_table import node

# A word starts at a capital after a lower-case letter (AddV2), or at a capital followed by a
# lower-case letter (RGBTo, Conv2DBackprop).
_WORD_START = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z0-9])(?=[A-Z][a-z])")

# TF's API definitions: ops whose Python function is hidden behind a public wrapper (a leading
# underscore), and inputs and attrs that TF's Python API renames.
_HIDDEN_OPS = frozenset({"BatchNormWithGlobalNormalization", "ClipByValue", "FusedBatchNorm",
                         "HistogramFixedWidth", "Stack"})
_BUILTINS_NOT_AVOIDED = frozenset({"round"})
_REDUCTIONS = ("All", "Any", "EuclideanNorm", "Max", "Mean", "Min", "Prod", "Sum")
_RENAMED_ARGS = {
    **{op: {"reduction_indices": "axis"} for op in _REDUCTIONS},
    "ExpandDims": {"dim": "axis"},
    "Squeeze": {"squeeze_dims": "axis"},
    "Where": {"input": "condition"},
    "Split": {"split_dim": "axis"},
    "SplitV": {"split_dim": "axis"},
    # Not a TF rename: graphfn's element-wise table (ops/math_cwise.def) names every unary
    # input x, where TF's Relu names it features.
    "Relu": {"x": "features"},
}


def _function_name(op_name):
    """TF's Python name of an op's function: AddV2 -> add_v2, RGBToHSV -> rgb_to_hsv, and a leading
    underscore for hidden ops and where the name is a Python keyword or builtin (Abs -> _abs)."""
    name = _WORD_START.sub("_", op_name).lower()
    shadows = keyword.iskeyword(name) or (hasattr(builtins, name) and name not in _BUILTINS_NOT_AVOIDED)
    return "_" + name if shadows or op_name in _HIDDEN_OPS else name


def _default_value(kind, value):
    if value is None:
        return None
    if kind == "type":
        return dtypes.as_dtype(value)
    if kind == "list(type)":
        return [dtypes.as_dtype(v) for v in value]
    return value


class _Signature:
    """What a raw op function takes and returns, read from the registry's OpDef. Parameters are
    (op's name, Python name): TF's renames applied, and a trailing "_" on a Python keyword."""

    def __init__(self, op_name):
        op_def = _core.op_def(op_name)
        self.op_name = op_name
        renamed = _RENAMED_ARGS.get(op_name, {})

        def python_name(arg):
            arg = renamed.get(arg, arg)
            return arg + "_" if keyword.iskeyword(arg) else arg

        self.inputs = [(name, python_name(name)) for name, *_ in op_def["inputs"]]
        self.input_attrs = [(type_attr, number_attr) for _, type_attr, number_attr, _ in op_def["inputs"]]
        inferred = {a for pair in self.input_attrs for a in pair if a}
        attrs = [a for a in op_def["attrs"] if a[0] not in inferred]
        self.required_attrs = [(name, python_name(name)) for name, _, has_default, _ in attrs if not has_default]
        self.default_attrs = [(name, python_name(name)) for name, _, has_default, _ in attrs if has_default]
        self.defaults = [_default_value(kind, value) for _, kind, has_default, value in attrs if has_default]
        self.outputs = op_def["outputs"]
        # TF returns several outputs as a namedtuple named after the op.
        self.result_type = collections.namedtuple(
            op_name, [name + "_" if keyword.iskeyword(name) else name for name, *_ in self.outputs]
        ) if len(self.outputs) > 1 else None

    def python_names(self):
        return [p for _, p in self.inputs + self.required_attrs + self.default_attrs] + ["name"]


def _make_function(op_name):
    sig = _Signature(op_name)
    func_name = _function_name(op_name)
    params = [p for _, p in sig.inputs + sig.required_attrs]
    params += ["%s=_defaults[%d]" % (p, i) for i, (_, p) in enumerate(sig.default_attrs)]
    # Generated so that a missing or unknown argument gets Python's own message for `func_name`,
    # as TF's generated wrappers do.
    source = "def {name}({params}):\n    return _run(({inputs}), {{{attrs}}}, name)\n".format(
        name=func_name,
        params=", ".join(params + ["name=None"]),
        inputs="".join(p + ", " for _, p in sig.inputs),
        attrs=", ".join("%r: %s" % (n, p) for n, p in sig.required_attrs + sig.default_attrs))
    namespace = {"_defaults": sig.defaults, "_run": functools.partial(_run, sig)}
    exec(compile(source, "<graphfn.raw_ops.%s>" % op_name, "exec"), namespace)  # noqa: S102
    inner = namespace[func_name]
    keys = sig.python_names()

    @functools.wraps(inner)
    def raw_op(*args, **kwargs):
        if args:
            raise TypeError("%s only takes keyword args (possible keys: %s). Please pass these args as "
                            "kwargs instead." % (func_name, keys))
        return inner(**kwargs)

    raw_op.__module__ = __name__
    raw_op.__doc__ = _core.op_def_summary(op_name)
    return raw_op


def _run(sig, inputs, attrs, name):
    result = node(sig.op_name, name)(*inputs, **attrs)
    if len(sig.outputs) == 0:
        return None
    if len(sig.outputs) == 1:
        return list(result) if sig.outputs[0][3] else result
    return _group_outputs(sig, inputs, attrs, result)


def _group_outputs(sig, inputs, attrs, flat):
    """The namedtuple TF returns for an op with several outputs, list outputs regrouped."""
    flat = list(flat)
    groups = []
    for _, type_attr, number_attr, is_list in sig.outputs:
        if not is_list:
            groups.append(flat.pop(0))
            continue
        count = _list_length(sig, inputs, attrs, number_attr or type_attr)
        groups.append(flat[:count])
        del flat[:count]
    return sig.result_type(*groups)


def _list_length(sig, inputs, attrs, attr):
    if attr in attrs:
        value = attrs[attr]
        return value if isinstance(value, int) else len(value)
    for value, input_attrs in zip(inputs, sig.input_attrs):
        if attr in input_attrs:
            return len(value)
    raise TypeError("%s: cannot tell how many tensors output list %r holds" % (sig.op_name, attr))


def __getattr__(op_name):
    if op_name.startswith("__") or op_name not in _op_names():
        raise AttributeError("module 'graphfn.raw_ops' has no attribute '%s'" % op_name)
    function = _make_function(op_name)
    globals()[op_name] = function  # later lookups are plain attribute reads
    return function


@functools.lru_cache(maxsize=None)
def _op_names():
    return frozenset(_core.op_names())


def __dir__():
    return sorted(_op_names())
