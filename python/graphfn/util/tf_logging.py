"""tf.get_logger: the logger graphfn writes its warnings to."""

from graphfn.util.tf_export import tf_export


@tf_export("get_logger")
def get_logger():
    """graphfn's logger, "graphfn" (TF's is "tensorflow"): every warning graphfn writes goes
    through it or a child of it, so `tf.get_logger().setLevel("ERROR")` silences them as it
    silences TF's."""
    import logging  # on first use: logging costs ~8 ms of `import graphfn`

    return logging.getLogger("graphfn")
