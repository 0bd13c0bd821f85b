"""`assert test, msg` -> `ag__.assert_stmt(test, lambda: msg)` (only with the optional
ASSERT_STATEMENTS feature: by default `assert` stays Python, as in TF 2)."""

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import templates


class Asserts(base.StatementTransformer):
    def visit_Assert(self, node):
        message = node.msg if node.msg is not None else templates.const("Assertion error")
        return base.located(templates.replace("ag__.assert_stmt(test, lambda: message)", test=node.test,
                                              message=message), node)


def transform(node, ctx):
    node.body = Asserts(ctx).visit_block(node.body)
