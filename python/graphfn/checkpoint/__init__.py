"""tf.train.Checkpoint and friends, in TensorFlow's checkpoint format. Published lazily: nothing
here (nor protobuf) is imported by `import graphfn`, only on the first use of one of the names."""

from graphfn.util.tf_export import tf_export_lazy

for _name, _module in (("Checkpoint", "checkpoint"), ("CheckpointOptions", "checkpoint_options"),
                       ("CheckpointManager", "checkpoint_management"), ("latest_checkpoint", "checkpoint_management"),
                       ("load_checkpoint", "checkpoint_reader"), ("list_variables", "checkpoint_reader"),
                       ("TrackableView", "trackable_view")):
    tf_export_lazy("train." + _name, "graphfn.checkpoint." + _module, _name)
