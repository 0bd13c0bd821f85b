"""Records sparse_goldens.json from TensorFlow 2.21 (run with ~/tf/bin/python)."""

import os
import re
import sys

import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from sparse_cases import CASES, SETUP  # noqa: E402
from setup_goldens import record  # noqa: E402


# TF's kernel messages start with the node ("{{function_node __wrapped__SparseAdd_device_...}} ")
# and end with the op (" [Op:SparseAdd] name: "): the recorded text keeps what lies between.
_NODE_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")
_OP_SUFFIX = re.compile(r" \[Op:[A-Za-z0-9_]+\]( name: [^\n]*)?$")


def message_of(error):
    return _OP_SUFFIX.sub("", _NODE_PREFIX.sub("", str(error)))


if __name__ == "__main__":
    record(tf, CASES, SETUP, "sp", "sp", "sparse_goldens.json", message_of=message_of)
