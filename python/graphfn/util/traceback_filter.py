"""Tracebacks without graphfn's own frames, as TensorFlow shows its errors: an exception that
leaves a tf.function call keeps the caller's frames and the user's function, not the tracing
machinery in between. tf.debugging.disable_traceback_filtering() shows every frame again (per
thread, as TF's switch is)."""

import os
import threading
import types

from graphfn.util.tf_export import tf_export

# graphfn's own source directory, with a trailing separator (frames under it are graphfn's).
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_switch = threading.local()


@tf_export("debugging.is_traceback_filtering_enabled")
def is_traceback_filtering_enabled():
    """Whether graphfn drops its own frames from the tracebacks of errors it raises (default True)."""
    return getattr(_switch, "enabled", True)


@tf_export("debugging.enable_traceback_filtering")
def enable_traceback_filtering():
    """Drops graphfn's own frames from error tracebacks again (the default), on this thread."""
    _switch.enabled = True


@tf_export("debugging.disable_traceback_filtering")
def disable_traceback_filtering():
    """Shows every frame, graphfn's own included, in error tracebacks raised on this thread."""
    _switch.enabled = False


def without_graphfn_frames(tb):
    """`tb` with the frames of graphfn's source files left out; when only such frames exist,
    the innermost one stays, so the traceback still says where the error arose."""
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    kept = [t for t in frames if not t.tb_frame.f_code.co_filename.startswith(PACKAGE_DIR)]
    if not kept and frames:
        kept = frames[-1:]
    rebuilt = None
    for t in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return rebuilt
