"""`break` -> `break_ = True; continue`; the loop stops once break_ is set. The continue
converter then guards what follows."""

import ast

from graphfn.autograph.converters import base, jumps
from graphfn.autograph.pyct import templates, traversal


class BreakStatements(base.StatementTransformer):
    def _loop(self, node):
        node.body = self.visit_block(node.body)  # inner loops first: their breaks are theirs
        if not jumps.contains(ast.Module(body=node.body), ast.Break, into_loops=False):
            return node
        flag = self.ctx.new("break_")
        node.body = _Replace(flag).visit_block(node.body)
        jumps.add_loop_condition(node, flag)
        return templates.replace_at(node, "ag__flag = False", ag__flag=flag) + [node]

    visit_For = visit_While = _loop


class _Replace(traversal.NodeTransformer):
    def __init__(self, flag):
        self.flag = flag

    def visit_block(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            out.extend(r if isinstance(r, list) else [r])
        return out

    def visit_Break(self, node):
        return templates.replace_at(node, "ag__flag = True\ncontinue", ag__flag=self.flag)

    def _skip(self, node):
        return node

    visit_For = visit_While = visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _skip

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody", "handlers"):
            if isinstance(getattr(node, field, None), list):
                setattr(node, field, self.visit_block(getattr(node, field)))
        return node


def transform(node, ctx):
    node.body = BreakStatements(ctx).visit_block(node.body)
