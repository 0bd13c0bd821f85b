"""Calls `f(a, b=c)` -> `ag__.converted_call(f, (a,), dict(b=c), fscope)`, so callees are
converted at run time when they are user code. `print(...)` stays a plain call (TF 2 default:
no BUILTIN_FUNCTIONS feature), and so do calls of AutoGraph's own helpers."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates

_UNCONVERTED = {"print", "super", "globals", "locals", "eval", "exec"}


class CallTrees(base.Transformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and (func.id in _UNCONVERTED or func.id in self.ctx.internal):
            return node
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.ctx.internal:
            return node
        return templates.expression_at(node, "ag__.converted_call(f, args, kwargs, fscope)", f=func,
                                       args=_args(node.args), kwargs=_kwargs(node.keywords), fscope=self.ctx.fscope)

    def visit_Lambda(self, node):
        self.generic_visit(node)
        return node


def _args(args):
    plain, starred = [], []
    for a in args:
        if isinstance(a, ast.Starred) or starred:
            starred.append(a)
        else:
            plain.append(a)
    result = ast.Tuple(elts=plain, ctx=ast.Load())
    for a in starred:
        part = ast.Call(func=templates.name("tuple"), args=[a.value], keywords=[]) if isinstance(a, ast.Starred) \
            else ast.Tuple(elts=[a], ctx=ast.Load())
        result = ast.BinOp(left=result, op=ast.Add(), right=part)
    return result


def _kwargs(keywords):
    if not keywords:
        return templates.const(None)
    return ast.Call(func=templates.name("dict"), args=[], keywords=keywords)


def transform(node, ctx):
    node.body = CallTrees(ctx).visit_block(node.body)
