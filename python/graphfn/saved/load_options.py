"""graphfn.saved_model.LoadOptions: TF 2.21's load options, plus the one graphfn reads.

TF's arguments are accepted and kept (they concern TF's checkpoints and devices, which graphfn's
single-file format does not have). `allow_file_output` is graphfn's: a loaded model's prints may
write to files (PrintV2 with output_stream 'file://...') only when it is True; otherwise loading
such a model raises PermissionDeniedError naming the node (docs/saving.md, "What a loaded model
can do")."""

from graphfn.util.tf_export import tf_export


@tf_export("saved_model.LoadOptions")
class LoadOptions:
    """Options for loading a SavedModel (graphfn.saved_model.load(..., options=))."""

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device", "experimental_skip_checkpoint",
                 "experimental_variable_policy", "experimental_load_function_aliases", "allow_file_output")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None, experimental_skip_checkpoint=False,
                 experimental_variable_policy=None, experimental_load_function_aliases=False,
                 allow_file_output=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_load_function_aliases = experimental_load_function_aliases
        self.allow_file_output = allow_file_output
