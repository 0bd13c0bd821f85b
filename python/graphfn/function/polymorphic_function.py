"""graphfn.function: a Python callable that traces its function into a graph once per input
signature and replays the graph on later calls (TensorFlow's tf.function).

Call path: the C++ call cache (cpp/graphfn/bindings/bind_function.cc) binds the arguments,
builds the call's key and, on a hit, runs the compiled function without entering Python. On a
miss, `Function._call_slow`: bind the arguments like Python -> compute each argument's trace
type -> look the signature up in the trace cache (exact match, else the most specific trace that
accepts it) -> on a miss, trace -> run the concrete function -> offer the call to the C++ cache."""

import functools
import inspect
import threading

from graphfn import _core
from graphfn import context
from graphfn.eager import backprop as _backprop
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import retracing
from graphfn.function import trace_type as trace_types
from graphfn.function import tracing
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


class Function(_core.FunctionBase):
    """A traced-and-cached version of a Python function; see `graphfn.function`.

    Calls go to the C++ base class first (its cache answers every call whose key it has seen,
    without running Python) and come to `_call_slow` otherwise."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 reduce_retracing=False, jit_compile=None, max_traces=None, autograph_options=None):
        super().__init__()
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._signature = inspect.signature(python_function)
        self._input_signature = _check_input_signature(input_signature)
        self._autograph = autograph
        self._autograph_options = autograph_options  # optional AutoGraph features
        self._converted = None  # the AutoGraph entry point, made on the first trace
        self._reduce_retracing = reduce_retracing
        self._jit_compile = jit_compile
        self._max_traces = max_traces
        self._cache = {}  # trace key -> ConcreteFunction, in tracing order (oldest first)
        self._lock = threading.RLock()
        self._fast_set_signature(_signature_parameters(self._signature))
        functools.update_wrapper(self, python_function)

    # Calling -------------------------------------------------------------------------------------

    def _call_slow(self, args, kwargs):
        if context.functions_run_eagerly():
            return self._python_function(*args, **kwargs)
        if not context.executing_eagerly():
            # Called while tracing another function: trace this one inline into that graph.
            return self._traced_function()(*args, **kwargs)
        arguments = self._bind(args, kwargs)
        concrete, traced = self._concrete_function_for(arguments)
        retracing.record_call(self._python_function, traced, self._fast_take_hits())
        flat = tracing.flat_call_tensors(arguments)
        if _backprop._state.tapes:
            _watch_variable_arguments(arguments)
        result = concrete._call_flat(flat)
        # The C++ cache keeps the call's key only if it would feed exactly these tensors.
        _register_call_key_hooks()
        self._fast_insert(args, kwargs, flat, concrete._function, concrete._output_structure, concrete._variables)
        return result

    def get_concrete_function(self, *args, **kwargs):
        """The concrete function for these arguments (tensors, TensorSpecs or Python values),
        tracing it if needed."""
        if self._input_signature is not None and not args and not kwargs:
            args = tuple(self._input_signature)
        return self._concrete_function_for(self._bind(args, kwargs))[0]

    def _bind(self, args, kwargs):
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError("Binding inputs to tf.function failed due to `%s`. Received args: %s and "
                            "kwargs: %s for signature: %s." % (e, args, kwargs, _signature_text(self._signature))) from None
        bound.apply_defaults()
        arguments = bound.arguments
        if self._input_signature is not None:
            _apply_input_signature(self._name, self._signature, self._input_signature, arguments)
        return arguments

    def _concrete_function_for(self, arguments):
        """(ConcreteFunction, whether this call traced)."""
        if self._input_signature is not None:
            arguments = self._with_signature_specs(arguments)
        aliases = {}
        key = tuple((name, trace_types.trace_type(value, aliases)) for name, value in arguments.items())
        concrete = self._cache.get(key)
        if concrete is not None:
            return concrete, False
        with self._lock:
            concrete = self._cache.get(key) or self._most_specific_match(key)
            if concrete is not None:
                return concrete, False
            if self._reduce_retracing:
                key, arguments = self._generalize(key, arguments)
            retracing.explain(self._name, key, list(self._cache))
            concrete = self._trace(key, arguments)
            self._evict_for_one_more()
            self._cache[key] = concrete
            return concrete, True

    def _evict_for_one_more(self):
        """max_traces (graphfn only): drop the oldest traces to stay within the bound."""
        if self._max_traces is None:
            return
        while len(self._cache) >= self._max_traces:
            del self._cache[next(iter(self._cache))]
            self._fast_clear()  # it may hold a plan of the dropped trace

    def _trace(self, key, arguments):
        """Traces, applying TF's variable-creation rule: variables may be created during the
        first trace only; if that trace created any, trace again with creation forbidden (so a
        variable created unconditionally fails, and `if self.v is None:` patterns work)."""
        if self._cache:
            with context.variable_creation_scope(context._NON_FIRST_CALL):
                return tracing.trace(self._traced_function(), self._name, self._signature, arguments)
        with context.variable_creation_scope(context._ALLOWED) as created:
            concrete = tracing.trace(self._traced_function(), self._name, self._signature, arguments)
        if not created:
            return concrete
        self._cache[key + (("<variable creation>", None),)] = concrete
        with context.variable_creation_scope(context._SINGLETON_ONLY):
            return tracing.trace(self._traced_function(), self._name, self._signature, arguments)

    def _traced_function(self):
        """What tracing calls: the AutoGraph-converted function when autograph=True."""
        if not self._autograph:
            return self._python_function
        if self._converted is None:
            from graphfn.autograph.impl import api
            self._converted = api.tf_convert(self._python_function, self._autograph_options)
        return self._converted

    def _with_signature_specs(self, arguments):
        """input_signature: the parameters it covers are traced (and keyed) as their specs."""
        arguments = dict(arguments)
        for name, spec, position in _signature_slots(self._signature, self._input_signature):
            if position is None:
                arguments[name] = spec
            elif position < len(arguments[name]):
                values = list(arguments[name])
                values[position] = spec
                arguments[name] = tuple(values)
        return arguments

    def _most_specific_match(self, key):
        candidates = [(k, cf) for k, cf in self._cache.items() if _key_is_subtype(key, k)]
        for k, cf in candidates:
            if all(_key_is_subtype(k, other) for other, _ in candidates):
                return cf
        return None

    def _generalize(self, key, arguments):
        """reduce_retracing: widen the key to the most specific type shared with an earlier trace."""
        for other in self._cache:
            general = _common_key(key, other)
            if general is not None:
                args = {name: _specs_from_type(arguments[name], t) for name, t in general}
                return general, args
        return key, arguments

    # Introspection -------------------------------------------------------------------------------

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def function_spec(self):
        return self._signature

    def clear_cache(self):
        """Drops every trace (graphfn only; TF has no public equivalent)."""
        with self._lock:
            self._cache.clear()
            self._fast_clear()

    def experimental_get_compiler_ir(self, *args, **kwargs):
        if not self._jit_compile:
            raise ValueError("Compiler IR can only be returned for functions marked with 'jit_compile=True'.")
        raise NotImplementedError("graphfn does not compile functions with XLA, so there is no compiler IR; "
                                  "jit_compile=True is accepted and ignored (see docs/function.md).")

    def experimental_get_tracing_count(self):
        return len(self._cache)

    def pretty_printed_concrete_signatures(self, verbose=True):
        if self._input_signature is not None and not self._cache:
            self.get_concrete_function()
        sep = "\n\n" if verbose else "\n"
        return sep.join(cf.pretty_printed_signature(verbose) for cf in self._cache.values())

    # Methods: each instance gets its own Function (and cache) ---------------------------------------

    def __get__(self, instance, owner=None):
        # Attribute lookups use the C++ slot directly; this serves explicit __get__ calls.
        return self._bound_for(instance, owner)

    def _make_bound_function(self, instance, owner):
        """The Function of `instance`'s method (the C++ slot remembers it per instance)."""
        return Function(self._python_function.__get__(instance, owner), self._name, self._input_signature,
                        self._autograph, self._reduce_retracing, self._jit_compile, self._max_traces,
                        self._autograph_options)


_core.install_function_slots(Function)


def _signature_parameters(signature):
    """The parameters as the C++ cache binds them: (name, kind, (default,) or None)."""
    return [(p.name, int(p.kind), None if p.default is p.empty else (p.default,))
            for p in signature.parameters.values()]


_hooks_registered = []


def _register_call_key_hooks():
    """Gives the C++ cache the classes and functions it keys and watches with (once; on the
    first call, when the modules they live in are surely imported)."""
    if _hooks_registered:
        return
    from graphfn.framework.tensor import Tensor
    from graphfn.variables import Variable
    _core.set_call_key_hooks(Variable, Tensor, trace_types.trace_type_for_call_cache, _backprop.variable_accessed)
    _hooks_registered.append(True)


def _watch_variable_arguments(arguments):
    """Active tapes watch the trainable variables a call passes (TF watches them whether or not
    the function reads them)."""
    from graphfn.variables import Variable
    for value in arguments.values():
        for leaf in nest.flatten(value):
            if isinstance(leaf, Variable) and leaf._trainable:  # as created, like TF (Keras may flip `trainable`)
                _backprop.variable_accessed(leaf)


def _signature_text(signature):
    """The Python signature as TF prints it in binding errors: defaults are not shown."""
    params = [p.replace(default=_CapturedDefault()) if p.default is not inspect.Parameter.empty else p
              for p in signature.parameters.values()]
    return str(signature.replace(parameters=params))


class _CapturedDefault:
    def __repr__(self):
        return "<captured_default_value>"


def _key_is_subtype(key, other):
    return len(key) == len(other) and all(
        n1 == n2 and trace_types.is_subtype(t1, t2) for (n1, t1), (n2, t2) in zip(key, other))


def _common_key(key, other):
    if len(key) != len(other):
        return None
    parts = []
    for (n1, t1), (n2, t2) in zip(key, other):
        common = trace_types.common_supertype(t1, t2) if n1 == n2 else None
        if common is None:
            return None
        parts.append((n1, common))
    return tuple(parts)


def _specs_from_type(value, type_):
    """`value` with its tensor leaves replaced by the (generalized) TensorSpecs of `type_`."""
    if isinstance(type_, TensorSpec):
        return type_
    if isinstance(type_, trace_types.Sequence):
        return type(value)(*[_specs_from_type(v, t) for v, t in zip(value, type_.elements)]) \
            if type_.fields is not None else type(value)(_specs_from_type(v, t) for v, t in zip(value, type_.elements))
    return value


def _check_input_signature(input_signature):
    if input_signature is None:
        return None
    if not isinstance(input_signature, (tuple, list)):
        raise TypeError("input_signature must be either a tuple or a list, got %s." % type(input_signature))
    for spec in nest.flatten(list(input_signature)):
        if not isinstance(spec, TensorSpec):
            raise TypeError("input_signature must be a possibly nested sequence of TensorSpec objects, got "
                            "invalid args %r with types %r." % (spec, type(spec)))
    return tuple(input_signature)


def _signature_slots(signature, input_signature):
    """(parameter name, spec, position in *args or None) for each spec of input_signature: specs
    cover the positional parameters in order, then the elements of *args."""
    slots, specs = [], list(input_signature)
    for param in signature.parameters.values():
        if not specs:
            break
        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            slots.append((param.name, specs.pop(0), None))
        elif param.kind == param.VAR_POSITIONAL:
            slots.extend((param.name, spec, i) for i, spec in enumerate(specs))
            specs = []
    return slots


def _apply_input_signature(name, signature, input_signature, arguments):
    """Casts the arguments covered by input_signature to tensors of the spec's dtype; the trace
    uses the specs themselves, so None dimensions stay unknown."""
    from graphfn import _core
    from graphfn.framework.tensor import Tensor

    def cast(value, spec):
        if isinstance(value, TensorSpec):
            return value
        if isinstance(value, Tensor) and value.dtype != spec.dtype:
            ok = False
        elif isinstance(value, Tensor):
            ok = spec.shape.is_compatible_with(value.shape)  # fed as is (so the C++ cache can feed it too)
        else:
            try:
                value = _core.to_tensor(value, spec.dtype.as_datatype_enum, True)
                ok = spec.shape.is_compatible_with(value.shape)
            except (TypeError, ValueError):
                ok = False
        if not ok:
            given = TensorSpec(value.shape, value.dtype) if isinstance(value, Tensor) else value
            raise TypeError(
                "Binding inputs to tf.function failed due to `Can not cast %r to %r`. Received args: "
                "%r and kwargs: {} for signature: %s." % (given, spec, tuple(arguments.values()),
                                                          _signature_text(signature)))
        return value

    for param_name, spec, position in _signature_slots(signature, input_signature):
        if position is None:
            arguments[param_name] = cast(arguments[param_name], spec)
        elif position < len(arguments[param_name]):
            values = list(arguments[param_name])
            values[position] = cast(values[position], spec)
            arguments[param_name] = tuple(values)


@tf_export("function")
def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None,
             name=None, max_traces=None):
    """Compiles a Python function into a callable graph (TensorFlow's tf.function).

    graphfn adds `max_traces`: keep at most that many traces (the oldest are dropped), so a
    function called with ever-new signatures cannot grow without bound."""
    relax = reduce_retracing or bool(experimental_relax_shapes)
    if max_traces is not None and int(max_traces) < 1:
        raise ValueError("max_traces must be a positive integer, got %r" % (max_traces,))

    def decorate(fn):
        return Function(fn, name=name, input_signature=input_signature, autograph=autograph,
                        reduce_retracing=relax, jit_compile=jit_compile, max_traces=max_traces,
                        autograph_options=experimental_autograph_options)

    return decorate if func is None else decorate(func)
