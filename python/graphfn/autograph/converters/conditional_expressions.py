"""`x if c else y` -> `ag__.if_exp(c, lambda: x, lambda: y, 'c')`."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import parser, templates


class ConditionalExpressions(base.Transformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        return base.located(templates.replace_as_expression(
            "ag__.if_exp(test, lambda: body, lambda: orelse, text)", test=node.test, body=node.body,
            orelse=node.orelse, text=templates.const(parser.unparse(node.test))), node)


def transform(node, ctx):
    node.body = ConditionalExpressions(ctx).visit_block(node.body)
