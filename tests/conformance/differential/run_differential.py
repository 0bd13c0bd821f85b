"""The differential suite: small snippets run with `tf` bound to graphfn and to real TensorFlow;
their stdout, stderr (tf.print), exception (type and message) and the value of their last
expression (dtype, shape, values) must agree.

Cases live in tests/conformance/differential/cases_*.py (a list CASES of dicts made by
`case()`). TensorFlow's results are recorded in expected_tf.json so CI checks graphfn without
TensorFlow:

    python tests/conformance/differential/run_differential.py          # graphfn vs the record
    python tests/conformance/differential/run_differential.py -v       # plus a diff per failure
    /work/tfenv/bin/python tests/conformance/differential/run_differential.py --record
                                              # re-record TensorFlow's results (TF 2.21)
    ... run_differential.py --live            # graphfn vs TensorFlow run now (needs tensorflow)
"""

import argparse
import ast
import difflib
import hashlib
import importlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.dirname(HERE)
if CONFORMANCE not in sys.path:
    sys.path.insert(0, CONFORMANCE)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from run_seeds import _Capture, normalise  # noqa: E402  (fd-level capture, shared masks)

MODULES = ("cases_tracing", "cases_concrete", "cases_autograph", "cases_graph", "cases_variables",
           "cases_gradients", "cases_print", "cases_ops")
RECORD = os.path.join(HERE, "expected_tf.json")
FIELDS = ("stdout", "stderr", "error", "value")

# Masks for every case, on top of run_seeds' (addresses, TF's C++ log lines).
DIFF_MASKS = (
    (r'File "[^"]*[/\\]case_\d+\.py"', 'File "<case>"'),  # the case's own source file
    (r"<(tensorflow\.python\.eager\.polymorphic_function\.polymorphic_function"
     r"|graphfn\.function\.polymorphic_function)\.Function object",
     "<...polymorphic_function.Function object"),
    (r"_?_MklMatMul", "MatMul"),  # TF's oneDNN build renames the kernel in its messages
    # Where the tensor class lives (module paths differ by design; see docs/differences.md).
    (r"'(tensorflow\.python\.framework\.ops|graphfn\._core)\.EagerTensor'", "'...EagerTensor'"),
)


def case(id, code, **options):
    """One case. Options: masks (extra (regex, repl) pairs), compare (fields to compare, default
    all of FIELDS), message=False (compare an exception's type only), rtol (for float values),
    deliberate="reason" (graphfn differs from TF on purpose: listed in docs/differences.md),
    gap="reason" (graphfn is wrong here and not fixed yet: counted as failed)."""
    return dict(id=id, code=code, **options)


def code_hash(c):
    """Recorded with TF's result, so that a case edited after recording is noticed."""
    return hashlib.sha1(c["code"].encode("utf-8")).hexdigest()[:12]


def load_cases(modules=MODULES):
    cases = []
    for name in modules:
        cases.extend(importlib.import_module(name).CASES)
    ids = [c["id"] for c in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError("duplicate case ids: %s" % sorted(duplicates))
    return cases


# Running ---------------------------------------------------------------------------------------

def _plain(value):
    """A JSON-able copy of numpy data (bytes as text, non-finite floats as strings)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return {"bytes": value.decode("utf-8", "backslashreplace")}
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": repr(value)}
    if isinstance(value, complex):
        return {"complex": [_plain(value.real), _plain(value.imag)]}
    return value


def describe(value):
    """What is compared of a case's last expression: for tensors dtype, shape and values."""
    import numpy as np
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return {"py": type(value).__name__, "value": _plain(value)}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": {str(k): describe(v) for k, v in value.items()}}
    if isinstance(value, (np.ndarray, np.generic)):
        return {"ndarray": str(value.dtype), "shape": list(np.shape(value)),
                "value": _plain(np.asarray(value).tolist())}
    if hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape"):
        kind = "variable" if "Variable" in type(value).__name__ else "tensor"
        shape = value.shape
        dims = None if shape.rank is None else list(shape.as_list())
        return {kind: value.dtype.name, "shape": dims, "value": _plain(np.asarray(value.numpy()).tolist())}
    return {"repr": repr(value)}


def _compile(code, filename):
    """Compiles a case; a final expression statement becomes `__value__ = expr`."""
    tree = ast.parse(code, filename)
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body[-1]
        tree.body[-1] = ast.Assign([ast.Name("__value__", ast.Store())], last.value)
    return compile(ast.fix_missing_locations(tree), filename, "exec")


def run_cases_here(cases, backend, workdir):
    """Runs each case in a fresh namespace in this process; returns the backend's version and
    {id: raw result}."""
    if backend == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = importlib.import_module(backend)
    import numpy as np
    results = {}
    for index, c in enumerate(cases):
        path = os.path.join(workdir, "case_%03d.py" % index)
        with open(path, "w") as f:
            f.write(c["code"])
        namespace = {"__name__": "__main__", "tf": tf, "np": np}
        error = value = None
        with _Capture() as cap:
            try:
                exec(_compile(c["code"], path), namespace)
                value = describe(namespace.get("__value__"))
            except Exception as e:  # the case's exception is part of its result
                error = {"type": type(e).__name__, "message": str(e)}
                if os.environ.get("GRAPHFN_DIFF_TRACEBACK"):
                    traceback.print_exc()
            finally:
                if hasattr(tf, "config"):
                    tf.config.run_functions_eagerly(False)
        results[c["id"]] = dict(stdout=cap.stdout, stderr=cap.stderr, error=error, value=value)
    return {"version": tf.__version__, "results": results}


def run_cases(cases, backend="graphfn"):
    """Runs the cases in a fresh Python process (no global state leaks into the caller); returns
    {"version": backend version, "results": {id: raw result}}."""
    with tempfile.TemporaryDirectory(prefix="graphfn_diff_") as tmp:
        out = os.path.join(tmp, "results.json")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        ids = os.path.join(tmp, "ids.json")
        with open(ids, "w") as f:
            json.dump([c["id"] for c in cases], f)
        command = [sys.executable, os.path.abspath(__file__), "--in-process", "--backend", backend,
                   "--workdir", tmp, "--json", out, "--ids", ids]
        proc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        if not os.path.exists(out):
            raise RuntimeError("running the differential cases under %s failed:\n%s" % (backend, proc.stderr))
        with open(out) as f:
            return json.load(f)


# Comparing -------------------------------------------------------------------------------------

def normalised(c, raw):
    """A case's result with masks applied (what is recorded and compared)."""
    masks = tuple(DIFF_MASKS) + tuple(c.get("masks", ()))
    out = {}
    for field in c.get("compare", FIELDS):
        v = raw.get(field)
        if field in ("stdout", "stderr"):
            v = normalise(v or "", masks)
        elif field == "error" and v is not None:
            v = dict(type=v["type"], message=normalise(v["message"], masks) if c.get("message", True) else None)
        elif field == "value" and v is not None:
            v = json.loads(normalise(json.dumps(v, sort_keys=True), c.get("value_masks", ())))
        out[field] = v
    return out


def _close(a, b, rtol):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], rtol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=rtol, abs_tol=rtol)
    return a == b and type(a) is type(b)


def mismatches(c, expected, actual):
    """[(field, expected text, actual text)] for every compared field that differs."""
    out = []
    for field in c.get("compare", FIELDS):
        e, a = expected.get(field), actual.get(field)
        same = _close(e, a, c.get("rtol", 1e-6)) if field == "value" else e == a
        if not same:
            show = (lambda v: v) if field in ("stdout", "stderr") else (
                lambda v: json.dumps(v, indent=1, sort_keys=True, ensure_ascii=False))
            out.append((field, show(e) or "", show(a) or ""))
    return out


def report(c, problems, against="TensorFlow"):
    lines = []
    for field, e, a in problems:
        lines.append("--- %s %s (expected: %s)" % (c["id"], field, against))
        lines.extend(difflib.unified_diff(e.splitlines(), a.splitlines(), against, "graphfn", lineterm=""))
    return "\n".join(lines)


def load_record():
    with open(RECORD) as f:
        return json.load(f)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("graphfn", "tensorflow"), default="graphfn")
    parser.add_argument("--record", action="store_true", help="run under TensorFlow, write expected_tf.json")
    parser.add_argument("--live", action="store_true", help="compare with TensorFlow run now")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("-k", metavar="SUBSTRING", help="only cases whose id contains this")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cases = load_cases()
    if args.ids:
        with open(args.ids) as f:
            wanted = set(json.load(f))
        cases = [c for c in cases if c["id"] in wanted]
    if args.k:
        cases = [c for c in cases if args.k in c["id"]]
    if args.in_process:
        results = run_cases_here(cases, args.backend, args.workdir)
        with open(args.json, "w") as f:
            json.dump(results, f, ensure_ascii=False)
        return 0
    if args.record:
        run = run_cases(cases, "tensorflow")
        raw = run["results"]
        record = {"tensorflow": run["version"],
                  "cases": {c["id"]: dict(normalised(c, raw[c["id"]]), code=code_hash(c)) for c in cases}}
        if args.k and os.path.exists(RECORD):  # re-record only some cases
            old = load_record()
            old["cases"].update(record["cases"])
            record = old
        with open(RECORD, "w") as f:
            json.dump(record, f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")
        print("recorded %d cases from TensorFlow %s" % (len(raw), run["version"]))
        return 0
    if args.live:
        raw_tf = run_cases(cases, "tensorflow")["results"]
        expected = {c["id"]: normalised(c, raw_tf[c["id"]]) for c in cases}
    else:
        recorded = load_record()["cases"]
        expected = {c["id"]: recorded.get(c["id"]) for c in cases}
    raw = run_cases(cases, args.backend)["results"]
    passed = failed = deliberate = 0
    for c in cases:
        if expected[c["id"]] is None or expected[c["id"]].get("code", code_hash(c)) != code_hash(c):
            failed += 1
            print("--- %s: not recorded or edited since (run --record under TensorFlow)" % c["id"])
            continue
        problems = mismatches(c, expected[c["id"]], normalised(c, raw[c["id"]]))
        marked = "deliberate" if c.get("deliberate") else "gap" if c.get("gap") else None
        if not problems and not marked:
            passed += 1
            continue
        if not problems:
            print("--- %s: marked %s but matches TensorFlow" % (c["id"], marked))
        elif marked == "deliberate":
            deliberate += 1
            continue
        elif args.verbose:
            print(report(c, problems))
        else:
            print("--- %s: %s differ%s" % (c["id"], ", ".join(p[0] for p in problems),
                                         " (known gap)" if marked else ""))
        failed += 1
    print("differential: %d passed, %d failed (%d deliberate differences)" % (passed, failed, deliberate))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
