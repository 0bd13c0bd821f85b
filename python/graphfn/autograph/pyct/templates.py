"""Code templates: snippets with placeholder names, instantiated with AST nodes.

    templates.replace("x = fn(a)", x="y", fn=some_expr_node, a=[node1, node2])

A string value renames the placeholder (keeping its Load/Store context, also for a `def` name
and its parameters); an expression node replaces it; a list of statements replaces an
expression statement made of the placeholder; a list of names fills a `nonlocal`/`global`
placeholder. Generated nodes get no location (base.located gives them the user's line).

Each template source is parsed once; every use builds fresh nodes from the cached tree in one
walk, substituting as it copies. Keep the variable parts of a snippet in placeholders, not in
the source text, or each new name costs a parse."""

import ast
import copy

_AST = ast.AST
_STMT_LISTS = ("body", "orelse", "finalbody")
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")
_parsed = {}  # source -> statements (only read: uses get copies)
_parsed_expressions = {}  # source -> expression node, with its locations


def _template(source):
    body = _parsed.get(source)
    if body is None:
        body = _parsed[source] = ast.parse(source).body
    return body


class _Instance:
    """Copies template nodes, applying the substitutions. Copies get no location unless
    keep_location (base.located gives generated code the user's line)."""

    def __init__(self, subs, keep_location=False):
        self.subs = subs
        self.keep_location = keep_location

    def node(self, node):
        """A copy of `node`: a node, a list of statements, or None (an empty nonlocal)."""
        cls = node.__class__
        if not cls._fields:
            # Load, Store, operators: shared singletons, as ast.parse makes them
            return node if not cls._attributes else self._located(cls(), node)
        if cls is ast.Name:
            return self._name(node)
        if cls is ast.Expr and node.value.__class__ is ast.Name and isinstance(self.subs.get(node.value.id), list):
            return self.subs[node.value.id]
        if cls is ast.Nonlocal or cls is ast.Global:
            return self._declaration(node)
        values = []
        for f in cls._fields:
            value = getattr(node, f)
            if value.__class__ is list:
                value = self._list(f, value)
            elif isinstance(value, _AST):
                value = self.node(value)
            values.append(value)  # identifiers and constants are shared
        new = self._located(cls(*values), node)
        if cls is ast.FunctionDef:
            new.name = self.subs.get(node.name, node.name)
            for a in new.args.args:
                a.arg = self.subs.get(a.arg, a.arg)
        return new

    def _located(self, new, node):
        if self.keep_location:
            for attr in _LOCATION:
                setattr(new, attr, getattr(node, attr))
        return new

    def _name(self, node):
        value = self.subs.get(node.id)
        if value is None:
            return self._located(ast.Name(node.id, node.ctx), node)
        if isinstance(value, str):
            return ast.Name(value, node.ctx)
        if isinstance(value, _AST):
            value = copy.copy(value)
            if hasattr(value, "ctx"):
                value.ctx = node.ctx
            return value
        raise ValueError("cannot substitute %r for name %s" % (value, node.id))

    def _declaration(self, node):
        names = []
        for n in node.names:
            value = self.subs.get(n, n)
            names.extend(value if isinstance(value, (list, tuple)) else [value])
        return self._located(node.__class__(names), node) if names else None

    def _list(self, name, value):
        if name in _STMT_LISTS and value and isinstance(value[0], ast.stmt):
            return self.statements(value, name == "body")
        out = []
        for item in value:
            if isinstance(item, _AST):
                r = self.node(item)
                if r is not None:
                    out.extend(r if isinstance(r, list) else [r])
            else:
                out.append(item)
        return out

    def statements(self, stmts, is_body):
        """The copied statements; a `body` emptied by substitutions becomes `pass`."""
        out = []
        for s in stmts:
            r = self.node(s)
            if r is not None:
                out.extend(r if isinstance(r, list) else [r])
        return out or [ast.Pass()] if is_body else out


def replace(source, **subs):
    """The statements of `source` with the substitutions applied (fresh nodes every call)."""
    return _Instance(subs).statements(_template(source), False)


def replace_as_expression(source, **subs):
    stmts = replace(source, **subs)
    return stmts[0].value


def parse_expression(source):
    """A fresh copy of the expression `source`, keeping the locations of its parse (line 1)."""
    node = _parsed_expressions.get(source)
    if node is None:
        node = _parsed_expressions[source] = ast.parse(source, mode="eval").body
    return _Instance({}, keep_location=True).node(node)


def name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def qualified(qn, store=False):
    """The expression for a qualified name (`x`, `self.x`, `d['k']`), as a Load or Store target."""
    if qn.isidentifier():
        return ast.Name(qn, ast.Store() if store else ast.Load())
    node = replace_as_expression(qn)  # `self.x`, `d['k']`: rare, the parse is cached
    if store:
        node.ctx = ast.Store()
    return node


def const(value):
    return ast.Constant(value=value)


def str_tuple(names):
    return ast.Tuple(elts=[const(n) for n in names], ctx=ast.Load())
