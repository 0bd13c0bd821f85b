"""Helpers the tf.strings golden table (strings_cases.py) calls, defined on whichever `tf` module is
given: the table was recorded on TensorFlow 2.21 (tools/record_strings_goldens.py) and the tests
run it on graphfn."""

import numpy as np

# The inputs of the raw ops the table calls, in order (TF's raw_ops take them by keyword).
RAW_INPUTS = {
    "StringSplitV2": ["input", "sep"],
    "StringSplit": ["input", "delimiter"],
    "UnicodeDecode": ["input"],
    "UnicodeDecodeWithOffsets": ["input"],
    "UnicodeEncode": ["input_values", "input_splits"],
    "StringNGrams": ["data", "data_splits"],
}


def make_namespace(tf):
    is_tensorflow = tf.__name__ == "tensorflow"

    def raw(op, *inputs, **attrs):
        """A raw op's outputs, as a list (a single output as itself)."""
        if is_tensorflow:
            out = getattr(tf.raw_ops, op)(**dict(zip(RAW_INPUTS[op], inputs)), **attrs)
        else:
            from graphfn.ops._op_table import ops
            out = getattr(ops, op)(*[tf.convert_to_tensor(x) for x in inputs], **attrs)
        return list(out) if isinstance(out, (list, tuple)) else out

    def in_graph(f, *args):
        """f run as a tf.function (its ops built into a graph)."""
        return tf.function(f)(*args)

    def static_shape(f, *specs):
        """The static output shape of f traced with TensorSpecs (shape, dtype)."""
        return str(tf.function(f).get_concrete_function(*[tf.TensorSpec(s, d) for s, d in specs])
                   .structured_outputs.shape)

    return {"tf": tf, "np": np, "raw": raw, "in_graph": in_graph, "static_shape": static_shape}


def core_message(message):
    """An error message without TF's eager prefix ('{{function_node ...}} ') and op suffix
    (' [Op:Substr] name: ...'): the part graphfn reproduces."""
    if message.startswith("{{function_node") and "}} " in message:
        message = message.split("}} ", 1)[1]
    if " [Op:" in message:
        message = message.split(" [Op:", 1)[0]
    if "\n\t; NodeDef" in message:  # the op summary after an attr error is TF's own
        message = message.split("\n\t; NodeDef", 1)[0]
    return message
