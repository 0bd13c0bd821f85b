"""Fuzzing every registered op through its raw handle (`graphfn._core.op`), eagerly, while
building a graph with known and with unknown input shapes, and inside `graphfn.function` (traced,
then run). Inputs, list lengths, dtypes, shapes and attrs are drawn at random, wrong kinds and
out-of-range values included. An op call may succeed or raise one of ALLOWED (TF's exception
types for bad op calls); anything else is a finding, and a crash is one too.

Deterministic by seed: call number i of a run draws from its own generator seeded with
"<seed>:<i>", so `--seed S --start I --calls 1 --verbose` replays one call of a long run.

    python tests/fuzz/op_fuzzer.py --calls 100000 --seed 1          # plain random
    python tests/fuzz/op_fuzzer.py --atheris -atheris_runs=100000   # coverage-guided (pip install atheris)

docs/fuzzing.md explains the long run under ASan+UBSan. tests/python/test_op_fuzzer.py runs a short
one with the test suite.
"""

import argparse
import collections
import math
import re
import sys
import time
import warnings

import numpy as np

import graphfn as tf
from graphfn import _core

ALLOWED = (tf.errors.OpError, TypeError, ValueError, OverflowError)

# PrintV2 writes to stdout or files, WriteFile to files (random paths); everything else only
# computes (ReadFile reads random paths: a missing file is NotFoundError).
SKIPPED_OPS = {"PrintV2", "WriteFile"}

DTYPES = [tf.float32, tf.float64, tf.int32, tf.int64, tf.int16, tf.int8, tf.uint8, tf.bool, tf.string,
          tf.float16, tf.bfloat16, tf.complex64, tf.complex128, tf.uint16, tf.uint32, tf.uint64]
# DataType numbers to try for type attrs: graphfn's, TF's others (graphfn has no tensors for
# them), and numbers naming no DataType.
DTYPE_CODES = [1, 2, 3, 4, 5, 6, 7, 9, 10, 20] * 3 + [0, 8, 14, 19, 21, 22, 23, 24, 30, 40, 99, -1, 300, 2**40]


# String elements: ASCII, text for the parsers (numbers, spaces), and Unicode in every shape the
# tf.strings kernels must survive: multi-byte characters, invalid UTF-8 (a lone continuation
# byte, a truncated sequence, an encoded surrogate, an overlong form), UTF-16 surrogate halves.
STRINGS = ["", "a", "bc", "%s {}", " a  b ", "1.5", "-7", "0x1F", "h\u00e9llo", "\U0001F600z", "\u00df",
           b"\xff\xfe", b"\x80", b"a\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xd8\x00\x00", b"\x00\x00\xd8\x00"]
# String attrs: the values the string and Unicode ops accept, and some they must refuse.
STRING_ATTRS = ["", "stdout", "stderr", "{}", "%s", "x" * 40, "NHWC", "\ud800", "UTF-8", "UTF-16-BE", "UTF-32-BE",
                "latin1", "utf-8", "replace", "ignore", "strict", "UTF8_CHAR", "BYTE", "(", "a*", "\\1"]


class RandomChooser:
    """Choices drawn from Python's seeded generator (plain-random mode)."""

    def __init__(self, seed):
        import random
        self._rng = random.Random(seed)

    def int(self, lo, hi):
        return self._rng.randint(lo, hi)

    def float(self):
        return self._rng.uniform(-4.0, 4.0)


class BytesChooser:
    """Choices read from a fuzzer's input bytes (atheris mode), so mutations of the bytes map to
    nearby calls."""

    def __init__(self, data):
        import atheris
        self._fdp = atheris.FuzzedDataProvider(data)

    def int(self, lo, hi):
        return self._fdp.ConsumeIntInRange(lo, hi)

    def float(self):
        return self._fdp.ConsumeFloatInRange(-4.0, 4.0)


class OpSignature:
    """An op's inputs and attrs, parsed from TF's one-line OpDef summary
    ("Op<name=Pack; signature=values:N*T -> output:T; attr=N:int,min=1; attr=T:type; ...>")."""

    def __init__(self, name):
        self.name = name
        summary = _core.op_def_summary(name)
        signature = re.search(r"signature=(.*?)(?:;|>$)", summary).group(1)
        inputs_text = signature.split("->")[0].strip()
        self.attrs = {}
        for match in re.finditer(r"attr=(\w+):([\w()]+)(,default=[^;>]*)?", summary):
            self.attrs[match.group(1)] = (match.group(2), match.group(3) is not None)
        self.inputs = []  # (name, is_list)
        for item in filter(None, (s.strip() for s in inputs_text.split(","))):
            arg, _, kind = item.partition(":")
            is_list = "*" in kind or self.attrs.get(kind, ("",))[0] == "list(type)"
            self.inputs.append((arg, is_list))


_signatures = {}


def signature(name):
    if name not in _signatures:
        _signatures[name] = OpSignature(name)
    return _signatures[name]


def op_names(pattern=None):
    """The registry's ops the fuzzer calls; with `pattern`, those whose name it matches (re.search)."""
    return sorted(n for n in _core.op_names() if n not in SKIPPED_OPS and (pattern is None or re.search(pattern, n)))


class CallMaker:
    """Draws one op call: positional inputs and keyword attrs."""

    def __init__(self, choose, resources):
        self.c = choose
        self.resources = resources
        # Most calls share one dtype between their tensors and type attrs, so that calls get past
        # type checking to shape functions and kernels.
        self.dtype = None

    def pick(self, items):
        return items[self.c.int(0, len(items) - 1)]

    def small_int(self):
        return self.pick([0, 0, 1, 1, 2, 3, -1, -2, 4, 5, 7, 64, -65, 2**31, -(2**31) - 1, 2**40, 2**63 - 1])

    def shape(self):
        rank = self.pick([0, 0, 1, 1, 1, 2, 2, 3, 4])
        return [self.pick([0, 1, 1, 2, 2, 3, 4]) for _ in range(rank)]

    def array(self, dtype, shape):
        n = int(np.prod(shape)) if shape else 1
        if dtype == tf.string:
            values = np.array([self.pick(STRINGS) for _ in range(n)], dtype=object)
        elif dtype == tf.bool:
            values = np.array([self.c.int(0, 1) == 1 for _ in range(n)])
        elif dtype.is_floating or dtype.is_complex:
            values = np.array([self.pick([0.0, 1.0, -1.5, self.c.float(), math.nan, math.inf, 1e30])
                               for _ in range(n)])
            if dtype.is_complex:
                values = values + 1j * np.array([self.pick([0.0, 2.5, -1.0, math.nan]) for _ in range(n)])
            with np.errstate(over="ignore", invalid="ignore"):  # 1e30 is inf in float16
                values = values.astype(dtype.as_numpy_dtype)
        else:
            info = np.iinfo(dtype.as_numpy_dtype)
            values = np.array([self.pick([0, 1, 2, 3, -1, -2, int(info.max), int(info.min)])
                               for _ in range(n)]).astype(dtype.as_numpy_dtype)
        return values.reshape(shape)

    def tensor(self):
        if self.resources and self.c.int(0, 15) == 0:
            return self.pick(self.resources)
        dtype = self.pick(DTYPES + [tf.int32, tf.float32, tf.int64])
        if self.dtype is not None and self.c.int(0, 3) > 0:
            dtype = self.dtype
        return tf.constant(self.array(dtype, self.shape()))

    def python_value(self):
        kind = self.c.int(0, 9)
        if kind == 0:
            return self.pick([None, True, False, "s", b"\xff", "\ud800", 1.5, math.nan])
        if kind == 1:
            return self.small_int()
        if kind == 2:
            return [self.small_int() for _ in range(self.c.int(0, 4))]
        if kind == 3:
            return self.pick([[], [[]], [[1, 2], [3]], [[1, 2], [3, 4]], [1.0, "a"], [[[0]]]])
        if kind == 4:
            return self.array(self.pick(DTYPES[:-1]), self.shape())
        return self.tensor()

    def input(self, is_list):
        if not is_list:
            return self.python_value()
        if self.c.int(0, 19) == 0:
            return self.python_value()  # not a list at all
        return [self.python_value() for _ in range(self.pick([0, 1, 1, 2, 2, 2, 3, 4, 5]))]

    def attr(self, kind):
        if self.c.int(0, 24) == 0:  # a value of the wrong kind
            return self.pick([None, "x", 1.5, [1], object(), -1, True, "\ud800", 2**70])
        if kind == "type" and self.dtype is not None and self.c.int(0, 2) > 0:
            return self.dtype
        if kind == "type":
            code = self.pick(DTYPE_CODES)
            return self.pick(DTYPES) if self.c.int(0, 1) else code
        if kind == "int":
            return self.small_int()
        if kind == "bool":
            return self.c.int(0, 1) == 1
        if kind == "float":
            return self.pick([0.0, 0.2, -1.0, 1e30, math.nan, math.inf])
        if kind == "string":
            return self.pick(STRING_ATTRS)
        if kind == "list(int)":
            return [self.small_int() for _ in range(self.c.int(0, 4))]
        if kind == "list(type)":
            return [self.attr("type") for _ in range(self.c.int(0, 3))]
        if kind == "shape":
            return self.pick([None, [], [None], [2, None], [-1], [2**62, 2**62]]) if self.c.int(0, 2) == 0 else self.shape()
        if kind == "list(shape)":
            return [self.attr("shape") for _ in range(self.c.int(0, 3))]
        if kind == "tensor":
            return self.python_value()
        return self.python_value()

    def sparse_triple(self, dense_shape):
        """A SparseTensor's (indices, values, dense_shape) tensors: mostly consistent (sorted, in
        range), sometimes not (unsorted, repeated, negative or past-the-end indices, negative or
        huge dims)."""
        rank = len(dense_shape)
        n = self.pick([0, 1, 2, 3, 5])
        rows = []
        for _ in range(n):
            rows.append([self.c.int(0, d - 1) if d > 0 else 0 for d in dense_shape])
        flaw = self.c.int(0, 9)
        if flaw == 0 and rows and rank:
            rows[self.c.int(0, n - 1)][self.c.int(0, rank - 1)] = self.pick([-1, 2**40, 7])
        if flaw != 1:
            rows.sort()
        if flaw == 2 and rows:
            rows.append(list(rows[-1]))
        dims = list(dense_shape)
        if flaw == 3 and dims:
            dims[self.c.int(0, rank - 1)] = self.pick([-1, -5, 2**40, 2**62, 2**63 - 1])
        indices = np.array(rows, dtype=np.int64).reshape([len(rows), rank])
        dtype = self.dtype if self.dtype is not None and self.dtype != tf.string else tf.float32
        return (tf.constant(indices), tf.constant(self.array(dtype, [len(rows)])),
                tf.constant(np.array(dims, dtype=np.int64).reshape([rank])))

    def splits(self):
        """Row splits of a ragged tensor: valid ([0, ..., n] ascending) or not."""
        lengths = [self.pick([0, 1, 2, 3]) for _ in range(self.pick([0, 1, 2, 3]))]
        splits = list(np.cumsum([0] + lengths))
        if self.c.int(0, 4) == 0 and splits:
            splits[self.c.int(0, len(splits) - 1)] = self.pick([-1, 9, 2**40])
        return tf.constant(np.array(splits, dtype=self.pick([np.int64, np.int32])) if splits else np.zeros([0], np.int64))

    def structured_inputs(self, sig, args):
        """Replaces the inputs that form SparseTensors (`*indices`, `*values`, `*shape`) with
        sparse triples sharing one dense shape, and `*splits` inputs with row splits, so that calls
        get past the checks of the sparse and ragged kernels."""
        names = [name for name, _ in sig.inputs]
        position = {name: k for k, name in enumerate(names) if k < len(args)}
        if not any(name.endswith(("indices", "splits")) for name in position):
            return
        dense_shape = self.shape()
        for name in names:
            if not name.endswith("indices") or name not in position:
                continue
            prefix = name[:-len("indices")]
            values = next((v for v in (prefix + "values", "values") if v in position), None)
            shape = next((v for v in (prefix + "shape", prefix + "dense_shape", "dense_shape", "shape", "output_shape",
                                      "input_shape") if v in position), None)
            if values is None and shape is None:
                continue
            if self.c.int(0, 3) == 0:
                dense_shape = self.shape()  # operands of different dense shapes, now and then
            triple = self.sparse_triple(dense_shape)
            args[position[name]] = triple[0]
            if values is not None:
                args[position[values]] = triple[1]
            if shape is not None:
                args[position[shape]] = triple[2]
        for name in names:
            if name.endswith("splits") and name in position and self.c.int(0, 2) > 0:
                args[position[name]] = self.splits()
        for k, arg in enumerate(args):  # the other inputs: mostly tensors (thresholds, defaults, axes)
            if not isinstance(arg, (tf.Tensor, list)) and self.c.int(0, 2) > 0:
                args[k] = self.tensor()

    def call(self, sig):
        if self.c.int(0, 3) > 0:
            self.dtype = self.pick(DTYPES + [tf.int32, tf.float32, tf.int32, tf.float32])
        n_inputs = len(sig.inputs)
        if self.c.int(0, 29) == 0:
            n_inputs = self.c.int(0, 5)  # the wrong number of inputs
        args = [self.input(sig.inputs[k][1] if k < len(sig.inputs) else False) for k in range(n_inputs)]
        if self.c.int(0, 1) == 0:
            self.structured_inputs(sig, args)
        kwargs = {}
        for name, (kind, has_default) in sig.attrs.items():
            if self.c.int(0, 2 if has_default else 5) == 0 or ("func" in kind and self.c.int(0, 9) > 0):
                continue
            kwargs[name] = self.attr(kind)
        if self.c.int(0, 99) == 0:
            kwargs["no_such_attr"] = 1
        return args, kwargs


def as_spec(value, unknown_shapes):
    """A TensorSpec for a tensor input of a function call (others are captured as constants)."""
    shape = None if unknown_shapes else value.shape
    return tf.TensorSpec(shape, value.dtype)


def run_eager(op, args, kwargs):
    return op(*args, **kwargs)


def run_graph(op, args, kwargs, unknown_shapes):
    """Graph building only: tensor inputs become placeholders (known or unknown shapes)."""
    graph = _core.Graph()
    _core.push_graph(graph)
    try:
        fed = []
        for i, a in enumerate(args):
            if isinstance(a, tf.Tensor) and a.dtype.name != "resource":
                shape = None if unknown_shapes else list(a.shape)
                fed.append(graph.add_placeholder(a.dtype.as_datatype_enum, shape, "arg%d" % i))
            else:
                fed.append(a)
        return op(*fed, **kwargs)
    finally:
        _core.pop_graph()


def run_function(op, args, kwargs, unknown_shapes):
    """Traced into a graph by graphfn.function, then run (plan building and kernels)."""
    tensor_positions = [i for i, a in enumerate(args)
                        if isinstance(a, tf.Tensor) and a.dtype.name != "resource"]
    signature_ = [as_spec(args[i], unknown_shapes) for i in tensor_positions]

    def body(*tensors):
        call_args = list(args)
        for i, t in zip(tensor_positions, tensors):
            call_args[i] = t
        return op(*call_args, **kwargs)

    fn = tf.function(body, input_signature=signature_, autograph=False)
    return fn(*[args[i] for i in tensor_positions])


def run_mode(op, mode, args, kwargs):
    if mode == "eager":
        return run_eager(op, args, kwargs)
    if mode.startswith("graph"):
        return run_graph(op, args, kwargs, mode.endswith("unknown"))
    return run_function(op, args, kwargs, mode.endswith("unknown"))


MODES = ("eager", "graph_known", "graph_unknown", "function_known", "function_unknown")


def one_call(choose, resources, op_list):
    """Draws and runs one op call; returns (op name, mode, outcome) where outcome is "ok" or the
    exception type's name. Raises what is not in ALLOWED."""
    maker = CallMaker(choose, resources)
    name = op_list[choose.int(0, len(op_list) - 1)]
    mode = MODES[choose.int(0, len(MODES) - 1)]
    op = _core.op(name)
    args, kwargs = [], {}
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            # NumPy's warnings (a NaN cast to int) and retracing warnings are not findings.
            warnings.simplefilter("ignore")
            args, kwargs = maker.call(signature(name))
            run_mode(op, mode, args, kwargs)
    except ALLOWED as e:
        return name, mode, type(e).__name__
    except BaseException as e:
        if hasattr(e, "add_note"):  # Python 3.11+
            e.add_note("op fuzzer call: %s %s args=%r kwargs=%r" % (name, mode, args, kwargs))
        raise
    return name, mode, "ok"


def make_resources():
    """Variable handles, so resource ops meet real resources too."""
    return [tf.Variable(1.0).handle, tf.Variable([1, 2, 3]).handle, tf.Variable("s").handle]


def run(seed, calls, start=0, verbose=False, progress_every=0, resources=None, keep_going=False, ops=None):
    """Runs calls start .. start+calls-1 of the run with `seed`; returns the outcome histogram.
    With `keep_going`, a disallowed exception is printed and counted ("FINDING <type>") instead
    of ending the run. `ops`: a regular expression choosing the ops (all by default)."""
    resources = make_resources() if resources is None else resources
    op_list = op_names(ops)
    histogram = collections.Counter()
    began = time.time()
    for i in range(start, start + calls):
        if verbose:
            print("call", i, flush=True)
        try:
            _, _, outcome = one_call(RandomChooser("%d:%d" % (seed, i)), resources, op_list)
        except Exception as e:
            if not keep_going:
                raise
            outcome = "FINDING " + type(e).__name__
            print("call %d: %s: %s | %s" % (i, type(e).__name__, str(e)[:300], getattr(e, "__notes__", [""])[-1][:300]),
                  flush=True)
        histogram[outcome] += 1
        if progress_every and (i - start + 1) % progress_every == 0:
            print("%d calls, %.0fs, %s" % (i - start + 1, time.time() - began, dict(histogram.most_common())),
                  flush=True)
    return histogram


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calls", type=int, default=10000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--verbose", action="store_true", help="print each call's number before it runs")
    parser.add_argument("--progress", type=int, default=10000, help="print the histogram every N calls")
    parser.add_argument("--keep-going", action="store_true", help="count disallowed exceptions and go on")
    parser.add_argument("--ops", help="fuzz only the ops whose name this regular expression matches")
    parser.add_argument("--atheris", action="store_true", help="coverage-guided, with atheris (libFuzzer args follow)")
    options, rest = parser.parse_known_args(argv[1:])
    if options.atheris:
        import atheris
        resources = make_resources()
        op_list = op_names()
        atheris.instrument_all()  # coverage of graphfn's Python code (the extension's needs a libFuzzer build)
        atheris.Setup([argv[0]] + rest, lambda data: one_call(BytesChooser(data), resources, op_list))
        atheris.Fuzz()
        return
    histogram = run(options.seed, options.calls, options.start, options.verbose, options.progress,
                    keep_going=options.keep_going, ops=options.ops)
    print("op calls:", sum(histogram.values()))
    for outcome, count in histogram.most_common():
        print("  %-24s %d" % (outcome, count))


if __name__ == "__main__":
    main(sys.argv)
