"""Wraps a function body in `with ag__.FunctionScope(name, scope, options) as fscope:`; the
converted top-level function is renamed `tf__<name>`."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates


def transform(node, ctx, display_name):
    options = templates.parse_expression(ctx.options_source)
    scope = templates.replace("with ag__.FunctionScope(ag__name, ag__scope, ag__options) as ag__fscope:\n    pass",
                              ag__name=templates.const(display_name), ag__scope=templates.const(ctx.fscope),
                              ag__options=options, ag__fscope=ctx.fscope)[0]
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
            isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring stays on the original function
    scope.body = body or [ast.Pass()]
    node.body = [base.located(scope, node.body[0] if node.body else node)]
    if ctx.is_top:
        node.name = "tf__" + display_name
        node.decorator_list = []
    else:
        node.decorator_list = [templates.replace_as_expression("ag__.autograph_artifact")] + node.decorator_list
        base.located(node.decorator_list[0], node)
