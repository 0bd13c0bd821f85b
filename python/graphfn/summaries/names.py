"""tf.summary (and the event protos under tf.compat.v1), published lazily: the summary modules
(and protobuf) load on the first use of one of these names, not at `import graphfn`."""

from graphfn.util.tf_export import tf_export_lazy

_NAMES = {
    "graphfn.summaries.writer": ["SummaryWriter", "create_file_writer", "create_noop_writer"],
    "graphfn.summaries.plugins": ["scalar", "histogram", "image", "text", "audio"],
    "graphfn.summaries.state": ["write", "flush", "graph", "record_if", "should_record_summaries"],
    "graphfn.summaries.trace": ["trace_on", "trace_off", "trace_export"],
}
for _module, _names in _NAMES.items():
    for _name in _names:
        tf_export_lazy("summary." + _name, _module, _name)
for _name in ("get_step", "set_step", "summary_scope", "write_raw_pb"):
    tf_export_lazy("summary.experimental." + _name, "graphfn.summaries.state", _name)
for _name in ("Event", "Summary", "SummaryMetadata", "HistogramProto", "SessionLog", "TaggedRunMetadata"):
    tf_export_lazy("compat.v1." + _name, "graphfn.summaries.event_pb", _name)
tf_export_lazy("compat.v1.train.summary_iterator", "graphfn.summaries.reader", "summary_iterator")
