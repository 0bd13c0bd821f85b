"""Normalisation masks shared by the seed cell files: (regex, replacement) pairs applied to the
expected and the actual text before they are compared."""

import re

# Values from tf.random.uniform(..., dtype=tf.int32) printed as a tensor.
RANDOM_INTS = (r"\[[0-9 ]+\]", "[<random ints>]")
# A value computed from random inputs, shown in a tensor repr.
RANDOM_NUMPY = (r"numpy=-?\d+", "numpy=<from random inputs>")
# timeit results.
TIMING = (r"\d+\.\d+(e-?\d+)?", "<seconds>")
# The Python package version.
VERSION = (r"(?m)^\d+\.\d+\.\d+\S*$", "<version>")


def _sorted_names(match):
    return match.group(1) + ", ".join(sorted(match.group(2).split(", ")))


# AutoGraph's generated `nonlocal a, b` lists follow Python set order in TF, which changes with
# PYTHONHASHSEED (checked: the simple_relu listing comes out both ways); compare them sorted.
NONLOCAL_ORDER = (re.compile(r"(nonlocal )([\w, ]+)"), _sorted_names)

# Where the Function class lives (TF's and graphfn's module paths differ by design).
FUNCTION_MODULE = (r"<(tensorflow\.python\.eager\.polymorphic_function\.polymorphic_function"
                   r"|graphfn\.function\.polymorphic_function)\.Function object",
                   "<...polymorphic_function.Function object")
