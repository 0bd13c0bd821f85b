"""`python -m graphfn` runs the tour: eager ops, a traced function and its graph, the timing."""

import subprocess
import sys


def test_tour_runs_and_shows_each_part():
    out = subprocess.run([sys.executable, "-m", "graphfn"], capture_output=True, text=True, timeout=300, check=True)
    text = out.stdout
    assert "tf.Tensor(\n[[ 8. 11.]\n [16. 23.]], shape=(2, 2), dtype=float32)" in text
    assert '>>> double(tf.constant(1))\nTracing with Tensor("a:0", shape=(), dtype=int32)\ntf.Tensor(2, shape=(), dtype=int32)' in text
    assert "[] -> a\n['a', 'a'] -> add\n['add'] -> Identity" in text
    assert "Eager execution:" in text and "Graph execution:" in text
