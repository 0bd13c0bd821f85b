"""How many uses of TensorFlow names in TF's documentation notebooks resolve in graphfn.

    PYTHONPATH=python python3 tools/api_coverage.py ../shared/reference/api_usage.md [--owner ops|types|keras] [--missing]

api_usage.md lists each `tf.*` name with its number of uses (lines "- [x] `tf.nn.relu` 12 (5)").
A name resolves when every attribute along it exists in graphfn. `--owner ops` keeps the names
issue 16 owns: everything but Keras (and its tf.losses/metrics/optimizers/initializers aliases,
tf.summary), tf.data, io, train, distribute, compat, lite, config/device, and the strings/ragged/
sparse/signal/dtype/extension-type names of the type-system issue; `--owner types` keeps just those
(tf.strings, tf.ragged, tf.RaggedTensor*, tf.sparse, tf.SparseTensor*, tf.signal, tf.experimental's
extension types, dispatch and ragged shapes, tf.as_string, tf.dtypes, every dtype name and its attributes,
tf.saturate_cast, tf.complex/real/imag, tf.type_spec_from_value); `--owner keras` keeps tf.keras and
its aliases (resolving them imports the real Keras 3, as `tf.keras` does); `--missing` lists the
names that do not resolve, most used first.
"""

import argparse
import re
import sys

import graphfn

_LINE = re.compile(r"^- \[[ x]\] `(tf\.[^`]+)` (\d+) \((\d+)\)")

_NOT_OPS = ("tf.keras", "tf.data", "tf.io", "tf.train", "tf.distribute", "tf.compat", "tf.lite", "tf.config",
            "tf.device", "tf.tpu", "tf.feature_column", "tf.strings", "tf.ragged", "tf.RaggedTensor",
            "tf.sparse", "tf.SparseTensor", "tf.signal", "tf.audio", "tf.image.decode_", "tf.as_string",
            # extension types and dispatch (type-system issue); Keras aliases and tf.summary (Keras
            # issue); device placement logging (heavy-kernel issue's tf.config/tf.device)
            "tf.experimental", "tf.losses", "tf.metrics", "tf.optimizers", "tf.initializers", "tf.summary",
            "tf.debugging.set_log_device_placement")
_KERAS = ("tf.keras.", "tf.losses.", "tf.metrics.", "tf.optimizers.", "tf.initializers.")
_TYPE_SYSTEM_DTYPES = ("float16", "bfloat16", "half", "complex64", "complex128", "uint16", "uint32", "uint64",
                       "qint8", "quint8", "qint32", "variant")


_TYPE_SYSTEM_PREFIXES = ("tf.strings.", "tf.ragged.", "tf.RaggedTensor", "tf.sparse.", "tf.SparseTensor",
                         "tf.signal.", "tf.experimental.ExtensionType", "tf.experimental.BatchableExtensionType",
                         "tf.experimental.dispatch_for", "tf.experimental.unregister_dispatch_for",
                         "tf.experimental.RowPartition", "tf.experimental.DynamicRaggedShape", "tf.dtypes.",
                         "tf.as_string", "tf.saturate_cast", "tf.type_spec_from_value", "tf.as_dtype", "tf.DType")
_ALL_DTYPES = _TYPE_SYSTEM_DTYPES + ("float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
                                     "string", "double", "resource")


def owned_by_type_system_issue(name):
    if name.startswith(_TYPE_SYSTEM_PREFIXES):
        return True
    if name in ("tf.complex", "tf.math.real", "tf.math.imag", "tf.math.angle", "tf.math.conj"):
        return True
    parts = name.split(".")
    return len(parts) >= 2 and parts[1] in _ALL_DTYPES


def owned_by_ops_issue(name):
    if name.startswith(_NOT_OPS):
        return False
    leaf = name.rsplit(".", 1)[-1]
    if leaf in _TYPE_SYSTEM_DTYPES or name in ("tf.dtypes.complex", "tf.complex", "tf.math.real", "tf.math.imag"):
        return False
    return True


def resolves(name):
    obj = graphfn
    for part in name.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 (any failure means the name does not resolve)
            return False
    return True


def read_usage(path):
    with open(path) as f:
        for line in f:
            m = _LINE.match(line.strip())
            if m:
                yield m.group(1), int(m.group(2))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("usage_file")
    parser.add_argument("--owner", choices=["all", "ops", "types", "keras"], default="all")
    parser.add_argument("--missing", action="store_true")
    args = parser.parse_args(argv)
    names = list(read_usage(args.usage_file))
    if args.owner == "ops":
        names = [(n, uses) for n, uses in names if owned_by_ops_issue(n)]
    elif args.owner == "types":
        names = [(n, uses) for n, uses in names if owned_by_type_system_issue(n)]
    elif args.owner == "keras":
        names = [(n, uses) for n, uses in names if n.startswith(_KERAS)]
    total = sum(uses for _, uses in names)
    missing = [(n, uses) for n, uses in names if not resolves(n)]
    covered = total - sum(uses for _, uses in missing)
    print("%d of %d uses resolve (%.1f %%); %d of %d names" % (
        covered, total, 100.0 * covered / max(total, 1), len(names) - len(missing), len(names)))
    if args.missing:
        for n, uses in sorted(missing, key=lambda item: -item[1]):
            print("  %-60s %d" % (n, uses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
