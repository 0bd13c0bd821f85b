"""The fast AST helpers behind conversion keep the standard library's contracts: templates
build what parsing the substituted text builds, statement passes visit blocks in source order,
and parse_entity finds the same source as inspect.getsourcelines."""

import ast
import inspect
import textwrap

from graphfn.autograph.converters import base
from graphfn.autograph.pyct import parser, templates, traversal


def try_blocks(x):
    try:
        if x > 0:
            x = x + 1
    except ValueError:
        if x > 1:
            x = x + 2
    else:
        if x > 2:
            x = x + 3
    finally:
        if x > 3:
            x = x + 4
    return x


def _decorate(*args):
    return lambda f: f


@_decorate(1,
           2)
def decorated(x):
    s = """a
b"""
    return s + x  # trailing comment
# column-0 comment


class Holder:
    @staticmethod
    def method(x):
        for i in range(x):
            x -= i
        return x


def test_statement_passes_visit_blocks_in_source_order():
    seen = []

    class Recorder(base.StatementTransformer):
        def visit_If(self, node):
            seen.append(node.test.comparators[0].value)
            return node

    fn, _ = parser.parse_entity(try_blocks)
    Recorder(None).visit_block(fn.body)
    assert seen == [0, 1, 2, 3]  # body, handlers, else, finally: Try's field order


def test_templates_build_what_parsing_builds():
    got = templates.replace("def ag__fn(itr):\n    nonlocal ag__names\n    ag__x = ag__.f(ag__v)\n", ag__fn="loop_body",
                            ag__names=["a", "b"], ag__x="y", ag__v=ast.Constant(value=3))
    want = ast.parse("def loop_body(itr):\n    nonlocal a, b\n    y = ag__.f(3)\n").body
    assert [ast.dump(s) for s in got] == [ast.dump(s) for s in want]
    again = templates.replace("def ag__fn(itr):\n    nonlocal ag__names\n    ag__x = ag__.f(ag__v)\n", ag__fn="f2",
                              ag__names=[], ag__x="z", ag__v=ast.Constant(value=4))
    assert ast.dump(again[0]) == ast.dump(ast.parse("def f2(itr):\n    z = ag__.f(4)\n").body[0])
    assert ast.dump(got[0]) == ast.dump(want[0])


def test_traversal_walk_finds_the_nodes_ast_walk_finds():
    tree = ast.parse(inspect.getsource(try_blocks))
    leaves = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
    want = {id(n) for n in ast.walk(tree) if not isinstance(n, leaves)}
    assert {id(n) for n in traversal.walk(tree)} == want


def test_parse_entity_matches_inspect():
    for fn in (try_blocks, decorated, Holder.method):
        lines, first = inspect.getsourcelines(fn)
        want = ast.parse(textwrap.dedent("".join(lines))).body[0]
        ast.increment_lineno(want, first - 1)
        got, filename = parser.parse_entity(fn)
        assert filename == fn.__code__.co_filename
        assert ast.dump(got, include_attributes=True) == ast.dump(want, include_attributes=True)
