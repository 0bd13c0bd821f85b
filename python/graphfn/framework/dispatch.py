"""Type-based dispatch for TF's public APIs: `tf.math.add(ragged, 1)` runs the RaggedTensor
version. This is TF's mechanism (tf.experimental.dispatch_for_api and the element-wise
decorators), and graphfn's RaggedTensor registers through it like any user type.

An API starts dispatching only once something registers for it (so `import graphfn` and
programs without composite types pay nothing). Registering turns the API's own function object
into a dispatching one (see _redirect), so a reference taken before the registration (`f =
tf.reduce_sum` before the first RaggedTensor loads the ragged modules) dispatches too. When an
argument is an instance of a registered type, the handlers are tried, newest first; otherwise,
or when every handler returns NotImplemented, the API's plain body runs as usual."""

import collections.abc
import functools
import sys
import types

from graphfn.util import tf_export as tf_export_lib
from graphfn.util.tf_export import tf_export

# TF's element-wise API lists (graphfn has most of these names; missing ones are skipped).
UNARY_ELEMENTWISE_APIS = (
    "bitwise.invert", "cast", "clip_by_value", "debugging.check_numerics", "dtypes.saturate_cast",
    "image.adjust_brightness", "image.adjust_gamma", "image.convert_image_dtype", "math.abs", "math.acos",
    "math.acosh", "math.angle", "math.asin", "math.asinh", "math.atan", "math.atanh", "math.bessel_i0",
    "math.bessel_i0e", "math.bessel_i1", "math.bessel_i1e", "math.ceil", "math.conj", "math.cos", "math.cosh",
    "math.digamma", "math.erf", "math.erfc", "math.erfcinv", "math.erfinv", "math.exp", "math.expm1", "math.floor",
    "math.imag", "math.is_finite", "math.is_inf", "math.is_nan", "math.lgamma", "math.log", "math.log1p",
    "math.log_sigmoid", "math.logical_not", "math.ndtri", "math.negative", "math.real", "math.reciprocal",
    "math.reciprocal_no_nan", "math.rint", "math.round", "math.rsqrt", "math.sigmoid", "math.sign", "math.sin",
    "math.sinh", "math.softplus", "math.sqrt", "math.square", "math.tan", "math.tanh", "nn.elu", "nn.gelu",
    "nn.leaky_relu", "nn.log_softmax", "nn.relu", "nn.relu6", "nn.selu", "nn.silu", "nn.softsign", "ones_like",
    "strings.as_string", "strings.length", "strings.lower", "strings.regex_full_match", "strings.regex_replace",
    "strings.strip", "strings.substr", "strings.to_hash_bucket", "strings.to_hash_bucket_fast",
    "strings.to_hash_bucket_strong", "strings.to_number", "strings.unicode_script", "strings.unicode_transcode",
    "strings.upper", "zeros_like")
BINARY_ELEMENTWISE_APIS = (
    "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.left_shift", "bitwise.right_shift",
    "dtypes.complex", "math.add", "math.atan2", "math.divide", "math.divide_no_nan", "math.equal", "math.floordiv",
    "math.floormod", "math.greater", "math.greater_equal", "math.less", "math.less_equal", "math.logical_and",
    "math.logical_or", "math.logical_xor", "math.maximum", "math.minimum", "math.multiply", "math.multiply_no_nan",
    "math.not_equal", "math.pow", "math.scalar_mul", "math.squared_difference", "math.subtract", "math.truediv",
    "math.xdivy", "math.xlog1py", "math.xlogy", "math.zeta", "nn.sigmoid_cross_entropy_with_logits")

_dispatch_types = ()     # classes whose instances make a wrapped API look for a handler
_api_handlers = {}       # API (the original function) -> [(matcher, handler)], oldest first
_unary_handlers = []     # [(x type, handler)]
_binary_handlers = []    # [(x type, y type, handler)]
_wrappers = {}           # original API -> its dispatching wrapper
_originals = {}          # wrapper -> original API
_signatures = {}         # original API -> inspect.Signature
_unary_apis = set()
_binary_apis = set()


_plain = {}              # API redirected in place -> a copy of its plain body


def original_api(api):
    """The API itself (the key of the tables above), given it or its wrapper."""
    return _originals.get(api, api)


def plain_api(api):
    """A callable running `api` without dispatch."""
    api = _originals.get(api, api)
    return _plain.get(api, api)


def _add_dispatch_types(types):
    global _dispatch_types
    new = tuple(t for t in types if isinstance(t, type) and t not in _dispatch_types and t is not object)
    _dispatch_types = _dispatch_types + new
    _type_is_dispatched.clear()
    _type_needs_look.clear()


_type_is_dispatched = {}  # argument type -> whether it is (a subclass of) a registered type
_type_needs_look = {}     # argument type -> whether a wrapper must look closer (a registered type, a list)


def _dispatched(value):
    t = type(value)
    answer = _type_is_dispatched.get(t)
    if answer is None:
        answer = _type_is_dispatched[t] = issubclass(t, _dispatch_types)
        _type_needs_look[t] = answer or t in (list, tuple)
    return answer


def _has_dispatch_type(args, kwargs):
    """Whether an argument, or an element of a list or tuple argument, has a registered type."""
    for value in args:
        if _dispatched(value) or (type(value) in (list, tuple) and any(_dispatched(v) for v in value)):
            return True
    for value in kwargs.values():
        if _dispatched(value) or (type(value) in (list, tuple) and any(_dispatched(v) for v in value)):
            return True
    return False


def _signature(api):
    sig = _signatures.get(api)
    if sig is None:
        import inspect  # lazily: `import graphfn` does not load inspect

        sig = _signatures[api] = inspect.signature(api)
    return sig


def _dispatch(api, args, kwargs):
    for matcher, handler in reversed(_api_handlers.get(api, ())):
        if matcher(args, kwargs):
            result = handler(*args, **kwargs)
            if result is not NotImplemented:
                return result
    if api in _unary_apis or api in _binary_apis:
        try:
            bound = _signature(api).bind(*args, **kwargs)
        except TypeError:
            return NotImplemented
        names = list(bound.arguments)
        if api in _unary_apis and names:
            x = bound.arguments.pop(names[0])
            for x_type, handler in reversed(_unary_handlers):
                if isinstance(x, x_type):
                    result = handler(functools.partial(plain_api(api), **bound.arguments), x)
                    if result is not NotImplemented:
                        return result
        elif api in _binary_apis and len(names) >= 2:
            x, y = bound.arguments.pop(names[0]), bound.arguments.pop(names[1])
            for x_type, y_type, handler in reversed(_binary_handlers):
                if isinstance(x, x_type) and isinstance(y, y_type):
                    result = handler(functools.partial(plain_api(api), **bound.arguments), x, y)
                    if result is not NotImplemented:
                        return result
    return NotImplemented


def _wrap(api):
    """Makes `api` dispatch, once: a Python function is redirected in place (its identity, and
    every reference to it, stay); other callables get a wrapper that takes over their public
    names (tf.add, tf.math.add)."""
    api = original_api(api)
    if api in _wrappers:
        return _wrappers[api]
    redirect = type(api) is types.FunctionType
    plain = _copy_function(api) if redirect else api

    def look_closer(args, kwargs):
        if _has_dispatch_type(args, kwargs):
            result = _dispatch(api, args, kwargs)
            if result is not NotImplemented:
                return result
        return plain(*args, **kwargs)

    if redirect:
        _plain[api] = plain
        _redirect(api, plain, look_closer)
        _wrappers[api] = api
        return api

    needs_look = _type_needs_look.get

    @functools.wraps(api)
    def wrapper(*args, **kwargs):
        for value in args:  # as the trampoline of _redirect
            if needs_look(type(value), True):
                break
        else:
            if not kwargs:
                return plain(*args)
        return look_closer(args, kwargs)

    _wrappers[api] = wrapper
    _originals[wrapper] = api
    _publish(api, wrapper)
    return wrapper


def _copy_function(function):
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                              function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__dict__.update(function.__dict__)
    copy.__qualname__ = function.__qualname__
    copy.__doc__ = function.__doc__
    copy.__module__ = function.__module__
    return copy


# The code a redirected API runs. Its globals are the API's module, so what it needs comes as
# keyword-only defaults. The common call (tensors and Python scalars) costs one dict lookup per
# argument before the plain body runs; other calls go to `look_closer`.
_TRAMPOLINE = """
def outer():
    %(free)s = None
    def trampoline(*args, _graphfn_plain=None, _graphfn_needs_look=None, _graphfn_look_closer=None, **kwargs):
        for value in args:
            if _graphfn_needs_look(type(value), True):
                break
        else:
            if not kwargs:
                return _graphfn_plain(*args)
        return _graphfn_look_closer(args, kwargs)
        %(uses)s
    return trampoline
"""
_trampolines = {}  # number of closure cells -> the trampoline's code


def _trampoline_code(free_count):
    """A function's code can only be swapped for code with as many free variables as the
    function has closure cells, so the trampoline names `free_count` unused ones."""
    code = _trampolines.get(free_count)
    if code is None:
        names = ["_free%d" % i for i in range(free_count)]
        namespace = {}
        exec(_TRAMPOLINE % {"free": " = ".join(names + ["_unused"]),  # noqa: S102 (fixed text)
                            "uses": ", ".join(names) or "pass"}, namespace)
        code = _trampolines[free_count] = namespace["outer"]().__code__
    return code


def _redirect(function, plain, look_closer):
    """Makes `function` (a Python function) dispatch in place, keeping the function object, its
    name, signature and docs, so that references taken earlier dispatch too."""
    import inspect  # lazily: `import graphfn` does not load inspect

    signature = inspect.signature(function)
    old = function.__code__
    function.__code__ = _trampoline_code(len(old.co_freevars)).replace(
        co_name=old.co_name, co_qualname=old.co_qualname, co_filename=old.co_filename,
        co_firstlineno=old.co_firstlineno)
    function.__kwdefaults__ = {"_graphfn_plain": plain, "_graphfn_needs_look": _type_needs_look.get,
                               "_graphfn_look_closer": look_closer}
    function.__signature__ = signature


def _publish(api, wrapper):
    """Puts `wrapper` wherever `api` is exported (the table, and the namespaces if built)."""
    package = sys.modules.get("graphfn")
    for i, (name, obj) in enumerate(tf_export_lib._EXPORTS):
        if obj is not api:
            continue
        tf_export_lib._EXPORTS[i] = (name, wrapper)
        *path, leaf = name.split(".")
        namespace = package
        for part in path:
            namespace = None if namespace is None else vars(namespace).get(part)
        if namespace is not None and vars(namespace).get(leaf) is api:
            setattr(namespace, leaf, wrapper)


def exported_api(name):
    """The function exported as tf.<name> (its original, if dispatch wrapped it), or None."""
    for exported, obj in tf_export_lib._EXPORTS:
        if exported == name:
            return original_api(obj)
    return None


def _elementwise_apis(names):
    apis = []
    for name in names:
        api = exported_api(name)
        if api is not None and callable(api) and api not in apis:
            apis.append(api)
    return apis


def register_unary_elementwise(x_type, handler):
    """graphfn's own element-wise registration (RaggedTensor uses it)."""
    types = x_type if isinstance(x_type, tuple) else (x_type,)
    _add_dispatch_types(types)
    _unary_handlers.append((x_type, handler))
    for api in _elementwise_apis(UNARY_ELEMENTWISE_APIS):
        _unary_apis.add(api)
        _wrap(api)


def register_binary_elementwise(x_type, y_type, handler):
    _add_dispatch_types((x_type if isinstance(x_type, tuple) else (x_type,))
                        + (y_type if isinstance(y_type, tuple) else (y_type,)))
    _binary_handlers.append((x_type, y_type, handler))
    for api in _elementwise_apis(BINARY_ELEMENTWISE_APIS):
        _binary_apis.add(api)
        _wrap(api)


def register_api(api, handler, matcher, types):
    """Runs `handler` for calls of `api` that `matcher(args, kwargs)` accepts."""
    api = original_api(api)
    _add_dispatch_types(types)
    _api_handlers.setdefault(api, []).append((matcher, handler))
    return _wrap(api)


# Type annotations as matchers (TF accepts types, Union, Optional, List, Tuple, Iterable) ----

def _annotation_types(annotation):
    import typing  # noqa: PLC0415 (lazily: `import graphfn` does not need it)
    origin = typing.get_origin(annotation)
    if origin is None:
        return (annotation,) if isinstance(annotation, type) else ()
    return tuple(t for arg in typing.get_args(annotation) for t in _annotation_types(arg))


def _matches(value, annotation):
    import typing  # noqa: PLC0415 (lazily: `import graphfn` does not need it)
    origin = typing.get_origin(annotation)
    if origin is None:
        if annotation is None or annotation is type(None):
            return value is None
        return isinstance(value, annotation) if isinstance(annotation, type) else False
    args = typing.get_args(annotation)
    if origin is typing.Union:
        return any(_matches(value, a) for a in args)
    if origin in (list, tuple, collections.abc.Iterable, collections.abc.Sequence):
        if not isinstance(value, (list, tuple)):
            return False
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return len(args) == len(value) and all(_matches(v, a) for v, a in zip(value, args))
        element = args[0] if args else object
        return all(_matches(v, element) for v in value)
    return False


def _signature_matcher(api, signature):
    api_signature = _signature(api)

    def matcher(args, kwargs):
        try:
            bound = api_signature.bind(*args, **kwargs)
        except TypeError:
            return False
        return all(_matches(bound.arguments.get(name), annotation) for name, annotation in signature.items())

    return matcher


@tf_export("experimental.dispatch_for_api")
def dispatch_for_api(api, *signatures):
    """Decorator: the decorated function handles calls of `api` whose arguments match one of
    `signatures` ({parameter name: type annotation}), or its own parameter annotations."""
    api = original_api(api)
    if api is None or not callable(api):
        raise ValueError("%s does not support dispatch." % (api,))

    def decorator(dispatch_target):
        import inspect  # lazily: `import graphfn` does not load inspect

        api_params = list(_signature(api).parameters)
        target_signature = inspect.signature(dispatch_target)
        target_params = list(target_signature.parameters)
        if target_params != api_params[:len(target_params)] or any(
                p not in target_params and _signature(api).parameters[p].default is inspect.Parameter.empty
                for p in api_params):
            raise ValueError("Dispatch function's signature %s does not match API's signature %s."
                             % (target_signature, _signature(api)))
        sigs = list(signatures)
        if not sigs:
            annotated = {name: p.annotation for name, p in target_signature.parameters.items()
                         if p.annotation is not inspect.Parameter.empty}
            if not annotated:
                raise ValueError("The dispatch_for_api decorator must be called with at least one signature, or "
                                 "applied to a function that has type annotations on its parameters.")
            sigs = [annotated]
        for sig in sigs:
            for name in sig:
                if name not in api_params:
                    raise ValueError("Dispatch signature has a parameter %r that is not in the API's signature %s."
                                     % (name, _signature(api)))
            types = tuple(t for annotation in sig.values() for t in _annotation_types(annotation))
            register_api(api, dispatch_target, _signature_matcher(api, sig), types)
        return dispatch_target

    return decorator


@tf_export("experimental.dispatch_for_unary_elementwise_apis")
def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: `handler(api_func, x)` runs for every unary element-wise API called with an x
    of `x_type` (api_func has the call's other arguments bound)."""
    x_types = _annotation_types(x_type) or (x_type,)

    def decorator(handler):
        register_unary_elementwise(tuple(x_types), handler)
        return handler

    return decorator


@tf_export("experimental.dispatch_for_binary_elementwise_apis")
def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: `handler(api_func, x, y)` runs for every binary element-wise API whose x and y
    match x_type and y_type."""
    x_types = _annotation_types(x_type) or (x_type,)
    y_types = _annotation_types(y_type) or (y_type,)

    def decorator(handler):
        register_binary_elementwise(tuple(x_types), tuple(y_types), handler)
        return handler

    return decorator


@tf_export("experimental.unregister_dispatch_for")
def unregister_dispatch_for(dispatch_target):
    """Removes every registration of `dispatch_target` made by the decorators above."""
    found = False
    for api, handlers in _api_handlers.items():
        kept = [(m, h) for m, h in handlers if h is not dispatch_target]
        found = found or len(kept) != len(handlers)
        _api_handlers[api] = kept
    for table in (_unary_handlers, _binary_handlers):
        kept = [entry for entry in table if entry[-1] is not dispatch_target]
        found = found or len(kept) != len(table)
        table[:] = kept
    if not found:
        raise ValueError("Function %s was not registered using a `@dispatch_for_*` decorator." % (dispatch_target,))
