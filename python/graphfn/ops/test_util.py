"""The device queries of tf.test that graphfn answers: it runs on the CPU only."""

from graphfn.util.tf_export import tf_export


@tf_export("test.gpu_device_name")
def gpu_device_name():
    """The name of a GPU device if one is available, else '' (TF's answer on a CPU-only host)."""
    return ""
