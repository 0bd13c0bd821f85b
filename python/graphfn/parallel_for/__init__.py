"""tf.vectorized_map and the batching transform it runs (TF's pfor)."""
