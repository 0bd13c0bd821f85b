"""A saved model runs in a new process in which the code that defined it no longer exists."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np

DEFINE = textwrap.dedent("""
    import graphfn as tf

    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[2.0], [3.0]], name="w")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            y = tf.matmul(x, self.w)
            while tf.reduce_max(y) > 10.0:
                y = y / 2.0
            return y

    def save(path):
        m = Model()
        m.relu = tf.function(simple_relu)
        m.relu(tf.constant(1))
        tf.saved_model.save(m, path)
""")

LOAD = textwrap.dedent("""
    import json, sys
    import graphfn as tf
    assert "user_model" not in sys.modules
    m = tf.saved_model.load(sys.argv[1])
    y = m(tf.constant([[1.0, 1.0], [4.0, 4.0]]))
    sig = m.signatures["serving_default"](x=tf.constant([[1.0, 0.0]]))
    print(json.dumps({"y": y.numpy().tolist(), "sig": sig["output_0"].numpy().tolist(),
                      "relu": [int(m.relu(tf.constant(v))) for v in (3, -3)], "w": m.w.numpy().tolist()}))
""")


def _run(code, *args, cwd):
    env = dict(os.environ)
    inherited = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([cwd] + inherited)
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_load_without_the_defining_module(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "user_model.py").write_text(DEFINE)
    model_dir = str(tmp_path / "model")
    _run("import sys, user_model; user_model.save(sys.argv[1])", model_dir, cwd=str(src))
    (src / "user_model.py").unlink()
    for cache in src.glob("__pycache__"):
        for f in cache.iterdir():
            f.unlink()
    out = json.loads(_run(LOAD, model_dir, cwd=str(tmp_path)))
    w = np.array([[2.0], [3.0]], np.float32)

    def expected(x):
        y = np.asarray(x, np.float32) @ w
        while y.max() > 10.0:
            y = y / np.float32(2.0)
        return y.tolist()

    assert out["y"] == expected([[1.0, 1.0], [4.0, 4.0]])
    assert out["sig"] == expected([[1.0, 0.0]])
    assert out["relu"] == [3, 0]
    assert out["w"] == [[2.0], [3.0]]
