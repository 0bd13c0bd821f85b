"""graphfn.function: a Python callable that traces its function into a graph once per input
signature and replays the graph on later calls (TensorFlow's tf.function).

Call path: the C++ call cache (cpp/graphfn/bindings/bind_function.cc) binds the arguments,
builds the call's key and, on a hit, runs the compiled function without entering Python. On a
miss, `Function._call_slow`: bind the arguments like Python -> compute each argument's trace
type -> look the signature up in the trace cache (exact match, else the most specific trace that
accepts it) -> on a miss, trace -> run the concrete function -> offer the call to the C++ cache."""

import functools
import threading
import weakref

from graphfn import _core
from graphfn import context
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import binding
from graphfn.function import retracing
from graphfn.function import trace_cache
from graphfn.function import trace_type as trace_types
from graphfn.function import tracing
from graphfn.util import nest
from graphfn.util import traceback_filter
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable


_ALL_FUNCTIONS = weakref.WeakSet()  # every Function, so observe_calls can empty their C++ caches
_call_observer = None  # tf.summary.trace_on: called with each ConcreteFunction a call runs


def observe_calls(observer):
    """Calls `observer(concrete_function)` for every eager call of a graphfn.function from now on
    (None: stop). While observed, calls take the Python path: the C++ cache is emptied and not
    filled, so no call goes unseen."""
    global _call_observer
    _call_observer = observer
    for function in list(_ALL_FUNCTIONS):
        function._fast_clear()


class Function(_core.FunctionBase):
    """A traced-and-cached version of a Python function; see `graphfn.function`.

    Calls go to the C++ base class first (its cache answers every call whose key it has seen,
    without running Python) and come to `_call_slow` otherwise."""

    # AutoGraph's converted code calls a Function as it is (the Function converts its own Python
    # function when it traces). AutoGraph, the lower layer, reads this marker: it does not
    # import this module.
    __ag_do_not_convert__ = True

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 reduce_retracing=False, jit_compile=None, max_traces=None, autograph_options=None):
        super().__init__()
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        import inspect  # lazily: `import graphfn` does not load inspect

        self._signature = inspect.signature(python_function)
        self._input_signature = _check_input_signature(input_signature)
        self._autograph = autograph
        self._autograph_options = autograph_options  # optional AutoGraph features
        self._converted = None  # the AutoGraph entry point, made on the first trace
        self._reduce_retracing = reduce_retracing
        self._jit_compile = jit_compile
        self._max_traces = max_traces
        self._cache = trace_cache.TraceCache()  # trace key -> ConcreteFunction, oldest first
        self._created_variables = False  # a trace created variables: later ones may not
        self._lock = threading.RLock()
        self._fast_set_signature(_signature_parameters(self._signature))
        functools.update_wrapper(self, python_function)
        _ALL_FUNCTIONS.add(self)

    # Calling -------------------------------------------------------------------------------------

    def _call_slow(self, args, kwargs):
        # (The C++ fast path raises from C++: no graphfn frames to leave out.)
        try:
            return self._call_traced_or_cached(args, kwargs)
        except Exception as e:  # noqa: BLE001 - re-raised, only its traceback shortened
            if not traceback_filter.is_traceback_filtering_enabled():
                raise
            raise e.with_traceback(traceback_filter.without_graphfn_frames(e.__traceback__)) from None

    def _call_traced_or_cached(self, args, kwargs):
        if context.functions_run_eagerly():
            return self._python_function(*args, **kwargs)
        if not context.executing_eagerly():
            # Called while tracing another function: trace this one inline into that graph.
            return self._traced_function()(*args, **kwargs)
        arguments = self._bind(args, kwargs)
        concrete, traced = self._concrete_function_for(arguments)
        retracing.record_call(self._python_function, traced, self._fast_take_hits())
        flat = tracing.flat_call_tensors(arguments)
        if _core.any_tape_recording():
            _watch_variable_arguments(arguments)
        result = concrete._call_flat(flat)
        if _call_observer is not None:
            _call_observer(concrete)
            return result
        # The C++ cache keeps the call's key only if it would feed exactly these tensors.
        _register_call_key_hooks()
        outputs = concrete._output_structure
        if outputs is not None:  # composite results are packed in Python
            self._fast_insert(args, kwargs, flat, concrete._function, outputs, concrete._variables)
        return result

    def get_concrete_function(self, *args, **kwargs):
        """The concrete function for these arguments (tensors, TensorSpecs or Python values),
        tracing it if needed."""
        if self._input_signature is not None and not args and not kwargs:
            args = tuple(self._input_signature)
        return self._concrete_function_for(self._bind(args, kwargs))[0]

    def _bind(self, args, kwargs):
        return binding.bind_arguments(self._signature, self._input_signature, args, kwargs)

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
            concrete = self._cache.get(key) or self._cache.most_specific_match(key)
            if concrete is not None:
                return concrete, False
            if self._reduce_retracing:
                key, arguments = self._generalize(key, arguments)
            retracing.explain(self._name, key, self._cache.keys())
            concrete = self._trace(key, arguments)
            self._evict_for_one_more()
            self._cache[key] = concrete
            return concrete, True

    def _evict_for_one_more(self):
        """max_traces (graphfn only): drop the oldest traces to stay within the bound."""
        if self._max_traces is None:
            return
        while len(self._cache) >= self._max_traces:
            self._cache.pop_oldest()
            self._fast_clear()  # it may hold a plan of the dropped trace

    def _trace(self, key, arguments):
        """Traces under TF's variable-creation rule. Until a trace creates variables, traces may
        create them; the first trace that does is kept apart and the function is traced again
        with creation forbidden (so a variable created unconditionally fails, and `if self.v is
        None:` patterns work). When that trace was not the first, it is TF's error instead."""
        fn = self._traced_function()
        mode = context.SINGLETON_ONLY if self._created_variables else context.ALLOWED
        concrete, variables_created = tracing.trace(fn, self._name, self._signature, arguments, mode)
        if not variables_created:
            return concrete
        first_trace = not self._cache
        self._created_variables = True
        # As TF: the traces made while variables could be created stay apart; calls retrace.
        apart = trace_cache.TraceCache()
        for k, cf in self._cache.items():
            apart[k + _VARIABLE_CREATION] = cf
        self._cache = apart
        self._fast_clear()
        self._cache[key + _VARIABLE_CREATION] = concrete
        if not first_trace:
            raise ValueError("Creating variables on a non-first call to a function decorated with tf.function.")
        return tracing.trace(fn, self._name, self._signature, arguments, context.SINGLETON_ONLY)[0]

    def _traced_function(self):
        """What tracing calls: the AutoGraph-converted function when autograph=True."""
        if not self._autograph:
            return self._python_function
        if self._converted is None:
            from graphfn.autograph.impl import api  # lazily: AutoGraph is loaded on the first trace, not by `import graphfn`
            self._converted = api.tf_convert(self._python_function, self._autograph_options)
        return self._converted

    def _with_signature_specs(self, arguments):
        """input_signature: the parameters it covers are traced (and keyed) as their specs."""
        arguments = dict(arguments)
        for name, spec, position in binding.signature_slots(self._signature, self._input_signature):
            if position is None:
                arguments[name] = spec
            elif position < len(arguments[name]):
                values = list(arguments[name])
                values[position] = spec
                arguments[name] = tuple(values)
        return arguments

    def _generalize(self, key, arguments):
        """reduce_retracing: widen the key to the most specific type shared with an earlier trace."""
        for other in self._cache.same_skeleton(key):
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

    def _list_all_concrete_functions(self):
        """The distinct traces this Function holds, its input_signature's traced first if it has
        one and none exists yet (as TF's, which libraries such as Keras's export call). A trace
        whose only difference is that it created the variables is not listed twice."""
        if self._input_signature is not None and not self._cache:
            self.get_concrete_function()
        out = []
        for key, concrete in list(self._cache.items()):
            first_trace_of_variables = key and key[-1][0] == "<variable creation>"
            if not first_trace_of_variables and all(c is not concrete for c in out):
                out.append(concrete)
        return out

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
    _core.set_call_key_hooks(Variable, Tensor, trace_types.trace_type_for_call_cache)
    _hooks_registered.append(True)

# The key suffix of traces made while variables could still be created (saved/save.py reads it).
_VARIABLE_CREATION = (("<variable creation>", None),)


def _watch_variable_arguments(arguments):
    """Active tapes watch the trainable variables a call passes (TF watches them whether or not
    the function reads them)."""
    for value in arguments.values():
        for leaf in nest.flatten(value):
            if isinstance(leaf, Variable):
                _core.variable_accessed(leaf)  # trainable ones, as created, like TF (Keras may flip `trainable`)




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
    if isinstance(type_, TensorSpec) or trace_types.is_custom(type_):
        return type_  # tracing feeds a TensorSpec a placeholder, a TraceType its placeholder_value
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
        if not isinstance(spec, TensorSpec) and not getattr(spec, "_graphfn_type_spec", False):
            raise TypeError("input_signature must be a possibly nested sequence of TensorSpec objects, got "
                            "invalid args %r with types %r." % (spec, type(spec)))
    return tuple(input_signature)


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
