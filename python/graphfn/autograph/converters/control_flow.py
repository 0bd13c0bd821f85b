"""`if`, `while` and `for` -> nested functions plus `ag__.if_stmt` / `ag__.while_stmt` /
`ag__.for_stmt`, which decide at run time between Python and graph control flow.

The state threaded through a construct is what it modifies that is also live (read afterwards,
read inside before being written, or carried to the next iteration); it is read and written
through `get_state` / `set_state`, and branch and body functions declare it `nonlocal`.
Variables the construct may create but that are not defined before it start as
`ag__.Undefined('x')`, so a later read fails with AutoGraph's error instead of a NameError."""

import ast

from graphfn.autograph.converters import base, logical_expressions
from graphfn.autograph.pyct import activity, parser, templates


class ControlFlow(base.StatementTransformer):
    def __init__(self, ctx, fn_node):
        super().__init__(ctx)
        # Statements are only replaced top-down, after their own analysis was read: the memo of
        # each statement's reads and writes stays valid for the whole pass.
        self.memo = {}
        self.globals, self.nonlocals = activity.declared(fn_node)
        always = activity.nested_function_reads(fn_node, self.memo) | self.nonlocals
        activity.Liveness(always, self.memo).block(fn_node.body, set())
        activity.annotate_defined(fn_node.body, activity.function_params(fn_node) | self.nonlocals, memo=self.memo)
        self.always = always

    # Which variables a construct carries ---------------------------------------------------------

    def _scope(self, node, modified):
        live_in, live_out = node._ag_live_in, node._ag_live_out
        live = live_in | live_out | self.always
        modified = {m for m in modified if activity.root(m) not in self.globals}
        basic = {m for m in modified if not activity.is_composite(m) and m in live}
        composite = {m for m in modified if activity.is_composite(m) and activity.root(m) in live}
        input_only = {m for m in basic if m in live_in and m not in live_out and m not in self.always}
        scope = sorted(basic | composite, key=lambda v: (v in input_only, v))
        undefined = sorted(m for m in modified if not activity.is_composite(m)
                           and m not in node._ag_defined_in and m not in self.nonlocals)
        return scope, len(scope) - len(input_only), undefined

    # The generated statements are located at the statement they come from (`origin`) as they
    # are made; base.located on the result then only looks for fillers.

    def _state_functions(self, scope, origin):
        get_state, set_state = self.ctx.new("get_state"), self.ctx.new("set_state")
        plain = [v for v in scope if not activity.is_composite(v)]
        self.ctx.internal.update(("vars_", "block_vars"))
        if not scope:
            return templates.replace_at(origin, _NO_STATE, ag__get=get_state, ag__set=set_state), get_state, set_state
        values = _tuple([templates.qualified(v) for v in scope], ast.Load())
        targets = _tuple([templates.qualified(v, store=True) for v in scope], ast.Store())
        return templates.replace_at(origin, _STATE, ag__get=get_state, ag__set=set_state, ag__names=plain,
                                    ag__values=values, ag__targets=targets), get_state, set_state

    def _body_function(self, base_name, scope, body, origin, args=()):
        name = self.ctx.new(base_name)
        plain = [v for v in scope if not activity.is_composite(v)]
        fn = templates.replace_at(origin, "def ag__fn(%s):\n    nonlocal ag__names\n    pass\n" % ", ".join(args),
                                  ag__fn=name, ag__names=plain)[0]
        fn.body = fn.body[:-1] + base.located(body or [ast.Pass()], origin)
        return fn, name

    @staticmethod
    def _undefined(names, origin):
        return [s for n in names for s in templates.replace_at(origin, "ag__var = ag__.Undefined(ag__name)",
                                                               ag__var=n, ag__name=templates.const(n))]

    # Statements ----------------------------------------------------------------------------------

    def visit_If(self, node):
        scope, nouts, undefined = self._scope(node, activity.modified(node.body + node.orelse, self.memo))
        body, orelse = self.visit_block(node.body), self.visit_block(node.orelse)
        state, get_state, set_state = self._state_functions(scope, node)
        if_body, if_name = self._body_function("if_body", scope, body, node)
        else_body, else_name = self._body_function("else_body", scope, orelse, node)
        call = templates.replace_at(
            node, "ag__.if_stmt(ag__test, ag__if, ag__else, ag__get, ag__set, ag__names, ag__nouts)", ag__if=if_name,
            ag__else=else_name, ag__get=get_state, ag__set=set_state, ag__nouts=templates.const(nouts),
            ag__test=node.test, ag__names=templates.str_tuple(scope))
        return base.located(state + [if_body, else_body] + self._undefined(undefined, node) + call, node)

    def visit_While(self, node):
        scope, _, undefined = self._scope(node, activity.modified(node.body, self.memo))
        body = self.visit_block(node.body)
        state, get_state, set_state = self._state_functions(scope, node)
        loop_body, body_name = self._body_function("loop_body", scope, body, node)
        test_name = self.ctx.new("loop_test")
        loop_test = templates.replace_at(node, "def ag__fn():\n    return ag__test", ag__fn=test_name,
                                         ag__test=node.test)
        call = templates.replace_at(
            node, "ag__.while_stmt(ag__test, ag__body, ag__get, ag__set, ag__names, ag__opts)", ag__test=test_name,
            ag__body=body_name, ag__get=get_state, ag__set=set_state,
            ag__names=templates.str_tuple(scope), ag__opts=_options(node, {}))
        return base.located(state + [loop_body] + loop_test + self._undefined(undefined, node) + call, node)

    def visit_For(self, node):
        target_names = activity.modified([ast.Assign(targets=[node.target], value=ast.Constant(None))])
        scope, _, undefined = self._scope(node, activity.modified(node.body, self.memo) | target_names)
        body = self.visit_block(node.body)
        state, get_state, set_state = self._state_functions(scope, node)
        self.ctx.internal.add("itr")
        bind = ast.Assign(targets=[node.target], value=templates.name("itr"), lineno=None)
        loop_body, body_name = self._body_function("loop_body", scope, [bind] + body, node, args=("itr",))
        extra = getattr(node, "_ag_extra_tests", [])
        pieces = state + [loop_body]
        extra_name = templates.const(None)
        if extra:
            extra_name = self.ctx.new("extra_test")
            test = extra[0] if len(extra) == 1 else ast.copy_location(ast.BoolOp(op=ast.And(), values=extra), node)
            test = logical_expressions.LogicalExpressions(self.ctx).visit(test)
            fn = templates.replace_at(node, "def ag__fn():\n    nonlocal ag__names\n    return ag__test",
                                      ag__fn=extra_name, ag__names=[v for v in scope if not activity.is_composite(v)],
                                      ag__test=test)
            pieces += fn
        target = node.target  # a plain name needs no unparse (a NodeVisitor walk)
        iterate = target.id if isinstance(target, ast.Name) else parser.unparse(target).strip("()")
        call = templates.replace_at(
            node, "ag__.for_stmt(ag__iter, ag__extra, ag__body, ag__get, ag__set, ag__names, ag__opts)",
            ag__extra=extra_name, ag__body=body_name, ag__get=get_state, ag__set=set_state, ag__iter=node.iter,
            ag__names=templates.str_tuple(scope), ag__opts=_options(node, {"iterate_names": templates.const(iterate)}))
        return base.located(pieces + self._undefined(undefined, node) + call, node)


_STATE = """
def ag__get():
    return ag__values

def ag__set(vars_):
    nonlocal ag__names
    ag__targets = vars_
"""

_NO_STATE = """
def ag__get():
    return ()

def ag__set(block_vars):
    pass
"""


def _tuple(elts, ctx):
    return ast.Tuple(elts=elts, ctx=ctx)


def _options(loop, extra):
    keys, values = [], []
    for key, value in getattr(loop, "_ag_loop_options", []) + list(extra.items()):
        keys.append(templates.const(key))
        values.append(value)
    return ast.Dict(keys=keys, values=values)


def transform(node, ctx):
    node.body = ControlFlow(ctx, node).visit_block(node.body)
