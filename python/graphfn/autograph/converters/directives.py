"""`set_loop_options(...)` as the first statement of a loop body: removed from the body and
turned into the loop's options dict (shape_invariants, maximum_iterations, ...)."""

import ast

from graphfn.autograph.converters.base import StatementTransformer, filler


def _is_directive(stmt, name):
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    return (isinstance(func, ast.Attribute) and func.attr == name) or (isinstance(func, ast.Name) and func.id == name)


class Directives(StatementTransformer):
    def _loop(self, node):
        self.generic_visit(node)
        if node.body and _is_directive(node.body[0], "set_loop_options"):
            call = node.body.pop(0).value
            node._ag_loop_options = [(k.arg, k.value) for k in call.keywords]
            if not node.body:
                node.body = [filler()]
        for stmt in node.body[1:]:
            if _is_directive(stmt, "set_loop_options"):
                raise ValueError("set_loop_options must be the first statement in the loop block")
        return node

    visit_For = visit_While = _loop


def transform(node, ctx):
    node.body = Directives(ctx).visit_block(node.body)
