"""tf.custom_gradient, tf.recompute_grad and tf.grad_pass_through.

A custom-gradient function returns its result and the function that gives the gradient. Eagerly,
the call is recorded on the tapes as one entry carrying that function
(`_core.record_custom_gradient`). In a graph, its results, arguments and the values of the
variables it used pass through one IdentityN node whose `_gradient_op_type` attr names the
function (TF's gradient override); the C++ gradient code calls back here (`_call_gradient`,
bindings/bind_custom_gradient.cc) when it reaches that node, and the function builds its ops into
the graph being differentiated: the function's own graph, or, for a backward function, a copy of
it that holds the same tensors.
"""

import functools
import itertools
import threading

from graphfn import _core
from graphfn import context
from graphfn.eager.backprop import GradientTape, UnconnectedGradients
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util import nest
from graphfn.util.tf_export import tf_export

# The gradient functions of the IdentityN nodes built while tracing, by their attr's value. Kept
# for the process (TF's gradient registry keeps them too): a traced graph may be differentiated
# again whenever its function is called under a new tape.
_graph_gradients = {}
_uids = itertools.count(1)


def _call_gradient(name, function, upstream, num_inputs):
    """Called from C++ while a gradient is built: the gradients (tensors or None, one per input of
    the recorded call or node) that the custom gradient `function` (a tape's entry) or the one
    named `name` (a graph's node) gives for `upstream`."""
    if function is None:
        function = _graph_gradients.get(name)
        if function is None:
            raise LookupError("gradient registry has no entry for: %s" % name)
    grads = list(function(*upstream))
    if len(grads) != num_inputs:
        raise ValueError("Num gradients %d generated for op %s do not match num inputs %d"
                         % (len(grads), name, num_inputs))
    return [None if g is None else array_ops.convert_to_tensor(g) for g in grads]


def _takes_variables(grad_fn):
    import inspect  # lazily: `import graphfn` does not load inspect

    try:
        spec = inspect.getfullargspec(grad_fn)
    except TypeError:
        return False
    return "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw is not None


def _check_takes_variables(grad_fn, variables):
    if variables and not _takes_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                        "uses variables: {}".format(variables))


class _VariableWatcher(GradientTape):
    """TF's VariableWatcher: a tape that only serves to list the variables read inside it, so
    stop_recording() leaves it on."""

    _active = threading.local()

    def __enter__(self):
        super().__enter__()
        _VariableWatcher._watching().append(self._tape)
        return self

    def __exit__(self, typ, value, traceback):
        _VariableWatcher._watching().pop()
        return super().__exit__(typ, value, traceback)

    @staticmethod
    def _watching():
        tapes = getattr(_VariableWatcher._active, "tapes", None)
        if tapes is None:
            tapes = _VariableWatcher._active.tapes = []
        return tapes


def _variables_used(watcher, inputs):
    """The trainable variables the forward function read that are not among its inputs."""
    return [v for v in watcher.watched_variables() if all(v is not i for i in inputs)]


def _call_grad_fn(grad_fn, result_grads, variables):
    """grad_fn's (input gradients, variable gradients), flattened."""
    if variables:
        input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
        if len(variable_grads) != len(variables):
            raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
    else:
        input_grads = grad_fn(*result_grads)
        variable_grads = []
    return nest.flatten(input_grads), list(variable_grads)


def _eager_call(f, args, kwargs):
    with _VariableWatcher(watch_accessed_variables=True) as watcher:
        result, grad_fn = f(*args, **kwargs)
    flat_args = nest.flatten(args)
    variables = _variables_used(watcher, flat_args + nest.flatten(kwargs))
    _check_takes_variables(grad_fn, variables)
    flat_result = [array_ops.identity(x) for x in nest.flatten(result)]
    inputs = [array_ops.convert_to_tensor(x) for x in flat_args + variables]
    arg_count = len(flat_args)

    def gradient(*result_grads):
        input_grads, variable_grads = _call_grad_fn(grad_fn, result_grads, variables)
        if len(input_grads) != arg_count:
            raise ValueError("custom_gradient function expected to return %d gradients, but returned %d instead."
                             % (arg_count, len(input_grads)))
        return input_grads + variable_grads

    recorded = _core.record_custom_gradient(getattr(f, "__name__", "custom_gradient"), gradient, inputs,
                                            flat_result)
    return nest.pack_sequence_as(result, flat_result if recorded is None else recorded)


def _graph_call(f, args, kwargs):
    if kwargs:
        raise ValueError("The custom_gradient decorator currently supports keywords arguments only when eager "
                         "execution is enabled.")
    name = "CustomGradient-%d" % next(_uids)
    args = nest.map_structure(array_ops.convert_to_tensor, args)
    with _VariableWatcher(watch_accessed_variables=True) as watcher:
        result, grad_fn = f(*args)
    flat_args = nest.flatten(args)
    variables = sorted(_variables_used(watcher, flat_args), key=lambda v: v.name)  # TF's order
    _check_takes_variables(grad_fn, variables)
    flat_result = nest.flatten(result)
    n = len(flat_result)

    def gradient(*result_grads):
        input_grads, variable_grads = _call_grad_fn(grad_fn, result_grads[:n], variables)
        # One gradient per input of the IdentityN node: none for the results themselves.
        return [None] * n + input_grads + variable_grads

    _graph_gradients[name] = gradient
    passed = flat_result + flat_args + [array_ops.convert_to_tensor(v) for v in variables]
    outputs = list(node("IdentityN", None)(passed, _gradient_op_type=name))
    return nest.pack_sequence_as(result, outputs[:n])


class _Bound:
    """Calls decorate(f, args, kwargs); as a method, binds f first (TF's custom_gradient.Bind)."""

    def __init__(self, f, decorate):
        self._f = f
        self._decorate = decorate
        functools.update_wrapper(self, f, updated=())

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return _Bound(self._f.__get__(instance, owner), self._decorate)

    def __call__(self, *args, **kwargs):
        return self._decorate(self._f, args, kwargs)


def _custom_gradient_call(f, args, kwargs):
    if context.executing_eagerly():
        return _eager_call(f, args, kwargs)
    return _graph_call(f, args, kwargs)


@tf_export("custom_gradient")
def custom_gradient(f=None):
    """Decorator to define a function with a custom gradient (as tf.custom_gradient): `f(*x)`
    returns `(y, grad_fn)`; grad_fn(*dy) gives the gradients with respect to x, and with
    `variables=` the gradients with respect to the variables f used as well."""
    if f is None:
        return lambda f: custom_gradient(f=f)
    return _Bound(f, _custom_gradient_call)


@tf_export("recompute_grad")
def recompute_grad(f):
    """Wraps f so that its intermediate values are not kept for the gradient: the gradient runs
    f again (as tf.recompute_grad)."""

    @custom_gradient
    def inner(*args, **kwargs):
        with stop_recording():
            result = f(*args, **kwargs)

        def grad(*dresult, variables=None):
            with GradientTape() as tape:
                id_args = nest.map_structure(array_ops.identity, args)
                tape.watch(id_args)
                if variables is not None:
                    tape.watch(variables)
                recomputed = f(*id_args, **kwargs)
            sources = nest.flatten(id_args) + (list(variables) if variables is not None else [])
            grads = tape.gradient(recomputed, sources, output_gradients=list(dresult),
                                  unconnected_gradients=UnconnectedGradients.ZERO)
            num_args = len(nest.flatten(id_args))
            return grads[:num_args], grads[num_args:]

        return result, grad

    return functools.update_wrapper(inner, f, updated=())


@tf_export("grad_pass_through")
def grad_pass_through(f):
    """Wraps f so that its gradient is the identity's (as tf.grad_pass_through)."""

    @custom_gradient
    def pass_through(*args, **kwargs):
        def grad(*dys, **grad_kwargs):
            variables = grad_kwargs.get("variables")
            if variables is not None:
                return dys, [None] * len(variables)
            return dys

        return f(*args, **kwargs), grad

    return functools.update_wrapper(pass_through, f, updated=())


class stop_recording:  # noqa: N801 (a context manager, named as TF's tape.stop_recording)
    """Stops every tape of this thread from recording inside the block (variable watchers go on
    watching)."""

    def __enter__(self):
        watchers = _VariableWatcher._watching()
        self._tapes = [t for t in _core.recording_tapes() if not any(t is w for w in watchers)]
        for tape in reversed(self._tapes):
            tape.pop()
        return self

    def __exit__(self, typ, value, traceback):
        for tape in self._tapes:
            tape.push()
        return False

