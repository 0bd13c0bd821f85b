"""The C++ layer check (cpp/check_layers.py, which the build runs before compiling): the checkout
passes it, and each kind of wrong-way include in a small made-up tree is reported with its file
and line."""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_SCRIPT = os.path.join(_ROOT, "cpp", "check_layers.py")


def _load_checker():
    spec = importlib.util.spec_from_file_location("check_layers", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check_layers = _load_checker()


def _tree(tmp_path, files):
    """A checkout with the real cpp/layers.txt and the given {path: text} sources."""
    (tmp_path / "cpp").mkdir(parents=True)
    shutil.copy(os.path.join(_ROOT, "cpp", "layers.txt"), tmp_path / "cpp" / "layers.txt")
    for path, text in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return str(tmp_path)


def _run(root):
    return subprocess.run([sys.executable, _SCRIPT, root], capture_output=True, text=True, timeout=60)


def test_layers_are_listed_lowest_first():
    layers = check_layers.read_layers(_ROOT)
    assert layers[:4] == ["core", "ir", "ops", "kernels"]
    assert layers[-1] == "bindings"
    assert layers.index("autodiff") < layers.index("runtime") < layers.index("tracing")
    assert len(set(layers)) == len(layers)


def test_every_folder_of_the_checkout_keeps_to_its_layer():
    assert check_layers.wrong_way_includes(_ROOT) == []
    assert _run(_ROOT).returncode == 0


def test_downward_and_own_layer_includes_pass(tmp_path):
    root = _tree(tmp_path, {
        "cpp/graphfn/core/a.h": '#pragma once\n',
        "cpp/graphfn/ir/b.h": '#include "graphfn/core/a.h"\n#include "graphfn/ir/c.h"\n',
        "cpp/graphfn/bindings/m.cc": '#include "graphfn/runtime/plan.h"\n#include <vector>\n',
        "cpp/tools/tool.cc": '#include "graphfn/runtime/saved_model.h"\n',
    })
    assert check_layers.wrong_way_includes(root) == []
    assert _run(root).returncode == 0


def test_an_upward_include_fails_with_file_and_line(tmp_path):
    root = _tree(tmp_path, {
        "cpp/graphfn/kernels/k.cc": '#include "graphfn/kernels/k.h"\n\n#include "graphfn/runtime/plan.h"\n',
    })
    result = _run(root)
    assert result.returncode == 1
    assert result.stderr == (
        "cpp/graphfn/kernels/k.cc:3: layer kernels may not include runtime (a later layer, cpp/layers.txt)\n")


def test_a_folder_missing_from_the_table_fails(tmp_path):
    root = _tree(tmp_path, {"cpp/graphfn/newroom/x.h": "#pragma once\n"})
    result = _run(root)
    assert result.returncode == 1
    assert "cpp/graphfn/newroom: folder 'newroom' is not in cpp/layers.txt" in result.stderr


def test_an_include_of_an_unknown_folder_fails(tmp_path):
    root = _tree(tmp_path, {"cpp/graphfn/ops/o.cc": '  #  include "graphfn/nowhere/x.h"\n'})
    problems = check_layers.wrong_way_includes(root)
    assert [(os.path.basename(p[0]), p[1], p[2]) for p in problems] == [("o.cc", 1, "nowhere")]


def test_programs_may_not_include_the_python_bindings(tmp_path):
    root = _tree(tmp_path, {"cpp/tools/tool.cc": '#include "graphfn/bindings/bind.h"\n'})
    result = _run(root)
    assert result.returncode == 1
    assert "cpp/tools/tool.cc:1: programs without Python may not include bindings" in result.stderr


def test_the_stamp_is_written_only_when_the_check_passes(tmp_path):
    good = _tree(tmp_path / "good", {"cpp/graphfn/core/a.h": "#pragma once\n"})
    stamp = tmp_path / "layers.ok"
    assert subprocess.run([sys.executable, _SCRIPT, good, "--stamp", str(stamp)], timeout=60).returncode == 0
    assert stamp.exists()
    stamp.unlink()
    bad = _tree(tmp_path / "bad", {"cpp/graphfn/core/a.h": '#include "graphfn/ir/graph.h"\n'})
    result = subprocess.run([sys.executable, _SCRIPT, bad, "--stamp", str(stamp)], capture_output=True, timeout=60)
    assert result.returncode == 1
    assert not stamp.exists()
