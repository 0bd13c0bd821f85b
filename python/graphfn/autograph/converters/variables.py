"""Reads of user variables go through `ag__.ld(x)`, which raises AutoGraph's
"'x' is used before assignment" for variables left undefined by converted control flow;
`del x` marks x undefined again."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates


class Variables(base.Transformer):
    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in self.ctx.internal:
            return base.located(ast.Call(func=ast.Attribute(value=templates.name("ag__"), attr="ld", ctx=ast.Load()),
                                         args=[node], keywords=[]), node)
        return node

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name) and node.target.id not in self.ctx.internal:
            check = templates.replace("x = ag__.ld(x)", x=node.target.id)
            return base.located(check, node) + [node]
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
