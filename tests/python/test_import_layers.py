"""The imports of python/graphfn follow the layer table of docs/design.md ("Python layers"):
no import cycles, no import of a higher layer, every module placed in a layer, and imports
inside functions only with a comment saying why (they exist to keep `import graphfn` fast).

Every module is parsed with `ast`, so imports at module level and inside functions (which run
later, and so hide cycles from the interpreter) are both seen. The checks themselves are tested
on small packages written to a temporary directory."""

import ast
import os
import re

import pytest

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PACKAGE_ROOT = os.path.join(REPO, "python")
DESIGN_DOC = os.path.join(REPO, "docs", "design.md")
ROOT = "graphfn"
EXTENSION = "graphfn._core"  # a compiled module: no source to parse


class Import:
    __slots__ = ("source", "target", "line", "in_function", "commented")

    def __init__(self, source, target, line, in_function, commented):
        self.source, self.target, self.line = source, target, line
        self.in_function, self.commented = in_function, commented

    def where(self, files):
        return "%s:%d" % (files[self.source], self.line)


# Reading the package ------------------------------------------------------------------------------

def module_paths(package_root):
    """{module name: file} for every .py file of the package (a package is its __init__.py)."""
    paths = {}
    for directory, _, files in os.walk(os.path.join(package_root, ROOT)):
        for file in files:
            if file.endswith(".py"):
                path = os.path.join(directory, file)
                parts = os.path.relpath(path, package_root)[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts.pop()
                paths[".".join(parts)] = path
    return paths


class _ImportVisitor(ast.NodeVisitor):
    """The package-internal imports of one module, noting those inside functions."""

    def __init__(self, module, is_package, known, lines):
        self.module, self.is_package, self.known, self.lines = module, is_package, known, lines
        self.depth = 0
        self.imports = []

    def visit_FunctionDef(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def _add(self, node, target):
        if target is not None and target != self.module:
            text = "\n".join(self.lines[node.lineno - 1:node.end_lineno])
            self.imports.append(Import(self.module, target, node.lineno, self.depth > 0, "#" in text))

    def _resolve(self, name):
        """The module `name` refers to: itself if it is one, else its nearest enclosing module."""
        while name and name not in self.known:
            name = name.rpartition(".")[0]
        return name or None

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name == ROOT or alias.name.startswith(ROOT + "."):
                self._add(node, self._resolve(alias.name))

    def visit_ImportFrom(self, node):
        if node.level:  # relative: from the module's package, one level up per extra dot
            package = self.module.split(".")
            if not self.is_package:
                package.pop()
            package = package[:len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        if base != ROOT and not base.startswith(ROOT + "."):
            return
        for alias in node.names:
            submodule = base + "." + alias.name
            self._add(node, submodule if submodule in self.known else self._resolve(base))


def read_imports(package_root):
    paths = module_paths(package_root)
    known = set(paths) | {EXTENSION}
    imports = []
    for module, path in sorted(paths.items()):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        visitor = _ImportVisitor(module, path.endswith("__init__.py"), known, text.splitlines())
        visitor.visit(ast.parse(text, path))
        imports.extend(visitor.imports)
    return paths, imports


def read_layer_table(doc_path):
    """[(layer number, [module or package, ...])] from the "Python layers" table."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Python layers", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", section, re.MULTILINE)
    return [(int(number), re.findall(r"`([\w.]+)`", modules)) for number, modules in rows]


def layer_of(module, table):
    """The layer of the longest table entry naming the module or a package holding it (the root
    package's entry names only its __init__.py); None when no entry does."""
    best = None
    for number, entries in table:
        for entry in entries:
            matches = module == entry or (entry != ROOT and module.startswith(entry + "."))
            if matches and (best is None or len(entry) > len(best[1])):
                best = (number, entry)
    return None if best is None else best[0]


# The checks -----------------------------------------------------------------------------------------

def find_cycles(modules, imports):
    """One cycle, as a list of Imports, per strongly connected group of two or more modules."""
    edges = {}
    for imp in imports:
        edges.setdefault(imp.source, {}).setdefault(imp.target, imp)
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def connect(v):  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(modules):
        if module not in index:
            connect(module)
    return [_cycle_in(group, edges) for group in groups]


def _cycle_in(group, edges):
    """A path of imports from the group's first module back to itself, staying in the group."""
    start = min(group)
    paths = {start: []}
    queue = [start]
    while queue:  # breadth first: the shortest cycle through `start`
        v = queue.pop(0)
        for w, imp in sorted(edges.get(v, {}).items()):
            if w == start:
                return paths[v] + [imp]
            if w in group and w not in paths:
                paths[w] = paths[v] + [imp]
                queue.append(w)
    raise AssertionError("no cycle through %s" % start)


def check(package_root, doc_path):
    """The problems found, as lines of text (empty when the package keeps the rules)."""
    paths, imports = read_imports(package_root)
    files = {module: os.path.relpath(path, package_root) for module, path in paths.items()}
    table = read_layer_table(doc_path)
    problems = []
    for cycle in find_cycles(set(paths) | {EXTENSION}, imports):
        steps = " -> ".join("%s (%s)" % (imp.source, imp.where(files)) for imp in cycle)
        problems.append("import cycle: %s -> %s" % (steps, cycle[0].source))
    for module in sorted(set(paths) | {EXTENSION}):
        if layer_of(module, table) is None:
            problems.append("%s is in no layer: add it to the table in docs/design.md" % module)
    for imp in imports:
        source, target = layer_of(imp.source, table), layer_of(imp.target, table)
        if source is not None and target is not None and target > source:
            problems.append("%s: %s (layer %d) imports %s (layer %d), a higher layer"
                            % (imp.where(files), imp.source, source, imp.target, target))
        if imp.in_function and not imp.commented:
            problems.append("%s: import of %s inside a function without a comment saying why"
                            % (imp.where(files), imp.target))
    return problems


# Tests ----------------------------------------------------------------------------------------------

def test_graphfn_keeps_the_import_layers():
    problems = check(PACKAGE_ROOT, DESIGN_DOC)
    assert not problems, "\n" + "\n".join(problems)


def test_the_table_places_the_known_layers_in_order():
    table = read_layer_table(DESIGN_DOC)
    layer = {entry: number for number, entries in table for entry in entries}
    assert layer["graphfn._core"] < layer["graphfn.util"] < layer["graphfn.framework"] < layer["graphfn.ops"]
    assert layer["graphfn.ops"] < layer["graphfn.variables"] < layer["graphfn.function"] < layer["graphfn.keras"]


def _write_package(root, files, table_rows):
    for name, text in files.items():
        path = os.path.join(str(root), *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    doc = os.path.join(str(root), "design.md")
    with open(doc, "w", encoding="utf-8") as f:
        f.write("## Python layers\n\n| Layer | Modules | What |\n| --- | --- | --- |\n")
        f.writelines("| %d | %s | x |\n" % (number, ", ".join("`%s`" % m for m in modules))
                     for number, modules in table_rows)
        f.write("\n## Next\n")
    return doc


_TABLE = [(0, ["graphfn._core"]), (1, ["graphfn.framework"]), (2, ["graphfn.ops"]), (3, ["graphfn"])]
_CLEAN = {
    "graphfn/__init__.py": "from graphfn.ops import math_ops\n",
    "graphfn/framework/__init__.py": "",
    "graphfn/framework/tensor.py": "from graphfn import _core\n",
    "graphfn/ops/__init__.py": "",
    "graphfn/ops/math_ops.py": ("from graphfn.framework import tensor\nfrom . import array_ops\n\n"
                                "def f():\n    import numpy  # lazily: slow to import\n"),
    "graphfn/ops/array_ops.py": "from ..framework.tensor import Tensor\n",
}


def test_a_clean_package_passes(tmp_path):
    doc = _write_package(tmp_path, _CLEAN, _TABLE)
    assert check(str(tmp_path), doc) == []


def test_an_import_of_a_higher_layer_fails_even_inside_a_function(tmp_path):
    files = dict(_CLEAN)
    files["graphfn/ops/nn_ops.py"] = ""
    files["graphfn/framework/tensor.py"] = "def f():\n    from graphfn.ops import nn_ops  # late\n"
    doc = _write_package(tmp_path, files, _TABLE)
    assert check(str(tmp_path), doc) == [
        "graphfn/framework/tensor.py:2: graphfn.framework.tensor (layer 1) imports graphfn.ops.nn_ops "
        "(layer 2), a higher layer"]


def test_a_cycle_fails_and_is_printed(tmp_path):
    files = dict(_CLEAN)
    files["graphfn/ops/array_ops.py"] = "def f():\n    from graphfn.ops.math_ops import g  # late\n"
    doc = _write_package(tmp_path, files, _TABLE)
    assert check(str(tmp_path), doc) == [
        "import cycle: graphfn.ops.array_ops (graphfn/ops/array_ops.py:2) -> "
        "graphfn.ops.math_ops (graphfn/ops/math_ops.py:2) -> graphfn.ops.array_ops"]


def test_an_unplaced_module_and_an_uncommented_late_import_fail(tmp_path):
    files = dict(_CLEAN)
    files["graphfn/extra.py"] = "def f():\n    from graphfn.framework import tensor\n"
    doc = _write_package(tmp_path, files, _TABLE)
    assert check(str(tmp_path), doc) == [
        "graphfn.extra is in no layer: add it to the table in docs/design.md",
        "graphfn/extra.py:2: import of graphfn.framework.tensor inside a function without a comment saying why"]


@pytest.mark.parametrize("module, expected", [
    ("graphfn", 3), ("graphfn.ops", 2), ("graphfn.ops.math_ops", 2), ("graphfn._core", 0), ("graphfn.extra", None),
])
def test_layer_of_takes_the_longest_entry_and_the_root_only_exactly(module, expected):
    assert layer_of(module, _TABLE) == expected
