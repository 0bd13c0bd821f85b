"""A TensorFlow name graphfn lacks fails with a message saying so; other missing names fail as
any module's do. The TF names come from tf_api_names.txt (recorded from TF 2.21)."""

import pytest

import graphfn as tf


@pytest.mark.parametrize("expr, message", [
    ("tf.data.experimental.SqlDataset", "module 'graphfn.data.experimental' has no attribute 'SqlDataset': graphfn "
                                        "does not have tf.data.experimental.SqlDataset yet (TensorFlow 2.21 has it)"),
    ("tf.nn.ctc_loss", "module 'graphfn.nn' has no attribute 'ctc_loss': graphfn does not have tf.nn.ctc_loss yet "
                       "(TensorFlow 2.21 has it)"),
    ("tf.io.decode_webp", "module 'graphfn.io' has no attribute 'decode_webp': graphfn does not have "
                          "tf.io.decode_webp yet (TensorFlow 2.21 has it)"),
    ("tf.no_such_name", "module 'graphfn' has no attribute 'no_such_name'"),
    ("tf.nn.no_such_name", "module 'graphfn.nn' has no attribute 'no_such_name'"),
])
def test_missing_names(expr, message):
    with pytest.raises(AttributeError) as info:
        eval(expr, {"tf": tf})
    assert str(info.value) == message


def test_hasattr_and_getattr_defaults_still_work():
    assert not hasattr(tf, "no_such_name")
    assert getattr(tf.nn, "no_such_name", 5) == 5


def test_the_tensorflow_name_list_is_read_only_when_a_name_is_missing():
    import subprocess
    import sys

    code = ("import graphfn, sys; from graphfn.util import missing_names; "
            "print(missing_names._tensorflow_names.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_every_exported_name_is_a_tensorflow_name():
    # graphfn's own names (documented in docs/function.md) are the only exceptions.
    from graphfn.util import missing_names, tf_export

    graphfn_only = {"config.explain_retracing"}
    # tf.compat is not in the recorded list (tools/record_tf_api_names.py); test_tf_graph.py
    # checks the tf.compat.v1 names graphfn has against TF 2.21's.
    # tf.__internal__ (TF's API for libraries built on it, which Keras 3 uses) is not in the list
    # either: the recorder skips names that start with an underscore; test_keras_real.py checks
    # these names against Keras's use of them.
    exported = {name for name, _ in tf_export._EXPORTS if not name.startswith(("compat.", "__internal__."))}
    assert sorted(exported - missing_names._tensorflow_names() - graphfn_only) == []
