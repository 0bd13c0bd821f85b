"""The protobuf messages of TensorFlow's checkpoints, with TF's field numbers, so the bytes are
TF's: the tensor bundle's header and entries (tensor_bundle.proto, tensor_shape.proto,
tensor_slice.proto, versions.proto), the object graph stored under `_CHECKPOINTABLE_OBJECT_GRAPH`
(trackable_object_graph.proto) and the `checkpoint` state file (checkpoint_state.proto, text form).

Built from the tables below by util/proto_tables.py (a descriptor pool of their own, so a process
that also imports TensorFlow sees no clash). Imported on the first save or read only."""

from graphfn.util import proto_tables

_PACKAGE = "tensorflow"
_FILE_NAME = "graphfn/checkpoint/checkpoint.proto"
_F = proto_tables.FIELD
_OPT, _REP = proto_tables.OPTIONAL, proto_tables.REPEATED

# message name -> [(field, number, label, type, message type name or None, oneof index or None)]
# Nested messages are named "Outer.Inner". Enum fields are declared as int32: the same varint on
# the wire, and checkpoint code compares numbers anyway.
_MESSAGES = [
    ("TensorShapeProto", [("dim", 2, _REP, _F.TYPE_MESSAGE, "TensorShapeProto.Dim", None),
                          ("unknown_rank", 3, _OPT, _F.TYPE_BOOL, None, None)]),
    ("TensorShapeProto.Dim", [("size", 1, _OPT, _F.TYPE_INT64, None, None),
                              ("name", 2, _OPT, _F.TYPE_STRING, None, None)]),
    ("TensorSliceProto", [("extent", 1, _REP, _F.TYPE_MESSAGE, "TensorSliceProto.Extent", None)]),
    ("TensorSliceProto.Extent", [("start", 1, _OPT, _F.TYPE_INT64, None, None),
                                 ("length", 2, _OPT, _F.TYPE_INT64, None, 0)]),
    ("VersionDef", [("producer", 1, _OPT, _F.TYPE_INT32, None, None),
                    ("min_consumer", 2, _OPT, _F.TYPE_INT32, None, None),
                    ("bad_consumers", 3, _REP, _F.TYPE_INT32, None, None)]),
    ("BundleHeaderProto", [("num_shards", 1, _OPT, _F.TYPE_INT32, None, None),
                           ("endianness", 2, _OPT, _F.TYPE_INT32, None, None),  # LITTLE = 0, BIG = 1
                           ("version", 3, _OPT, _F.TYPE_MESSAGE, "VersionDef", None)]),
    ("BundleEntryProto", [("dtype", 1, _OPT, _F.TYPE_INT32, None, None),  # a DataType number
                          ("shape", 2, _OPT, _F.TYPE_MESSAGE, "TensorShapeProto", None),
                          ("shard_id", 3, _OPT, _F.TYPE_INT32, None, None),
                          ("offset", 4, _OPT, _F.TYPE_INT64, None, None),
                          ("size", 5, _OPT, _F.TYPE_INT64, None, None),
                          ("crc32c", 6, _OPT, _F.TYPE_FIXED32, None, None),
                          ("slices", 7, _REP, _F.TYPE_MESSAGE, "TensorSliceProto", None)]),
    # google.protobuf.BoolValue's layout, declared here to keep the pool self-contained.
    ("BoolValue", [("value", 1, _OPT, _F.TYPE_BOOL, None, None)]),
    ("TrackableObjectGraph", [("nodes", 1, _REP, _F.TYPE_MESSAGE, "TrackableObjectGraph.TrackableObject", None)]),
    ("TrackableObjectGraph.TrackableObject", [
        ("children", 1, _REP, _F.TYPE_MESSAGE, "TrackableObjectGraph.TrackableObject.ObjectReference", None),
        ("attributes", 2, _REP, _F.TYPE_MESSAGE, "TrackableObjectGraph.TrackableObject.SerializedTensor", None),
        ("slot_variables", 3, _REP, _F.TYPE_MESSAGE,
         "TrackableObjectGraph.TrackableObject.SlotVariableReference", None),
        ("registered_saver", 4, _OPT, _F.TYPE_MESSAGE, "RegisteredSaver", None),
        ("has_checkpoint_values", 5, _OPT, _F.TYPE_MESSAGE, "BoolValue", None)]),
    ("TrackableObjectGraph.TrackableObject.ObjectReference", [
        ("node_id", 1, _OPT, _F.TYPE_INT32, None, None),
        ("local_name", 2, _OPT, _F.TYPE_STRING, None, None)]),
    ("TrackableObjectGraph.TrackableObject.SerializedTensor", [
        ("name", 1, _OPT, _F.TYPE_STRING, None, None),
        ("full_name", 2, _OPT, _F.TYPE_STRING, None, None),
        ("checkpoint_key", 3, _OPT, _F.TYPE_STRING, None, None)]),
    ("TrackableObjectGraph.TrackableObject.SlotVariableReference", [
        ("original_variable_node_id", 1, _OPT, _F.TYPE_INT32, None, None),
        ("slot_name", 2, _OPT, _F.TYPE_STRING, None, None),
        ("slot_variable_node_id", 3, _OPT, _F.TYPE_INT32, None, None)]),
    ("RegisteredSaver", [("name", 1, _OPT, _F.TYPE_STRING, None, None),
                         ("object_name", 2, _OPT, _F.TYPE_STRING, None, None)]),
    ("CheckpointState", [("model_checkpoint_path", 1, _OPT, _F.TYPE_STRING, None, None),
                         ("all_model_checkpoint_paths", 2, _REP, _F.TYPE_STRING, None, None),
                         ("all_model_checkpoint_timestamps", 3, _REP, _F.TYPE_DOUBLE, None, None),
                         ("last_preserved_timestamp", 4, _OPT, _F.TYPE_DOUBLE, None, None)]),
]
_ONEOFS = {"TensorSliceProto.Extent": ["has_length"]}


_CLASSES = proto_tables.message_classes(_FILE_NAME, _PACKAGE, _MESSAGES, _ONEOFS)


TensorShapeProto = _CLASSES["TensorShapeProto"]
TensorSliceProto = _CLASSES["TensorSliceProto"]
VersionDef = _CLASSES["VersionDef"]
BundleHeaderProto = _CLASSES["BundleHeaderProto"]
BundleEntryProto = _CLASSES["BundleEntryProto"]
TrackableObjectGraph = _CLASSES["TrackableObjectGraph"]
CheckpointState = _CLASSES["CheckpointState"]
