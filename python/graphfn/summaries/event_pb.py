"""The protobuf messages of TensorBoard's event files: Event, Summary (with Summary.Value,
Summary.Image, Summary.Audio), SummaryMetadata (with SummaryMetadata.PluginData), HistogramProto,
TensorProto, TensorShapeProto, SourceMetadata, SessionLog and TaggedRunMetadata, with the field
numbers of TensorFlow's event.proto / summary.proto / tensor.proto, so the bytes graphfn writes
are the bytes TensorFlow and TensorBoard read (and the other way round).

Built from the tables below by util/proto_tables.py (a descriptor pool of their own, so a process
that also imports TensorFlow sees no clash). Imported on the first tf.summary use."""

from graphfn.util import proto_tables

_FILE_NAME = "graphfn/ops/summary.proto"
_PACKAGE = "tensorflow"

_F = proto_tables.FIELD
_OPT, _REP = proto_tables.OPTIONAL, proto_tables.REPEATED

# TF's DataType values (types.proto) that summaries carry; an open enum keeps other values too.
_DATA_TYPES = [("DT_INVALID", 0), ("DT_FLOAT", 1), ("DT_DOUBLE", 2), ("DT_INT32", 3), ("DT_UINT8", 4),
               ("DT_INT16", 5), ("DT_INT8", 6), ("DT_STRING", 7), ("DT_COMPLEX64", 8), ("DT_INT64", 9),
               ("DT_BOOL", 10), ("DT_BFLOAT16", 14), ("DT_UINT16", 17), ("DT_COMPLEX128", 18), ("DT_HALF", 19),
               ("DT_QINT8", 11), ("DT_QUINT8", 12), ("DT_QINT32", 13), ("DT_QINT16", 15), ("DT_QUINT16", 16),
               ("DT_RESOURCE", 20), ("DT_VARIANT", 21), ("DT_UINT32", 22), ("DT_UINT64", 23),
               ("DT_FLOAT8_E5M2", 24), ("DT_FLOAT8_E4M3FN", 25), ("DT_INT4", 29), ("DT_UINT4", 30)]
_ENUMS = {
    "DataType": _DATA_TYPES,
    "DataClass": [("DATA_CLASS_UNKNOWN", 0), ("DATA_CLASS_SCALAR", 1), ("DATA_CLASS_TENSOR", 2),
                  ("DATA_CLASS_BLOB_SEQUENCE", 3)],
    "SessionLog.SessionStatus": [("STATUS_UNSPECIFIED", 0), ("START", 1), ("STOP", 2), ("CHECKPOINT", 3)],
}

# message name (nested ones dotted) -> [(field, number, label, type, type name or None, oneof or None)]
_MESSAGES = [
    ("TensorShapeProto", [("dim", 2, _REP, _F.TYPE_MESSAGE, "TensorShapeProto.Dim", None),
                          ("unknown_rank", 3, _OPT, _F.TYPE_BOOL, None, None)]),
    ("TensorShapeProto.Dim", [("size", 1, _OPT, _F.TYPE_INT64, None, None),
                              ("name", 2, _OPT, _F.TYPE_STRING, None, None)]),
    ("TensorProto", [("dtype", 1, _OPT, _F.TYPE_ENUM, "DataType", None),
                     ("tensor_shape", 2, _OPT, _F.TYPE_MESSAGE, "TensorShapeProto", None),
                     ("version_number", 3, _OPT, _F.TYPE_INT32, None, None),
                     ("tensor_content", 4, _OPT, _F.TYPE_BYTES, None, None),
                     ("half_val", 13, _REP, _F.TYPE_INT32, None, None),
                     ("float_val", 5, _REP, _F.TYPE_FLOAT, None, None),
                     ("double_val", 6, _REP, _F.TYPE_DOUBLE, None, None),
                     ("int_val", 7, _REP, _F.TYPE_INT32, None, None),
                     ("string_val", 8, _REP, _F.TYPE_BYTES, None, None),
                     ("scomplex_val", 9, _REP, _F.TYPE_FLOAT, None, None),
                     ("int64_val", 10, _REP, _F.TYPE_INT64, None, None),
                     ("bool_val", 11, _REP, _F.TYPE_BOOL, None, None),
                     ("dcomplex_val", 12, _REP, _F.TYPE_DOUBLE, None, None),
                     ("uint32_val", 16, _REP, _F.TYPE_UINT32, None, None),
                     ("uint64_val", 17, _REP, _F.TYPE_UINT64, None, None)]),
    ("HistogramProto", [("min", 1, _OPT, _F.TYPE_DOUBLE, None, None),
                        ("max", 2, _OPT, _F.TYPE_DOUBLE, None, None),
                        ("num", 3, _OPT, _F.TYPE_DOUBLE, None, None),
                        ("sum", 4, _OPT, _F.TYPE_DOUBLE, None, None),
                        ("sum_squares", 5, _OPT, _F.TYPE_DOUBLE, None, None),
                        ("bucket_limit", 6, _REP, _F.TYPE_DOUBLE, None, None),
                        ("bucket", 7, _REP, _F.TYPE_DOUBLE, None, None)]),
    ("SummaryMetadata", [("plugin_data", 1, _OPT, _F.TYPE_MESSAGE, "SummaryMetadata.PluginData", None),
                         ("display_name", 2, _OPT, _F.TYPE_STRING, None, None),
                         ("summary_description", 3, _OPT, _F.TYPE_STRING, None, None),
                         ("data_class", 4, _OPT, _F.TYPE_ENUM, "DataClass", None)]),
    ("SummaryMetadata.PluginData", [("plugin_name", 1, _OPT, _F.TYPE_STRING, None, None),
                                    ("content", 2, _OPT, _F.TYPE_BYTES, None, None)]),
    ("Summary", [("value", 1, _REP, _F.TYPE_MESSAGE, "Summary.Value", None)]),
    ("Summary.Image", [("height", 1, _OPT, _F.TYPE_INT32, None, None),
                       ("width", 2, _OPT, _F.TYPE_INT32, None, None),
                       ("colorspace", 3, _OPT, _F.TYPE_INT32, None, None),
                       ("encoded_image_string", 4, _OPT, _F.TYPE_BYTES, None, None)]),
    ("Summary.Audio", [("sample_rate", 1, _OPT, _F.TYPE_FLOAT, None, None),
                       ("num_channels", 2, _OPT, _F.TYPE_INT64, None, None),
                       ("length_frames", 3, _OPT, _F.TYPE_INT64, None, None),
                       ("encoded_audio_string", 4, _OPT, _F.TYPE_BYTES, None, None),
                       ("content_type", 5, _OPT, _F.TYPE_STRING, None, None)]),
    ("Summary.Value", [("node_name", 7, _OPT, _F.TYPE_STRING, None, None),
                       ("tag", 1, _OPT, _F.TYPE_STRING, None, None),
                       ("metadata", 9, _OPT, _F.TYPE_MESSAGE, "SummaryMetadata", None),
                       ("simple_value", 2, _OPT, _F.TYPE_FLOAT, None, 0),
                       ("obsolete_old_style_histogram", 3, _OPT, _F.TYPE_BYTES, None, 0),
                       ("image", 4, _OPT, _F.TYPE_MESSAGE, "Summary.Image", 0),
                       ("histo", 5, _OPT, _F.TYPE_MESSAGE, "HistogramProto", 0),
                       ("audio", 6, _OPT, _F.TYPE_MESSAGE, "Summary.Audio", 0),
                       ("tensor", 8, _OPT, _F.TYPE_MESSAGE, "TensorProto", 0)]),
    ("SessionLog", [("status", 1, _OPT, _F.TYPE_ENUM, "SessionLog.SessionStatus", None),
                    ("checkpoint_path", 2, _OPT, _F.TYPE_STRING, None, None),
                    ("msg", 3, _OPT, _F.TYPE_STRING, None, None)]),
    ("TaggedRunMetadata", [("tag", 1, _OPT, _F.TYPE_STRING, None, None),
                           ("run_metadata", 2, _OPT, _F.TYPE_BYTES, None, None)]),
    ("SourceMetadata", [("writer", 1, _OPT, _F.TYPE_STRING, None, None)]),
    ("Event", [("wall_time", 1, _OPT, _F.TYPE_DOUBLE, None, None),
               ("step", 2, _OPT, _F.TYPE_INT64, None, None),
               ("file_version", 3, _OPT, _F.TYPE_STRING, None, 0),
               ("graph_def", 4, _OPT, _F.TYPE_BYTES, None, 0),
               ("summary", 5, _OPT, _F.TYPE_MESSAGE, "Summary", 0),
               ("session_log", 7, _OPT, _F.TYPE_MESSAGE, "SessionLog", 0),
               ("tagged_run_metadata", 8, _OPT, _F.TYPE_MESSAGE, "TaggedRunMetadata", 0),
               ("meta_graph_def", 9, _OPT, _F.TYPE_BYTES, None, 0),
               ("source_metadata", 10, _OPT, _F.TYPE_MESSAGE, "SourceMetadata", None)]),
    # GraphDef and what it holds, for the graphs of tf.summary.graph / trace_export (parsed from
    # the text form graphfn's Graph.as_graph_def() prints).
    ("AttrValue", [("list", 1, _OPT, _F.TYPE_MESSAGE, "AttrValue.ListValue", 0),
                   ("s", 2, _OPT, _F.TYPE_BYTES, None, 0),
                   ("i", 3, _OPT, _F.TYPE_INT64, None, 0),
                   ("f", 4, _OPT, _F.TYPE_FLOAT, None, 0),
                   ("b", 5, _OPT, _F.TYPE_BOOL, None, 0),
                   ("type", 6, _OPT, _F.TYPE_ENUM, "DataType", 0),
                   ("shape", 7, _OPT, _F.TYPE_MESSAGE, "TensorShapeProto", 0),
                   ("tensor", 8, _OPT, _F.TYPE_MESSAGE, "TensorProto", 0),
                   ("placeholder", 9, _OPT, _F.TYPE_STRING, None, 0),
                   ("func", 10, _OPT, _F.TYPE_MESSAGE, "NameAttrList", 0)]),
    ("AttrValue.ListValue", [("s", 2, _REP, _F.TYPE_BYTES, None, None),
                             ("i", 3, _REP, _F.TYPE_INT64, None, None),
                             ("f", 4, _REP, _F.TYPE_FLOAT, None, None),
                             ("b", 5, _REP, _F.TYPE_BOOL, None, None),
                             ("type", 6, _REP, _F.TYPE_ENUM, "DataType", None),
                             ("shape", 7, _REP, _F.TYPE_MESSAGE, "TensorShapeProto", None),
                             ("tensor", 8, _REP, _F.TYPE_MESSAGE, "TensorProto", None),
                             ("func", 9, _REP, _F.TYPE_MESSAGE, "NameAttrList", None)]),
    ("NameAttrList", [("name", 1, _OPT, _F.TYPE_STRING, None, None),
                      ("attr", 2, _REP, _F.TYPE_MESSAGE, "NameAttrList.AttrEntry", None)]),
    ("NodeDef", [("name", 1, _OPT, _F.TYPE_STRING, None, None),
                 ("op", 2, _OPT, _F.TYPE_STRING, None, None),
                 ("input", 3, _REP, _F.TYPE_STRING, None, None),
                 ("device", 4, _OPT, _F.TYPE_STRING, None, None),
                 ("attr", 5, _REP, _F.TYPE_MESSAGE, "NodeDef.AttrEntry", None)]),
    ("OpDef", [("name", 1, _OPT, _F.TYPE_STRING, None, None),
               ("input_arg", 2, _REP, _F.TYPE_MESSAGE, "OpDef.ArgDef", None),
               ("output_arg", 3, _REP, _F.TYPE_MESSAGE, "OpDef.ArgDef", None),
               ("control_output", 20, _REP, _F.TYPE_STRING, None, None),
               ("attr", 4, _REP, _F.TYPE_MESSAGE, "OpDef.AttrDef", None),
               ("summary", 5, _OPT, _F.TYPE_STRING, None, None),
               ("description", 6, _OPT, _F.TYPE_STRING, None, None),
               ("is_commutative", 18, _OPT, _F.TYPE_BOOL, None, None),
               ("is_aggregate", 16, _OPT, _F.TYPE_BOOL, None, None),
               ("is_stateful", 17, _OPT, _F.TYPE_BOOL, None, None),
               ("allows_uninitialized_input", 19, _OPT, _F.TYPE_BOOL, None, None),
               ("is_distributed_communication", 21, _OPT, _F.TYPE_BOOL, None, None)]),
    ("OpDef.ArgDef", [("name", 1, _OPT, _F.TYPE_STRING, None, None),
                      ("description", 2, _OPT, _F.TYPE_STRING, None, None),
                      ("type", 3, _OPT, _F.TYPE_ENUM, "DataType", None),
                      ("type_attr", 4, _OPT, _F.TYPE_STRING, None, None),
                      ("number_attr", 5, _OPT, _F.TYPE_STRING, None, None),
                      ("type_list_attr", 6, _OPT, _F.TYPE_STRING, None, None),
                      ("is_ref", 16, _OPT, _F.TYPE_BOOL, None, None)]),
    ("OpDef.AttrDef", [("name", 1, _OPT, _F.TYPE_STRING, None, None),
                       ("type", 2, _OPT, _F.TYPE_STRING, None, None),
                       ("default_value", 3, _OPT, _F.TYPE_MESSAGE, "AttrValue", None),
                       ("description", 4, _OPT, _F.TYPE_STRING, None, None),
                       ("has_minimum", 5, _OPT, _F.TYPE_BOOL, None, None),
                       ("minimum", 6, _OPT, _F.TYPE_INT64, None, None),
                       ("allowed_values", 7, _OPT, _F.TYPE_MESSAGE, "AttrValue", None)]),
    ("FunctionDef", [("signature", 1, _OPT, _F.TYPE_MESSAGE, "OpDef", None),
                     ("attr", 5, _REP, _F.TYPE_MESSAGE, "FunctionDef.AttrEntry", None),
                     ("node_def", 3, _REP, _F.TYPE_MESSAGE, "NodeDef", None),
                     ("ret", 4, _REP, _F.TYPE_MESSAGE, "FunctionDef.RetEntry", None),
                     ("control_ret", 6, _REP, _F.TYPE_MESSAGE, "FunctionDef.ControlRetEntry", None)]),
    ("GradientDef", [("function_name", 1, _OPT, _F.TYPE_STRING, None, None),
                     ("gradient_func", 2, _OPT, _F.TYPE_STRING, None, None)]),
    ("FunctionDefLibrary", [("function", 1, _REP, _F.TYPE_MESSAGE, "FunctionDef", None),
                            ("gradient", 2, _REP, _F.TYPE_MESSAGE, "GradientDef", None)]),
    ("VersionDef", [("producer", 1, _OPT, _F.TYPE_INT32, None, None),
                    ("min_consumer", 2, _OPT, _F.TYPE_INT32, None, None),
                    ("bad_consumers", 3, _REP, _F.TYPE_INT32, None, None)]),
    ("GraphDef", [("node", 1, _REP, _F.TYPE_MESSAGE, "NodeDef", None),
                  ("versions", 4, _OPT, _F.TYPE_MESSAGE, "VersionDef", None),
                  ("version", 3, _OPT, _F.TYPE_INT32, None, None),
                  ("library", 2, _OPT, _F.TYPE_MESSAGE, "FunctionDefLibrary", None)]),
    # tf.summary.trace_export's payload: a RunMetadata holding the traced functions' GraphDefs
    # (kept as serialized bytes: the same wire form as the nested GraphDef messages).
    ("RunMetadata", [("function_graphs", 4, _REP, _F.TYPE_MESSAGE, "RunMetadata.FunctionGraphs", None)]),
    ("RunMetadata.FunctionGraphs", [("partition_graphs", 1, _REP, _F.TYPE_BYTES, None, None),
                                    ("pre_optimization_graph", 2, _OPT, _F.TYPE_BYTES, None, None),
                                    ("post_optimization_graph", 3, _OPT, _F.TYPE_BYTES, None, None)]),
]
_ONEOFS = {"Summary.Value": ["value"], "Event": ["what"], "AttrValue": ["value"]}
# map<string, V> fields: (message, entry name, value type name or None for string)
_MAP_ENTRIES = [("NameAttrList", "AttrEntry", "AttrValue"), ("NodeDef", "AttrEntry", "AttrValue"),
                ("FunctionDef", "AttrEntry", "AttrValue"), ("FunctionDef", "RetEntry", None),
                ("FunctionDef", "ControlRetEntry", None)]


_CLASSES = proto_tables.message_classes(_FILE_NAME, _PACKAGE, _MESSAGES, _ONEOFS, _MAP_ENTRIES, _ENUMS)


Event = _CLASSES["Event"]
Summary = _CLASSES["Summary"]
SummaryMetadata = _CLASSES["SummaryMetadata"]
HistogramProto = _CLASSES["HistogramProto"]
TensorProto = _CLASSES["TensorProto"]
TensorShapeProto = _CLASSES["TensorShapeProto"]
SessionLog = _CLASSES["SessionLog"]
TaggedRunMetadata = _CLASSES["TaggedRunMetadata"]
SourceMetadata = _CLASSES["SourceMetadata"]
RunMetadata = _CLASSES["RunMetadata"]
GraphDef = _CLASSES["GraphDef"]
