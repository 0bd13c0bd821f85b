"""tf.print in a Jupyter kernel: its text is the cell's stdout stream, in order with print(), for
the default stream (stderr), sys.stdout and sys.stderr; a file:// stream writes the file. Expected
outputs recorded from TensorFlow 2.21 in the same notebook run through nbclient 0.11 / ipykernel 7.4."""

import nbformat
from nbclient import NotebookClient

CELLS = [
    ("tf.print('eager', 2)", "eager 2\n"),
    ("@tf.function\ndef f(x):\n  tf.print('in graph', x)\n  return x\n_ = f(tf.constant([1, 2]))", "in graph [1 2]\n"),
    ("tf.print('to stdout', 3, output_stream=sys.stdout)", "to stdout 3\n"),
    ("tf.print('to stderr', 4, output_stream=sys.stderr)", "to stderr 4\n"),
    ("tf.print('to file', 5, output_stream='file://' + PATH)\nprint(open(PATH).read(), end='')", "to file 5\n"),
    ("print('a'); tf.print('b'); print('c')", "a\nb\nc\n"),
    ("@tf.function\ndef g():\n  for i in tf.range(3):\n    tf.print('step', i)\n  return 0\n_ = g()",
     "step 0\nstep 1\nstep 2\n"),
    ("tf.print(tf.range(400), summarize=-1)", "[" + " ".join(str(i) for i in range(400)) + "]\n"),
    ("tf.print('x', end='')\ntf.print('y')", "xy\n"),
]


def test_tf_print_is_the_cells_stdout(tmp_path):
    setup = "import graphfn as tf, sys\nPATH = %r" % str(tmp_path / "printed.txt")
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(setup)] + [nbformat.v4.new_code_cell(code) for code, _ in CELLS])
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    for cell, (code, expected) in zip(notebook.cells[1:], CELLS):
        streams = {o["name"] for o in cell.outputs if o["output_type"] == "stream"}
        others = [o for o in cell.outputs if o["output_type"] != "stream"]
        text = "".join(o["text"] for o in cell.outputs if o["output_type"] == "stream")
        assert (streams, others, text) == ({"stdout"}, [], expected), code
