"""graphfn.raw_ops: every registered op as TF's keyword-only function.

tf_raw_op_signatures.json holds the Python signature and function name of every function in
TF 2.21's tf.raw_ops (recorded with inspect.signature), so each op graphfn registers is checked
against TF's, including ops added later."""

import inspect
import json
import os

import pytest

import graphfn as tf
from graphfn import _core

with open(os.path.join(os.path.dirname(__file__), "tf_raw_op_signatures.json")) as f:
    TF_SIGNATURES = json.load(f)

# Registered ops TF does not have (graphfn's own), and attrs TF's op has that graphfn's does not
# take yet; each known, none hidden.
NOT_IN_TF = {
    "Eye",         # tf.eye is a composite in TF
    "StableSort",  # tf.sort / tf.argsort: TF composes them from TopKV2
    # `for x in dataset` in a function (docs/data.md): TF's iterator ops carry variants instead
    "GraphfnDatasetIterator", "GraphfnIteratorHasNext", "GraphfnIteratorGetNext",
    "GraphfnIteratorGetNextAsOptional",
    # Conv2D + BiasAdd (+ Relu), made by the remapping pass in plans (TF's own fusion, _FusedConv2D,
    # is not in tf.raw_ops either)
    "GraphfnFusedConv2D", "GraphfnFusedConv2DMaxPool", "GraphfnMaxPoolGradFromTaps",
}
# Defaults graphfn cannot have (none left since uint64 arrived).
DEFAULTS_GRAPHFN_LACKS = {}
MISSING_ATTRS = {
    "AssignVariableOp": ["validate_shape"],
    "Equal": ["incompatible_shape_error"],
    "NotEqual": ["incompatible_shape_error"],
    # list(shape) attrs do not reach the op yet: the Python Optional sets the static shapes itself
    "OptionalGetValue": ["output_shapes"],
}


def _recorded(fn):
    params = []
    for p in inspect.signature(fn).parameters.values():
        if p.default is inspect.Parameter.empty:
            params.append([p.name])
        elif isinstance(p.default, tf.DType):
            params.append([p.name, "dtype:" + p.default.name])
        else:
            params.append([p.name, p.default])
    return params


@pytest.mark.parametrize("op_name", sorted(set(_core.op_names()) - NOT_IN_TF))
def test_signature_matches_tensorflow(op_name):
    expected = TF_SIGNATURES[op_name]
    fn = getattr(tf.raw_ops, op_name)
    assert fn.__name__ == expected["function"]
    missing = MISSING_ATTRS.get(op_name, [])
    no_default = DEFAULTS_GRAPHFN_LACKS.get(op_name, [])
    expected_params = [p[:1] if p[0] in no_default else p for p in expected["params"] if p[0] not in missing]
    assert _recorded(fn) == expected_params


def test_every_registered_op_is_listed():
    assert set(dir(tf.raw_ops)) == set(_core.op_names())
    assert "AddV2" in dir(tf.raw_ops) and "Conv2DBackpropInputV2" not in dir(tf.raw_ops)


def test_values():
    assert tf.raw_ops.AddV2(x=1.0, y=2.0).numpy() == 3.0
    assert tf.raw_ops.Cast(x=[1, 2], DstT=tf.float32).dtype == tf.float32
    assert tf.raw_ops.Range(start=0, limit=5, delta=1).numpy().tolist() == [0, 1, 2, 3, 4]
    assert tf.raw_ops.Squeeze(input=[[1], [2]], axis=[1]).numpy().tolist() == [1, 2]
    assert tf.raw_ops.ExpandDims(input=[1, 2], axis=0).numpy().tolist() == [[1, 2]]
    assert tf.raw_ops.Where(condition=[True, False, True]).numpy().tolist() == [[0], [2]]
    assert tf.raw_ops.ConcatV2(values=[[1], [2]], axis=0).numpy().tolist() == [1, 2]
    assert tf.raw_ops.Sum(input=[[1, 2], [3, 4]], axis=[0], keep_dims=True).numpy().tolist() == [[4, 6]]
    assert tf.raw_ops.NoOp() is None


def test_list_output_is_a_list():
    out = tf.raw_ops.Unpack(value=[[1, 2], [3, 4]], num=2)
    assert isinstance(out, list) and [t.numpy().tolist() for t in out] == [[1, 2], [3, 4]]


def test_several_outputs_are_a_namedtuple_named_after_the_op():
    out = tf.raw_ops.BroadcastGradientArgs(s0=[2, 1], s1=[1, 3])
    assert type(out).__name__ == "BroadcastGradientArgs"
    assert out._fields == ("r0", "r1")
    assert out.r0.numpy().tolist() == [1] and out.r1.numpy().tolist() == [0]


def test_positional_arguments_give_tensorflows_error():
    with pytest.raises(TypeError) as info:
        tf.raw_ops.AddV2(1.0, 2.0)
    assert str(info.value) == ("add_v2 only takes keyword args (possible keys: ['x', 'y', 'name']). "
                               "Please pass these args as kwargs instead.")


@pytest.mark.parametrize("call, message", [
    (lambda: tf.raw_ops.AddV2(x=1.0), "add_v2() missing 1 required positional argument: 'y'"),
    (lambda: tf.raw_ops.Cast(x=1), "cast() missing 1 required positional argument: 'DstT'"),
    (lambda: tf.raw_ops.AddV2(x=1.0, y=2.0, z=1), "add_v2() got an unexpected keyword argument 'z'"),
    (lambda: tf.raw_ops.Cast(x=[1], DstT=tf.float32, Truncate="x"), "Expected bool for argument 'Truncate' not 'x'."),
])
def test_bad_arguments_give_tensorflows_errors(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


def test_unknown_op_is_an_attribute_error():
    with pytest.raises(AttributeError, match="NoSuchOp"):
        tf.raw_ops.NoSuchOp  # noqa: B018


def test_in_a_function_nodes_take_the_given_name():
    @tf.function
    def f(x):
        return tf.raw_ops.Sum(input=tf.raw_ops.AddV2(x=x, y=x, name="twice"), axis=[0], keep_dims=True)

    graph = f.get_concrete_function(tf.TensorSpec([3])).graph
    # As TF 2.21: [('x', 'Placeholder'), ('twice', 'AddV2'), ('Sum/reduction_indices', 'Const'),
    # ('Sum', 'Sum'), ('Identity', 'Identity')]
    nodes = [(n.name, n.op) for n in graph.as_graph_def().node]
    assert ("twice", "AddV2") in nodes and ("Sum", "Sum") in nodes
    assert f(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [12.0]
