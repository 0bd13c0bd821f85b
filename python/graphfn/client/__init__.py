"""TF 1.x-style graph execution: tf.compat.v1.Session."""
