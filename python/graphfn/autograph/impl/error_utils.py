"""TF's "in user code:" error rewriting: an exception raised while converted code runs is
re-raised with the user's frames (file, line, function, source text) in front of its message."""

import linecache
import os

from graphfn.autograph.impl import config, conversion
from graphfn.framework import errors


class StagingError(Exception):
    """An exception of a type that cannot be rebuilt with a new message, raised while staging."""


_KEEP_TYPES = (AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError, StopIteration,
               TypeError, UnboundLocalError, ValueError)


def _user_frames(tb):
    """(code, line number, GeneratedCode or None) of the traceback's user frames, outermost
    first, from the first frame of converted code on."""
    frames, started = [], False
    graphfn_dir = config.graphfn_dir()
    while tb is not None:
        code = tb.tb_frame.f_code
        generated = conversion.generated_code.get(code)
        started = started or generated is not None
        filename = code.co_filename
        if started and not os.path.abspath(filename).startswith(graphfn_dir) and not filename.startswith("<frozen"):
            frames.append((code, tb.tb_lineno, generated))
        tb = tb.tb_next
    return frames


def _frames(tb):
    """TF's choice of frames: per conversion, the innermost frame of its generated code (a
    lambda or nested function it calls replaces the caller's frame); frames of code that is not
    converted only below the innermost conversion."""
    frames = _user_frames(tb)
    converted = [i for i, (_, _, generated) in enumerate(frames) if generated is not None]
    lines = []
    for i, (code, lineno, generated) in enumerate(frames):
        if generated is None:
            if converted and i < converted[-1]:
                continue
            name, mark, text = code.co_name, "", linecache.getline(code.co_filename, lineno).strip()
        else:
            following = next((frames[j] for j in converted if j > i), None)
            # A lambda or nested function of the same conversion replaces this frame; a
            # recursive call (the same code again) does not: each level is listed, as in TF.
            if following is not None and following[2].root is generated.root and following[0] is not code:
                continue
            name, mark = generated.display, "  *"
            text = generated.lambda_text or linecache.getline(code.co_filename, lineno).strip()
        lines.append('    File "%s", line %d, in %s%s\n        %s\n' % (code.co_filename, lineno, name, mark, text))
    return lines


def _rebuild(exc, message):
    cls = type(exc)
    if isinstance(exc, errors.OpError):
        return cls(exc.node_def, exc.op, message)
    if isinstance(exc, KeyError):
        return _MultilineKeyError(message)
    # The exact types only, as TF: a RecursionError (a RuntimeError) becomes a StagingError.
    kept = cls in _KEEP_TYPES or cls in (StagingError, errors.InaccessibleTensorError,
                                         errors.OperatorNotAllowedInGraphError)
    if kept or cls.__init__ in (Exception.__init__, BaseException.__init__):
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
    if getattr(exc, "ag_error_metadata", False) or getattr(exc, "ag_pass_through", False):
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
