"""tf.train.Example, Features, Feature, BytesList, FloatList, Int64List, FeatureList,
FeatureLists and SequenceExample: real protobuf messages (the `protobuf` package), defined with
the field numbers of TensorFlow's example.proto / feature.proto (example.proto beside this file
is their readable form), so SerializeToString / FromString bytes and the text form are TF's.

Built with protobuf's descriptor API in a pool of graphfn's own, so a process that also imports
TensorFlow (whose default pool already holds "tensorflow.Example") sees no conflict. Importing
protobuf costs about 0.1 s: graphfn imports this module on the first use of a tf.train name."""

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_FILE_NAME = "graphfn/file_io/example.proto"
_PACKAGE = "tensorflow"

_F = descriptor_pb2.FieldDescriptorProto
# (message, [(field, number, label, type, type_name or None, oneof index or None)], options)
_MESSAGES = [
    ("BytesList", [("value", 1, _F.LABEL_REPEATED, _F.TYPE_BYTES, None, None)]),
    ("FloatList", [("value", 1, _F.LABEL_REPEATED, _F.TYPE_FLOAT, None, None)]),
    ("Int64List", [("value", 1, _F.LABEL_REPEATED, _F.TYPE_INT64, None, None)]),
    ("Feature", [("bytes_list", 1, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "BytesList", 0),
                 ("float_list", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "FloatList", 0),
                 ("int64_list", 3, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "Int64List", 0)]),
    ("Features", [("feature", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, "Features.FeatureEntry", None)]),
    ("FeatureList", [("feature", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, "Feature", None)]),
    ("FeatureLists", [("feature_list", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, "FeatureLists.FeatureListEntry", None)]),
    ("Example", [("features", 1, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "Features", None)]),
    ("SequenceExample", [("context", 1, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "Features", None),
                         ("feature_lists", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "FeatureLists", None)]),
]
# The map fields' entry messages: (outer message, entry name, value message).
_MAP_ENTRIES = [("Features", "FeatureEntry", "Feature"), ("FeatureLists", "FeatureListEntry", "FeatureList")]
_ONEOFS = {"Feature": ["kind"]}


def _add_field(message, name, number, label, type_, type_name=None, oneof=None):
    field = message.field.add(name=name, number=number, label=label, type=type_)
    field.json_name = "".join(p if i == 0 else p.capitalize() for i, p in enumerate(name.split("_")))
    if type_name is not None:
        field.type_name = "." + _PACKAGE + "." + type_name
    if oneof is not None:
        field.oneof_index = oneof
    return field


def _file_descriptor():
    f = descriptor_pb2.FileDescriptorProto(name=_FILE_NAME, package=_PACKAGE, syntax="proto3")
    for name, fields in _MESSAGES:
        message = f.message_type.add(name=name)
        for oneof in _ONEOFS.get(name, []):
            message.oneof_decl.add(name=oneof)
        for field in fields:
            _add_field(message, *field)
        for outer, entry, value in _MAP_ENTRIES:
            if outer == name:
                nested = message.nested_type.add(name=entry)
                nested.options.map_entry = True
                _add_field(nested, "key", 1, _F.LABEL_OPTIONAL, _F.TYPE_STRING)
                _add_field(nested, "value", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, value)
    return f


_POOL = descriptor_pool.DescriptorPool()
_FILE = _POOL.Add(_file_descriptor()) and _POOL.FindFileByName(_FILE_NAME)


def _message_class(name):
    cls = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + "." + name))
    return cls


BytesList = _message_class("BytesList")
FloatList = _message_class("FloatList")
Int64List = _message_class("Int64List")
Feature = _message_class("Feature")
Features = _message_class("Features")
FeatureList = _message_class("FeatureList")
FeatureLists = _message_class("FeatureLists")
Example = _message_class("Example")
SequenceExample = _message_class("SequenceExample")

# The public names (graphfn/file_io/train_names.py publishes them as tf.train.<name> on first use).
TRAIN_NAMES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists",
               "Example", "SequenceExample")
