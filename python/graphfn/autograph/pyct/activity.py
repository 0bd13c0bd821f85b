"""Activity analysis: which names a block of statements modifies and reads, which names are
live after each statement, and which names may already be defined before it.

Names are "qualified names": `x`, or composites such as `self.x` and `d['k']` (attribute chains
and constant subscripts rooted at a plain name). Nested `def`s count as reading their free names
everywhere in the enclosing function (they may be called at any time); lambdas read them where
they are written, as AutoGraph does.

The functions take an optional `memo` dict: with one, what each statement reads and writes is
found once and reused by later queries on the same, unchanged, statements (the converters ask
about nested blocks over and over)."""

import ast

from graphfn.autograph.pyct.traversal import NodeVisitor, iter_block_items

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def qn(node):
    """The qualified name of a Name/Attribute/constant-Subscript chain, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = qn(node.value)
        return None if base is None else "%s.%s" % (base, node.attr)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        base = qn(node.value)
        return None if base is None else "%s[%r]" % (base, node.slice.value)
    return None


def root(name):
    """The plain name a qualified name starts with."""
    if "." not in name and "[" not in name:
        return name
    for i, ch in enumerate(name):
        if ch in ".[":
            return name[:i]
    return name


def is_composite(name):
    return "." in name or "[" in name


class _Collector(NodeVisitor):
    """Reads and writes of one node, not descending into nested function bodies."""

    def __init__(self):
        self.reads, self.writes, self.nested_reads = set(), set(), set()

    def _inner(self):
        """A collector for a nested scope (a function or comprehension body)."""
        return _Collector()

    def visit_Name(self, node):
        (self.reads if isinstance(node.ctx, ast.Load) else self.writes).add(node.id)

    def _composite(self, node):
        if isinstance(node.ctx, ast.Store):
            name = qn(node)
            if name is not None:
                self.writes.add(name)
            # `a.b = 1` reads `a`; `d[k] = 1` reads d and k.
            saved = node.ctx
            node.ctx = ast.Load()
            self.generic_visit(node)
            node.ctx = saved
        else:
            self.generic_visit(node)

    visit_Attribute = visit_Subscript = _composite

    def visit_AugAssign(self, node):
        self.visit(node.value)
        target = node.target
        name = qn(target)
        if name is not None:
            self.reads.add(root(name))
            self.writes.add(name)
        self.visit(target)

    def _function(self, node):
        if not isinstance(node, ast.Lambda):
            self.writes.add(node.name)
            for d in node.decorator_list:
                self.visit(d)
        args = getattr(node, "args", None)
        if args is not None:
            for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
                self.visit(d)
        inner = self._inner()
        for child in (node.body if isinstance(node.body, list) else [node.body]):
            inner.visit(child)
        params = set()
        if args is not None:
            params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
            params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        free = (inner.reads | inner.nested_reads) - params
        if isinstance(node, ast.Lambda):
            self.reads |= free - inner.writes
        else:
            self.nested_reads |= free

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _function

    def _comprehension(self, node):
        inner = self._inner()
        inner.generic_visit(node)
        targets = set()
        for gen in node.generators:
            t = _Collector()
            t.visit(gen.target)
            targets |= t.writes
        self.reads |= inner.reads - targets
        self.nested_reads |= inner.nested_reads

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Import(self, node):
        for alias in node.names:
            self.writes.add((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        if node.name:
            self.writes.add(node.name)
        self.generic_visit(node)

    def visit_Global(self, node):
        pass

    visit_Nonlocal = visit_Global


class _MemoCollector(_Collector):
    """The same, taking what each statement reads and writes from the memo (finding it once)."""

    def __init__(self, memo):
        super().__init__()
        self.memo = memo

    def _inner(self):
        return _MemoCollector(self.memo)

    @classmethod
    def _resolve(cls, node_cls):
        return _MemoCollector._memoized if issubclass(node_cls, ast.stmt) else super()._resolve(node_cls)

    def _memoized(self, node):
        reads, writes, nested_reads = _activity(node, self.memo)
        self.reads |= reads
        self.writes |= writes
        self.nested_reads |= nested_reads


def _activity(stmt, memo):
    """(reads, writes, nested reads) of one statement, memoized (the sets are shared: read only)."""
    found = memo.get(stmt)  # keyed by the node itself: alive, so never a reused id
    if found is None:
        inner = _MemoCollector(memo)
        method = _Collector._methods[stmt.__class__]  # the statement's own visit, not the memo
        if method is not None:
            method(inner, stmt)
        found = memo[stmt] = (inner.reads, inner.writes, inner.nested_reads)
    return found


def _collect(nodes, memo=None):
    c = _Collector() if memo is None else _MemoCollector(memo)
    for n in nodes:
        if n is not None:
            c.visit(n)
    return c


def reads(nodes, memo=None):
    return _collect(nodes, memo).reads


def modified(stmts, memo=None):
    """Names (plain and composite) assigned anywhere in the statements, outside nested functions
    except for the function names themselves."""
    return _collect(stmts, memo).writes


def nested_function_reads(fn_node, memo=None):
    """Free names read by functions defined anywhere inside `fn_node` (always live)."""
    return _collect(fn_node.body, memo).nested_reads


def _simple_defs(targets):
    """Plain names a statement definitely assigns (kills, for liveness)."""
    out = set()
    for t in targets:
        if isinstance(t, ast.Name):
            out.add(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            out |= _simple_defs(t.elts)
        elif isinstance(t, ast.Starred):
            out |= _simple_defs([t.value])
    return out


class Liveness:
    """Backward liveness over statements. After `block(stmts, live_out)` every compound statement
    has `_ag_live_in` / `_ag_live_out` attributes (sets of plain names)."""

    def __init__(self, always_live=(), memo=None):
        self.always = set(always_live)
        self.memo = memo

    def _reads(self, nodes):
        return reads(nodes, self.memo)

    def _stmt_reads(self, s):
        """What statement s reads (from the memo when there is one: a shared set, read only)."""
        return reads([s]) if self.memo is None else _activity(s, self.memo)[0]

    def block(self, stmts, live):
        for stmt in reversed(stmts):
            live = self.stmt(stmt, live)
        return live

    def stmt(self, s, live_out):
        live_out = live_out | self.always
        if isinstance(s, ast.If):
            live = self._reads([s.test]) | self.block(s.body, live_out) | self.block(s.orelse, live_out)
        elif isinstance(s, ast.While):
            test = self._reads([s.test])
            live = self._loop(s, live_out, lambda top: test | self.block(s.body, top) | self.block(s.orelse, live_out))
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            target_defs = _simple_defs([s.target])
            extra = self._reads(getattr(s, "_ag_extra_tests", []))  # break/return flags, tested every iteration
            head = lambda top: (self.block(s.body, top) - target_defs) | self.block(s.orelse, live_out) | extra
            live = self._loop(s, live_out, head) | self._reads([s.iter])
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            inner = self.block(s.body, live_out)
            defs = _simple_defs([i.optional_vars for i in s.items if i.optional_vars is not None])
            live = (inner - defs) | self._reads([i.context_expr for i in s.items])
        elif isinstance(s, ast.Try):
            after = self.block(s.finalbody, live_out)
            handlers = set()
            for h in s.handlers:
                handlers |= self.block(h.body, after)
            body = self.block(s.body, self.block(s.orelse, after) | handlers)
            live = body | handlers | after  # any point of the body may raise
        elif isinstance(s, (ast.Return, ast.Raise)):
            live = self._stmt_reads(s) | self.always
        elif isinstance(s, ast.Assign):
            live = (live_out - _simple_defs(s.targets)) | self._stmt_reads(s)
        elif isinstance(s, ast.AnnAssign):
            live = (live_out - _simple_defs([s.target])) | self._reads([s.value, s.annotation]) if s.value is not None else live_out
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            live = (live_out - {s.name}) | self._stmt_reads(s)
        else:
            live = live_out | self._stmt_reads(s)
        s._ag_live_in, s._ag_live_out = live, live_out
        return live

    def _loop(self, s, live_out, head):
        top = set(live_out)
        while True:
            new = head(top) | live_out
            if new <= top:
                return top
            top |= new


def annotate_defined(stmts, defined, in_loop=(), memo=None):
    """Forward pass: sets `_ag_defined_in` (names possibly defined before the statement) on
    compound statements. Names assigned anywhere in an enclosing loop count as defined (they may
    come from an earlier iteration)."""
    if memo is None:
        memo = {}
    defined = set(defined) | set(in_loop)
    for s in stmts:
        s._ag_defined_in = set(defined)
        writes = _plain(_activity(s, memo)[1])
        if isinstance(s, ast.If):
            annotate_defined(s.body, defined, in_loop, memo)
            annotate_defined(s.orelse, defined, in_loop, memo)
        elif isinstance(s, (ast.While, ast.For, ast.AsyncFor)):
            annotate_defined(s.body, defined | writes, set(in_loop) | writes, memo)
            annotate_defined(s.orelse, defined | writes, in_loop, memo)
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            annotate_defined(s.body, defined | modified([i.optional_vars for i in s.items if i.optional_vars], memo), in_loop, memo)
        elif isinstance(s, ast.Try):
            annotate_defined(s.body, defined, in_loop, memo)
            after_body = defined | modified(s.body, memo)
            for h in s.handlers:
                annotate_defined(h.body, after_body | ({h.name} if h.name else set()), in_loop, memo)
            annotate_defined(s.orelse, after_body, in_loop, memo)
            annotate_defined(s.finalbody, after_body | modified(s.handlers, memo), in_loop, memo)
        defined |= writes


def _plain(names):
    return {n for n in names if not is_composite(n)}


def function_params(fn_node):
    args = fn_node.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    return names | {a.arg for a in (args.vararg, args.kwarg) if a is not None}


def declared(fn_node):
    """(names declared `global`, names declared `nonlocal`) in the function's own body."""
    found = {ast.Global: set(), ast.Nonlocal: set()}
    stack = list(fn_node.body)
    while stack:
        n = stack.pop()
        if n.__class__ in found:
            found[n.__class__].update(n.names)
        elif not isinstance(n, _FUNCS):
            stack.extend(iter_block_items(n))  # declarations are statements
    return found[ast.Global], found[ast.Nonlocal]
