"""Rejects syntax the converters do not handle, naming the construct."""

from graphfn.autograph.converters.base import UnsupportedLanguageElementError
from graphfn.autograph.pyct.traversal import NodeVisitor


class UnsupportedFeatures(NodeVisitor):
    """Only looks (raises on the first unsupported construct, in source order)."""

    def visit_FunctionDef(self, node):
        pass  # converted on its own

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

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
    checker = UnsupportedFeatures()
    for stmt in node.body:
        checker.visit(stmt)
