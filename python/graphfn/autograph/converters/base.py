"""What every converter shares: the per-function context and a transformer that stays out of
nested function definitions (each is converted on its own, see impl/conversion.py)."""

import ast

from graphfn.autograph.pyct import templates, traversal


class UnsupportedLanguageElementError(NotImplementedError):
    """The function uses Python syntax AutoGraph cannot convert."""


class Context:
    """Per-function conversion state: the gensym and the names the converters created (which
    the variables converter must not wrap in ag__.ld)."""

    def __init__(self, namer, options_source, fscope, is_top):
        self.namer = namer
        self.options_source = options_source
        self.fscope = fscope
        self.is_top = is_top
        self.internal = {"ag__", fscope}

    def new(self, base):
        name = self.namer.new(base)
        self.internal.add(name)
        return name

    def fixed(self, name):
        self.internal.add(self.namer.reserve(name))
        return name


class Transformer(traversal.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_FunctionDef(self, node):
        return node  # converted separately

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_block(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            if r is None:
                continue
            out.extend(r if isinstance(r, list) else [r])
        return out


class StatementTransformer(Transformer):
    """For converters that rewrite only statements: does not descend into expressions (they
    cannot hold statements; nested functions are converted on their own)."""

    def generic_visit(self, node):
        return self.transform_fields(node, traversal.BLOCK_FIELDS[node.__class__])


# Filler `pass` statements put into the blocks of existing (located) statements and not located
# yet: while there are some, located() also searches the blocks of located statements.
# (Conversions run one at a time, under impl/conversion.py's lock.)
pending_fillers = set()


def filler():
    """A `pass` for a block left empty by a rewrite."""
    node = ast.Pass()
    pending_fillers.add(node)
    return node


def located(nodes, origin):
    """Gives generated nodes the line of the statement they come from (tracebacks, error
    rewriting); nodes keep locations they already have."""
    lineno, col = origin.lineno, origin.col_offset
    for n in nodes if isinstance(nodes, list) else [nodes]:
        done = traversal.locate(n, lineno, col, bool(pending_fillers))
        if pending_fillers:
            pending_fillers.difference_update(done)
    return nodes


def not_expr(name):
    return ast.UnaryOp(op=ast.Not(), operand=templates.name(name))
