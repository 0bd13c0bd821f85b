"""tf.distribute on one device: the default strategy and its replica context."""
