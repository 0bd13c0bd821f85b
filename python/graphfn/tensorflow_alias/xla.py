"""tensorflow.compiler.tf2xla.python.xla.dynamic_update_slice, which Keras 3 uses for
keras.ops.slice_update: `update` written into `operand` at `start_indices`, each start clamped
(as XLA does) so that the update fits."""


def dynamic_update_slice(operand, update, start_indices):
    import graphfn as tf  # in the function: the public namespace, loaded by the time Keras calls this

    operand = tf.convert_to_tensor(operand)
    update = tf.convert_to_tensor(update, dtype=operand.dtype)
    start = tf.cast(tf.stack(list(start_indices)) if isinstance(start_indices, (list, tuple))
                    else start_indices, tf.int32)
    operand_shape = tf.shape(operand)
    update_shape = tf.shape(update)
    start = tf.clip_by_value(start, 0, tf.maximum(operand_shape - update_shape, 0))
    # The indices of every element of `update`, shifted to its place in `operand`.
    grids = tf.meshgrid(*[tf.range(update_shape[i]) for i in range(update.shape.rank)], indexing="ij")
    indices = tf.stack(grids, axis=-1) + start
    return tf.tensor_scatter_nd_update(operand, indices, update)
