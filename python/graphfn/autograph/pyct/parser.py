"""Finding and parsing the source of a function, a method, a nested function or a lambda.

The returned node carries the line numbers of the file the function was defined in, so code
compiled from it (after conversion) reports the user's file and lines in tracebacks."""

import ast
import inspect
import linecache
import textwrap


class SourceUnavailableError(Exception):
    """The function has no retrievable Python source (C function, exec/eval, interactive...)."""


_module_trees = {}  # filename -> (line count, parsed module); for lambdas only


def parse_entity(fn):
    """(ast.FunctionDef or ast.Lambda, source file name) for a Python function."""
    code = fn.__code__
    if code.co_name == "<lambda>":
        return _parse_lambda(code), code.co_filename
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise SourceUnavailableError("could not get source code: %s" % e) from None
    source = textwrap.dedent("".join(lines))
    try:
        module = ast.parse(source)
    except SyntaxError:
        # e.g. a def continued from a backslash line: give up like AutoGraph does.
        raise SourceUnavailableError("could not parse the source code of %s" % fn.__qualname__) from None
    node = module.body[0] if module.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise SourceUnavailableError("expected a function definition for %s" % fn.__qualname__)
    ast.increment_lineno(node, first - 1)
    return node, code.co_filename


def _parse_lambda(code):
    """The Lambda node starting at the code object's first line whose parameters match."""
    filename = code.co_filename
    lines = linecache.getlines(filename)
    if not lines:
        raise SourceUnavailableError("could not get source code of the lambda")
    cached = _module_trees.get(filename)
    if cached is None or cached[0] != len(lines):
        try:
            cached = (len(lines), ast.parse("".join(lines)))
        except SyntaxError:
            raise SourceUnavailableError("could not parse the source of the lambda") from None
        _module_trees[filename] = cached
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    found = [n for n in ast.walk(cached[1]) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno
             and tuple(a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs) == params]
    if len(found) != 1:
        raise SourceUnavailableError(
            "could not identify the source of the lambda (%d candidates on line %d)" % (len(found), code.co_firstlineno))
    return found[0]


def unparse(node):
    return ast.unparse(node)
