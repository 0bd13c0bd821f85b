"""Fresh, readable symbol names that do not clash with the user's (a gensym)."""

import ast


class Namer:
    """Hands out `base`, `base_1`, `base_2`... skipping names used anywhere in the function."""

    def __init__(self, node):
        self._used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        self._used |= {n.arg for n in ast.walk(node) if isinstance(n, ast.arg)}
        self._used |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
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
