"""`continue` -> `continue_ = True`, with the rest of the loop body guarded by
`if not continue_`."""

import ast

from graphfn.autograph.converters import base, jumps
from graphfn.autograph.pyct import templates


class ContinueStatements(base.StatementTransformer):
    def _loop(self, node):
        node.body = self.visit_block(node.body)
        if not jumps.contains(ast.Module(body=node.body), ast.Continue, into_loops=False):
            return node
        flag = self.ctx.new("continue_")
        guard = jumps.Guard(ast.Continue, lambda s: templates.replace_at(s, "ag__flag = True", ag__flag=flag), flag,
                            into_loops=False, move_into_else=False)
        body, _ = guard.block(node.body)
        node.body = templates.replace_at(node, "ag__flag = False", ag__flag=flag) + body
        return node

    visit_For = visit_While = _loop


def transform(node, ctx):
    node.body = ContinueStatements(ctx).visit_block(node.body)
