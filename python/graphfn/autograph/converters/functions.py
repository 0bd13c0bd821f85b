"""Wraps a function body in `with ag__.FunctionScope(name, scope, options) as fscope:`; the
converted top-level function is renamed `tf__<name>`."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates


def transform(node, ctx, display_name):
    options = templates.parse_expression(ctx.options_source)
    origin = node.body[0] if node.body else node
    scope = templates.replace_at(
        origin, "with ag__.FunctionScope(ag__name, ag__scope, ag__options) as ag__fscope:\n    pass",
        ag__name=templates.const(display_name), ag__scope=templates.const(ctx.fscope), ag__options=options,
        ag__fscope=ctx.fscope)[0]
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
            isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring stays on the original function
    scope.body = base.located(body or [ast.Pass()], origin)
    node.body = [scope]
    if ctx.is_top:
        node.name = "tf__" + display_name
        node.decorator_list = []
    else:
        node.decorator_list = [templates.expression_at(node, "ag__.autograph_artifact")] + node.decorator_list
