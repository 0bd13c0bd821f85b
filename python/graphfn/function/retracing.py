"""The frequent-retracing warning, with TF's text and thresholds: per Python function (keyed by
its code object), a warning when 5 of the last 10 eager calls traced, at most twice. And, beyond
TF, retrace explanations: with `graphfn.config.explain_retracing(True)` (or the environment
variable GRAPHFN_EXPLAIN_RETRACING=1) every retrace logs which arguments changed and how."""

import collections
import os
import weakref

from graphfn.util.tf_export import tf_export

_MAX_CALL_HISTORY = 10
_THRESHOLD = 5
_MAX_WARNINGS = 2



def _logger():
    import logging  # imported on the first warning: it costs ~8 ms of `import graphfn`
    return logging.getLogger("graphfn")


class _Detector:
    __slots__ = ("calls", "warnings")

    def __init__(self):
        self.calls = collections.deque(maxlen=_MAX_CALL_HISTORY)
        self.warnings = 0


_detectors = weakref.WeakKeyDictionary()  # by code object, forgotten with it (as TF)
_explain = [os.environ.get("GRAPHFN_EXPLAIN_RETRACING", "") not in ("", "0")]


@tf_export("config.explain_retracing")
def explain_retracing(enabled):
    """graphfn only: log, for every retrace, which arguments changed and how:
    `x: TensorSpec(shape=(3,), ...) -> TensorSpec(shape=(4,), ...)`."""
    _explain[0] = bool(enabled)


def explain(function_name, new_key, old_keys):
    """Logs how `new_key` differs from the most similar earlier trace key."""
    if not _explain[0] or not old_keys:
        return None

    def changes(old):
        old_types = dict(old)
        return [(name, old_types.get(name), t) for name, t in new_key if old_types.get(name) != t]

    closest = min(reversed(old_keys), key=lambda old: len(changes(old)))
    text = "; ".join("%s: %r -> %r" % change for change in changes(closest)) or "a new call context"
    message = "Retracing %s (trace %d): %s" % (function_name, len(old_keys) + 1, text)
    _logger().warning(message)
    return message


def record_call(python_function, traced, fast_hits=0):
    """Records one call that went through Python, after `fast_hits` calls that the C++ cache
    answered (which did not trace)."""
    code = getattr(python_function, "__code__", None)
    if code is None:
        return
    detector = _detectors.get(code)
    if detector is None:
        if not traced:
            return
        detector = _detectors[code] = _Detector()
    detector.calls.extend([False] * min(fast_hits, _MAX_CALL_HISTORY))
    detector.calls.append(traced)
    tracing_calls = sum(detector.calls)
    if traced and tracing_calls >= _THRESHOLD and detector.warnings < _MAX_WARNINGS:
        detector.warnings += 1
        _logger().warning(
            "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is expensive and the "
            "excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) "
            "passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), "
            "please define your @tf.function outside of the loop. For (2), @tf.function has "
            "reduce_retracing=True option that can avoid unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.",
            tracing_calls, len(detector.calls), python_function)
