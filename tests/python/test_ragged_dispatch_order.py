"""APIs dispatch on composite arguments whatever the order of lookup: `tf.reduce_sum(
tf.ragged.constant(...))` fetches tf.reduce_sum before the ragged modules load and register
their dispatch. Each case runs in a fresh interpreter (the order is the point); the expected
outputs were printed by TF 2.21 running ragged_dispatch_order_script.py with `tf`."""

import os
import subprocess
import sys

import pytest

import graphfn

SCRIPT = os.path.join(os.path.dirname(__file__), "ragged_dispatch_order_script.py")
# The graphfn under test (the installed one in CI, the source tree with PYTHONPATH while developing).
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(graphfn.__file__)))

EXPECTED = {
    "reduce_sum_inline": "tf.Tensor(6, shape=(), dtype=int32)\n",
    "abs_fetched_early": "<tf.RaggedTensor [[1, 2], [3]]>\n",
    "binary_and_list_apis": ("<tf.RaggedTensor [[2.5, -1.0], [4.0]]>\n"
                             "<tf.RaggedTensor [[1.5, -2.0], [3.0], [1.5, -2.0], [3.0]]>\n"
                             "tf.Tensor([1.5 3. ], shape=(2,), dtype=float32)\n"),
    "inside_function": "tf.Tensor([5 9], shape=(2,), dtype=int32)\n",
    "sparse_fetched_early": "tf.Tensor(\n[[ 0. -2.]\n [ 3.  0.]], shape=(2, 2), dtype=float32)\n",
    "strings_fetched_early": ("<tf.RaggedTensor [[1, 2], [3]]>\n"
                              "<tf.RaggedTensor [[b'A', b'BC'], [b'DEF']]>\n"),
    "extension_type_fetched_early": ("tf.Tensor(4, shape=(), dtype=int32)\n"
                                     "tf.Tensor(4, shape=(), dtype=int32)\n"
                                     "tf.Tensor(3, shape=(), dtype=int32)\n"),
    "identity_and_signature": ("True True reduce_sum\n"
                               "(input_tensor, axis=None, keepdims=False, name=None)\n"
                               "tf.Tensor([4 6], shape=(2,), dtype=int32)\n"),
}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_api_fetched_before_registration_dispatches(case):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [PACKAGE_PARENT, env.get("PYTHONPATH", "")] if p)
    done = subprocess.run([sys.executable, SCRIPT, "gf", case], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED[case]
