"""The protobuf messages of TensorFlow's checkpoints, with TF's field numbers, so the bytes are
TF's: the tensor bundle's header and entries (tensor_bundle.proto, tensor_shape.proto,
tensor_slice.proto, versions.proto), the object graph stored under `_CHECKPOINTABLE_OBJECT_GRAPH`
(trackable_object_graph.proto) and the `checkpoint` state file (checkpoint_state.proto, text form).

Built with protobuf's descriptor API in a pool of graphfn's own (as file_io/example_pb.py), so a
process that also imports TensorFlow sees no clash. Imported on the first save or read only."""

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_PACKAGE = "tensorflow"
_FILE_NAME = "graphfn/checkpoint/checkpoint.proto"
_F = descriptor_pb2.FieldDescriptorProto
_OPT, _REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED

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


def _file_descriptor():
    f = descriptor_pb2.FileDescriptorProto(name=_FILE_NAME, package=_PACKAGE, syntax="proto3")
    declared = {}
    for name, fields in _MESSAGES:
        *outer, leaf = name.split(".")
        container = declared[".".join(outer)].nested_type if outer else f.message_type
        message = container.add(name=leaf)
        declared[name] = message
        for oneof in _ONEOFS.get(name, []):
            message.oneof_decl.add(name=oneof)
        for field_name, number, label, type_, type_name, oneof in fields:
            field = message.field.add(name=field_name, number=number, label=label, type=type_)
            field.json_name = "".join(p if i == 0 else p.capitalize()
                                      for i, p in enumerate(field_name.split("_")))
            if type_name is not None:
                field.type_name = "." + _PACKAGE + "." + type_name
            if oneof is not None:
                field.oneof_index = oneof
                field.proto3_optional = False
    return f


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file_descriptor())


def _message_class(name):
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + "." + name))


TensorShapeProto = _message_class("TensorShapeProto")
TensorSliceProto = _message_class("TensorSliceProto")
VersionDef = _message_class("VersionDef")
BundleHeaderProto = _message_class("BundleHeaderProto")
BundleEntryProto = _message_class("BundleEntryProto")
TrackableObjectGraph = _message_class("TrackableObjectGraph")
CheckpointState = _message_class("CheckpointState")
