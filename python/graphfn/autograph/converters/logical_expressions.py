"""`a and b` -> `ag__.and_(lambda: a, lambda: b)` (b stays lazy), `a or b` likewise,
`not a` -> `ag__.not_(a)`."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates


class LogicalExpressions(base.Transformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        values = node.values
        result = values[-1]
        for left in reversed(values[:-1]):
            result = templates.expression_at(node, "ag__.%s(lambda: a, lambda: b)" % fn, a=left, b=result)
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return templates.expression_at(node, "ag__.not_(a)", a=node.operand)


def transform(node, ctx):
    node.body = LogicalExpressions(ctx).visit_block(node.body)
