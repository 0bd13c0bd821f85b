"""The composite-tensor mechanism (tf.TypeSpec / CompositeTensor): tf.nest with
expand_composites, composite values as function arguments and results, traced by their spec.
A two-tensor composite defined here stands for RaggedTensor & co.; expected texts were printed
by TF 2.21 for the same class written against tf.TypeSpec."""

import pytest

import graphfn as tf
from graphfn.framework.composite_tensor import CompositeTensor


class Pair(CompositeTensor):
    def __init__(self, a, b):
        self.a, self.b = a, b

    @property
    def _type_spec(self):
        return PairSpec(self.a.shape, self.a.dtype)


class PairSpec(tf.TypeSpec):
    def __init__(self, shape, dtype):
        self.shape, self.dtype = tf.TensorShape(shape), tf.as_dtype(dtype)

    value_type = property(lambda self: Pair)

    @property
    def _component_specs(self):
        return (tf.TensorSpec(self.shape, self.dtype), tf.TensorSpec(self.shape, self.dtype))

    def _to_components(self, value):
        return (value.a, value.b)

    def _from_components(self, components):
        return Pair(*components)

    def _serialize(self):
        return (self.shape, self.dtype)


def pair(a, b):
    return Pair(tf.constant(a), tf.constant(b))


def test_spec_printing_equality_and_hash():
    spec = pair([1, 2], [3, 4])._type_spec
    assert repr(spec) == "PairSpec(TensorShape([2]), tf.int32)"
    assert spec == PairSpec([2], tf.int32) and hash(spec) == hash(PairSpec([2], tf.int32))
    assert spec != PairSpec([None], tf.int32)
    assert repr(tf.type_spec_from_value(pair([1, 2], [3, 4]))) == "PairSpec(TensorShape([2]), tf.int32)"


def test_subtyping_and_supertype():
    assert PairSpec([2], tf.int32).is_subtype_of(PairSpec([None], tf.int32))
    assert not PairSpec([None], tf.int32).is_subtype_of(PairSpec([2], tf.int32))
    merged = PairSpec([2], tf.int32).most_specific_common_supertype([PairSpec([3], tf.int32)])
    assert repr(merged) == "PairSpec(TensorShape([None]), tf.int32)"
    assert PairSpec([2], tf.int32).most_specific_common_supertype([PairSpec([3], tf.float32)]) is None
    p = pair([1, 2], [3, 4])
    assert PairSpec([None], tf.int32).is_compatible_with(p)
    assert not PairSpec([3], tf.int32).is_compatible_with(p)


def test_nest_expand_composites():
    p = pair([1, 2], [3, 4])
    flat = tf.nest.flatten([p, 5], expand_composites=True)
    assert [x.numpy().tolist() if hasattr(x, "numpy") else x for x in flat] == [[1, 2], [3, 4], 5]
    assert tf.nest.flatten(p) == [p]
    assert not tf.nest.is_nested(p)
    specs = tf.nest.flatten(PairSpec([2], tf.int32), expand_composites=True)
    assert repr(specs) == ("[TensorSpec(shape=(2,), dtype=tf.int32, name=None), "
                           "TensorSpec(shape=(2,), dtype=tf.int32, name=None)]")
    doubled = tf.nest.map_structure(lambda t: t * 2, p, expand_composites=True)
    assert isinstance(doubled, Pair) and doubled.b.numpy().tolist() == [6, 8]
    packed = tf.nest.pack_sequence_as(p, [tf.constant([7, 7]), tf.constant([8, 8])], expand_composites=True)
    assert packed.a.numpy().tolist() == [7, 7]
    with pytest.raises(ValueError, match=r"Tensor's shape \(1,\) is not compatible with supplied shape \(2,\)."):
        tf.nest.pack_sequence_as(p, [tf.constant([7]), tf.constant([8])], expand_composites=True)
    tf.nest.assert_same_structure(p, pair([9, 9, 9], [9, 9, 9]), expand_composites=True)
    with pytest.raises(ValueError, match="Incompatible CompositeTensor TypeSpecs: type=PairSpec str=PairSpec"
                                         r"\(TensorShape\(\[2\]\), tf.int32\) vs. type=PairSpec str=PairSpec"):
        tf.nest.assert_same_structure(p, pair([1.0], [1.0]), expand_composites=True)
    with pytest.raises(ValueError, match="is a sequence, while substructure"):
        tf.nest.assert_same_structure(p, tf.constant([1]), expand_composites=True)


def test_function_traces_by_spec_and_returns_composites():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return Pair(x.a + x.b, x.b), x.a

    out, a = f(pair([1, 2], [3, 4]))
    assert isinstance(out, Pair) and out.a.numpy().tolist() == [4, 6] and a.numpy().tolist() == [1, 2]
    f(pair([5, 6], [7, 8]))
    assert len(traces) == 1  # same spec, one trace
    f(pair([5, 6, 7], [7, 8, 9]))
    assert len(traces) == 2 and f.experimental_get_tracing_count() == 2
    cf = f.get_concrete_function(pair([1, 2], [3, 4]))
    assert repr(cf.structured_input_signature) == "((PairSpec(TensorShape([2]), tf.int32),), {})"
    assert [t.name for t in cf.inputs] == ["x:0", "x_1:0"]
    assert len(cf.outputs) == 3
    assert repr(cf.function_type) == ("(x: PairSpec(TensorShape([2]), tf.int32)) -> Tuple[PairSpec(TensorShape([2]), "
                                      "tf.int32), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]")
    out = cf(pair([1, 1], [2, 2]))[0]
    assert out.a.numpy().tolist() == [3, 3]


def test_input_signature_with_a_type_spec():
    g = tf.function(lambda x: x.a * 10, input_signature=[PairSpec([None], tf.int32)])
    assert g(pair([1, 2, 3], [0, 0, 0])).numpy().tolist() == [10, 20, 30]
    assert g(pair([4], [0])).numpy().tolist() == [40]
    assert g.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed due to `'tensorflow.python.framework"
                                        ".ops.EagerTensor' object has no attribute 'a'`"):
        g(tf.constant(1))
    with pytest.raises(TypeError, match=r"failed due to `Can not cast TensorSpec\(shape=\(1,\), dtype=tf.float32, "
                                        r"name=None\) to TensorSpec\(shape=\(None,\), dtype=tf.int32, name=None\)`"):
        g(pair([1.0], [1.0]))


def test_reduce_retracing_generalizes_the_spec():
    h = tf.function(lambda x: x, reduce_retracing=True)
    h(pair([1], [1]))
    h(pair([1, 2], [1, 2]))
    out = h(pair([1, 2, 3], [1, 2, 3]))
    assert out.a.numpy().tolist() == [1, 2, 3] and h.experimental_get_tracing_count() == 2


def test_gradient_through_a_composite_argument():
    @tf.function
    def f(x):
        return tf.reduce_sum(x.a * x.b)

    a = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = f(Pair(a, tf.constant([3.0, 5.0])))
    assert tape.gradient(y, a).numpy().tolist() == [3.0, 5.0]
