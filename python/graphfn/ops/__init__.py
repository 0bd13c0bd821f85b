"""Op wrappers with TensorFlow's names and signatures, grouped like TF's modules."""
