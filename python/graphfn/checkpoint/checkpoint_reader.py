"""tf.train.load_checkpoint (a CheckpointReader) and tf.train.list_variables: the tensors of a
checkpoint by key, as NumPy values."""

import os

from graphfn.checkpoint.checkpoint_management import latest_checkpoint
from graphfn.checkpoint.tensor_bundle import BundleReader, tf_type_name
from graphfn.util.tf_export import tf_export


class CheckpointReader:
    """The tensors of one checkpoint (a prefix such as `.../ckpt-1`)."""

    def __init__(self, prefix):
        self._bundle = BundleReader(os.fspath(prefix))

    def get_tensor(self, tensor_str):
        """The tensor as NumPy: an array, a NumPy scalar, or bytes for a string scalar."""
        value = self._bundle.tensor(tensor_str)
        return value[()] if value.ndim == 0 else value

    def has_tensor(self, tensor_str):
        return self._bundle.has(tensor_str)

    def get_variable_to_shape_map(self):
        return {key: self._bundle.shape(key) for key in self._bundle.keys()}

    def get_variable_to_dtype_map(self):
        return {key: self._bundle.dtype(key) for key in self._bundle.keys()}

    def debug_string(self):
        lines = ["%s (DT_%s) [%s]\n" % (key, tf_type_name(self._bundle.dtype(key)).upper(),
                                       ",".join(str(d) for d in self._bundle.shape(key)))
                 for key in self._bundle.keys()]
        return "".join(lines).encode()


@tf_export("train.load_checkpoint")
def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader of a checkpoint prefix, or of the latest checkpoint in a directory."""
    filename = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(filename):
        filename = latest_checkpoint(filename)
        if filename is None:
            raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory %s" % ckpt_dir_or_file)
    return CheckpointReader(filename)


@tf_export("train.list_variables")
def list_variables(ckpt_dir_or_file):
    """(key, shape) of every tensor in the checkpoint, sorted by key."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]
