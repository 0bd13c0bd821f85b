"""Every op graphfn registers is differentiable, declared non-differentiable or without a gradient
as in TensorFlow 2.21's gradient registry (recorded by tools/record_tf_gradient_registry.py), so
asking for a gradient gives TF's values, TF's None or TF's LookupError."""

import json
import pathlib

import pytest

import graphfn as tf
from graphfn import _core

TF_REGISTRY = json.loads((pathlib.Path(__file__).parent / "tf_gradient_registry.json").read_text())["ops"]

# Where graphfn says "none" and TF has a gradient function: TF's function returns only Nones.
TF_FUNCTION_GIVES_NONE = {"ArgMax", "ArgMin", "Ceil", "Floor", "FloorDiv", "Rint", "Round", "TruncateDiv"}
# Where graphfn says "none" and TF has no entry: no gradient can reach the op (its outputs are
# bool, int, string or none, it is a variable update or a graph input, or, for a table export,
# its only input is a resource handle, which no tape records an op for), so TF's LookupError
# cannot happen.
NO_FLOAT_OUTPUT = {
    "LookupTableExportV2", "LookupTableImportV2",
    "All", "Any", "AssignAddVariableOp", "AssignSubVariableOp", "AssignVariableOp", "BroadcastArgs",
    "HistogramFixedWidth", "InTopKV2", "IsFinite", "IsInf", "IsNan", "LowerBound", "UpperBound", "NoOp",
    "Placeholder", "PrintV2", "RandomUniformInt", "StringFormat", "TensorListReserve", "UnravelIndex", "Where",
    "ResourceScatterAdd", "ResourceScatterDiv", "ResourceScatterMax", "ResourceScatterMin", "ResourceScatterMul",
    "ResourceScatterNdAdd", "ResourceScatterNdMax", "ResourceScatterNdMin", "ResourceScatterNdSub",
    "ResourceScatterNdUpdate", "ResourceScatterSub", "ResourceScatterUpdate", "ResourceStridedSliceAssign",
    "OptionalHasValue", "OptionalNone",
}
# Where TF has a gradient function and graphfn has none yet: gradients through an Optional's
# value (docs/data.md says so).
GRAPHFN_NO_GRADIENT_YET = {"OptionalFromValue", "OptionalGetValue"}
GRAPHFN_ONLY = {"Eye", "StableSort",  # not TF ops (docs/ops.md)
                "GraphfnDatasetIterator", "GraphfnIteratorHasNext", "GraphfnIteratorGetNext",  # docs/data.md
                "GraphfnIteratorGetNextAsOptional",
                # made by the remapping pass in plans only (docs/performance.md)
                "GraphfnFusedConv2D", "GraphfnFusedConv2DMaxPool", "GraphfnMaxPoolGradFromTaps"}


def tf_kind(op):
    return TF_REGISTRY.get(op, "missing")


@pytest.mark.parametrize("op", sorted(set(_core.op_names()) - GRAPHFN_ONLY))
def test_gradient_kind_matches_tf(op):
    ours, theirs = _core.op_def(op)["gradient"], tf_kind(op)
    if ours == theirs:
        return
    if ours == "none" and theirs == "function":
        assert op in TF_FUNCTION_GIVES_NONE | GRAPHFN_NO_GRADIENT_YET
    elif ours == "none" and theirs == "missing":
        assert op in NO_FLOAT_OUTPUT
    else:
        pytest.fail("graphfn: %s, TF: %s" % (ours, theirs))


def test_the_exception_lists_hold_only_ops_graphfn_has():
    names = set(_core.op_names())
    assert TF_FUNCTION_GIVES_NONE <= names and NO_FLOAT_OUTPUT <= names and GRAPHFN_ONLY <= names
    assert GRAPHFN_NO_GRADIENT_YET <= names


def _lu_gradient(x):
    with tf.GradientTape() as t:
        t.watch(x)
        lu, _ = tf.linalg.lu(x)
        y = tf.reduce_sum(lu * lu)
    return t.gradient(y, x)


def test_lu_has_no_gradient_as_in_tf():
    x = tf.constant([[4., 3.], [6., 3.]])
    with pytest.raises(LookupError, match="^gradient registry has no entry for: Lu$"):
        _lu_gradient(x)
    # In a function, AutoGraph reports it as TF does: a StagingError naming the LookupError.
    with pytest.raises(Exception) as e:
        tf.function(_lu_gradient)(x)
    assert type(e.value).__name__ == "StagingError"
    assert str(e.value).endswith("\n\n    LookupError: gradient registry has no entry for: Lu\n")
