"""graphfn.saved_model.LoadOptions: TF 2.21's arguments are accepted, and a loaded model may write
files (tf.print to 'file://...') only with allow_file_output=True; graphfn-run's switch is
--allow_file_output. Without it, loading such a model fails naming the node and the option."""

import inspect

import numpy as np
import pytest

import graphfn as tf
from saved_cases import run_graphfn_run


class Printer(tf.Module):
    def __init__(self, stream):
        super().__init__()
        self.stream = stream

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def __call__(self, x):
        tf.print("x =", x, output_stream=self.stream)
        return x * 2


def save_printer(tmp_path, stream):
    path = str(tmp_path / "printer")
    tf.saved_model.save(Printer(stream), path)
    return path


def refused_message(log):
    return (r"node '[^']*' \(PrintV2\) writes to the file %s \(output_stream='file://%s'\); a loaded model may "
            r"write files only when loaded with graphfn.saved_model.LoadOptions\(allow_file_output=True\) "
            r"\(graphfn-run: --allow_file_output\)" % (log, log))


def test_load_options_takes_tf_arguments_first():
    # TF 2.21: LoadOptions(allow_partial_checkpoint=False, experimental_io_device=None,
    # experimental_skip_checkpoint=False, experimental_variable_policy=None,
    # experimental_load_function_aliases=False); graphfn adds allow_file_output after them.
    names = list(inspect.signature(tf.saved_model.LoadOptions).parameters)
    assert names == ["allow_partial_checkpoint", "experimental_io_device", "experimental_skip_checkpoint",
                     "experimental_variable_policy", "experimental_load_function_aliases", "allow_file_output"]
    options = tf.saved_model.LoadOptions(True, "/job:localhost", True, None, True)
    assert options.allow_partial_checkpoint is True
    assert options.experimental_io_device == "/job:localhost"
    assert options.experimental_skip_checkpoint is True
    assert options.experimental_variable_policy is None
    assert options.experimental_load_function_aliases is True
    assert options.allow_file_output is False
    with pytest.raises(AttributeError):  # __slots__, as TF's
        options.other = 1


def test_a_model_that_prints_to_a_file_is_refused_by_default(tmp_path):
    log = tmp_path / "log.txt"
    path = save_printer(tmp_path, "file://%s" % log)
    with pytest.raises(tf.errors.PermissionDeniedError, match=refused_message(log)):
        tf.saved_model.load(path)
    with pytest.raises(tf.errors.PermissionDeniedError, match=refused_message(log)):
        tf.saved_model.load(path, options=tf.saved_model.LoadOptions())
    assert not log.exists()


def test_allow_file_output_lets_the_loaded_model_append_to_its_file(tmp_path):
    log = tmp_path / "log.txt"
    path = save_printer(tmp_path, "file://%s" % log)
    loaded = tf.saved_model.load(path, options=tf.saved_model.LoadOptions(allow_file_output=True))
    np.testing.assert_array_equal(loaded(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    loaded.signatures["serving_default"](x=tf.constant([3.0, 4.0]))
    assert log.read_text() == "x = [1 2]\nx = [3 4]\n"


def test_prints_to_stderr_need_no_option(tmp_path, capfd):
    loaded = tf.saved_model.load(save_printer(tmp_path, "stderr"))
    loaded(tf.constant([1.0, 2.0]))
    assert capfd.readouterr().err == "x = [1 2]\n"


def test_options_that_are_not_load_options_fail_as_in_tf(tmp_path):
    path = save_printer(tmp_path, "stderr")
    with pytest.raises(AttributeError):  # TF: 'int' object has no attribute 'experimental_io_device'
        tf.saved_model.load(path, options=3)


def test_graphfn_run_needs_allow_file_output(tmp_path):
    log = tmp_path / "log.txt"
    path = save_printer(tmp_path, "file://%s" % log)
    np.save(tmp_path / "x.npy", np.array([5.0, 6.0], np.float32))
    args = ["--input", "x=%s" % (tmp_path / "x.npy"), "--output_dir", tmp_path / "out"]
    refused = run_graphfn_run(path, *args)
    assert refused.returncode == 1
    assert refused.stderr.startswith("graphfn-run: PERMISSION_DENIED: ")
    assert "(PrintV2) writes to the file %s" % log in refused.stderr
    assert refused.stderr.endswith("(graphfn-run: --allow_file_output)\n")
    assert not log.exists()
    allowed = run_graphfn_run(path, *args, "--allow_file_output")
    assert allowed.returncode == 0, allowed.stderr
    assert log.read_text() == "x = [5 6]\n"
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "output_0.npy"), [10.0, 12.0])
