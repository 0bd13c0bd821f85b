"""The frequent-retracing warning, with TF's text and thresholds: per Python function (keyed by
its code object), a warning when 5 of the last 10 eager calls traced, at most twice."""

import collections
import logging

_MAX_CALL_HISTORY = 10
_THRESHOLD = 5
_MAX_WARNINGS = 2

logger = logging.getLogger("graphfn")


class _Detector:
    __slots__ = ("calls", "warnings")

    def __init__(self):
        self.calls = collections.deque(maxlen=_MAX_CALL_HISTORY)
        self.warnings = 0


_detectors = {}


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
        logger.warning(
            "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is expensive and the "
            "excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) "
            "passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), "
            "please define your @tf.function outside of the loop. For (2), @tf.function has "
            "reduce_retracing=True option that can avoid unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.",
            tracing_calls, len(detector.calls), python_function)
