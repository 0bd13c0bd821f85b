"""Fresh, readable symbol names that do not clash with the user's (a gensym)."""

import ast

from graphfn.autograph.pyct.traversal import walk

_NAME_FIELD = {ast.Name: "id", ast.arg: "arg", ast.FunctionDef: "name", ast.AsyncFunctionDef: "name"}


class Namer:
    """Hands out `base`, `base_1`, `base_2`... skipping names used anywhere in the function."""

    def __init__(self, node):
        self.name_ids = set()  # the ids of node's Name nodes (the variables its code uses)
        self._used = set()
        for n in walk(node):
            cls = n.__class__
            if cls is ast.Name:
                self.name_ids.add(n.id)
            else:
                field = _NAME_FIELD.get(cls)
                if field is not None:
                    self._used.add(getattr(n, field))
        self._used |= self.name_ids
        self._counts = {}

    def new(self, base):
        i = self._counts.get(base, 0)
        while True:
            name = base if i == 0 else "%s_%d" % (base, i)
            i += 1
            if name not in self._used:
                self._counts[base] = i
                self._used.add(name)
                return name

    def reserve(self, name):
        """A fixed name (do_return, retval_...) that must not be handed out again."""
        self._used.add(name)
        return name
