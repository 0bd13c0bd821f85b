"""The conformance cases of tf_semantics.md §4 A (tracing), B (concrete functions)
and D (graph execution) that do not need AutoGraph.

One test per case, named after its id. The expected text is what TensorFlow 2.21
printed: run this file against real TensorFlow with
    GRAPHFN_CASES_BACKEND=tensorflow python -m pytest tests/python/function/test_semantics_cases.py
(in an environment that has tensorflow) to re-check every expectation.
"""

import importlib
import logging
import os
import re
import sys

import numpy as np
import pytest

tf = importlib.import_module(os.environ.get("GRAPHFN_CASES_BACKEND", "graphfn"))


def lines(text):
    return text.strip("\n").split("\n")


def double_function():
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a

    return double


# ----------------------------------------------------------------------------- A


def test_A1_A2_retrace_per_dtype_not_per_value(capsys):
    double = double_function()
    print(double(tf.constant(1)))
    print(double(tf.constant(1.1)))
    print(double(tf.constant("a")))
    print(double(tf.constant("b")))
    assert lines(capsys.readouterr().out) == [
        'Tracing with Tensor("a:0", shape=(), dtype=int32)',
        "tf.Tensor(2, shape=(), dtype=int32)",
        'Tracing with Tensor("a:0", shape=(), dtype=float32)',
        "tf.Tensor(2.2, shape=(), dtype=float32)",
        'Tracing with Tensor("a:0", shape=(), dtype=string)',
        "tf.Tensor(b'aa', shape=(), dtype=string)",
        "tf.Tensor(b'bb', shape=(), dtype=string)",
    ]


def test_A3_signatures_in_trace_order():
    double = double_function()
    for value in (1, 1.1, "a"):
        double(tf.constant(value))
    blocks = [
        "Input Parameters:\n"
        f"  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.{name}, name=None)\n"
        "Output Type:\n"
        f"  TensorSpec(shape=(), dtype=tf.{name}, name=None)\n"
        "Captures:\n"
        "  None"
        for name in ("int32", "float32", "string")
    ]
    assert double.pretty_printed_concrete_signatures() == "\n\n".join(blocks)


def my_relu_function():
    @tf.function
    def my_relu(x):
        return tf.maximum(0.0, x)

    return my_relu


def test_A4_A5_python_list_argument(capsys):
    my_relu = my_relu_function()
    for arg in (tf.constant(5.5), [1, -1], tf.constant([3.0, -3.0]),
                tf.constant(-2.5), tf.constant([-1.0, 1.0])):
        print(my_relu(arg))
    assert lines(capsys.readouterr().out) == [
        "tf.Tensor(5.5, shape=(), dtype=float32)",
        "tf.Tensor([1. 0.], shape=(2,), dtype=float32)",
        "tf.Tensor([3. 0.], shape=(2,), dtype=float32)",
        "tf.Tensor(0.0, shape=(), dtype=float32)",
        "tf.Tensor([0. 1.], shape=(2,), dtype=float32)",
    ]
    assert my_relu.experimental_get_tracing_count() == 3
    assert (
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]\n"
        "Output Type:\n"
        "  TensorSpec(shape=(2,), dtype=tf.float32, name=None)\n"
        "Captures:\n"
        "  None"
    ) in my_relu.pretty_printed_concrete_signatures()


def test_A6_A7_tensors_share_a_trace_python_scalars_do_not(capsys):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + tf.constant(2)

    for arg in (tf.constant(2), tf.constant(3), 2, 3):
        print(a_function_with_python_side_effect(arg))
    assert lines(capsys.readouterr().out) == [
        "Tracing!",
        "tf.Tensor(6, shape=(), dtype=int32)",
        "tf.Tensor(11, shape=(), dtype=int32)",
        "Tracing!",
        "tf.Tensor(6, shape=(), dtype=int32)",
        "Tracing!",
        "tf.Tensor(11, shape=(), dtype=int32)",
    ]


def test_A8_tracing_count():
    @tf.function
    def double(a):
        return a + a

    double(tf.constant(1))
    double(tf.constant(2))
    assert double.experimental_get_tracing_count() == 1
    double(tf.constant("a"))
    assert double.experimental_get_tracing_count() == 2


def test_A9_each_instance_has_its_own_cache():
    class TestClass:
        @tf.function
        def testDouble(self, a):
            return a + a

    obj1 = TestClass()
    for value in (1, 2, 1.1):
        obj1.testDouble(tf.constant(value))
    obj2 = TestClass()
    for value in (1, 1.1, "a"):
        obj2.testDouble(tf.constant(value))
    assert obj1.testDouble.experimental_get_tracing_count() == 2
    assert obj2.testDouble.experimental_get_tracing_count() == 3


def next_collatz_function():
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        print("Tracing with", x)
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    return next_collatz


def test_A10_input_signature(capsys):
    print(next_collatz_function()(tf.constant([1, 2])))
    assert lines(capsys.readouterr().out) == [
        'Tracing with Tensor("x:0", shape=(None,), dtype=int32)',
        "tf.Tensor([4 1], shape=(2,), dtype=int32)",
    ]


def test_A11_input_signature_rank_mismatch():
    with pytest.raises(TypeError) as info:
        next_collatz_function()(tf.constant([[1, 2], [3, 4]]))
    assert "Binding inputs to tf.function" in str(info.value)
    assert ("Can not cast TensorSpec(shape=(2, 2), dtype=tf.int32, name=None) to "
            "TensorSpec(shape=(None,), dtype=tf.int32, name=None)") in str(info.value)


def test_A12_input_signature_dtype_mismatch():
    with pytest.raises(TypeError, match="Binding inputs to tf.function"):
        next_collatz_function()(tf.constant([1.0, 2.0]))


def test_A13_a_none_dimension_takes_every_length(capsys):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def g(x):
        print("Tracing with", x)
        return x

    print(g(tf.constant([1, 2, 3])))
    print(g(tf.constant([1, 2, 3, 4, 5])))
    assert lines(capsys.readouterr().out) == [
        'Tracing with Tensor("x:0", shape=(None,), dtype=int32)',
        "tf.Tensor([1 2 3], shape=(3,), dtype=int32)",
        "tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)",
    ]


def test_A14_reduce_retracing(capsys):
    @tf.function(reduce_retracing=True)
    def g(x):
        print("Tracing with", x)
        return x

    for n in (3, 5, 7, 9):
        print(g(tf.constant(list(range(1, n + 1)))))
    assert lines(capsys.readouterr().out) == [
        'Tracing with Tensor("x:0", shape=(3,), dtype=int32)',
        "tf.Tensor([1 2 3], shape=(3,), dtype=int32)",
        'Tracing with Tensor("x:0", shape=(None,), dtype=int32)',
        "tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)",
        "tf.Tensor([1 2 3 4 5 6 7], shape=(7,), dtype=int32)",
        "tf.Tensor([1 2 3 4 5 6 7 8 9], shape=(9,), dtype=int32)",
    ]
    assert g.experimental_get_tracing_count() == 2


def test_A15_python_vs_tensor_hyperparameter_without_a_loop(capfd):
    # The seed's version loops over tf.range(num_steps) (AutoGraph, issue 4);
    # what it shows about tracing does not depend on the loop.
    @tf.function
    def train(num_steps):
        print("Tracing with num_steps = ", num_steps)
        tf.print("Executing with num_steps = ", num_steps)

    train(num_steps=10)
    train(num_steps=20)
    train(num_steps=tf.constant(10))
    train(num_steps=tf.constant(20))
    captured = capfd.readouterr()
    assert lines(captured.out) == [
        "Tracing with num_steps =  10",
        "Tracing with num_steps =  20",
        'Tracing with num_steps =  Tensor("num_steps:0", shape=(), dtype=int32)',
    ]
    assert lines(captured.err) == [
        "Executing with num_steps =  10",
        "Executing with num_steps =  20",
        "Executing with num_steps =  10",
        "Executing with num_steps =  20",
    ]


def test_A16_separate_function_objects_trace_separately(capfd):
    def f():
        print("Tracing!")
        tf.print("Executing")

    tf.function(f)()
    tf.function(f)()
    captured = capfd.readouterr()
    assert lines(captured.out) == ["Tracing!", "Tracing!"]
    assert lines(captured.err) == ["Executing", "Executing"]


def test_A17_trace_time_and_run_time_side_effects(capfd):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)

    f(1)
    f(1)
    f(2)
    captured = capfd.readouterr()
    assert lines(captured.out) == ["Traced with 1", "Traced with 2"]
    assert lines(captured.err) == ["Executed with 1", "Executed with 1", "Executed with 2"]


class SimpleModel(tf.Module):
    def __init__(self):
        super().__init__()
        self.bias = 0.0
        self.weight = 2.0


def test_A18_mutated_attributes_do_not_retrace(capsys):
    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias

    simple_model = SimpleModel()
    x = tf.constant(10.0)
    print(evaluate(simple_model, x))
    simple_model.bias += 5.0
    print(evaluate(simple_model, x))
    assert lines(capsys.readouterr().out) == ["tf.Tensor(20.0, shape=(), dtype=float32)"] * 2


def test_A19_a_new_function_sees_the_new_state(capsys):
    def evaluate(model, x):
        return model.weight * x + model.bias

    new_model = SimpleModel()
    x = tf.constant(10.0)
    evaluate_no_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    print(evaluate_no_bias(x))
    new_model.bias += 5.0
    evaluate_with_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    print(evaluate_with_bias(x))
    assert lines(capsys.readouterr().out) == [
        "tf.Tensor(20.0, shape=(), dtype=float32)",
        "tf.Tensor(25.0, shape=(), dtype=float32)",
    ]


def test_A20_variable_attributes_are_read_at_run_time():
    class BetterModel:
        def __init__(self):
            self.bias = tf.Variable(0.0)
            self.weight = tf.Variable(2.0)

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias

    better_model = BetterModel()
    x = tf.constant(10.0)
    assert str(evaluate(better_model, x)) == "tf.Tensor(20.0, shape=(), dtype=float32)"
    better_model.bias.assign_add(5.0)
    assert str(evaluate(better_model, x)) == "tf.Tensor(25.0, shape=(), dtype=float32)"


foo = 1


def test_A21_globals_are_frozen_at_trace_time(capsys):
    global foo

    @tf.function
    def buggy_add():
        return 1 + foo

    @tf.function
    def recommended_add(foo):
        return 1 + foo

    foo = 1
    print("Buggy:", buggy_add())
    print("Correct:", recommended_add(foo))
    foo = 100
    print("Buggy:", buggy_add())
    print("Correct:", recommended_add(foo))
    assert lines(capsys.readouterr().out) == [
        "Buggy: tf.Tensor(2, shape=(), dtype=int32)",
        "Correct: tf.Tensor(2, shape=(), dtype=int32)",
        "Buggy: tf.Tensor(2, shape=(), dtype=int32)",
        "Correct: tf.Tensor(101, shape=(), dtype=int32)",
    ]


def test_A22_captured_variable(capsys):
    foo = tf.Variable(1)

    @tf.function
    def variable_add():
        return 1 + foo

    print("Variable:", variable_add())
    foo.assign(100)
    print("Variable:", variable_add())
    assert lines(capsys.readouterr().out) == [
        "Variable: tf.Tensor(2, shape=(), dtype=int32)",
        "Variable: tf.Tensor(101, shape=(), dtype=int32)",
    ]


def retracing_warnings(caplog, calls, nested=False):
    # The warning counts calls per code object (code objects compare by value), so each
    # scenario compiles functions with a new first line number.
    retracing_warnings.scenarios += 1
    namespace = {"tf": tf}
    exec("\n" * retracing_warnings.scenarios + "def f(x):\n    return x + 1\n"
         "def outer(x):\n    return f(x)\n", namespace)
    f = tf.function(namespace["f"])
    namespace["f"] = f
    outer = tf.function(namespace["outer"])
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for i in range(calls):
            (outer if nested else f)(i)
    return [r.getMessage() for r in caplog.records if "retracing" in r.getMessage()]


retracing_warnings.scenarios = 0


def test_A23_retracing_warning(caplog):
    assert retracing_warnings(caplog, 4) == []
    warnings = retracing_warnings(caplog, 5)
    assert len(warnings) == 1
    assert warnings[0].startswith("5 out of the last 5 calls to <function ")
    assert "triggered tf.function retracing. Tracing is expensive" in warnings[0]
    assert len(retracing_warnings(caplog, 10)) == 2
    # Only `outer` warns; the f traced inside it never does.
    assert all("outer" in w for w in retracing_warnings(caplog, 10, nested=True))


def test_A24_unhashable_argument():
    with pytest.raises(TypeError, match=r"Could not generate a generic TraceType for set\(\)"):
        tf.function(lambda s: 1)(set())


def test_A25_1_and_1_0_and_True_share_a_trace(capsys):
    @tf.function
    def f(x):
        print("trace", x)
        return tf.constant(0)

    for arg in (1, 1.0, True, 2):
        f(arg)
    assert lines(capsys.readouterr().out) == ["trace 1", "trace 2"]
    assert f.experimental_get_tracing_count() == 2


def test_A26_dict_key_order_and_variable_aliasing():
    f = tf.function(lambda d: d["a"] + d["b"])
    f({"a": tf.constant(1), "b": tf.constant(2)})
    f({"b": tf.constant(3), "a": tf.constant(4)})
    assert f.experimental_get_tracing_count() == 1
    v1, v2 = tf.Variable(1.0), tf.Variable(2.0)
    g = tf.function(lambda v: v + 1)
    g(v1)
    g(v2)
    assert g.experimental_get_tracing_count() == 1
    h = tf.function(lambda a, b: a + b)
    h(v1, v1)
    h(v1, v2)
    assert h.experimental_get_tracing_count() == 2


def test_A27_keyword_and_positional_binding():
    @tf.function
    def f(x, y=1):
        return x + y

    f(tf.constant(1))
    f(x=tf.constant(2))
    f(tf.constant(3), 1)
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant(1), 2)
    assert f.experimental_get_tracing_count() == 2
    with pytest.raises(TypeError, match="too many positional arguments"):
        f(1, 2, 3)


def test_A28_run_functions_eagerly(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        return tf.reduce_mean(tf.pow(y_true - y_pred, 2))

    y_true = tf.constant([2, 0, 7, 2, 3])
    y_pred = tf.constant([9, 9, 1, 1, 5])
    results = [get_MSE(y_true, y_pred) for _ in range(3)]
    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly() is True
        results += [get_MSE(y_true, y_pred) for _ in range(3)]
    finally:
        tf.config.run_functions_eagerly(False)
    assert lines(capsys.readouterr().out) == ["Calculating MSE!"] * 4
    assert {repr(r) for r in results} == {"<tf.Tensor: shape=(), dtype=int32, numpy=34>"}


# ----------------------------------------------------------------------------- B


def string_trace():
    double = double_function()
    double(tf.constant("a"))
    return double, double.get_concrete_function(tf.constant("a"))


def test_B1_concrete_function_positional_and_keyword(capsys):
    double, double_strings = string_trace()
    capsys.readouterr()
    print(double_strings(tf.constant("a")))
    print(double_strings(a=tf.constant("b")))
    assert lines(capsys.readouterr().out) == [
        "tf.Tensor(b'aa', shape=(), dtype=string)",
        "tf.Tensor(b'bb', shape=(), dtype=string)",
    ]


def test_B2_concrete_function_from_a_spec(capsys):
    double, _ = string_trace()
    capsys.readouterr()
    cf = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
    assert str(cf(tf.constant("c"))) == "tf.Tensor(b'cc', shape=(), dtype=string)"
    assert capsys.readouterr().out == ""  # the string trace is reused


def test_B3_B4_B5_printing_a_concrete_function():
    _, double_strings = string_trace()
    spec = "TensorSpec(shape=(), dtype=tf.string, name=None)"
    assert str(double_strings) == (
        "ConcreteFunction Input Parameters:\n"
        f"  a (POSITIONAL_OR_KEYWORD): {spec}\n"
        f"Output Type:\n  {spec}\nCaptures:\n  None"
    )
    assert str(double_strings.structured_input_signature) == (
        "((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})")
    assert str(double_strings.structured_outputs) == (
        'Tensor("Identity:0", shape=(), dtype=string)')
    assert str(double_strings.function_type) == f"(a: {spec}) -> {spec}"


def test_B6_wrong_dtype_to_a_concrete_function():
    _, double_strings = string_trace()
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        double_strings(tf.constant(1))
    assert ("as input #0(zero-based) was expected to be a string tensor but is a int32 "
            "tensor") in str(info.value)


def test_B7_python_argument_baked_into_the_signature():
    @tf.function
    def pow(a, b):
        return a**b

    square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    assert str(square) == (
        "ConcreteFunction Input Parameters:\n"
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)\n"
        "  b (POSITIONAL_OR_KEYWORD): Literal[2]\n"
        "Output Type:\n"
        "  TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)\n"
        "Captures:\n"
        "  None"
    )
    assert square(tf.constant(10.0)) == 100
    with pytest.raises(TypeError) as info:
        square(tf.constant(10.0), b=3)
    assert "Can not cast 3 to Literal[2]" in str(info.value)
    assert ("Fallback to flat signature also failed due to: pow(a) got unexpected keyword "
            "arguments: b.") in str(info.value)


def test_B8_graph_node_listing():
    _, double_strings = string_trace()
    listing = [f"{node.input} -> {node.name}"
               for node in double_strings.graph.as_graph_def().node]
    assert listing == ["[] -> a", "['a', 'a'] -> add", "['add'] -> Identity"]


def test_B9_inference_fn():
    _, double_strings = string_trace()
    assert repr(double_strings.inference_fn(tf.constant("a"))) == (
        "<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>")


def test_B10_python_int_argument_and_captured_variable():
    external_var = tf.Variable(3)

    @tf.function
    def f(x):
        return x * external_var

    traced_f = f.get_concrete_function(4)
    assert str(traced_f(4)) == "tf.Tensor(12, shape=(), dtype=int32)"
    assert str(traced_f()) == "tf.Tensor(12, shape=(), dtype=int32)"


def test_B11_get_concrete_function_identity():
    vector = tf.constant([1.0, 1.0])
    matrix = tf.constant([[3.0]])
    f = tf.function(lambda x: x)
    assert f.get_concrete_function(vector) is not f.get_concrete_function(matrix)
    g = tf.function(lambda x: x,
                    input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    assert g.get_concrete_function(vector) is g.get_concrete_function(matrix)


def test_B12_missing_argument_to_a_concrete_function():
    cf = tf.function(lambda x, y: x + y).get_concrete_function(tf.constant(1), tf.constant(2))
    with pytest.raises(TypeError) as info:
        cf(tf.constant(1))
    message = str(info.value)
    assert "missing a required argument: 'y'" in message
    assert "Fallback to flat signature also failed due to:" in message
    assert "missing required arguments: y" in message


def test_B13_python_return_values():
    assert repr(tf.function(lambda: 3)()) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>"
    assert tf.function(lambda: None)() is None
    one, (two,) = result = tf.function(lambda: (1, [2.0]))()
    assert isinstance(result, tuple)
    assert repr(one) == "<tf.Tensor: shape=(), dtype=int32, numpy=1>"
    assert repr(two) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"
    with pytest.raises(TypeError, match="To be compatible with tf.function, Python functions "
                       "must return zero or more Tensors or ExtensionTypes or None values"):
        tf.function(lambda: object())()


def test_B14_trace_time_message(capsys):
    @tf.function
    def f(a, b):
        print("this runs at trace time; a is", a, "and b is", b)
        return b

    first = f(1, tf.constant(1))
    f(1, tf.constant(2))
    f(2, tf.constant(2))
    line = 'this runs at trace time; a is {} and b is Tensor("b:0", shape=(), dtype=int32)'
    assert lines(capsys.readouterr().out) == [line.format(1), line.format(2)]
    assert repr(first) == "<tf.Tensor: shape=(), dtype=int32, numpy=1>"


# ----------------------------------------------------------------------------- D


def test_D1_non_strict_execution():
    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])
        return x

    assert str(unused_return_graph(tf.constant([0.0]))) == (
        "tf.Tensor([0.], shape=(1,), dtype=float32)")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 1 is not in \[0, 1\)"):
        tf.gather(tf.constant([0.0]), [1])


def test_D2_automatic_control_dependencies():
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)

    @tf.function
    def f(x, y):
        a.assign(y * b)
        b.assign_add(x * a)
        return a + b

    assert f(1.0, 2.0).numpy() == 10.0  # only if the assignments run in the order written
    assert (a.numpy(), b.numpy()) == (4.0, 6.0)
    assert f(1.0, 2.0).numpy() == 30.0


def test_D3_assign_add_returns_the_new_value():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        return v.assign_add(x)

    assert f(1.0).numpy() == 2.0
    assert f(2.0).numpy() == 4.0


def test_D4_creating_a_variable_on_every_call():
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v

    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables "
                       "created on the first call"):
        f(1.0)


def test_D5_creating_a_variable_once():
    class Count(tf.Module):
        def __init__(self):
            super().__init__()
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    assert str(c()) == "tf.Tensor(1, shape=(), dtype=int32)"
    assert str(c()) == "tf.Tensor(2, shape=(), dtype=int32)"
    assert c.__call__.experimental_get_tracing_count() == 2  # traced again once the variable exists


def test_D6_python_guarded_side_effect_and_init_scope():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                self.counter += 1
                self.v.assign_add(1)
            return self.v

    m = Model()
    assert [m().numpy() for _ in range(3)] == [1, 2, 3]

    class InitScopeModel(Model):
        @tf.function
        def __call__(self):
            if self.counter == 0:
                self.counter += 1
                with tf.init_scope():
                    self.v.assign_add(1)
            return self.v

    m = InitScopeModel()
    assert [m().numpy() for _ in range(3)] == [1, 1, 1]


def test_D8_external_list_mutation(capsys):
    external_list = []

    @tf.function
    def side_effect(x):
        print("Python side effect")
        external_list.append(x)

    for _ in range(3):
        side_effect(1)
    assert lines(capsys.readouterr().out) == ["Python side effect"]
    assert len(external_list) == 1


def test_D9_D10_leaked_tensors():
    leaked = {}

    @tf.function
    def leaky_function(a):
        leaked["x"] = a + 1
        return a + 2

    correct_a = leaky_function(tf.constant(1))
    assert correct_a.numpy() == 3
    with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
        leaked["x"].numpy()

    @tf.function
    def captures_leaked_tensor(b):
        b += leaked["x"]
        return b

    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):
        captures_leaked_tensor(tf.constant(2))


def test_D11_recursion_unrolls_over_python_values(capsys):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            print("tracing")
            return recursive_fn(n - 1)
        else:
            return 1

    assert recursive_fn(5).numpy() == 1
    assert lines(capsys.readouterr().out) == ["tracing"] * 5


def test_D12_prints_keep_program_order(capfd):
    @tf.function
    def f():
        tf.print("A")
        tf.print("B")
        tf.print("C")

    f()
    f()
    assert capfd.readouterr().err == "A\nB\nC\n" * 2


PRINTED = [
    # D13
    ("tf.range(10)", {}, "[0 1 2 ... 7 8 9]"),
    ("tf.range(10)", {"summarize": 1}, "[0 ... 9]"),
    ("tf.range(10)", {"summarize": -1}, "[0 1 2 3 4 5 6 7 8 9]"),
    ("tf.constant([[1, 2], [3, 4]])", {}, "[[1 2]\n [3 4]]"),
    # D14
    ('tf.constant("scalar")', {}, "scalar"),
    ("tf.constant([chr(c) for c in range(97, 123)])", {}, '["a" "b" "c" ... "x" "y" "z"]'),
    ('{"Big": tf.range(0, 100, 10), "small": tf.constant([0.3, 12.4, -16.1])}', {},
     "{'Big': [0 10 20 ... 70 80 90], 'small': [0.3 12.4 -16.1]}"),
    # D15
    ("tf.constant(43.5)", {}, "43.5"),
    ("tf.constant(4.0)", {}, "4"),
    ("tf.constant([True, False])", {}, "[1 0]"),
    ("tf.constant(1/3)", {}, "0.333333343"),
    ("tf.constant(43.5, dtype=tf.float64)", {}, "43.5"),
]


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("expr, kwargs, expected", PRINTED)
def test_D13_D14_D15_print_formats(capfd, in_function, expr, kwargs, expected):
    def show():
        tf.print(eval(expr), **kwargs)

    (tf.function(show) if in_function else show)()
    assert capfd.readouterr().err == expected + "\n"


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
def test_D15_D23_D24_print_arguments(capfd, in_function):
    def show():
        t = tf.range(10)
        tf.print("a", 1, tf.constant(2), sep=",")
        tf.print(23, [23, 5], {"6": 12})
        tf.print("first:", t, "middle:",
                 {"small": tf.constant([0.3, 12.4, -16.1]), "Big": t * 10}, 10, [t * 2, t])
        tf.print("{}6", {"{}": t * 10})
        tf.print(t, t * 10)
        tf.print(t, t * 10, sep="<separator>")
        tf.print(tf.constant("scalar"), end="<customend>")
        tf.print(t, summarize=2)

    (tf.function(show) if in_function else show)()
    assert capfd.readouterr().err == (
        "a,1,2\n"
        "23 [23, 5] {'6': 12}\n"
        "first: [0 1 2 ... 7 8 9] middle: {'Big': [0 10 20 ... 70 80 90], "
        "'small': [0.3 12.4 -16.1]} 10 [[0 2 4 ... 14 16 18], [0 1 2 ... 7 8 9]]\n"
        "{}6 {'{}': [0 10 20 ... 70 80 90]}\n"
        "[0 1 2 ... 7 8 9] [0 10 20 ... 70 80 90]\n"
        "[0 1 2 ... 7 8 9]<separator>[0 10 20 ... 70 80 90]\n"
        "scalar<customend>"
        "[0 1 ... 8 9]\n"
    )


def test_D23_variables_print_their_value(capfd):
    v = tf.Variable(2.14)
    v.assign_add(1.0)
    tf.print(v, {"second": tf.Variable(tf.range(10))})
    assert capfd.readouterr().err == "3.14 {'second': [0 1 2 ... 7 8 9]}\n"


def test_D24_output_streams(capfd, tmp_path):
    tf.print("to stdout", output_stream=sys.stdout)
    path = tmp_path / "log.txt"
    tf.print("to a file", output_stream="file://" + str(path))
    tf.print("again", output_stream="file://" + str(path))
    assert capfd.readouterr().out == "to stdout\n"
    assert path.read_text() == "to a file\nagain\n"
    with pytest.raises(ValueError):
        tf.print("x", output_stream="unknown")


def test_D25_print_runs_on_every_call_even_if_unused(capfd):
    @tf.function
    def f():
        t = tf.range(10)
        tf.print(t)
        return t

    f()
    f()
    assert capfd.readouterr().err == "[0 1 2 ... 7 8 9]\n" * 2


def test_D21_variable_created_on_a_later_trace():
    @tf.function
    def f(x):
        if isinstance(x, int) and x > 1:
            tf.Variable(1.0)
        return x

    f(1)
    with pytest.raises(ValueError, match="Creating variables on a non-first call to a function "
                       "decorated with tf.function."):
        f(2)


def test_D22_compiler_ir_needs_jit_compile():
    with pytest.raises(ValueError, match="Compiler IR can only be returned for functions "
                       "marked with 'jit_compile=True'"):
        tf.function(lambda x: x + 1).experimental_get_compiler_ir(tf.constant(1))


def test_D17_gradient_through_a_function():
    @tf.function
    def add(a, b):
        return a + b

    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        result = add(v, 1.0)
    assert repr(tape.gradient(result, v)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"


def test_D18_nested_functions():
    @tf.function
    def add(a, b):
        return a + b

    @tf.function
    def dense_layer(x, w, b):
        return add(tf.matmul(x, w), b)

    np.testing.assert_array_equal(
        dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2])).numpy(),
        np.full((3, 2), 3.0, np.float32))
    np.testing.assert_array_equal(add(tf.ones([2, 2]), tf.ones([2, 2])).numpy(),
                                  np.full((2, 2), 2.0, np.float32))

    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[2.0], [2.0]])
            self.b = tf.Variable([2.0])

        def __call__(self, x):
            return tf.matmul(x, self.w) + self.b

    layer = Dense()

    @tf.function
    def outer_function(x):
        return layer(x) * 2.0

    result = outer_function(tf.constant([[1.0, 2.0]])).numpy()
    np.testing.assert_array_equal(result, np.array([[16.0]], np.float32))


def test_D19_tensor_array_rnn():
    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])  # [batch, time, features] -> [time, ...]
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    inputs = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    result = dynamic_rnn(lambda inp, state: inp + state, tf.constant(inputs), tf.zeros([2, 4]))
    assert (result.shape, result.dtype) == ((2, 3, 4), tf.float32)
    np.testing.assert_allclose(result.numpy(), np.cumsum(inputs, axis=1), rtol=1e-6)


def test_D16_graph_def_of_simple_relu():
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    graph_def = tf.function(simple_relu).get_concrete_function(tf.constant(1)).graph.as_graph_def()
    assert [(n.name, n.op) for n in graph_def.node] == [
        ("x", "Placeholder"), ("Greater/y", "Const"), ("Greater", "Greater"), ("cond", "StatelessIf"),
        ("cond/Identity", "Identity"), ("cond/Identity_1", "Identity"), ("Identity", "Identity")]
    # The rest as the GraphDef text shows it (graphfn's Python GraphDef has nodes only).
    text = str(graph_def)
    assert len(re.findall(r'signature \{\n\s+name: "cond_(?:true|false)_\d+"', text)) == 2
    tout = re.search(r'key: "Tout"\n\s+value \{\n\s+list \{\n((?:\s+type: \w+\n)+)', text)
    assert tout.group(1).split() == ["type:", "DT_BOOL", "type:", "DT_INT32"]
