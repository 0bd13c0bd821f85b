"""Runs the code cells of the seed documents and compares what they print with what the seeds
show (or, where TensorFlow changed since, what TensorFlow 2.21 prints).

The cells live in tests/conformance/seeds/seed*_cells.py (extracted once, by hand). A document's
cells run in order in one namespace, like a notebook: the value of a cell's last expression is
shown with repr() ("each" display shows every top-level expression, for `>>>` transcripts).
Each cell's source is written to a real file first, so AutoGraph and inspect can read it.

    python tests/conformance/run_seeds.py            # graphfn, prints `seeds: N passed, M failed`
    python tests/conformance/run_seeds.py -v         # plus a diff for every failing cell
    /work/tfenv/bin/python tests/conformance/run_seeds.py --backend tensorflow --show
                                                     # what real TF prints (to record expectations)
"""

import argparse
import ast
import contextlib
import difflib
import importlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
DOCUMENTS = ("seed000_cells", "seed001_cells", "seed002_cells")

# Masks applied to expected and actual text alike: memory addresses and TF's C++ log lines.
COMMON_MASKS = (
    (r"0x[0-9a-fA-F]+", "0x?"),
    (r"(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWEF] .*\n?", ""),
    (r"(?m)^(WARNING: All log messages before absl|I0000 |W0000 ).*\n?", ""),
    (r'File "[^"]*[/\\](seed\d+_cells_\d+\.py)"', r'File "\1"'),  # the cell's temp file
)


def load_document(name):
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    return importlib.import_module("seeds." + name)


def normalise(text, masks=()):
    for pattern, repl in tuple(COMMON_MASKS) + tuple(masks):
        text = re.sub(pattern, repl, text)
    return text


class _Capture:
    """Captures Python-level and fd-level writes to stdout and stderr (tf.print writes to fd 2)."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self._files = [tempfile.TemporaryFile(mode="w+b") for _ in range(2)]
        self._saved_fds = [os.dup(1), os.dup(2)]
        os.dup2(self._files[0].fileno(), 1)
        os.dup2(self._files[1].fileno(), 2)
        self._py = [io.StringIO(), io.StringIO()]
        self._saved_py = (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = self._py
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self._saved_py
        for fd, saved in zip((1, 2), self._saved_fds):
            os.dup2(saved, fd)
            os.close(saved)
        texts = []
        for py, f in zip(self._py, self._files):
            f.seek(0)
            texts.append(py.getvalue() + f.read().decode("utf-8", "replace"))
            f.close()
        self.stdout, self.stderr = texts
        return False


def _display(value):
    if value is not None:
        print(repr(value))


def _with_display(code, mode, filename):
    """Compiles `code`, turning shown expressions into `__display__(expr)` calls."""
    tree = ast.parse(code, filename)
    body = tree.body
    targets = []
    if mode == "each":
        targets = [s for s in body if isinstance(s, ast.Expr)]
    elif mode == "last" and body and isinstance(body[-1], ast.Expr):
        targets = [body[-1]]
    for stmt in targets:
        stmt.value = ast.Call(ast.Name("__display__", ast.Load()), [stmt.value], [])
    return compile(ast.fix_missing_locations(tree), filename, "exec")


class CellResult:
    def __init__(self, cell, stdout="", stderr="", error=None, skipped=None):
        self.cell, self.stdout, self.stderr, self.error, self.skipped = (
            cell, stdout, stderr, error, skipped)

    def mismatches(self):
        """(what, expected, actual) for each normalised output that differs."""
        cell, masks = self.cell, self.cell.get("masks", ())
        out = []
        for what, actual in (("stdout", self.stdout), ("stderr", self.stderr),
                             ("error", self.error or "")):
            expected = normalise(cell.get(what, ""), masks)
            actual = normalise(actual, masks)
            if what == "stdout" and cell.get("match") == "prefix":
                actual = actual[:len(expected)]  # the seed shows a cut-off output
            if expected != actual:
                out.append((what, expected, actual))
        return out

    def report(self):
        lines = []
        for what, expected, actual in self.mismatches():
            lines.append(f"--- {self.cell['id']} {what}")
            lines.extend(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                              "expected", "actual", lineterm=""))
        return "\n".join(lines)


def run_document(name, backend="graphfn", workdir=None):
    """Runs a document's cells in a fresh Python process (a notebook gets a fresh kernel: no
    global state such as run_functions_eagerly or retracing counts leaks between documents);
    returns {cell id: CellResult}."""
    doc = load_document(name)
    with tempfile.TemporaryDirectory(prefix="graphfn_seeds_") as tmp:
        out = os.path.join(tmp, "results.json")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        if backend == "tensorflow":
            env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        command = [sys.executable, os.path.abspath(__file__), "--in-process", "--backend", backend,
                   "--workdir", workdir or tmp, "--json", out, name]
        proc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        if not os.path.exists(out):  # the runner itself failed (a failing cell still writes out)
            raise RuntimeError(f"running {name} failed:\n{proc.stderr}")
        with open(out) as f:
            raw = json.load(f)
    results = {}
    for cell in doc.CELLS:
        if cell.get("status") == "not_applicable":
            results[cell["id"]] = CellResult(cell, skipped=cell["reason"])
        else:
            results[cell["id"]] = CellResult(cell, **raw[cell["id"]])
    return results


def run_document_here(name, backend="graphfn", workdir=None):
    """Runs every cell of a document in order in this process; returns {cell id: CellResult}."""
    doc = load_document(name)
    workdir = workdir or tempfile.mkdtemp(prefix="graphfn_seeds_")
    namespace = {"__name__": "__main__", "__display__": _display}
    results = {}
    for index, cell in enumerate(doc.CELLS):
        if cell.get("status") == "not_applicable":
            results[cell["id"]] = CellResult(cell, skipped=cell["reason"])
            continue
        code = cell["code"]
        if backend == "tensorflow":
            code = code.replace("import graphfn as tf", "import tensorflow as tf")
        path = os.path.join(workdir, f"{name}_{index:02d}.py")
        with open(path, "w") as f:
            f.write(code)
        error = None
        with _Capture() as cap:
            try:
                exec(_with_display(code, cell.get("display", "last"), path), namespace)
            except Exception as e:  # the cell's own error is part of its output
                error = f"{type(e).__name__}: {e}"
                if os.environ.get("GRAPHFN_SEEDS_TRACEBACK"):
                    traceback.print_exc()
        results[cell["id"]] = CellResult(cell, cap.stdout, cap.stderr, error)
    return results


def cell_passed(result):
    return result.skipped is None and not result.mismatches()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("graphfn", "tensorflow"), default="graphfn")
    parser.add_argument("--show", action="store_true", help="print every cell's raw output")
    parser.add_argument("--json", metavar="FILE", help="write every cell's raw output as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="diff failing cells")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    parser.add_argument("documents", nargs="*", default=DOCUMENTS)
    args = parser.parse_args(argv)
    if args.backend == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    passed = failed = xfailed = skipped = 0
    raw = {}
    for name in args.documents:
        run = run_document_here if args.in_process else run_document
        for cid, result in run(name, args.backend, args.workdir).items():
            raw[cid] = dict(stdout=result.stdout, stderr=result.stderr, error=result.error)
            if args.show and result.skipped is None:
                print(f"===== {cid}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}"
                      f"--- error\n{result.error}\n")
            if result.skipped is not None:
                skipped += 1
            elif cell_passed(result):
                passed += 1
            elif result.cell.get("status") == "xfail":
                xfailed += 1
            else:
                failed += 1
                if args.verbose:
                    print(result.report())
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1, ensure_ascii=False)
    print(f"seeds: {passed} passed, {failed} failed"
          f" ({xfailed} xfailed, {skipped} not applicable)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
