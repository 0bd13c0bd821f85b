"""graphfn/_core.pyi (the type stub of the C++ extension) names exactly what _core exports, so it
cannot go stale silently. After changing cpp/graphfn/bindings/, regenerate it with
tools/generate_core_stub.py.

The stub is read from beside the imported extension, so an installed graphfn is checked with the
stub its wheel shipped."""

import ast
import os
import types

import pytest

from graphfn import _core

STUB = os.path.join(os.path.dirname(_core.__file__), "_core.pyi")
REGENERATE = "regenerate the stub: python tools/generate_core_stub.py"


def _stub_tree():
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read(), STUB)


def _defined_names(body):
    """Names a stub body defines: classes, functions, annotated and plain assignments."""
    names = set()
    for node in body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _stub_classes():
    return {node.name: node for node in _stub_tree().body if isinstance(node, ast.ClassDef)}


def _is_python_added(value):
    """True for what graphfn's Python code sets on a _core class at import time (functions,
    properties computed in Python, plain values such as __array_priority__)."""
    if isinstance(value, (types.FunctionType, int, str)) or value is None:
        return True
    if type(value).__module__.startswith("graphfn.") and type(value).__module__ != "graphfn._core":
        return True  # a descriptor object of graphfn's Python code (variables.py's _SliceAssign)
    return isinstance(value, property) and isinstance(value.fget, types.FunctionType)


# pybind11's own members of every bound class, which a stub does not list.
# pybind11's own bookkeeping, which stubs leave out: the conduit, and an enum's member table
# (py::enum_ also sets the class docstring listing the members).
_PYBIND11_MEMBERS = {"_pybind11_conduit_v1_", "__entries", "__doc__"}


def _cpp_members(cls):
    """The members C++ defines on a _core class."""
    names = set()
    for name, value in vars(cls).items():
        if name in _PYBIND11_MEMBERS or _is_python_added(value):
            continue
        if name == "__init__" and type(value).__name__ == "wrapper_descriptor":
            continue  # no constructor bound: object's slot, not listed
        names.add(name)
    return names


def test_stub_parses_and_lists_all_names():
    tree = _stub_tree()
    declared = [n for n in tree.body if isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "__all__"]
    assert declared, "the stub has no __all__"
    listed = set(ast.literal_eval(declared[0].value))
    public = {name for name in vars(_core) if not name.startswith("_")}
    assert listed == public, REGENERATE


def test_stub_defines_what_the_module_exports():
    exported = {name for name in vars(_core) if not name.startswith("__")}
    defined = _defined_names(_stub_tree().body) - {"__all__"}
    difference = {"missing from the stub": sorted(exported - defined),
                  "in the stub, not exported by _core": sorted(defined - exported)}
    assert difference == {"missing from the stub": [], "in the stub, not exported by _core": []}, REGENERATE


@pytest.mark.parametrize("name", sorted(name for name, value in vars(_core).items() if isinstance(value, type)))
def test_stub_class_members_match(name):
    stub_class = _stub_classes().get(name)
    assert stub_class is not None, "class %s missing from the stub; %s" % (name, REGENERATE)
    in_stub = _defined_names(stub_class.body)
    in_cpp = _cpp_members(getattr(_core, name))
    difference = {"missing from the stub": sorted(in_cpp - in_stub),
                  "in the stub, not defined by _core": sorted(in_stub - in_cpp)}
    assert difference == {"missing from the stub": [], "in the stub, not defined by _core": []}, REGENERATE

