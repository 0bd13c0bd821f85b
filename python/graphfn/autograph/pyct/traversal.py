"""Fast AST traversal: ast.NodeVisitor / NodeTransformer / ast.walk with the same contracts.

The standard ones go through ast.iter_fields and a getattr per visited node, and descend into
every Load/Store/operator singleton; a conversion visits the growing tree a dozen times, so that
overhead was most of its cost. Here the visit method is looked up once per node class, and
fields that never hold statements or expressions (ctx, operators, identifiers) are skipped (no
converter visits those)."""

import ast

_AST = ast.AST
_SCALAR_FIELDS = frozenset(("ctx", "op", "ops", "id", "attr", "arg", "kind", "type_comment", "level",
                            "is_async", "conversion", "simple", "name", "asname", "module", "tag"))
# Where statements live: everything else is an expression (or part of one).
STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_NO_CHILDREN = (ast.Constant, ast.MatchSingleton)  # their `value` is a Python constant


class _PerClass(dict):
    """node class -> fact(class), computed on first lookup. Indexing it directly (no function
    call) keeps the per-node cost of the walks below low."""

    def __init__(self, fact):
        super().__init__()
        self.fact = fact

    def __missing__(self, cls):
        value = self[cls] = self.fact(cls)
        return value


# node class -> the fields that may hold child nodes (none for the classes of other field values,
# None or a str in a list: the loops below index the tables with any item's class)
CHILD_FIELDS = _PerClass(lambda cls: () if cls in _NO_CHILDREN or not issubclass(cls, _AST) else tuple(
    f for f in cls._fields if f not in _SCALAR_FIELDS))
# node class -> its STATEMENT_FIELDS, in its own field order (Try: body, handlers...)
BLOCK_FIELDS = _PerClass(lambda cls: tuple(f for f in cls._fields if f in STATEMENT_FIELDS))


def iter_children(node):
    """The child nodes of `node` (like ast.iter_child_nodes, without ctx/operator leaves)."""
    for field in CHILD_FIELDS[node.__class__]:
        value = getattr(node, field, None)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, _AST):
                    yield item
        elif isinstance(value, _AST):
            yield value


def iter_block_items(node):
    """What node's statement blocks hold (statements, except handlers, match cases), in order."""
    for field in BLOCK_FIELDS[node.__class__]:
        value = getattr(node, field, None)
        if isinstance(value, list):
            yield from value


def _push_children(node, fields, push):
    for field in fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, _AST):
                    push(item)
        elif isinstance(value, _AST):
            push(value)


def walk(node):
    """Every node under `node` (itself included), in no particular order, like ast.walk."""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        yield node
        _push_children(node, CHILD_FIELDS[node.__class__], push)


class _Dispatch:
    """visit(node) calls self.visit_<Class>(node), or generic_visit; one lookup per class
    (`_methods`, indexed directly by the loops below). None stands for "nothing to do" (a leaf
    such as a Name or a Constant with no visit method): the loops skip those without a call."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = _PerClass(cls._resolve)

    @classmethod
    def _resolve(cls, node_cls):
        if not issubclass(node_cls, _AST):
            return None  # a field value that is not a node (None, a str in a list)
        method = getattr(cls, "visit_" + node_cls.__name__, None)
        if method is None and CHILD_FIELDS[node_cls]:
            method = cls.generic_visit
        return method

    def visit(self, node):
        method = self._methods[node.__class__]
        return self.generic_visit(node) if method is None else method(self, node)


class NodeVisitor(_Dispatch):
    def generic_visit(self, node):
        methods = self._methods
        for field in CHILD_FIELDS[node.__class__]:
            value = getattr(node, field, None)
            if value.__class__ is list:
                for item in value:
                    method = methods[item.__class__]
                    if method is not None:
                        method(self, item)
            else:
                method = methods[value.__class__]
                if method is not None:
                    method(self, value)


class NodeTransformer(_Dispatch):
    """A visit method returns the node, a replacement, a list to splice into a list field, or
    None to remove it (ast.NodeTransformer's contract)."""

    def generic_visit(self, node):
        return self.transform_fields(node, CHILD_FIELDS[node.__class__])

    def transform_fields(self, node, fields):
        methods = self._methods
        for field in fields:
            old = getattr(node, field, None)
            if old.__class__ is list:
                new, changed = [], False
                for item in old:
                    method = methods[item.__class__]
                    if method is not None:
                        result = method(self, item)
                        if result is not item:
                            changed = True
                            if result is None:
                                continue
                            if not isinstance(result, _AST):
                                new.extend(result)
                                continue
                            item = result
                    new.append(item)
                if changed:
                    old[:] = new
            else:
                method = methods[old.__class__]
                if method is not None:
                    replacement = method(self, old)
                    if replacement is None:
                        delattr(node, field)
                    elif replacement is not old:
                        setattr(node, field, replacement)
        return node

# Locations. The converters give what they generate a location as soon as they make it
# (converters/base.py located), so the only nodes without one that can sit under a located node
# are filler statements (`pass`) put into the blocks of compound statements. The walks below
# skip located nodes (all of them, or with `into_blocks` all but compound statements), which
# makes locating the generated code linear instead of quadratic in its nesting depth.

# node class -> whether it has statement (or expression) bodies
HOLDS_BLOCKS = _PerClass(lambda cls: any(f in cls._fields for f in STATEMENT_FIELDS))


def _may_hide_unlocated(node, into_blocks):
    return getattr(node, "lineno", None) is None or into_blocks and HOLDS_BLOCKS[node.__class__]


def locate(node, lineno, col, into_blocks):
    """Gives the nodes under `node` (itself included) that have no location this one (as
    start and end); returns those it located."""
    stack, done = [node], []
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        cls = node.__class__
        if getattr(node, "lineno", None) is None:
            if cls._attributes:
                node.lineno = node.end_lineno = lineno
                node.col_offset = node.end_col_offset = col
                done.append(node)
        elif not (into_blocks and HOLDS_BLOCKS[cls]):
            continue  # located, and so is everything under it (see above)
        _push_children(node, CHILD_FIELDS[cls], push)
    return done


def fix_missing_locations(node, into_blocks):
    """ast.fix_missing_locations: a node without a line (or with a None end) takes its parent's.
    (Every located node class has all four location attributes.)"""
    stack = [(node, 1, 0, 1, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, lineno, col, end_lineno, end_col = pop()
        if not _may_hide_unlocated(node, into_blocks) and node.end_lineno is not None and node.end_col_offset is not None:
            continue  # located, with everything under it
        if node._attributes:
            if hasattr(node, "lineno"):
                lineno = node.lineno
            else:
                node.lineno = lineno
            if getattr(node, "end_lineno", None) is None:
                node.end_lineno = end_lineno
            else:
                end_lineno = node.end_lineno
            if hasattr(node, "col_offset"):
                col = node.col_offset
            else:
                node.col_offset = col
            if getattr(node, "end_col_offset", None) is None:
                node.end_col_offset = end_col
            else:
                end_col = node.end_col_offset
        for child in iter_children(node):
            push((child, lineno, col, end_lineno, end_col))
