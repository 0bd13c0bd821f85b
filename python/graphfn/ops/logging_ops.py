"""tf.print: formats its arguments with the StringFormat op and prints with PrintV2, so inside a
traced function it prints on every call (Python's print runs only while tracing)."""

import atexit
import builtins
import os
import sys

from graphfn import _core
from graphfn.framework.tensor import Tensor
from graphfn.ops._op_table import ops
from graphfn.util import nest
from graphfn.util.tf_export import tf_export

# Marks where a tensor goes in the template; cannot clash with text the user prints.
_PLACEHOLDER = "\x00{}\x00"


class _Slot:
    """Stands for a tensor inside a structure given to pprint."""

    def __repr__(self):
        return _PLACEHOLDER



def _enable_interactive_output():
    """Inside IPython (Jupyter, Colab), tf.print writes to Python's sys.stdout, so its text is
    the cell's stdout output in order with print(), as TensorFlow arranges when it is imported
    there; elsewhere it writes to file descriptors 1 and 2."""
    if hasattr(builtins, "get_ipython"):
        _core.set_interactive_output(True)
        atexit.register(_core.set_interactive_output, False)


_enable_interactive_output()

_IMPORT_TIME_STREAMS = {id(sys.stderr): "stderr", id(sys.stdout): "stdout",
                        id(sys.__stderr__): "stderr", id(sys.__stdout__): "stdout"}


def _stream_name(output_stream):
    """The C++ stream: the process's stderr/stdout (fd 2/1, as TF writes), or a file."""
    if output_stream in ("stderr", "stdout"):
        return output_stream
    if output_stream is sys.stderr or output_stream is sys.stdout:
        return "stderr" if output_stream is sys.stderr else "stdout"
    if id(output_stream) in _IMPORT_TIME_STREAMS:
        return _IMPORT_TIME_STREAMS[id(output_stream)]
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError("Unsupported output stream, logging level, or file.%s. Supported streams are sys.stdout, "
                     "sys.stderr, tf.logging.info, tf.logging.warning, tf.logging.error. File needs to be in the "
                     "form file://path/to/file." % output_stream)


def _as_tensor(value):
    return value.__tf_tensor__() if hasattr(value, "__tf_tensor__") else value


@tf_export("print")
def print_v2(*inputs, output_stream=sys.stderr, summarize=3, sep=" ", end=os.linesep, name=None):
    """Prints tensors and Python values; in a graph, on every execution."""
    stream = _stream_name(output_stream)
    if summarize is None:
        summarize = -1
    inputs = [_as_tensor(v) for v in inputs]
    if len(inputs) == 1 and isinstance(inputs[0], Tensor) and inputs[0].dtype.name == "string" \
            and inputs[0].shape.rank == 0:
        return _operation(ops.PrintV2(inputs[0], output_stream=stream, end=end))  # a lone string prints raw
    parts, tensors = [], []
    for value in inputs:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, Tensor):
            parts.append(_PLACEHOLDER)
            tensors.append(value)
        else:
            leaves = [_as_tensor(leaf) for leaf in nest.flatten(value)]
            tensors.extend(leaf for leaf in leaves if isinstance(leaf, Tensor))
            slotted = nest.pack_sequence_as(value, [_Slot() if isinstance(leaf, Tensor) else leaf for leaf in leaves])
            import pprint  # only for structures: it costs ~2 ms of `import graphfn`
            parts.append(pprint.pformat(slotted))
    formatted = ops.StringFormat(tensors, template=sep.join(parts), placeholder=_PLACEHOLDER, summarize=summarize)
    return _operation(ops.PrintV2(formatted, output_stream=stream, end=end))


def _operation(result):
    """In a graph, TF returns the PrintV2 Operation (for tf.control_dependencies); eagerly None."""
    return result if isinstance(result, _core.Operation) else None
