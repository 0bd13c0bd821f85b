"""Records how TensorFlow's gradient registry sees every op, into
tests/python/tf_gradient_registry.json: "function" (a gradient function), "none" (declared not
differentiable: its gradients are None) or, for ops it has no entry for, nothing (asking for
their gradient raises LookupError). tests/python/test_gradient_registry.py compares graphfn's ops
with it.

    ~/tf/bin/python tools/record_tf_gradient_registry.py
"""

import json
import os

import tensorflow as tf  # noqa: F401 (importing TF fills its gradient registry)
from tensorflow.python.framework import ops

OUT = os.path.join(os.path.dirname(__file__), os.pardir, "tests", "python", "tf_gradient_registry.json")


def main():
    registry = ops._gradient_registry._registry  # noqa: SLF001 (the registry has no public listing)
    kinds = {name: "function" if entry["type"] is not None else "none" for name, entry in registry.items()}
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "ops": kinds}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
