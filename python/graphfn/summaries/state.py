"""tf.summary's per-thread state and its low-level writing: the default writer and step
(SummaryWriter.as_default, tf.summary.experimental.get_step / set_step), record_if /
should_record_summaries, summary_scope, write, write_raw_pb, flush and graph.

Eagerly a summary is turned into an Event and handed to the default writer at once. Inside a
tf.function the writer and the recording condition are the ones in force when the function is
traced (as TF's graphs capture the writer's resource), and the writing is an EagerPyFunc node
(tf.py_function's op): graphfn's runtime calls back into Python, with the GIL, each time the graph
runs, so every call writes its own event with the step and values of that call. The payload
(histogram buckets, PNG images, WAV audio) is computed in that callback with NumPy, only when the
summary is recorded."""

import contextlib
import re
import threading
import time

import numpy as np

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import name_scope as name_scope_module
from graphfn.ops import array_ops, math_ops, script_ops
from graphfn.summaries import event_pb, graph_def


class _SummaryState(threading.local):
    def __init__(self):
        super().__init__()
        self.writer = None
        self.step = None
        self.is_recording = None


_state = _SummaryState()


class WriterContext:
    """What SummaryWriter.as_default(step) returns: the writer (and step) in force inside."""

    def __init__(self, writer, step=None):
        self._writer = writer
        self._step = step
        self._old_writer = None
        self._old_step = None

    def __enter__(self):
        self._old_writer = _state.writer
        _state.writer = self._writer
        if self._step is not None:
            self._old_step = _state.step
            _state.step = self._step
        return self._writer

    def __exit__(self, *exc):
        flush(_state.writer)
        _state.writer = self._old_writer
        if self._step is not None:
            _state.step = self._old_step
        return False


def get_step():
    """The default summary step of the current thread (None when none is set)."""
    return _state.step


def set_step(step):
    """Sets the default summary step of the current thread: an int, a tf.Variable or None."""
    _state.step = step


@contextlib.contextmanager
def record_if(condition):
    """Summaries are recorded inside only where `condition` (a bool, a boolean tensor or a
    callable returning one) holds."""
    old = _state.is_recording
    try:
        _state.is_recording = condition
        yield
    finally:
        _state.is_recording = old


def has_writer():
    """Whether a default writer that writes is set (create_noop_writer's records nothing)."""
    return _state.writer is not None and not getattr(_state.writer, "_writes_nothing", False)


def _recording_condition():
    """False when nothing is recorded; True when everything is; else a boolean tensor (graph
    mode: decided each time the graph runs)."""
    if not has_writer():
        return False
    condition = _state.is_recording
    if callable(condition):
        condition = condition()
    if condition is None:
        return True
    if isinstance(condition, (bool, np.bool_)):
        return bool(condition)
    tensor = math_ops.cast(array_ops.convert_to_tensor(condition), dtypes.bool)
    if _core.current_graph() is None:
        return bool(tensor.numpy())
    return tensor


def should_record_summaries():
    """A boolean tensor: whether summaries written here would be recorded (a default writer is
    set and record_if allows it)."""
    condition = _recording_condition()
    if isinstance(condition, bool):
        return array_ops.constant(condition)
    return condition


_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """`with summary_scope(name) as (tag, scope)`: the summary's tag is `name` under the current
    name scope; the scope is a name scope made from it (invalid characters removed)."""
    name = name or default_name
    current = name_scope_module.current_scope().rstrip("/")
    tag = current + "/" + name if current else name
    scope_name = _INVALID_SCOPE_CHARACTERS.sub("", name) or default_name or "summary"
    with name_scope_module.name_scope(scope_name) as scope:
        yield tag, scope


# --- TensorProto encoding ---------------------------------------------------------------

_NUMPY_DATATYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3,
                    np.dtype(np.uint8): 4, np.dtype(np.int16): 5, np.dtype(np.int8): 6,
                    np.dtype(np.complex64): 8, np.dtype(np.int64): 9, np.dtype(np.bool_): 10,
                    np.dtype(np.uint16): 17, np.dtype(np.complex128): 18, np.dtype(np.float16): 19,
                    np.dtype(np.uint32): 22, np.dtype(np.uint64): 23}
_STRING = 7


def fill_tensor_proto(proto, array, datatype=None):
    """Writes `array` into a TensorProto as TF's summary writer does: numbers as little-endian
    tensor_content, strings as string_val."""
    array = np.asarray(array)
    if datatype is None:
        datatype = _STRING if array.dtype.kind in "OSU" else _NUMPY_DATATYPES[array.dtype]
    proto.dtype = datatype
    proto.tensor_shape.SetInParent()
    for size in array.shape:
        proto.tensor_shape.dim.add(size=int(size))
    if datatype == _STRING:
        proto.string_val.extend(v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in array.reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


def _tensor_datatype(tensor):
    return tensor.dtype.as_datatype_enum


# --- writing ----------------------------------------------------------------------------

def _emit(writer, tag, metadata, step, encode, arrays):
    """Builds the Event of one summary value and hands it to `writer`."""
    event = event_pb.Event(wall_time=time.time(), step=int(step))
    value = event.summary.value.add(tag=tag)
    encode(value.tensor, *arrays)
    if metadata:
        value.metadata.ParseFromString(metadata)
    writer._write_event(event)


def _step_value(step):
    if step is None:
        step = _state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    return step


def _serialized_metadata(metadata):
    if metadata is None:
        return b""
    if hasattr(metadata, "SerializeToString"):
        return metadata.SerializeToString()
    return bytes(metadata)


def write_summary(tag, inputs, encode, step=None, metadata=None):
    """Records one summary value under `tag` with the default writer: `encode(tensor_proto,
    *input arrays)` fills its TensorProto from `inputs` (tensors, or callables giving them, made
    only when the summary is recorded; encode None: the first input as it is). Returns a boolean
    tensor: whether it was written."""
    writer = _state.writer
    condition = _recording_condition()
    if condition is False:
        return array_ops.constant(False)
    step = _step_value(step)
    metadata = _serialized_metadata(metadata)
    inputs = [array_ops.convert_to_tensor(x() if callable(x) else x) for x in inputs]
    if encode is None:  # the first input as it is
        encode = _encode_as_is(_tensor_datatype(inputs[0]))
    if _core.current_graph() is None:
        step = int(array_ops.convert_to_tensor(step).numpy())
        _emit(writer, tag, metadata, step, encode, [_to_array(t) for t in inputs])
        return array_ops.constant(True)
    return _graph_write(writer, tag, metadata, step, condition, encode, inputs)


def _to_array(tensor):
    return tensor.numpy()


def _graph_write(writer, tag, metadata, step, condition, encode, inputs):
    """The EagerPyFunc node that writes the summary each time the graph runs."""
    step = math_ops.cast(array_ops.convert_to_tensor(step), dtypes.int64)
    if condition is True:
        condition = array_ops.constant(True)

    def write_from_graph(step_value, record, *values):
        if not bool(record.numpy()):
            return False
        _emit(writer, tag, metadata, int(step_value.numpy()), encode, [_to_array(v) for v in values])
        return True

    return script_ops.py_function(write_from_graph, [step, condition] + inputs, Tout=dtypes.bool)


def _encode_as_is(datatype):
    def encode(proto, array):
        fill_tensor_proto(proto, array, datatype)
    return encode


def write(tag, tensor, step=None, metadata=None, name=None):
    """Writes `tensor` (or what the callable `tensor` returns) as the summary `tag` at `step` with
    the default writer; `metadata`: a SummaryMetadata (or its bytes). Returns a boolean tensor:
    True when written, False when no default writer is set or record_if says no."""
    return write_summary(tag, [tensor], None, step, metadata)


def write_raw_pb(tensor, step=None, name=None):
    """Writes serialized Summary protos (a string tensor of them) as events at `step`."""
    writer = _state.writer
    if _recording_condition() is False:
        return array_ops.constant(False)
    step = int(array_ops.convert_to_tensor(_step_value(step)).numpy())
    for raw in np.asarray(array_ops.convert_to_tensor(tensor).numpy()).reshape(-1):
        event = event_pb.Event(wall_time=time.time(), step=step)
        event.summary.ParseFromString(bytes(raw))
        writer._write_event(event)
    return array_ops.constant(True)


def flush(writer=None, name=None):
    """Flushes `writer` (the default writer when None); inside a tf.function, each run of the
    graph flushes."""
    if writer is None:
        writer = _state.writer
        if writer is None:
            return None
    if _core.current_graph() is None:
        writer.flush()
        return None

    def flush_from_graph():
        writer.flush()
        return True

    return script_ops.py_function(flush_from_graph, [], Tout=dtypes.bool)


def graph(graph_data):
    """Writes a graph (a tf.Graph or a GraphDef) to the default writer as an Event's graph_def
    at step 0. Returns a boolean tensor: whether it was written."""
    if _core.current_graph() is not None:
        raise ValueError("graph() cannot be invoked inside a graph context.")
    writer = _state.writer
    if _recording_condition() is False:
        return array_ops.constant(False)
    if isinstance(graph_data, (bytes, bytearray, str)) or not (
            hasattr(graph_data, "as_graph_def") or hasattr(graph_data, "node")):
        raise ValueError("Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. Received graph_data=%s "
                         "of type %s." % (graph_data, type(graph_data).__name__))
    serialized = graph_def.serialized_graph_def(graph_data)
    writer._write_event(event_pb.Event(wall_time=time.time(), step=0, graph_def=serialized))
    return array_ops.constant(True)
