"""Code templates: parse a snippet and substitute placeholder names with AST nodes.

    templates.replace("x = fn(a)", x="y", fn=some_expr_node, a=[node1, node2])

A string value renames the placeholder (keeping its Load/Store context); an expression node
replaces it; a list of statements replaces an expression statement made of the placeholder;
a list of names fills a `nonlocal`/`global` placeholder."""

import ast
import copy


def _parse(source):
    return ast.parse(source).body  # a fresh parse is cheaper than deep-copying a cached tree


class _Replacer(ast.NodeTransformer):
    def __init__(self, subs):
        self.subs = subs

    def visit_Name(self, node):
        value = self.subs.get(node.id)
        if value is None:
            return node
        if isinstance(value, str):
            return ast.Name(id=value, ctx=node.ctx)
        if isinstance(value, ast.AST):
            value = copy.copy(value)
            if hasattr(value, "ctx"):
                value.ctx = node.ctx
            return value
        raise ValueError("cannot substitute %r for name %s" % (value, node.id))

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Name) and isinstance(self.subs.get(node.value.id), list):
            return self.subs[node.value.id]
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if node.name in self.subs:
            node.name = self.subs[node.name]
        args = node.args
        for a in args.args:
            if a.arg in self.subs:
                a.arg = self.subs[a.arg]
        node.body = self._body(node.body)
        return node

    def visit_Nonlocal(self, node):
        names = []
        for n in node.names:
            value = self.subs.get(n, n)
            names.extend(value if isinstance(value, (list, tuple)) else [value])
        if not names:
            return None
        node.names = names
        return node

    visit_Global = visit_Nonlocal

    def _body(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            if r is None:
                continue
            out.extend(r if isinstance(r, list) else [r])
        return out or [ast.Pass()]

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(node, field, None), list) and field in node._fields:
                stmts = getattr(node, field)
                if stmts and isinstance(stmts[0], ast.stmt):
                    setattr(node, field, self._body(stmts) if field == "body" else
                            [x for s in stmts for x in _aslist(self.visit(s))])
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                continue
            if isinstance(value, list):
                new = []
                for item in value:
                    if isinstance(item, ast.AST):
                        r = self.visit(item)
                        new.extend(_aslist(r))
                    else:
                        new.append(item)
                value[:] = new
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node


def _aslist(r):
    if r is None:
        return []
    return r if isinstance(r, list) else [r]


def replace(source, **subs):
    """The statements of `source` with the substitutions applied (fresh nodes every call)."""
    body = _parse(source)
    for stmt in body:
        for node in ast.walk(stmt):  # generated code takes its location from where it is used
            for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                if hasattr(node, attr):
                    setattr(node, attr, None)
    replacer = _Replacer(subs)
    out = []
    for stmt in body:
        out.extend(_aslist(replacer.visit(stmt)))
    return out


def replace_as_expression(source, **subs):
    stmts = replace(source, **subs)
    return stmts[0].value


def name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def const(value):
    return ast.Constant(value=value)


def str_tuple(names):
    return ast.Tuple(elts=[const(n) for n in names], ctx=ast.Load())
