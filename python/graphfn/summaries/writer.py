"""tf.summary's writers: SummaryWriter (the interface), the file writer that
tf.summary.create_file_writer returns, and the no-op writer of create_noop_writer.

A file writer owns one TensorBoard event file,
`<logdir>/events.out.tfevents.<10-digit time>.<host>.<pid>.<n><suffix>`: TFRecord framing (the
C++ _core.RecordWriter: length, masked CRC-32C, data, masked CRC-32C) of Event protos, the first
one carrying file_version "brain.Event:2" as TF's writes. Events are queued and written when the
queue holds more than max_queue of them, when flush_millis have passed since the last flush (checked
as events arrive: no background thread), and on flush() / close() / leaving as_default().
A lock makes a writer safe to share between threads (graphs may call it from their pool)."""

import atexit
import itertools
import os
import socket
import threading
import time
import weakref

from graphfn import _core
from graphfn.framework.tensor import Tensor
from graphfn.summaries import event_pb, state as summary_state

_FILE_COUNTER = itertools.count()  # the <n> of the event file names: one per writer in the process
_OPEN_WRITERS = weakref.WeakSet()  # flushed at interpreter exit, as TF's resources are on deletion


class SummaryWriter:
    """The interface of a summary writer: as_default(step) / set_as_default(step) make it the
    thread's default writer (and `step` its default step); init(), flush(), close()."""

    def set_as_default(self, step=None):
        """Makes this writer the current thread's default (and `step`, if given, the default step)."""
        self.as_default(step).__enter__()

    def as_default(self, step=None):
        """A context manager in which this writer is the default one (and `step`, if not None,
        the default step); leaving it flushes the writer and restores the previous ones."""
        return summary_state.WriterContext(self, step)

    def init(self):
        raise NotImplementedError()

    def flush(self):
        raise NotImplementedError()

    def close(self):
        raise NotImplementedError()

    def _write_event(self, event):  # pragma: no cover - each writer says what it does
        raise NotImplementedError()


class _FileSummaryWriter(SummaryWriter):
    """The writer of create_file_writer: one event file under `logdir`."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        self._logdir = logdir
        self._max_queue = max_queue
        self._flush_seconds = flush_millis / 1000.0
        self._suffix = filename_suffix
        self._lock = threading.Lock()
        self._records = None  # the _core.RecordWriter once the file exists
        self._queue = []
        self._last_flush = time.time()
        self._closed = False
        self.init()
        _OPEN_WRITERS.add(self)

    def as_default(self, step=None):
        if self._closed:
            raise RuntimeError("SummaryWriter %r is already closed" % (self,))
        return super().as_default(step)

    def init(self):
        """Creates the log directory and the event file (done by create_file_writer already)."""
        with self._lock:
            if self._records is not None:
                return
            os.makedirs(self._logdir, exist_ok=True)
            now = time.time()
            name = "events.out.tfevents.%010d.%s.%d.%d%s" % (int(now), socket.gethostname(), os.getpid(),
                                                              next(_FILE_COUNTER), self._suffix)
            self._file_path = os.path.join(self._logdir, name)
            self._records = _core.RecordWriter(self._file_path, "")
            first = event_pb.Event(wall_time=float(int(now)), file_version="brain.Event:2")
            first.source_metadata.writer = "tensorflow.core.util.events_writer"
            self._records.write(first.SerializeToString())
            self._records.flush()
            self._closed = False
            self._last_flush = now

    def _write_event(self, event):
        with self._lock:
            if self._records is None:
                return  # closed: TF drops what a closed writer is given
            self._queue.append(event.SerializeToString())
            if len(self._queue) > self._max_queue or time.time() - self._last_flush >= self._flush_seconds:
                self._flush_locked()

    def _flush_locked(self):
        if self._records is None:
            return
        for record in self._queue:
            self._records.write(record)
        self._queue = []
        self._records.flush()
        self._last_flush = time.time()

    def flush(self):
        """Writes the queued events to the file."""
        with self._lock:
            self._flush_locked()

    def close(self):
        """Flushes and closes the event file; later summaries to this writer are dropped."""
        with self._lock:
            if self._records is None:
                return
            self._flush_locked()
            self._records.close()
            self._records = None
            self._closed = True


class _NoopSummaryWriter(SummaryWriter):
    """create_noop_writer(): a writer that writes nothing (summaries under it return False)."""

    _writes_nothing = True

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass

    def _write_event(self, event):
        pass


def _eager_value(value, arg):
    """`value` as a Python value; a graph tensor is TF's ValueError (the writer is made eagerly)."""
    if isinstance(value, Tensor):
        if _core.current_graph() is not None:
            raise ValueError("Invalid graph Tensor argument '%s=%s' to create_file_writer() inside an "
                             "@tf.function. The create call will be lifted into the outer eager execution "
                             "context, so it cannot consume graph tensors defined inside the function body."
                             % (arg, value))
        value = value.numpy()
    return value


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter writing an event file in `logdir` (created if missing). max_queue:
    events kept before a write (10); flush_millis: the longest time between flushes (120 000);
    filename_suffix: the end of the file name (".v2")."""
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    logdir = _eager_value(logdir, "logdir")
    if isinstance(logdir, bytes):
        logdir = logdir.decode("utf-8")
    max_queue = 10 if max_queue is None else int(_eager_value(max_queue, "max_queue"))
    flush_millis = 120000 if flush_millis is None else int(_eager_value(flush_millis, "flush_millis"))
    suffix = ".v2" if filename_suffix is None else _eager_value(filename_suffix, "filename_suffix")
    if isinstance(suffix, bytes):
        suffix = suffix.decode("utf-8")
    return _FileSummaryWriter(os.fspath(logdir), max_queue, flush_millis, str(suffix))


def create_noop_writer():
    """A writer that does nothing: a placeholder where code expects a summary writer."""
    return _NoopSummaryWriter()


def _flush_all_at_exit():
    for writer in list(_OPEN_WRITERS):
        try:
            writer.flush()
        except Exception:  # noqa: BLE001 (exit: a failing file must not hide the others)
            pass


atexit.register(_flush_all_at_exit)
