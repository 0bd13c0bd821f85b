"""tf.train.Checkpoint and the statuses its restore returns, in TensorFlow 2.21's file format
(tensor_bundle.py, object_graph.py) so checkpoints move between graphfn and TensorFlow."""

import inspect
import os

from graphfn.checkpoint import checkpoint_management, object_graph
from graphfn.checkpoint.checkpoint_options import CheckpointOptions
from graphfn.checkpoint.restore import Restoration, open_checkpoint
from graphfn.checkpoint.tensor_bundle import write_bundle
from graphfn.context import init_scope
from graphfn.data.iterator import OwnedIterator
from graphfn.framework import dtypes, errors
from graphfn.trackable import deferred_restoration
from graphfn.trackable.base import Trackable
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable


def _check_trackable(name, value):
    if isinstance(value, OwnedIterator):
        raise errors.UnimplementedError(
            None, None, "graphfn cannot checkpoint a tf.data iterator (%s) yet: its position and buffers live in "
            "graphfn's C++ pipeline, which does not expose them. Save the step count instead and skip that many "
            "elements (dataset.skip(n)) when resuming." % name)
    if not object_graph.is_checkpointable(value) or isinstance(value, (list, tuple, dict)):
        raise ValueError("`Checkpoint` was expecting %s to be a trackable object (an object derived from "
                         "`Trackable`), got %s. If you believe this object should be trackable (i.e. it is part of "
                         "the TensorFlow Python API and manages state), please open an issue." % (name, value))


def _check_options(options):
    if options is not None and not isinstance(options, CheckpointOptions):
        raise TypeError("options must be a tf.train.CheckpointOptions, got %r" % (options,))


def _run_write_callback(callback, save_path):
    try:
        takes_path = bool(inspect.signature(callback).parameters)
    except (TypeError, ValueError):
        takes_path = True
    if takes_path:
        callback(save_path)
    else:
        callback()


@tf_export("train.Checkpoint")
class Checkpoint(Trackable):
    """Saves and restores the objects given as keyword arguments (or `root`) and everything
    they reach: variables, modules, Keras models and optimizers."""

    def __init__(self, root=None, **kwargs):
        self._maybe_initialize_trackable()
        object.__setattr__(self, "_self_root", None)
        object.__setattr__(self, "_self_save_counter", None)
        if root is not None:
            _check_trackable("root", root)
            object.__setattr__(self, "_self_root", root)
        for name, value in sorted(kwargs.items()):
            _check_trackable(name, value)
            setattr(self, name, value)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if not name.startswith("_") and object_graph.is_checkpointable(value):
            self._self_dependencies[name] = value
            deferred_restoration.dependency_added(self, name, value)

    def _trackable_children(self, save_type="checkpoint", **kwargs):
        children = dict(self._self_dependencies)
        if self._self_save_counter is not None:
            children["save_counter"] = self._self_save_counter
        return children

    # The save counter -----------------------------------------------------------------------------

    def _maybe_create_save_counter(self):
        if self._self_save_counter is None:
            with init_scope():
                counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter")
            object.__setattr__(self, "_self_save_counter", counter)
            deferred_restoration.dependency_added(self, "save_counter", counter)
        return self._self_save_counter

    @property
    def save_counter(self):
        """The number of times `save` ran (an int64 variable, saved with the checkpoint)."""
        return self._maybe_create_save_counter()

    # Saving -------------------------------------------------------------------------------------

    def _graph_root(self):
        """The object at node 0 and the children added to it: the root's own and this
        checkpoint's keyword objects and save counter when `root` was given."""
        if self._self_root is None:
            return self, ()
        return self._self_root, tuple(self._trackable_children().items())

    def write(self, file_prefix, options=None):
        """Writes a checkpoint at `file_prefix` (no counter, no `checkpoint` state file); returns
        the prefix."""
        _check_options(options)
        file_prefix = os.fspath(file_prefix)
        root, extra = self._graph_root()
        write_bundle(file_prefix, object_graph.save_tensors(root, extra))
        for callback in (options.experimental_write_callbacks or ()) if options is not None else ():
            _run_write_callback(callback, file_prefix)
        return file_prefix

    def save(self, file_prefix, options=None):
        """Increments `save_counter`, writes `<file_prefix>-<save_counter>` and records it in the
        directory's `checkpoint` file; returns that path."""
        _check_options(options)
        file_prefix = os.fspath(file_prefix)
        counter = self._maybe_create_save_counter()
        counter.assign_add(1)
        path = self.write("%s-%d" % (file_prefix, int(counter.numpy())), options=options)
        checkpoint_management.update_checkpoint_state(
            os.path.dirname(file_prefix), model_checkpoint_path=path, all_model_checkpoint_paths=[path])
        return path

    def sync(self):
        """Waits for asynchronous writes: graphfn writes synchronously, so there is nothing to wait for."""

    # Restoring ----------------------------------------------------------------------------------

    def read(self, save_path, options=None):
        """Restores from `save_path` (a prefix such as `.../ckpt-1`); returns a CheckpointLoadStatus."""
        _check_options(options)
        reader, proto = open_checkpoint(save_path)
        restoration = Restoration(reader, proto)
        # The counter exists after a restore (TF creates it), so `save` continues the numbering.
        if any(ref.local_name == "save_counter" for ref in proto.nodes[0].children):
            self._maybe_create_save_counter()
        root, extra = self._graph_root()
        restoration.restore(0, root, extra)
        return CheckpointLoadStatus(restoration, self)

    def restore(self, save_path, options=None):
        """Restores from `save_path`, or returns an InitializationOnlyStatus for None. Variables
        created later (unbuilt layers, attributes assigned afterwards) are restored when they appear."""
        if save_path is None:
            return InitializationOnlyStatus()
        return self.read(save_path, options)


class CheckpointLoadStatus:
    """What a restore matched: checks that the checkpoint and the program agree."""

    def __init__(self, restoration, checkpoint):
        self._restoration = restoration
        self._checkpoint = checkpoint

    def _unmatched_live_objects(self):
        root, extra = self._checkpoint._graph_root()
        graph = object_graph.ObjectGraph(root, extra)
        matched = {id(obj) for obj in self._restoration.matched.values()}
        return [obj for obj in graph.objects if object_graph.serialize(obj) and id(obj) not in matched]

    def _raise_unmatched(self):
        unmatched = self._unmatched_live_objects()
        if unmatched:
            shown = unmatched[:10]
            raise AssertionError(
                "Found %d Python objects that were not bound to checkpointed values, likely due to changes in the "
                "Python program. Showing %d of %d unmatched objects: %s" % (len(unmatched), len(shown), len(unmatched),
                                                                             shown))

    def assert_consumed(self):
        """Raises AssertionError unless every value in the checkpoint was restored and every
        live object with values was matched."""
        from google.protobuf import text_format  # protobuf on first use, not at import
        self._raise_unmatched()  # TF reports unmatched Python objects first
        names = None
        for node_id, node in enumerate(self._restoration.proto.nodes):
            if node.attributes and node_id not in self._restoration.restored_nodes:
                names = names or self._restoration.node_names()
                raise AssertionError("Unresolved object in checkpoint %s: %s"
                                     % (names.get(node_id, node_id), text_format.MessageToString(node)))
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a live object with values has no value in the checkpoint."""
        self._raise_unmatched()
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError if nothing but the root was matched."""
        if len(self._restoration.matched) <= 1:
            raise AssertionError("Nothing except the root object matched a checkpointed value. Typically this means "
                                 "that the checkpoint does not match the Python program.")
        return self

    def expect_partial(self):
        """Marks the restore as possibly partial (TF then logs no warnings about unused values)."""
        return self

    def run_restore_ops(self, session=None):
        """Values are restored eagerly: nothing to run."""

    def initialize_or_restore(self, session=None):
        """Values are restored eagerly: nothing to run."""


class InitializationOnlyStatus:
    """The status of `restore(None)`: nothing is restored."""

    def _nothing(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def assert_consumed(self):
        self._nothing()

    def assert_existing_objects_matched(self):
        self._nothing()

    def assert_nontrivial_match(self):
        self._nothing()

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        """Nothing to restore."""

    def initialize_or_restore(self, session=None):
        """Variables are initialized when created: nothing to run."""
