"""`return e` -> `do_return = True; retval_ = e` (in try/except so a failing `e` leaves
do_return False); code after a conditional return is moved into the other branch or guarded by
`if not do_return`; loops stop once do_return is set; the function ends with
`return fscope.ret(retval_, do_return)`."""

import ast

from graphfn.autograph.converters import jumps
from graphfn.autograph.pyct import templates

_RETURN = """
try:
    do_return = True
    retval_ = value
except:
    do_return = False
    raise
"""


def transform(node, ctx):
    if not jumps.contains(ast.Module(body=node.body), ast.Return, into_loops=True):
        return
    if ctx.is_top:
        do_return, retval = ctx.fixed("do_return"), ctx.fixed("retval_")
    else:
        do_return, retval = ctx.new("do_return"), ctx.new("retval_")

    def replace(stmt):
        value = stmt.value if stmt.value is not None else templates.const(None)
        return templates.replace_at(stmt, _RETURN, value=value, do_return=do_return, retval_=retval)

    guard = jumps.Guard(ast.Return, replace, do_return, into_loops=True, move_into_else=True,
                        on_loop=lambda loop: jumps.add_loop_condition(loop, do_return))
    body, _ = guard.block(node.body)
    head = templates.replace_at(node.body[0], "do_return = False\nretval_ = ag__.UndefinedReturnValue()",
                                do_return=do_return, retval_=retval)
    tail = templates.replace_at(node.body[-1], "return fscope.ret(retval_, do_return)", fscope=ctx.fscope,
                                do_return=do_return, retval_=retval)
    node.body = head + body + tail
