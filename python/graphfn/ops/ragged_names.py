"""The public ragged names (tf.RaggedTensor, tf.RaggedTensorSpec, tf.ragged.*): declared here and
loaded on first use, so that `import graphfn` does not load the ragged modules (loading them
registers RaggedTensor's dispatch on TF's element-wise APIs, reductions, concat, gather, ...)."""

from graphfn.util.tf_export import tf_export_lazy

_NAMES = {
    "RaggedTensor": ("graphfn.ops.ragged", "RaggedTensor"),
    "RaggedTensorSpec": ("graphfn.ops.ragged", "RaggedTensorSpec"),
    "ragged.constant": ("graphfn.ops.ragged", "constant"),
    "ragged.range": ("graphfn.ops.ragged", "ragged_range"),
    "ragged.map_flat_values": ("graphfn.ops.ragged", "map_flat_values"),
    "ragged.stack": ("graphfn.ops.ragged", "stack"),
    "ragged.boolean_mask": ("graphfn.ops.ragged", "boolean_mask"),
    "ragged.row_splits_to_segment_ids": ("graphfn.ops.ragged", "row_splits_to_segment_ids"),
    "ragged.segment_ids_to_row_splits": ("graphfn.ops.ragged", "segment_ids_to_row_splits"),
    "experimental.DynamicRaggedShape": ("graphfn.ops.ragged", "DynamicRaggedShape"),
    "experimental.RowPartition": ("graphfn.ops.ragged", "RowPartition"),
}

for _name, (_module, _attribute) in _NAMES.items():
    tf_export_lazy(_name, _module, _attribute)
