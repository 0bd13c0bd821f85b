"""`import graphfn` does not import NumPy: eager ops on Python numbers, tracing (with AutoGraph),
graph execution, reductions, gathers, tf.print and random ops with a scalar shape all run without
it. Printing a tensor loads it, and the printed text is then TensorFlow's. Runs in a fresh
interpreter, because the test process itself has NumPy loaded."""

import os
import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent('''
    import sys
    import graphfn as tf

    assert "numpy" not in sys.modules, "import graphfn loaded numpy"

    @tf.function
    def collatz_steps(n):
        steps = 0
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        tf.print("steps:", steps)
        return steps

    steps = collatz_steps(tf.constant(27))
    total = tf.reduce_sum(tf.range(10) * 2)          # 2 * 45
    picked = tf.gather(tf.range(5, 10), 3)           # 8
    squeezed = tf.squeeze(tf.reshape(tf.range(3), (1, 3)), axis=0)
    noise = tf.random.uniform([], seed=1)            # shape [] without a Python list
    for name, value in [("steps", steps), ("total", total), ("picked", picked)]:
        assert isinstance(value, tf.Tensor), name
    assert squeezed.shape == (3,) and noise.shape == ()
    assert "numpy" not in sys.modules, "an op loaded numpy"

    print(steps)
    print(total)
    print(picked)
    print("numpy loaded:", "numpy" in sys.modules)
''')


def test_numpy_is_imported_only_when_a_value_is_needed(tmp_path):
    script = tmp_path / "lazy_numpy_script.py"  # a file, so AutoGraph can read the source
    script.write_text(_SCRIPT)
    env_path = ":".join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=env_path))
    assert out.returncode == 0, out.stderr
    # 27 takes 111 Collatz steps.
    assert out.stderr == "steps: 111\n"
    assert out.stdout == ("tf.Tensor(111, shape=(), dtype=int32)\n"
                          "tf.Tensor(90, shape=(), dtype=int32)\n"
                          "tf.Tensor(8, shape=(), dtype=int32)\n"
                          "numpy loaded: True\n")
