"""Shared rewriting for statements that jump (break/continue/return): the jump becomes a flag
assignment and whatever follows a statement that may have jumped is guarded by `if not flag`."""

import ast

from graphfn.autograph.converters import base
from graphfn.autograph.pyct.traversal import iter_block_items

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.While)


def contains(node, kind, into_loops):
    """Whether a `kind` statement (Break, Continue, Return) is in node, outside nested functions
    (and outside nested loops unless into_loops). Jumps are statements: only statement blocks
    are searched."""
    if isinstance(node, _FUNCS):
        return False  # a nested function's jumps are its own
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            return True
        for child in iter_block_items(n):
            if isinstance(child, _FUNCS) or (not into_loops and isinstance(child, _LOOPS)):
                continue
            stack.append(child)
    return False


class Guard:
    """Rewrites a block. `replace(stmt)` gives the statements for one jump; `flag` names the
    variable tested by the guards. `move_into_else` moves the code after an `if` whose one
    branch always jumps into the other branch (what AutoGraph does for returns)."""

    def __init__(self, kind, replace, flag, into_loops, move_into_else, on_loop=None):
        self.kind, self.replace, self.flag = kind, replace, flag
        self.into_loops, self.move_into_else, self.on_loop = into_loops, move_into_else, on_loop

    def block(self, stmts):
        """(new statements, whether the block always jumps)."""
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, self.kind):
                out.extend(base.located(self.replace(s), s))
                return out, True
            if not contains(s, self.kind, self.into_loops):
                out.append(s)
                continue
            rest = stmts[i + 1:]
            if isinstance(s, ast.If) and self.move_into_else and rest:
                body_always = self._always(s.body)
                else_always = self._always(s.orelse)
                if body_always != else_always:
                    if body_always:
                        s.orelse = s.orelse + rest
                    else:
                        s.body = s.body + rest
                    rest = []
            always = self.compound(s)
            out.append(s)
            if always:
                return out, True
            if rest:
                guarded, _ = self.block(rest)
                out.append(base.located(ast.If(test=base.not_expr(self.flag), body=guarded, orelse=[]), rest[0]))
            return out, False
        return out, False

    def _always(self, stmts):
        return any(isinstance(s, self.kind) for s in stmts) or any(
            isinstance(s, ast.If) and s.orelse and self._always(s.body) and self._always(s.orelse) for s in stmts)

    def compound(self, s):
        if isinstance(s, ast.If):
            s.body, a = self.block(s.body)
            s.orelse, b = self.block(s.orelse)
            s.body = s.body or [base.filler()]
            return a and b and bool(s.orelse)
        if isinstance(s, _LOOPS):
            s.body, _ = self.block(s.body)
            s.body = s.body or [base.filler()]
            if self.on_loop is not None:
                self.on_loop(s)
            return False
        if isinstance(s, (ast.With, ast.AsyncWith)):
            s.body, always = self.block(s.body)
            return always
        if isinstance(s, ast.Try):
            s.body, _ = self.block(s.body)
            for h in s.handlers:
                h.body, _ = self.block(h.body)
                h.body = h.body or [base.filler()]
            s.orelse, _ = self.block(s.orelse)
            s.finalbody, _ = self.block(s.finalbody)
            s.body = s.body or [base.filler()]
            return False
        return False


def add_loop_condition(loop, flag):
    """The loop stops once `flag` is set: `while not flag and test`, or an extra test for `for`."""
    cond = base.not_expr(flag)
    if isinstance(loop, ast.While):
        loop.test = base.located(ast.BoolOp(op=ast.And(), values=[cond, loop.test]), loop.test)
    else:
        loop._ag_extra_tests = getattr(loop, "_ag_extra_tests", []) + [base.located(cond, loop)]
