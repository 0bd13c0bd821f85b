"""Records extension_type_goldens.txt: extension_type_script.py's output under TensorFlow 2.21
(run with ~/tf/bin/python)."""

import contextlib
import io
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def run_script(tf_module):
    """The script's printed lines with `tf_module` as tf."""
    with open(os.path.join(HERE, "extension_type_script.py")) as f:
        source = f.read()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "extension_type_script.py", "exec"), {"tf": tf_module, "__name__": "__main__"})
    return out.getvalue().splitlines()


if __name__ == "__main__":
    import tensorflow as tf

    with open(os.path.join(HERE, "extension_type_goldens.txt"), "w") as f:
        f.write("\n".join(run_script(tf)) + "\n")
