"""The graphs tf.summary writes (tf.summary.graph, tf.summary.trace_export) as serialized
GraphDef protos: graphfn's Graph.as_graph_def() prints TF's text form, which is parsed into the
GraphDef message of event_pb.py and serialized, so TensorBoard's graph plugin reads it."""

from google.protobuf import text_format

from graphfn.summaries import event_pb


def graph_def_proto(graph_data):
    """A event_pb.GraphDef for a graphfn Graph (or FuncGraph), the GraphDef it gives, a
    GraphDef protobuf message or serialized GraphDef bytes."""
    if isinstance(graph_data, (bytes, bytearray)):
        return event_pb.GraphDef.FromString(bytes(graph_data))
    if hasattr(graph_data, "SerializeToString"):  # a protobuf GraphDef (graphfn's or TF's)
        return event_pb.GraphDef.FromString(graph_data.SerializeToString())
    if hasattr(graph_data, "as_graph_def"):
        graph_data = graph_data.as_graph_def()
    if hasattr(graph_data, "node") and hasattr(graph_data, "__str__"):
        return text_format.Parse(str(graph_data), event_pb.GraphDef(), allow_unknown_field=True)
    raise ValueError("Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. Received graph_data=%s "
                     "of type %s." % (graph_data, type(graph_data).__name__))


def serialized_graph_def(graph_data):
    return graph_def_proto(graph_data).SerializeToString()
