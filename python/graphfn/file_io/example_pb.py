"""tf.train.Example, Features, Feature, BytesList, FloatList, Int64List, FeatureList,
FeatureLists and SequenceExample: real protobuf messages (the `protobuf` package), defined with
the field numbers of TensorFlow's example.proto / feature.proto (example.proto beside this file
is their readable form), so SerializeToString / FromString bytes and the text form are TF's.

Built from the tables below by util/proto_tables.py, in a descriptor pool of their own: a process
that also imports TensorFlow (whose default pool already holds "tensorflow.Example") sees no
conflict. Importing protobuf costs about 0.1 s: graphfn imports this module on the first use of a
tf.train name."""

from graphfn.util import proto_tables

_FILE_NAME = "graphfn/file_io/example.proto"
_PACKAGE = "tensorflow"

_F = proto_tables.FIELD
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


_CLASSES = proto_tables.message_classes(_FILE_NAME, _PACKAGE, _MESSAGES, _ONEOFS, _MAP_ENTRIES)


BytesList = _CLASSES["BytesList"]
FloatList = _CLASSES["FloatList"]
Int64List = _CLASSES["Int64List"]
Feature = _CLASSES["Feature"]
Features = _CLASSES["Features"]
FeatureList = _CLASSES["FeatureList"]
FeatureLists = _CLASSES["FeatureLists"]
Example = _CLASSES["Example"]
SequenceExample = _CLASSES["SequenceExample"]

# The public names (graphfn/file_io/train_names.py publishes them as tf.train.<name> on first use).
TRAIN_NAMES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists",
               "Example", "SequenceExample")
