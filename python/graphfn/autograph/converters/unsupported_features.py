"""Rejects syntax the converters do not handle, naming the construct."""

import ast

from graphfn.autograph.converters.base import Transformer, UnsupportedLanguageElementError


class UnsupportedFeatures(Transformer):
    def visit_For(self, node):
        if node.orelse:
            raise UnsupportedLanguageElementError("for/else statement not yet supported")
        return self.generic_visit(node)

    def visit_While(self, node):
        if node.orelse:
            raise UnsupportedLanguageElementError("while/else statement not yet supported")
        return self.generic_visit(node)

    def visit_Yield(self, node):
        raise UnsupportedLanguageElementError("generators are not supported")

    visit_YieldFrom = visit_Yield

    def visit_Attribute(self, node):
        if node.attr.startswith("__") and not node.attr.endswith("__"):
            raise UnsupportedLanguageElementError("mangled names are not yet supported")
        return self.generic_visit(node)

    def visit_AsyncFor(self, node):
        raise UnsupportedLanguageElementError("async for loops are not supported")

    visit_Await = visit_AsyncWith = visit_AsyncFor


def transform(node, ctx):
    UnsupportedFeatures(ctx).visit_block(node.body)
