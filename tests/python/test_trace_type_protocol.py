"""tf.types.experimental.TraceType and the tracing protocol (`__tf_tracing_type__`): trace
counts, values and errors as TensorFlow 2.21 gave them for the same code (TF's documented
Fruit example, a value-keyed type under reduce_retracing)."""

import pytest

import graphfn as tf


class FruitTraceType(tf.types.experimental.TraceType):
    def __init__(self, fruit):
        self.fruit_type = type(fruit)
        self.fruit_value = fruit

    def is_subtype_of(self, other):
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

    def most_specific_common_supertype(self, others):
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context=None):
        return self.fruit_value

    def __eq__(self, other):
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

    def __hash__(self):
        return hash(self.fruit_type)


class Fruit:
    flavor = tf.constant([0, 0])

    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)


class Apple(Fruit):
    flavor = tf.constant([1, 2])


class Mango(Fruit):
    flavor = tf.constant([3, 4])


def test_fruit_example_traces_once_per_pair_of_classes():
    traces = []

    @tf.function
    def mixed(a, b):
        traces.append(1)
        return a.flavor + b.flavor

    seen = []
    for pair in [(Apple(), Mango()), (Apple(), Mango()), (Mango(), Apple()), (Apple(), Mango())]:
        seen.append((mixed(*pair).numpy().tolist(), len(traces)))
    assert seen == [([4, 6], 1), ([4, 6], 1), ([4, 6], 2), ([4, 6], 2)]  # TF 2.21
    assert mixed.experimental_get_tracing_count() == 2


class ConstType(tf.types.experimental.TraceType):
    def __init__(self, v):
        self.v = v

    def is_subtype_of(self, other):
        return isinstance(other, ConstType) and (other.v is None or other.v == self.v)

    def most_specific_common_supertype(self, others):
        return self if all(o == self for o in others) else ConstType(None)

    def placeholder_value(self, placeholder_context=None):
        return Box(self.v if self.v is not None else -1)

    def __eq__(self, o):
        return isinstance(o, ConstType) and o.v == self.v

    def __hash__(self):
        return hash(self.v)


class Box:
    def __init__(self, v):
        self.v = v

    def __tf_tracing_type__(self, context):
        return ConstType(self.v)


def test_function_receives_the_placeholder_value():
    f = tf.function(lambda b, x: x * b.v)
    assert [f(Box(3), tf.constant(2)).numpy(), f(Box(5), tf.constant(2)).numpy()] == [6, 10]
    assert f.experimental_get_tracing_count() == 2


def test_reduce_retracing_uses_the_common_supertype():
    g = tf.function(lambda b, x: x * b.v, reduce_retracing=True)
    # TF 2.21: the second call widens to ConstType(None), whose placeholder holds -1.
    assert [g(Box(i), tf.constant(2)).numpy() for i in (3, 4, 5, 3)] == [6, -2, -2, 6]
    assert g.experimental_get_tracing_count() == 2


def test_abstract_methods_are_tensorflows():
    class Bad(tf.types.experimental.TraceType):
        pass

    with pytest.raises(TypeError) as info:
        Bad()
    assert str(info.value) == ("Can't instantiate abstract class Bad with abstract methods __eq__, __hash__, "
                               "is_subtype_of, most_specific_common_supertype, placeholder_value")


def test_defaults_and_cast():
    t = FruitTraceType(Apple())
    assert t.flatten() == [] and t.to_tensors(Apple()) == []
    with pytest.raises(AssertionError, match="Can not cast 1 to type"):
        t.cast(1, None)


def test_tensor_spec_is_a_trace_type():
    assert isinstance(tf.TensorSpec([2]), tf.types.experimental.TraceType)
