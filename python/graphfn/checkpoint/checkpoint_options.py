"""tf.train.CheckpointOptions: TF 2.21's options, accepted; graphfn writes on the calling thread
and on the local file system whatever they say (they concern TF's devices and async writes)."""

from graphfn.util.tf_export import tf_export


@tf_export("train.CheckpointOptions")
class CheckpointOptions:
    """Options of Checkpoint.save/write/restore/read and CheckpointManager.save."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint", "experimental_write_callbacks",
                 "enable_async", "experimental_sharding_callback", "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_skip_slot_variables=False,
                 experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = enable_async or experimental_enable_async_checkpoint
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback
