"""Finding and parsing the source of a function, a method, a nested function or a lambda.

The returned node carries the line numbers of the file the function was defined in, so code
compiled from it (after conversion) reports the user's file and lines in tracebacks."""

import ast
import inspect
import linecache
import re
import sys
import textwrap


class SourceUnavailableError(Exception):
    """The function has no retrievable Python source (C function, exec/eval, interactive...)."""


_module_trees = {}  # filename -> (line count, parsed module); for lambdas only


def parse_entity(fn):
    """(ast.FunctionDef or ast.Lambda, source file name) for a Python function."""
    code = fn.__code__
    if code.co_name == "<lambda>":
        return _parse_lambda(code), code.co_filename
    node, block = None, _def_block(code)
    if block is not None:
        try:
            node = _parse_def(*block)
        except SyntaxError:
            pass  # e.g. a string or brackets continued at column 0
    if node is None:  # not a plain indented block: inspect's tokenizer finds where it ends
        try:
            lines, first = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise SourceUnavailableError("could not get source code: %s" % e) from None
        try:
            node = _parse_def(lines, first)
        except SyntaxError:
            # e.g. a def continued from a backslash line: give up like AutoGraph does.
            raise SourceUnavailableError("could not parse the source code of %s" % fn.__qualname__) from None
        if node is None:
            raise SourceUnavailableError("expected a function definition for %s" % fn.__qualname__)
    return node, code.co_filename


def _parse_def(lines, first):
    """The function defined by `lines` (first one numbered `first`), or None; SyntaxError."""
    # Blank lines in front give the nodes the file's line numbers (no ast.increment_lineno walk).
    module = ast.parse("\n" * (first - 1) + textwrap.dedent("".join(lines)))
    node = module.body[0] if module.body else None
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


_DEF = re.compile(r"\s*(async\s+)?def\s")


def _indent(line):
    return len(line) - len(line.lstrip())


def _def_block(code):
    """(lines, first line number) of the def starting at code.co_firstlineno (decorators first),
    read from linecache up to its last line indented deeper than the def; None when the lines
    do not look like that. inspect.getsourcelines gives the same block but tokenizes the file
    to find it, which cost more than the rest of parsing."""
    linecache.checkcache(code.co_filename)  # as inspect does: a file edited since it was read
    lines = linecache.getlines(code.co_filename)
    start = code.co_firstlineno - 1
    if not 0 <= start < len(lines):
        return None
    indent = _indent(lines[start])
    i = start
    while i < len(lines) and lines[i].lstrip().startswith("@") and _indent(lines[i]) == indent:
        i += 1
    if i >= len(lines) or _indent(lines[i]) != indent or not _DEF.match(lines[i]):
        return None
    end = i + 1
    for j in range(i + 1, len(lines)):
        text = lines[j].strip()
        if not text or text.startswith("#"):
            continue
        if _indent(lines[j]) <= indent:
            break
        end = j + 1
    return lines[start:end], start + 1


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


class _Unparser310(getattr(ast, "_Unparser", object)):
    """Python 3.10's unparser, spelling what to_code shows as 3.11+ (and TF's output) does:
    tuple targets without parentheses (`x, = vars_`, `for a, b in ...`), `lambda:` with no
    space. On 3.11+ it matches ast.unparse (a test checks that), and is not used."""

    def visit_Assign(self, node):
        self.set_precedence(ast._Precedence.TUPLE, *node.targets)
        super().visit_Assign(node)

    def visit_For(self, node):
        self.set_precedence(ast._Precedence.TUPLE, node.target)
        super().visit_For(node)

    def visit_AsyncFor(self, node):
        self.set_precedence(ast._Precedence.TUPLE, node.target)
        super().visit_AsyncFor(node)

    def visit_Tuple(self, node):
        with self.delimit_if("(", ")", not node.elts or self.get_precedence(node) > ast._Precedence.TUPLE):
            self.items_view(self.traverse, node.elts)

    def visit_Lambda(self, node):
        with self.require_parens(ast._Precedence.TEST, node):
            arguments = _Unparser310().visit(node.args)
            self.write("lambda " + arguments if arguments else "lambda")
            self.write(": ")
            self.set_precedence(ast._Precedence.TEST, node.body)
            self.traverse(node.body)


def unparse(node):
    if sys.version_info >= (3, 11):
        return ast.unparse(node)
    return _Unparser310().visit(node)
