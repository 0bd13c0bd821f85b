"""tf.summary.trace_on / trace_export / trace_off: record the graphs of the graphfn.functions
called between trace_on and trace_export, and write them as one summary (plugin
"graph_run_metadata_graph", a RunMetadata whose function_graphs hold each function's GraphDef),
which TensorBoard's graph dashboard shows. graphfn has no profiler: `profiler=True` warns and
records the graphs only."""

import threading

from graphfn import _core
from graphfn.function import polymorphic_function
from graphfn.summaries import event_pb, graph_def, state as summary_state
from graphfn.util import tf_logging

_lock = threading.Lock()
_trace = None  # the ConcreteFunctions seen since trace_on, in call order; None: not tracing


def _inside_function():
    return _core.current_graph() is not None


def _record(concrete):
    with _lock:
        if _trace is not None and all(c is not concrete for c in _trace):
            _trace.append(concrete)


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts recording the graphs of the functions called from now on (until trace_export or
    trace_off)."""
    global _trace
    if _inside_function():
        tf_logging.get_logger().warning("Cannot enable trace inside a tf.function.")
        return
    with _lock:
        if _trace is not None:
            tf_logging.get_logger().warning("Trace already enabled")
            return
        if profiler:
            tf_logging.get_logger().warning("graphfn has no profiler: trace_on(profiler=True) records the graphs only.")
        _trace = []
    polymorphic_function.observe_calls(_record)


def trace_off():
    """Stops recording and forgets what was recorded."""
    global _trace
    with _lock:
        _trace = None
    polymorphic_function.observe_calls(None)


def trace_export(name, step=None, profiler_outdir=None):
    """Writes the recorded graphs as the summary `name` at `step` with the default writer, then
    stops recording."""
    if _inside_function():
        tf_logging.get_logger().warning("Cannot export trace inside a tf.function.")
        return
    with _lock:
        if _trace is None:
            raise ValueError("Must enable trace before export through tf.summary.trace_on.")
        functions = list(_trace)
    run_metadata = event_pb.RunMetadata()
    for concrete in functions:
        graph_bytes = graph_def.serialized_graph_def(concrete.graph)
        run_metadata.function_graphs.add(partition_graphs=[graph_bytes], pre_optimization_graph=graph_bytes,
                                         post_optimization_graph=graph_bytes)
    metadata = event_pb.SummaryMetadata()
    metadata.plugin_data.plugin_name = "graph_run_metadata_graph"
    metadata.plugin_data.content = b"1"
    with summary_state.summary_scope(name, "graph_run_metadata_graph_summary") as (tag, _):
        summary_state.write(tag, run_metadata.SerializeToString(), step=step, metadata=metadata)
    trace_off()
