"""tf.py_function and tf.numpy_function: a Python function as an op.

Eagerly the function simply runs. While tracing, the function is registered under a token
("pyfunc_0", ...) and the graph gets an EagerPyFunc node (py_function: the function sees
tensors) or a PyFunc / PyFuncStateless node (numpy_function: it sees NumPy arrays); when the
graph runs, that node calls back here through the C++ host callback (bindings/bind_script.cc).
A graph holding such a node runs only in the process that traced it (graphfn-run has no Python
and fails the node with FailedPreconditionError). The gradient of an EagerPyFunc node is another
one ("<token>:gradient") that differentiates the function with a GradientTape, recomputing it.
"""

import atexit
import functools
import itertools

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util import nest
from graphfn.util.tf_export import tf_export

_functions = {}  # token -> python function
_tokens = itertools.count()

# A graph running while the interpreter shuts down finds no Python to call.
atexit.register(_core.enable_host_callback, False)


def _output_dtypes(Tout):
    """(list of DTypes, whether the function returns one value rather than a list)."""
    if isinstance(Tout, (list, tuple)):
        return [dtypes.as_dtype(t) for t in Tout], False
    return [dtypes.as_dtype(Tout)], True


def _missing_tout(api):
    raise TypeError("Missing required argument: 'Tout'\n  If using tf.%s as a decorator, set `Tout`\n  **by name** "
                    "above the function:\n  `@tf.%s(Tout=tout)`" % (api, api))


def _as_outputs(result, out_dtypes, convert):
    """The function's result as a list of tensors of `out_dtypes`. As TF, a list or tuple result
    holds one value per output (values past the last output are dropped)."""
    if not out_dtypes:
        return []
    values = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(values) < len(out_dtypes):
        raise ValueError("The Python function returned %d values, but Tout has %d dtypes" % (len(values), len(out_dtypes)))
    return [convert(v, dt) for v, dt in zip(values, out_dtypes)]


def _to_tensor(value, dtype):
    return array_ops.convert_to_tensor(value, dtype=dtype)


def _to_tensor_of_its_dtype(value, dtype):
    """numpy_function's results: converted without forcing Tout's dtype (TF checks it, if at all,
    in the PyFunc node)."""
    return array_ops.convert_to_tensor(value)


def _error_code(e):
    """TF's error code for an exception the function raised."""
    if isinstance(e, errors.OpError):
        return e.error_code
    if isinstance(e, (ValueError, TypeError)):
        return errors.INVALID_ARGUMENT
    if isinstance(e, StopIteration):
        return errors.OUT_OF_RANGE
    if isinstance(e, MemoryError):
        return errors.RESOURCE_EXHAUSTED
    if isinstance(e, NotImplementedError):
        return errors.UNIMPLEMENTED
    return errors.UNKNOWN


def _error_text(e):
    """As TF: "<Type>: <message>", then the traceback."""
    import traceback  # lazily: `import graphfn` does not load it (nor linecache, tokenize)

    return "%s: %s\n%s\n" % (type(e).__name__, e, "\n".join(traceback.format_exception(e)))


def _graph_node(op, func, inputs, out_dtypes, name):
    """While tracing: the node of `op` that calls `func`, registered under a new token; its
    outputs as a list (Tout is a list(type) attr, so the node's outputs are a list)."""
    token = "pyfunc_%d" % next(_tokens)
    _functions[token] = func
    return list(node(op, name)(inputs, token=token, Tout=out_dtypes))


def _call_from_graph(token, args, out_dtype_enums, takes_arrays):
    """The host callback: (0, [tensors]) or (TF error code, message). A numpy_function's results
    keep their own dtypes (the node checks them against Tout, as TF's PyFunc does)."""
    out_dtypes = [dtypes.as_dtype(d) for d in out_dtype_enums]
    base, _, gradient = token.partition(":")
    func = _functions.get(base)
    if func is None:
        return errors.NOT_FOUND, "callback %s is not found" % base
    try:
        if gradient:
            return 0, _gradient(func, args, out_dtypes)
        convert = _to_tensor_of_its_dtype if takes_arrays else _to_tensor
        return 0, _as_outputs(func(*args), out_dtypes, convert)
    except BaseException as e:  # noqa: BLE001 (every failure of user code becomes the op's error)
        return _error_code(e), _error_text(e)


# Set by graphfn.eager.backprop (a higher layer): differentiate(func, xs, dys) -> gradients of
# func's outputs with respect to xs, times dys (None where there is none).
_differentiate = None


def set_differentiator(differentiate):
    global _differentiate
    _differentiate = differentiate


def _gradient(func, args, input_dtypes):
    """d(func)/d(inputs) times the outputs' gradients, by running func again under a tape."""
    xs, dys = list(args[:len(input_dtypes)]), list(args[len(input_dtypes):])
    grads = _differentiate(func, xs, dys)
    return [array_ops.zeros_like(x) if g is None else g for x, g in zip(xs, grads)]


def _eager_error(e, num_inputs, num_outputs):
    raise errors.exception_for_code(_error_code(e), "{{function_node __wrapped__EagerPyFunc_Tin_%d_Tout_%d_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} %s [Op:EagerPyFunc] name: " % (num_inputs, num_outputs, _error_text(e))) from None


@tf_export("py_function")
def py_function(func=None, inp=None, Tout=None, name=None):
    """Runs the Python function `func` on the tensors `inp` as an op; `Tout` gives the dtypes of
    its results (one dtype: one tensor; a list: a list)."""
    if Tout is None:
        _missing_tout("py_function")
    if func is None:
        return lambda f: functools.wraps(f)(lambda *args: py_function(f, list(args), Tout, name))
    out_dtypes, single = _output_dtypes(Tout)
    inputs = [array_ops.convert_to_tensor(x) for x in (inp or [])]
    if _core.current_graph() is None:
        try:
            outputs = _as_outputs(func(*inputs), out_dtypes, _to_tensor)
        except Exception as e:  # noqa: BLE001 (as TF: the op fails with the function's error)
            _eager_error(e, len(inputs), len(out_dtypes))
    else:
        outputs = _graph_node("EagerPyFunc", func, inputs, out_dtypes, name)
    if single:
        return outputs[0]
    return outputs


@tf_export("numpy_function")
def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Runs `func` on NumPy arrays made from the tensors `inp`; its results become tensors of the
    dtypes `Tout`. `stateful=False` lets graph optimizations treat the call as a pure function."""
    if Tout is None:
        _missing_tout("numpy_function")
    if func is None:
        return lambda f: functools.wraps(f)(lambda *args: numpy_function(f, list(args), Tout, stateful, name))
    out_dtypes, single = _output_dtypes(Tout)
    inputs = [array_ops.convert_to_tensor(x) for x in (inp or [])]
    if _core.current_graph() is None:
        # As TF eagerly: the function runs on the arrays and its errors propagate as they are; its
        # results are converted without forcing Tout's dtypes.
        result = func(*[x.numpy() for x in inputs])
        outputs = _as_outputs(result, out_dtypes, _to_tensor_of_its_dtype)
    else:
        outputs = _graph_node("PyFunc" if stateful else "PyFuncStateless", func, inputs, out_dtypes, name)
    if single:
        return outputs[0]
    return outputs

