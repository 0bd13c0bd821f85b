"""Vocabulary objects users hold: dtypes, shapes, tensors, errors."""
