"""The real Keras 3 on graphfn: graphfn.install_as_tensorflow() and small Keras programs whose
results are compared with the same programs on TensorFlow 2.21.

Installing graphfn as `tensorflow` and importing Keras change the process for good, so every
check runs in a subprocess. The expected values were recorded with
`~/tf/bin/python tests/python/keras_real_programs.py tensorflow` (TF 2.21, Keras 3.15.1)."""

import json
import os

import pytest

import fresh_interpreter

HERE = os.path.dirname(os.path.abspath(__file__))


def run_python(code, timeout=600):
    return fresh_interpreter.run_code(code, timeout=timeout, KERAS_BACKEND="tensorflow")


def test_import_graphfn_neither_imports_keras_nor_installs_itself():
    result = run_python("""
        import sys
        import graphfn
        print("keras" in sys.modules, "tensorflow" in sys.modules, "graphfn.tensorflow_alias" in sys.modules)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "False"]


def test_install_as_tensorflow_registers_graphfn_and_the_internals_keras_imports():
    result = run_python("""
        import sys
        import graphfn
        assert graphfn.install_as_tensorflow() is graphfn
        assert graphfn.install_as_tensorflow() is graphfn  # a second call does nothing
        import tensorflow as tf
        import tensorflow.math
        from tensorflow import data as tf_data
        from tensorflow.python.trackable.data_structures import ListWrapper, _DictWrapper
        from tensorflow.python.eager import context
        from tensorflow.compiler.tf2xla.python.xla import dynamic_update_slice
        from tensorflow.experimental import dtensor
        print(tf is graphfn, tensorflow.math is graphfn.math, tf_data is graphfn.data)
        print(isinstance(ListWrapper([1]), list), isinstance(_DictWrapper({"a": 1}), dict),
              isinstance(ListWrapper([]), tf.__internal__.tracking.Trackable))
        print(context.context().executing_eagerly(), context.async_wait())
        print(dynamic_update_slice(tf.zeros([3, 4], tf.int32), tf.ones([2, 2], tf.int32), [2, 1]).numpy().tolist())
        try:
            dtensor.Mesh
        except AttributeError as e:
            print(e)
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "True True True"
    assert lines[1] == "True True True"
    assert lines[2] == "True None"
    # XLA's DynamicUpdateSlice clamps the start so that the update fits: row 2 becomes row 1.
    assert lines[3] == "[[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0]]"
    assert lines[4] == ("module 'tensorflow.experimental.dtensor' has no attribute 'Mesh': graphfn does not have "
                        "tensorflow.experimental.dtensor.Mesh yet")


def test_nested_api_namespaces_import_as_modules_after_install():
    # Keras's file utilities: LazyModule("tensorflow.io.gfile") (TF 2.21 imports it the same way).
    result = run_python("""
        import importlib
        import graphfn
        graphfn.install_as_tensorflow()
        print(importlib.import_module("tensorflow.io.gfile") is graphfn.io.gfile,
              importlib.import_module("tensorflow.data.experimental") is graphfn.data.experimental)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["True True"]


def test_install_raises_when_real_tensorflow_is_already_imported():
    # The system Python has no TensorFlow: a stand-in module plays the imported real one.
    result = run_python("""
        import sys, types
        sys.modules["tensorflow"] = types.ModuleType("tensorflow")
        import graphfn
        try:
            graphfn.install_as_tensorflow()
        except ImportError as e:
            print(type(e).__name__, e)
        print(sys.modules["tensorflow"] is graphfn)
    """)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.startswith("ImportError graphfn.install_as_tensorflow(): the real TensorFlow is already imported in "
                            "this process (sys.modules['tensorflow'] is <module 'tensorflow'>)")
    assert second == "False"


def test_trackable_and_default_strategy_behave_as_keras_expects():
    result = run_python("""
        import graphfn as tf

        class Child(tf.__internal__.tracking.AutoTrackable):
            pass

        class Parent(tf.__internal__.tracking.AutoTrackable):
            @tf.__internal__.tracking.no_automatic_dependency_tracking
            def untracked(self, value):
                self.hidden = value

        parent, child = Parent(), Child()
        parent.child = child
        parent.number = 3
        parent.untracked(Child())
        print(sorted(parent._trackable_children()), parent._lookup_dependency("child") is child)
        strategy = tf.distribute.get_strategy()
        print(strategy.num_replicas_in_sync, tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context())
        context = tf.distribute.get_replica_context()
        print(context.all_reduce(tf.distribute.ReduceOp.SUM, tf.constant(2.0)).numpy(),
              context.merge_call(lambda s, x: (s is strategy, x), args=(5,)))
        print(strategy.reduce("MEAN", tf.constant([1.0, 3.0]), axis=0).numpy(),
              strategy.run(lambda x: x * 2, args=(tf.constant(4),)).numpy())
        print(tf.__internal__.smart_cond.smart_cond(tf.constant(False), lambda: 1, lambda: 2),
              tf.get_static_value(tf.constant([1, 2])).tolist())
        try:
            tf.distribute.MirroredStrategy()
        except NotImplementedError as e:
            print(e)
        print(list(tf.VariableAggregation.__members__), list(tf.VariableSynchronization.__members__))
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "['child'] True"
    assert lines[1] == "1 False False"
    assert lines[2] == "2.0 (True, 5)"
    assert lines[3] == "2.0 8"
    assert lines[4] == "2 [1, 2]"
    assert lines[5].startswith("graphfn does not have tf.distribute.MirroredStrategy yet")
    # TF 2.21's members, in its order.
    assert lines[6] == ("['NONE', 'SUM', 'MEAN', 'ONLY_FIRST_REPLICA'] "
                        "['AUTO', 'NONE', 'ON_WRITE', 'ON_READ']")


def test_tensors_take_the_attributes_keras_sets():
    result = run_python("""
        import gc
        import graphfn as tf
        from graphfn.framework import tensor_attributes
        t = tf.constant([1.0, 2.0])
        print(hasattr(t, "_keras_mask"))
        t._keras_mask = tf.constant([True, False])
        print(t._keras_mask.numpy().tolist())
        key = id(t)
        del t
        gc.collect()
        print(key in tensor_attributes._values)

        @tf.function
        def f(x):
            y = tf.nn.softmax(x)
            y._keras_logits = x
            return y._keras_logits * 2

        print(f(tf.constant([1.0])).numpy().tolist())
        try:
            tf.constant(1.0).unknown = 1
        except AttributeError as e:
            print(type(e).__name__)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["False", "[True, False]", "False", "[2.0]", "AttributeError"]


# Keras programs ---------------------------------------------------------------------------------

# Recorded from TF 2.21 + Keras 3.15.1 (keras_real_programs.py tensorflow).
TF_RESULTS = {
    "ops": [[22.214675903320312, 446.1936950683594], [[5.0, 14.0], [14.0, 50.0]],
            [[0.09003057330846786, 0.2447284758090973, 0.6652409434318542],
             [0.09003057330846786, 0.2447284758090973, 0.6652409434318542]], "int32"],
    "dense_call": [[[3.0, 3.0], [12.0, 12.0]], [[3, 2], [2]]],
    "mlp_fit": {"history": {"loss": [11.913335800170898, 9.842351913452148, 8.806129455566406],
                            "mae": [2.8432490825653076, 2.5564703941345215, 2.4036877155303955]},
                "predict": [[1.0351412296295166], [3.4784045219421387], [0.45638614892959595]],
                "evaluate": [8.15256118774414, 2.3126935958862305]},
    "classifier_fit": {"history": {"accuracy": [0.078125, 0.25, 0.4375],
                                   "loss": [1.193983554840088, 1.1313973665237427, 1.0829594135284424]},
                       "predict": [[0.32357287406921387, 0.37155765295028687, 0.30486947298049927],
                                   [0.328109472990036, 0.3994496762752533, 0.2724407911300659]]},
    "functional": {"loss": 12.947169303894043, "predict": [[2.6220202445983887], [4.980185508728027]],
                   "layers": ["InputLayer", "Dense", "Concatenate", "Dense"]},
    "mixed_precision": {"compute_dtype": "float16", "variable_dtype": "float32", "predict_dtype": "float16",
                        "history": {"loss": [11.523613929748535, 8.25837230682373]},
                        "optimizer": "LossScaleOptimizer"},
    "mixed_bfloat16": {"compute_dtype": "bfloat16", "variable_dtype": "float32", "predict_dtype": "bfloat16",
                       "history": {"loss": [12.240701675415039, 10.821434020996094]}, "optimizer": "Adam"},
    "loss_scale_optimizer": {"losses": [9.979487419128418, 13.524173736572266, 6.731596946716309, 19.030126571655273],
                             "scale_before": 1024.0, "scale_after": 512.0, "iterations": 4,
                             "kernel_sum": -0.042383670806884766},
    "dataset_fit": {"history": {"loss": [11.913335800170898, 9.842351913452148, 8.806129455566406],
                                "mae": [2.8432490825653076, 2.5564703941345215, 2.4036877155303955]},
                    "evaluate": [8.15256118774414, 2.3126938343048096],
                    "predict": [[1.0351412296295166], [3.4784045219421387], [0.45638614892959595]]}
}


@pytest.fixture(scope="module")
def graphfn_results():
    result = fresh_interpreter.run([os.path.join(HERE, "keras_real_programs.py"), "graphfn"], timeout=900)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def assert_close(actual, expected, rtol):
    """Same structure; numbers equal within rtol (TF's float32 training tolerances); the rest equal."""
    if isinstance(expected, dict):
        assert sorted(actual) == sorted(expected)
        for key in expected:
            assert_close(actual[key], expected[key], rtol)
    elif isinstance(expected, list):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_close(a, e, rtol)
    elif isinstance(expected, float):
        assert actual == pytest.approx(expected, rel=rtol, abs=1e-6)
    else:
        assert actual == expected


@pytest.mark.parametrize("program, rtol", [
    ("ops", 1e-6), ("dense_call", 1e-6), ("mlp_fit", 1e-5), ("classifier_fit", 1e-5), ("functional", 1e-5),
    ("dataset_fit", 1e-5),
    # float16 layers: TF's and graphfn's kernels may round a product differently.
    ("mixed_precision", 1e-3), ("loss_scale_optimizer", 1e-3),
    # bfloat16 keeps 8 significant bits (relative step 2^-8 = 0.004): one rounding apart.
    ("mixed_bfloat16", 5e-3),
])
def test_keras_program_matches_tensorflow(graphfn_results, program, rtol):
    result = graphfn_results[program]
    assert "error" not in result, result.get("trace")
    assert_close(result, TF_RESULTS[program], rtol)


def test_tf_keras_is_the_real_keras_and_installs_graphfn_as_tensorflow():
    # As TF 2.16+: tf.keras is keras._tf_keras.keras (Keras 3's TF-shaped API), tf.losses & co. its
    # modules; `import tensorflow.keras` works once graphfn is tensorflow.
    result = run_python("""
        import sys
        import graphfn as tf
        print("keras" in sys.modules, "tensorflow" in sys.modules)
        keras = tf.keras
        import keras as real_keras
        print(keras.__name__, sys.modules["tensorflow"] is tf, real_keras.backend.backend())
        print(keras.Model is real_keras.Model, tf.losses is keras.losses, tf.metrics is keras.metrics,
              tf.optimizers is keras.optimizers, tf.initializers is keras.initializers)
        from graphfn.keras import layers
        import tensorflow.keras
        from tensorflow.keras import optimizers
        print(layers.Dense is real_keras.layers.Dense, tensorflow.keras.Sequential is real_keras.Sequential,
              optimizers.Adam is real_keras.optimizers.Adam)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["False False", "keras._tf_keras.keras True tensorflow",
                                          "True True True True True", "True True True"]


def test_tf_keras_without_keras_installed_says_how_to_get_it(tmp_path):
    result = run_python("""
        import sys
        sys.modules["keras"] = None  # as if it were not installed: `import keras` fails
        import graphfn as tf
        for attempt in ("tf.keras", "tf.losses"):
            try:
                eval(attempt)
            except ImportError as e:
                print(type(e).__name__, e)
        print("tensorflow" in sys.modules)
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    hint = ("graphfn.keras (tf.keras) is the Keras 3 package running on graphfn, as tf.keras is in TensorFlow "
            "2.16+, and Keras is not installed. Install it with `pip install graphfn[keras]` (or "
            "`pip install \"keras>=3.15\"`).")
    assert lines == ["ModuleNotFoundError " + hint] * 2 + ["False"]


def test_datasets_and_composite_tensors_carry_tensorflows_class_names_after_install():
    # Keras recognizes TF's datasets, RaggedTensor and SparseTensor by their classes' modules
    # ("tensorflow.python." in them); TF 2.21 prints these exact class names. The fit of a
    # batched dataset gives TF 2.21's losses [3.6928, 2.6455] (same program on TF).
    result = run_python("""
        import os, pickle
        os.environ["KERAS_BACKEND"] = "tensorflow"
        import graphfn
        graphfn.install_as_tensorflow()
        import tensorflow as tf, keras, numpy as np
        from tensorflow.python.data.ops import dataset_ops
        print(tf.data.Dataset, dataset_ops.DatasetV2 is tf.data.Dataset)
        print(type(tf.ragged.constant([[1]])), type(tf.sparse.from_dense([[1]])))
        ds = tf.data.Dataset.from_tensor_slices((np.ones((8, 3), "float32"), np.ones((8, 1), "float32"))).batch(4)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile("sgd", "mse")
        print([round(v, 4) for v in model.fit(ds, epochs=2, verbose=0).history["loss"]])
        print(pickle.loads(pickle.dumps(tf.ragged.constant([[1], [2, 3]]))).shape)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "<class 'tensorflow.python.data.ops.dataset_ops.DatasetV2'> True",
        "<class 'tensorflow.python.ops.ragged.ragged_tensor.RaggedTensor'> "
        "<class 'tensorflow.python.framework.sparse_tensor.SparseTensor'>",
        "[3.6928, 2.6455]",
        "(2, None)",
    ]
