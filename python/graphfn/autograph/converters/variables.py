"""Reads of user variables go through `ag__.ld(x)`, which raises AutoGraph's
"'x' is used before assignment" for variables left undefined by converted control flow;
`del x` marks x undefined again."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates


_LOAD = ast.Load()


class Variables(base.Transformer):
    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in self.ctx.internal:
            at = templates.location(node)  # the most common rewrite: built by hand, located as it is made
            return ast.Call(ast.Attribute(ast.Name("ag__", _LOAD, **at), "ld", _LOAD, **at), [node], [], **at)
        return node

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name) and node.target.id not in self.ctx.internal:
            return templates.replace_at(node, "x = ag__.ld(x)", x=node.target.id) + [node]
        return self.generic_visit(node)

    def visit_Delete(self, node):
        out = []
        for t in node.targets:
            if isinstance(t, ast.Name):
                out += templates.replace("x = ag__.Undefined(n)", x=t.id, n=templates.const(t.id))
            else:
                out.append(ast.Delete(targets=[self.visit(t)]))
        return base.located(out, node)

    def visit_Lambda(self, node):
        self.generic_visit(node)
        return node


def transform(node, ctx):
    node.body = Variables(ctx).visit_block(node.body)
