"""How Python operands meet tensors in operators and op wrappers. TF's op wrappers convert a
Python operand to the dtype the tensor inputs decide, raising TypeError when it does not fit;
`+` and tf.add use that dtype only as a hint; reflected operators (`2 * t`) convert first; graph
building decides dtypes input by input. Expected types and texts were printed by TensorFlow 2.21
for the same expressions, eagerly (E) and inside a traced function (G)."""

import numpy as np
import pytest

import graphfn as tf

IAE = tf.errors.InvalidArgumentError


def _eager(fn):
    return fn(tf.constant(2))


def _graph(fn):
    @tf.function(autograph=False)
    def traced(i):
        return fn(i)
    return traced(tf.constant(2))


CONVERT_15 = "Cannot convert 1.5 to EagerTensor of dtype int32"


def _expected_in_graph(op, arg="y", value="1.5", type_name="float"):
    return ("Expected int32 passed to parameter '%s' of op '%s', got %s of type '%s' instead. "
            "Error: Expected int32, but got %s of type '%s'." % (arg, op, value, type_name, value, type_name))


# (expression on int32 i, eager (type, text), graph (type, text)); text None: only the type.
ERROR_CASES = [
    (lambda i: i * 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Mul"))),
    (lambda i: 1.5 * i, (TypeError, CONVERT_15), (TypeError, "Expected int32, but got 1.5 of type 'float'.")),
    (lambda i: i - 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Sub"))),
    (lambda i: i // 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("FloorDiv"))),
    (lambda i: i % 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("FloorMod"))),
    (lambda i: i ** 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Pow"))),
    (lambda i: i < 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Less"))),
    (lambda i: i == 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Equal"))),
    (lambda i: i & 1.5, (TypeError, CONVERT_15), (TypeError, _expected_in_graph("BitwiseAnd"))),
    (lambda i: i | 1.5, (AttributeError, "'float' object has no attribute '__ror__'"),
     (AttributeError, "'float' object has no attribute '__ror__'")),
    (lambda i: 1.5 + i, (TypeError, CONVERT_15), (TypeError, "Expected int32, but got 1.5 of type 'float'.")),
    (lambda i: 1.5 / i, (TypeError, CONVERT_15), (TypeError, "Expected int32, but got 1.5 of type 'float'.")),
    (lambda i: "a" + i, (TypeError, "Cannot convert 'a' to EagerTensor of dtype int32"),
     (TypeError, "Expected int32, but got a of type 'str'.")),
    (lambda i: i + 1.5,
     (IAE, "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor "
           "[Op:AddV2] name: "),
     (TypeError, "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.")),
    (lambda i: tf.add(i, 1.5),
     (IAE, "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor "
           "[Op:AddV2] name: "),
     (TypeError, "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.")),
    (lambda i: tf.add(1.5, i),
     (IAE, "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 tensor "
           "[Op:AddV2] name: "),
     (TypeError, "Input 'y' of 'AddV2' Op has type int32 that does not match type float32 of argument 'x'.")),
    (lambda i: i + [1.5],
     (IAE, "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor "
           "[Op:AddV2] name: "),
     (TypeError, "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.")),
    (lambda i: i / 1.5, (TypeError, "`x` and `y` must have the same dtype, got tf.int32 != tf.float32."),
     (TypeError, "`x` and `y` must have the same dtype, got tf.int32 != tf.float32.")),
    (lambda i: tf.maximum(i, 1.5), (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Maximum"))),
    (lambda i: tf.maximum(1.5, i), (TypeError, CONVERT_15),
     (TypeError, "Input 'y' of 'Maximum' Op has type int32 that does not match type float32 of argument 'x'.")),
    (lambda i: tf.multiply(i, [1.5]), (TypeError, "Cannot convert [1.5] to EagerTensor of dtype int32"),
     (TypeError, "Expected int32 passed to parameter 'y' of op 'Mul', got [1.5] of type 'list' instead. "
                 "Error: Expected int32, but got 1.5 of type 'float'.")),
    (lambda i: tf.maximum(i, [[1], [2.5]]), (TypeError, "Cannot convert [[1], [2.5]] to EagerTensor of dtype int32"),
     (TypeError, "Expected int32 passed to parameter 'y' of op 'Maximum', got [[1], [2.5]] of type 'list' "
                 "instead. Error: Expected int32, but got 2.5 of type 'float'.")),
    (lambda i: tf.multiply(2, 1.5), (TypeError, CONVERT_15), (TypeError, _expected_in_graph("Mul"))),
    (lambda i: tf.where(i > 0, i, 1.5), (TypeError, CONVERT_15), (TypeError, _expected_in_graph("SelectV2", "e"))),
    (lambda i: tf.math.pow(1.5, i), (TypeError, CONVERT_15),
     (TypeError, "Input 'y' of 'Pow' Op has type int32 that does not match type float32 of argument 'x'.")),
    (lambda i: tf.cast(i, tf.bool) & 1, (TypeError, "Cannot convert 1 to EagerTensor of dtype bool"),
     (TypeError, "Expected bool passed to parameter 'y' of op 'LogicalAnd', got 1 of type 'int' instead. "
                 "Error: Expected bool, but got 1 of type 'int'.")),
    (lambda i: tf.cast(i, tf.float32) * 1j, (TypeError, "Cannot convert 1j to EagerTensor of dtype float"),
     (TypeError, "Expected float32 passed to parameter 'y' of op 'Mul', got 1j of type 'complex' instead. "
                 "Error: Expected float32, but got 1j of type 'complex'.")),
    (lambda i: tf.cast(i, tf.float32) == "a", (TypeError, "Cannot convert 'a' to EagerTensor of dtype float"),
     (TypeError, "Expected float32 passed to parameter 'y' of op 'Equal', got 'a' of type 'str' instead. "
                 "Error: Expected float32, but got a of type 'str'.")),
    (lambda i: i * None, (ValueError, None),
     (ValueError, "Tried to convert 'y' to a tensor and failed. Error: None values not supported.")),
]


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("index", range(len(ERROR_CASES)))
def test_operand_conversion_errors(index, mode):
    fn, eager, graph = ERROR_CASES[index]
    error, text = eager if mode == "eager" else graph
    with pytest.raises(error) as info:
        (_eager if mode == "eager" else _graph)(fn)
    assert type(info.value) is error
    if text is not None:
        message = info.value.message if isinstance(info.value, tf.errors.OpError) else str(info.value)
        assert message == text


@pytest.mark.parametrize("run", [_eager, _graph])
def test_operand_conversion_results(run):
    def check(fn, dtype, value):
        r = run(fn)
        assert r.dtype == dtype and r.numpy().tolist() == value

    check(lambda i: i + True, tf.int32, 3)
    check(lambda i: i - True, tf.int32, 1)
    check(lambda i: True - i, tf.int32, -1)
    check(lambda i: i * True, tf.int32, 2)
    check(lambda i: i * 2**40, tf.int32, 0)  # Python ints wrap to the tensor's dtype
    check(lambda i: tf.cast(i, tf.uint8) * -1, tf.uint8, 254)
    check(lambda i: i * np.float32(1.5), tf.int32, 2)  # NumPy values are cast
    check(lambda i: np.float32(1.5) * tf.constant(3), tf.int32, 3)
    check(lambda i: i * np.array([1.5]), tf.int32, [2])
    check(lambda i: tf.multiply(1.5, 2), tf.float32, 3.0)
    check(lambda i: tf.constant(2) * [True], tf.int32, [2])
    check(lambda i: i & 3, tf.int32, 2)  # bitwise on integers
    check(lambda i: i | 1, tf.int32, 3)
    check(lambda i: i ^ 3, tf.int32, 1)
    check(lambda i: ~i, tf.int32, -3)
    check(lambda i: tf.cast(i, tf.bool) & True, tf.bool, True)
    check(lambda i: tf.constant([1., 2., 3.]) == [1., 2.], tf.bool, False)  # incompatible shapes


def test_reflected_fallback_of_sequences():
    # As TF: the Mul TypeError lets list/str.__rmul__ answer with Python repetition.
    i = tf.constant(2)
    assert i * [1.5] == [1.5, 1.5]
    assert i * "a" == "aa"


def test_eager_only_results():
    # Eagerly any tensor input decides; in graphs the inputs before decide (tf.maximum(0, x)
    # makes an int32 constant and fails, as TF's graph building does).
    f = tf.constant(2.5)
    assert tf.maximum(0, f).numpy() == 2.5
    assert tf.where(f > 0, 1, f).numpy() == 1.0

    @tf.function(autograph=False)
    def traced(x):
        return tf.maximum(0, x)

    with pytest.raises(TypeError) as info:
        traced(f)
    assert str(info.value) == "Input 'y' of 'Maximum' Op has type float32 that does not match type int32 of argument 'x'."
    with pytest.raises(IAE) as info:
        f == tf.constant(1)
    assert info.value.message == ("cannot compute Equal as input #1(zero-based) was expected to be a float tensor "
                                  "but is a int32 tensor [Op:Equal] name: ")


def test_bool_converts_to_numbers():
    assert tf.constant(True, tf.int32).numpy() == 1
    assert tf.convert_to_tensor(True, tf.float32).numpy() == 1.0
    with pytest.raises(TypeError, match="^Cannot convert 1 to EagerTensor of dtype bool$"):
        tf.convert_to_tensor(1, tf.bool)
    with pytest.raises(TypeError, match="^Cannot convert True to EagerTensor of dtype string$"):
        tf.convert_to_tensor(True, tf.string)


def test_string_addition_uses_add():
    s = tf.constant(["a", "b"])
    r = s + "c"
    assert r.dtype == tf.string and r.numpy().tolist() == [b"ac", b"bc"]
    assert ("x" + s).numpy().tolist() == [b"xa", b"xb"]
    assert tf.add(s, s).numpy().tolist() == [b"aa", b"bb"]
    assert tf.add("p", s).numpy().tolist() == [b"pa", b"pb"]
    with pytest.raises(IAE) as info:
        tf.constant("a") + tf.constant(1)
    assert info.value.message == ("cannot compute Add as input #1(zero-based) was expected to be a string tensor "
                                  "but is a int32 tensor [Op:Add] name: ")
    with pytest.raises(IAE) as info:
        tf.constant(1) + tf.constant("a")
    assert info.value.message == ("cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor "
                                  "but is a string tensor [Op:AddV2] name: ")


def test_string_addition_in_graphs():
    @tf.function(autograph=False)
    def f(s):
        return s + "!", tf.add(s, s), tf.constant(1) + 2

    a, b, c = f(tf.constant("hi"))
    assert a.numpy() == b"hi!" and b.numpy() == b"hihi" and c.numpy() == 3
    nodes = [(n.name, n.op) for n in f.get_concrete_function(tf.constant("hi")).graph.as_graph_def().node]
    assert [n for n in nodes if n[1] in ("Add", "AddV2")] == [("add", "Add"), ("Add_1", "Add"), ("add_2", "AddV2")]

    @tf.function(autograph=False)
    def g(s):
        return s + 1

    with pytest.raises(TypeError) as info:
        g(tf.constant("a"))
    assert str(info.value) == "Input 'y' of 'Add' Op has type int32 that does not match type string of argument 'x'."
