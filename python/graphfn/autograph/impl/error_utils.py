"""TF's "in user code:" error rewriting: an exception raised while converted code runs is
re-raised with the user's frames (file, line, function, source text) in front of its message."""

import linecache
import os

from graphfn.autograph.impl import config, conversion


class StagingError(Exception):
    """An exception of a type that cannot be rebuilt with a new message, raised while staging."""


_KEEP_TYPES = (AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError, StopIteration,
               TypeError, UnboundLocalError, ValueError)


def _frames(tb):
    lines, started = [], False
    graphfn_dir = config.graphfn_dir()
    while tb is not None:
        code = tb.tb_frame.f_code
        display = conversion.generated_code_names.get(code)
        if display is not None:
            started = True
        filename = code.co_filename
        if started and not os.path.abspath(filename).startswith(graphfn_dir) and not filename.startswith("<frozen"):
            line = linecache.getline(filename, tb.tb_lineno).strip()
            name = display if display is not None else code.co_name
            mark = "  *" if display is not None else ""
            lines.append('    File "%s", line %d, in %s%s\n        %s\n' % (filename, tb.tb_lineno, name, mark, line))
        tb = tb.tb_next
    return lines


def _rebuild(exc, message):
    from graphfn.framework import errors
    cls = type(exc)
    if isinstance(exc, errors.OpError):
        return cls(exc.node_def, exc.op, message)
    if isinstance(exc, KeyError):
        return _MultilineKeyError(message)
    if isinstance(exc, _KEEP_TYPES) or cls.__init__ in (Exception.__init__, BaseException.__init__):
        try:
            return cls(message)
        except Exception:  # noqa: BLE001 - an odd constructor: fall through to StagingError
            pass
    return StagingError(message)


class _MultilineKeyError(KeyError):
    def __str__(self):
        return self.args[0]


def rewrite(exc):
    """The exception to raise instead of `exc`, or None to re-raise it unchanged."""
    if getattr(exc, "ag_error_metadata", False):
        return None
    frames = _frames(exc.__traceback__)
    if not frames:
        return None
    original = "%s: %s" % (type(exc).__name__, exc)
    body = "\n".join(("    " + line) if line else "    " for line in original.split("\n"))
    message = "in user code:\n\n" + "".join(frames) + "\n" + body + "\n"
    new = _rebuild(exc, message)
    new.ag_error_metadata = True
    return new
