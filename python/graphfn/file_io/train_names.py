"""tf.train.Example and the other protobuf messages of example_pb.py, published lazily: the
module (and protobuf) is imported on the first use of one of these names, not by `import graphfn`."""

from graphfn.util.tf_export import tf_export_lazy

for _name in ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists",
              "Example", "SequenceExample"):
    tf_export_lazy("train." + _name, "graphfn.file_io.example_pb", _name)
