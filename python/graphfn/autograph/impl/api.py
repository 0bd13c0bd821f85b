"""The conversion entry points: converted_call (what every call in converted code goes
through), the wrapper graphfn.function traces, to_graph / to_code, do_not_convert."""

import functools
import inspect
import logging
import threading
import types
import weakref

from graphfn.autograph.impl import config, conversion, error_utils
from graphfn.autograph.operators import control_flow, exceptions, logical, py_builtins, variables
from graphfn.autograph.pyct import parser

_logger = logging.getLogger("graphfn.autograph")


class ConversionOptions:
    """How to convert: `recursive` converts callees too; `user_requested` converts even library
    code (the function handed to graphfn.function)."""

    __slots__ = ("recursive", "user_requested", "optional_features", "internal_convert_user_code", "features")

    def __init__(self, recursive=False, user_requested=False, optional_features=(), internal_convert_user_code=True):
        self.recursive = recursive
        self.user_requested = user_requested
        self.optional_features = optional_features
        self.internal_convert_user_code = internal_convert_user_code
        self.features = conversion.Features(optional_features) if optional_features else conversion.NO_FEATURES

    def call_options(self):
        """The options for functions called from converted code (callees get the same features)."""
        return ConversionOptions(self.recursive, False, self.optional_features, self.internal_convert_user_code)

    def __repr__(self):
        return "ConversionOptions[recursive=%s, user_requested=%s, optional_features=%s]" % (
            self.recursive, self.user_requested, self.optional_features)


STD = ConversionOptions(recursive=True)


class FunctionScope:
    """The `with` block around every converted function body; `ret` turns "never returned"
    into None."""

    __slots__ = ("name", "scope_name", "options", "callopts")

    def __init__(self, function_name, scope_name, options):
        self.name = function_name
        self.scope_name = scope_name
        self.options = options
        self.callopts = options.call_options()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def ret(self, value, did_return):
        return None if type(value) is variables.UndefinedReturnValue else value


def autograph_artifact(fn):
    """Marks a function defined in converted code (already converted: called as-is)."""
    try:
        fn.__ag_do_not_convert__ = True
    except AttributeError:
        pass
    return fn


# Control status: do_not_convert disables conversion for everything it calls ----------------------

_status = threading.local()


def _disabled():
    return getattr(_status, "disabled", 0) > 0


def do_not_convert(func=None):
    """Runs `func` as written: neither it nor anything it calls is converted."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _status.disabled = getattr(_status, "disabled", 0) + 1
        try:
            return func(*args, **kwargs)
        finally:
            _status.disabled -= 1

    wrapper.__ag_do_not_convert__ = True
    return wrapper


# Conversion -----------------------------------------------------------------------------------------

_instances = weakref.WeakKeyDictionary()  # original function -> converted function
_warned = set()


def convert_function(fn, features=conversion.NO_FEATURES):
    """The converted version of a plain Python function (cached)."""
    if features.names:  # rare: only the code is cached
        return conversion.instantiate(conversion.convert(fn, features), fn, AG_MODULE)
    converted = _instances.get(fn)
    if converted is None:
        converted = conversion.instantiate(conversion.convert(fn), fn, AG_MODULE)
        try:
            _instances[fn] = converted
        except TypeError:
            pass
    return converted


def _conversion_failed(fn, error):
    if config.strict() or isinstance(error, RecursionError):
        raise error
    key = getattr(fn, "__code__", fn)
    if key in _warned:
        return
    _warned.add(key)
    _logger.warning(
        "AutoGraph could not transform %s and will run it as-is.\nCause: %s\nTo silence this warning, decorate "
        "the function with @graphfn.autograph.experimental.do_not_convert", fn, error)


def _unwrap(f):
    """(function to convert, object to bind as self or None), or (None, None) to call as-is."""
    if inspect.ismethod(f):
        func = f.__func__
        return (func, f.__self__) if isinstance(func, types.FunctionType) else (None, None)
    if isinstance(f, types.FunctionType):
        return f, None
    if not isinstance(f, type) and not isinstance(f, types.BuiltinFunctionType):
        call = getattr(type(f), "__call__", None)
        if isinstance(call, types.FunctionType):
            return call, f
    return None, None


def converted_call(f, args, kwargs, caller_fscope=None, options=None):
    """Calls f(*args, **kwargs), converting f first when it is user code."""
    if kwargs is None:
        kwargs = {}
    if options is None:
        options = caller_fscope.callopts if caller_fscope is not None else STD
    # Tracing calls library functions (tf.matmul, ...) on every op: decided once per callable.
    try:
        call_as_is = not options.user_requested and f in _CALL_AS_IS
        overload = None if call_as_is else py_builtins.BUILTIN_OVERLOADS.get(f)
    except TypeError:  # unhashable callable
        call_as_is, overload = False, None
    if call_as_is:
        return f(*args, **kwargs)
    if overload is not None:
        return overload(*args, **kwargs)
    if conversion.is_generated(f) or getattr(f, "__ag_do_not_convert__", False):
        return f(*args, **kwargs)
    if not options.recursive and not options.user_requested or _disabled():
        return f(*args, **kwargs)
    if isinstance(f, functools.partial):
        return converted_call(f.func, f.args + tuple(args), {**f.keywords, **kwargs}, caller_fscope, options)
    target, bound_self = _unwrap(f)
    if target is None or conversion.is_generated(target) or getattr(target, "__ag_do_not_convert__", False):
        return f(*args, **kwargs)
    if not options.user_requested and config.is_library(target):
        if target is f:
            _CALL_AS_IS.add(f)
        return f(*args, **kwargs)
    if target.__code__.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR | inspect.CO_COROUTINE):
        _conversion_failed(target, NotImplementedError("generators are not supported"))
        return f(*args, **kwargs)
    try:
        converted = convert_function(target, options.features)
    except (parser.SourceUnavailableError, Exception) as e:  # noqa: B014 - any conversion failure
        _conversion_failed(target, e)
        return f(*args, **kwargs)
    if bound_self is not None:
        return converted(bound_self, *args, **kwargs)
    return converted(*args, **kwargs)


# Plain library functions seen by converted_call, which calls them unconverted. Weak: a function
# that goes away is forgotten.
_CALL_AS_IS = weakref.WeakSet()
_entries = threading.local()  # .depth: converted entry points running on this thread


# Entry points ------------------------------------------------------------------------------------------

def tf_convert(f, optional_features=None):
    """What graphfn.function traces when autograph=True: f converted (even if it is library
    code), with errors raised while it runs rewritten to name the user's code."""
    options = ConversionOptions(recursive=True, user_requested=True, optional_features=optional_features)

    @functools.wraps(f)
    def converted_entry(*args, **kwargs):
        depth = getattr(_entries, "depth", 0)
        _entries.depth = depth + 1
        try:
            return converted_call(f, args, kwargs, options=options)
        except Exception as e:  # noqa: BLE001 - re-raised, possibly with a rewritten message
            if depth and isinstance(e, RecursionError):
                raise  # the outermost entry lists every level of the recursion, as TF does
            new = error_utils.rewrite(e)
            if new is None:
                raise
            raise new.with_traceback(e.__traceback__) from None
        finally:
            _entries.depth = depth

    return converted_entry


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The converted version of a Python function or method (graphfn.autograph.to_graph)."""
    target, bound_self = _unwrap(entity)
    if target is None:
        raise ValueError("Expected a Python function or method, got %r" % (entity,))
    converted = convert_function(target, conversion.Features(experimental_optional_features))
    if bound_self is not None:
        return types.MethodType(converted, bound_self)
    return converted


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The generated source of the converted function, as a string."""
    entity = getattr(entity, "python_function", entity)  # a graphfn.function: the function it traces
    target, _ = _unwrap(entity)
    if target is None:
        raise ValueError("Expected a Python function or method, got %r" % (entity,))
    return conversion.source(target, conversion.Features(experimental_optional_features))


# The `ag__` namespace generated code refers to (it lives here because converted_call, which
# generated code calls, instantiates newly converted functions with it).
AG_MODULE = types.ModuleType("ag__", "AutoGraph's runtime helpers, as seen by generated code.")
for _name, _value in {
    "converted_call": converted_call, "FunctionScope": FunctionScope,
    "ConversionOptions": ConversionOptions, "STD": STD,
    "if_stmt": control_flow.if_stmt, "while_stmt": control_flow.while_stmt, "for_stmt": control_flow.for_stmt,
    "if_exp": control_flow.if_exp, "and_": logical.and_, "or_": logical.or_, "not_": logical.not_,
    "assert_stmt": exceptions.assert_stmt, "Feature": conversion.Feature,
    "ld": variables.ld, "autograph_artifact": autograph_artifact, "Undefined": variables.Undefined, "UndefinedReturnValue": variables.UndefinedReturnValue,
}.items():
    setattr(AG_MODULE, _name, _value)
