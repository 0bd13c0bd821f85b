"""Small helpers with no TensorFlow semantics of their own."""
