"""Code templates: snippets with placeholder names, instantiated with AST nodes.

    templates.replace("x = fn(a)", x="y", fn=some_expr_node, a=[node1, node2])

A string value renames the placeholder (keeping its Load/Store context, also for a `def` name
and its parameters); an expression node replaces it; a list of statements replaces an
expression statement made of the placeholder; a list of names fills a `nonlocal`/`global`
placeholder. Generated nodes get no location (base.located gives them the user's line), or
with replace_at that location right away (the same: cheaper than a walk over them afterwards).

Each template is compiled once per set of placeholder names into a Python function that
builds its nodes directly (nested constructor calls, see _Codegen): an instantiation costs about
what building the nodes by hand would. Keep the variable parts of a snippet in placeholders,
not in the source text, or each new name costs a parse and a compile."""

import ast

from graphfn.autograph.pyct.traversal import locate

_AST = ast.AST
_STMT_LISTS = ("body", "orelse", "finalbody")
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")
# How copies are located: not at all, at the location given to build (replace_at), or where the
# template's own parse put them (parse_expression).
_UNLOCATED, _AT, _AS_PARSED = range(3)
_builders = {}  # (source, placeholder names, location mode) -> build(subs, location)


def _builder(source, names, mode=_UNLOCATED):
    key = (source, names, mode)
    build = _builders.get(key)
    if build is None:
        if mode == _AS_PARSED:  # an expression
            tree = ast.parse(source, mode="eval").body
        else:
            tree = ast.parse(source).body
        build = _builders[key] = _Codegen(names, mode).function(tree)
    return build


class _Codegen:
    """Writes the source of `build(s, _a)`, which returns a fresh copy of template nodes with the
    placeholders in `names` substituted from the dict `s` (see the module docstring for what a
    substitution does), located as `mode` says (_AT: with the location arguments `_a`; one `**_a`
    is shorter to compile and faster to call than four keywords)."""

    def __init__(self, names, mode):
        self.names, self.mode = names, mode
        self.env = {"_sub": _sub, "_flat": _flat, "_declaration": _declaration}
        self.temps = 0

    def function(self, tree):
        body = self.statements(tree, False) if isinstance(tree, list) else self.node(tree)
        exec("def build(s, _a):\n    return " + body, self.env)
        return self.env["build"]

    def ref(self, obj):
        """A name in the generated code's globals for obj (a node class, a shared singleton)."""
        name = obj.__name__ if isinstance(obj, type) else "_k%d" % id(obj)
        self.env[name] = obj
        return name

    def value(self, value, rename=False):
        if isinstance(value, list):
            return "[%s]" % ", ".join(self.value(v, rename) for v in value)
        if isinstance(value, _AST):
            return self.node(value, rename)
        if isinstance(value, str) and rename and value in self.names:
            return "s[%r]" % value
        return repr(value) if value is None or isinstance(value, (str, int)) else self.ref(value)

    def node(self, node, rename=False):
        """The expression copying `node`: a node, or for a statement a list of statements or None
        (see splices). `rename`: node is (part of) a def's parameters, see _renamed."""
        cls = node.__class__
        if not cls._fields and not cls._attributes:
            return self.ref(node)  # Load, Store, operators: shared singletons, as ast.parse makes them
        if cls is ast.Name and node.id in self.names:
            return "_sub(s[%r], %s, %r, _a)" % (node.id, self.ref(node.ctx), node.id)
        if cls is ast.Expr and node.value.__class__ is ast.Name and node.value.id in self.names:
            # a list of statements replaces the whole statement
            self.temps += 1
            v = "_v%d" % self.temps
            return "(%s if isinstance(%s := s[%r], list) else %s(%s))" % (
                v, v, node.value.id, self.ref(ast.Expr), ", ".join(
                    ["_sub(%s, %s, %r, _a)" % (v, self.ref(node.value.ctx), node.value.id)] + self.location(node)))
        if (cls is ast.Nonlocal or cls is ast.Global) and any(n in self.names for n in node.names):
            return "_declaration(%s)" % ", ".join([self.ref(cls), repr(node.names), "s"] + self.location(node))
        args = []
        for f in cls._fields:
            value = getattr(node, f)
            if f in _STMT_LISTS and isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                args.append(self.statements(value, f == "body"))
            else:
                args.append(self.value(value, _renamed(cls, f, rename)))
        return "%s(%s)" % (self.ref(cls), ", ".join(args + self.location(node)))

    def statements(self, stmts, is_body):
        """A copied statement block; a `body` emptied by substitutions becomes `pass`."""
        items = "[%s]" % ", ".join(self.node(s) for s in stmts)
        if any(self.splices(s) for s in stmts):
            return "_flat(%s, %s, _a)" % (items, is_body)
        return items

    def splices(self, stmt):
        """Whether the copy of stmt may be a list of statements or None."""
        cls = stmt.__class__
        if cls is ast.Expr:
            return stmt.value.__class__ is ast.Name and stmt.value.id in self.names
        return (cls is ast.Nonlocal or cls is ast.Global) and any(n in self.names for n in stmt.names)

    def location(self, node):
        """The location arguments of node's constructor call."""
        if self.mode == _UNLOCATED or not node._attributes:
            return []
        if self.mode == _AT:
            return ["**_a"]
        return ["%s=%r" % (a, getattr(node, a)) for a in _LOCATION]


def _renamed(cls, field, in_params):
    """Whether a field holds (or leads to) names renamed by string substitutions besides Name
    ids: a def's name and its parameters (args.args)."""
    if cls is ast.FunctionDef:
        return field in ("name", "args")
    return in_params and (cls is ast.arguments and field == "args" or cls is ast.arg and field == "arg")


def _sub(value, ctx, placeholder, at):
    if isinstance(value, str):
        return ast.Name(value, ctx) if at is None else ast.Name(value, ctx, **at)
    if isinstance(value, _AST):
        cls = value.__class__
        new = cls.__new__(cls)  # copy.copy, without its generic protocol
        new.__dict__.update(value.__dict__)
        if hasattr(new, "ctx"):
            new.ctx = ctx
    elif value is None:
        new = ast.Name(placeholder, ctx)
    else:
        raise ValueError("cannot substitute %r for name %s" % (value, placeholder))
    if at is not None and getattr(new, "lineno", None) is None:
        locate(new, at["lineno"], at["col_offset"], False)  # an expression: no filler statements in it
    return new


def _declaration(cls, names, subs, **location):
    out = []
    for n in names:
        value = subs.get(n, n)
        out.extend(value if isinstance(value, (list, tuple)) else [value])
    return cls(out, **location) if out else None


def _flat(items, is_body, at):
    out = []
    for r in items:
        if r is not None:
            out.extend(r if isinstance(r, list) else [r])
    if out or not is_body:
        return out
    return [ast.Pass() if at is None else ast.Pass(**at)]


def replace(source, **subs):
    """The statements of `source` with the substitutions applied (fresh nodes every call)."""
    return _builder(source, frozenset(subs))(subs, None)


def replace_as_expression(source, **subs):
    stmts = replace(source, **subs)
    return stmts[0].value


def replace_at(origin, source, **subs):
    """replace, with the new nodes (and substituted ones without a location) given origin's line
    and column as start and end, as base.located would. Statement lists substituted whole are
    left as they are (the caller locates them)."""
    return _builder(source, frozenset(subs), _AT)(subs, location(origin))


def expression_at(origin, source, **subs):
    return replace_at(origin, source, **subs)[0].value


def parse_expression(source):
    """A fresh copy of the expression `source`, keeping the locations of its parse (line 1)."""
    return _builder(source, frozenset(), _AS_PARSED)({}, None)


def location(origin):
    """Constructor arguments giving a new node the location base.located(node, origin) would."""
    return {"lineno": origin.lineno, "col_offset": origin.col_offset, "end_lineno": origin.lineno,
            "end_col_offset": origin.col_offset}


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
