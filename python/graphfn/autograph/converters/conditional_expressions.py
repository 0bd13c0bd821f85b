"""`x if c else y` -> `ag__.if_exp(c, lambda: x, lambda: y, 'c')`."""

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import parser, templates


class ConditionalExpressions(base.Transformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        return templates.expression_at(
            node, "ag__.if_exp(test, lambda: body, lambda: orelse, text)", test=node.test, body=node.body,
            orelse=node.orelse, text=templates.const(parser.unparse(node.test)))


def transform(node, ctx):
    node.body = ConditionalExpressions(ctx).visit_block(node.body)
