"""Source-to-source conversion of one function: parse, run the converters, compile.

The result is cached per code object (and options): later conversions of the same code only
build a new function object around the cached code, with the original globals, defaults and
closure cells. The generated code keeps the user's file name and line numbers, so tracebacks
and AutoGraph's error rewriting point at the user's source."""

import ast
import enum
import gc
import linecache
import threading
import types
import weakref

from graphfn.autograph.converters import (asserts, base, break_statements, call_trees, conditional_expressions,
                                          continue_statements, control_flow, directives, functions,
                                          logical_expressions, return_statements, unsupported_features,
                                          variables)
from graphfn.autograph.pyct import naming, parser, traversal

TOP_OPTIONS = ("ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=%s, "
               "internal_convert_user_code=True)")
NESTED_OPTIONS = "ag__.STD"

_PIPELINE = (unsupported_features, directives, break_statements, continue_statements, return_statements,
             call_trees, conditional_expressions, logical_expressions, variables, control_flow)
_WITH_ASSERTS = _PIPELINE[:3] + (asserts,) + _PIPELINE[3:]  # TF converts asserts right after breaks


class Converted:
    """A converted code object and how to rebuild functions from it. `source` (the generated
    text) is made on the first to_code: most conversions never need it."""

    __slots__ = ("code", "source", "name")

    def __init__(self, code, name):
        self.code, self.source, self.name = code, None, name


# user code object -> Converted; weak, so code that is gone (a re-run notebook cell) is dropped.
# Conversions with optional features: user code object -> {features: Converted}.
_cache = weakref.WeakKeyDictionary()
_featured_cache = weakref.WeakKeyDictionary()
_lock = threading.Lock()


class GeneratedCode:
    """What error rewriting needs to know about a generated code object: the user function name
    its frames show, the code object of the conversion it belongs to (TF shows one frame per
    conversion), and for a converted lambda the lambda's own source text (TF shows that, not
    the whole line)."""

    __slots__ = ("display", "root", "lambda_text")

    def __init__(self, display, root, lambda_text):
        self.display, self.root, self.lambda_text = display, root, lambda_text


# code objects of generated functions -> GeneratedCode
generated_code = weakref.WeakKeyDictionary()


def _convert_function(node, namer, top, display_name, generated, features):
    if top:  # the top function gets the plain names, nested ones numbered copies (as in TF)
        for name in ("fscope", "do_return", "retval_"):
            namer.reserve(name)
    fscope = "fscope" if top else namer.new("fscope")
    ctx = base.Context(namer, TOP_OPTIONS % features.source if top else NESTED_OPTIONS, fscope, top)
    for child in _direct_nested_functions(node):
        _convert_function(child, namer, False, child.name, generated, features)
    for converter in _WITH_ASSERTS if features.uses("ASSERT_STATEMENTS") else _PIPELINE:
        converter.transform(node, ctx)
    functions.transform(node, ctx, display_name)
    generated |= ctx.internal


def _direct_nested_functions(node):
    stack = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield n
        elif not isinstance(n, (ast.Lambda, ast.ClassDef)):
            stack.extend(traversal.iter_block_items(n))  # a def is a statement


def _lambda_as_function(node):
    fn = ast.FunctionDef(name="lam", args=node.args, body=[ast.copy_location(ast.Return(value=node.body), node)], decorator_list=[],
                         returns=None, type_comment=None)
    return ast.copy_location(fn, node)


class Feature(enum.Enum):
    """Optional conversions (TF's names), for graphfn.function's experimental_autograph_options
    and to_code/to_graph's experimental_optional_features. ASSERT_STATEMENTS (or ALL) turns
    `assert` on a tensor into tf.debugging.Assert; the others are accepted and change nothing."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


class Features:
    """The optional features a conversion uses (TF's autograph.experimental.Feature), as given:
    one Feature or a sequence of them. `source` is how generated code spells them."""

    __slots__ = ("given", "names", "source")

    def __init__(self, given=None):
        if given is None:
            given = ()
        single = not isinstance(given, (tuple, list, set, frozenset))
        members = (given,) if single else tuple(given)
        self.given = given
        self.names = frozenset(getattr(m, "name", str(m)) for m in members)
        spelled = ["ag__.Feature.%s" % getattr(m, "name", m) for m in members]
        self.source = spelled[0] if single else "(%s)" % "".join(s + ", " for s in spelled)  # unparsed as (a,)

    def uses(self, name):
        return name in self.names or "ALL" in self.names


NO_FEATURES = Features()


def convert(fn, features=NO_FEATURES):
    """The Converted entry for a Python function (parsing and transforming on a cache miss)."""
    code = fn.__code__
    if not features.names:
        entry = _cache.get(code)
        if entry is not None:
            return entry
    with _lock:
        if not features.names:
            cache = _cache
            entry = cache.get(code)
            if entry is None:
                entry = cache[code] = _convert_code(fn, features)
            return entry
        per_code = _featured_cache.setdefault(code, {})
        entry = per_code.get(features.names)
        if entry is None:
            entry = per_code[features.names] = _convert_code(fn, features)
    return entry


def source(fn, features=NO_FEATURES):
    """The generated source of fn's conversion. Converting again is cheaper than keeping every
    converted tree around for a rare to_code."""
    entry = convert(fn, features)
    if entry.source is None:
        with _lock:
            entry.source = parser.unparse(_transform(fn, features)[0]) + "\n"
    return entry.source


def _transform(fn, features):
    """(converted FunctionDef, file name, names of the generated functions)."""
    base.pending_fillers.clear()  # left over by a conversion that failed
    node, filename = parser.parse_entity(fn)
    display_name = fn.__name__
    lambda_text = None
    if isinstance(node, ast.Lambda):
        lambda_text = _source_segment(filename, node)
        node, display_name = _lambda_as_function(node), "lam"
    namer = naming.Namer(node)
    if any(n.startswith("ag__") and n != "ag__" for n in namer.name_ids):
        raise base.UnsupportedLanguageElementError("names starting with ag__ are reserved")
    generated = set()
    _convert_function(node, namer, True, display_name, generated, features)
    return node, filename, generated, lambda_text


def _source_segment(filename, node):
    """The text of `node` on its first line (ast offsets count UTF-8 bytes)."""
    line = linecache.getline(filename, node.lineno).encode()
    end = node.end_col_offset if node.end_lineno == node.lineno else len(line)
    return line[node.col_offset:end].decode(errors="replace").strip()


def _convert_code(fn, features):
    # A conversion allocates thousands of AST nodes that form no reference cycles: pausing the
    # cyclic collector saves its repeated scans of them (about a tenth of the time).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _convert_code_unpaused(fn, features)
    finally:
        if paused:
            gc.enable()


def _convert_code_unpaused(fn, features):
    node, filename, generated, lambda_text = _transform(fn, features)
    freevars = fn.__code__.co_freevars

    def at_function(new):  # the wrapper's nodes all take the converted function's location
        return ast.copy_location(new, node)

    factory = ast.FunctionDef(
        name="ag__factory", body=[node, at_function(ast.Return(value=at_function(ast.Name(id=node.name, ctx=ast.Load()))))],
        args=ast.arguments(posonlyargs=[], args=[at_function(ast.arg(arg=a)) for a in ("ag__",) + freevars],
                           vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        decorator_list=[], returns=None, type_comment=None)
    module = ast.Module(body=[at_function(factory)], type_ignores=[])
    traversal.fix_missing_locations(module, bool(base.pending_fillers))
    factory_code = compile(module, filename, "exec").co_consts[0]
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)
    # TF names a converted lambda's frames "None"
    _register(inner, "None" if lambda_text is not None else fn.__name__, generated, inner, lambda_text)
    return Converted(inner, node.name)


def _register(code, display, generated, root, lambda_text):
    generated_code[code] = GeneratedCode(display, root, lambda_text)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            name = const.co_name
            _register(const, display if name in generated or name == "<lambda>" else name, generated, root,
                      lambda_text)


def instantiate(entry, fn, ag_module):
    """A function running the converted code with fn's globals, defaults and closure."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(ag_module)
    closure = tuple(cells[name] for name in entry.code.co_freevars)
    new = types.FunctionType(entry.code, fn.__globals__, entry.name, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


def is_generated(fn):
    code = getattr(fn, "__code__", None)
    return code is not None and code in generated_code
