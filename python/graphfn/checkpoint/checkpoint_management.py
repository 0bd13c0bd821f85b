"""The `checkpoint` state file of a checkpoint directory (CheckpointState in protobuf text form,
as TensorFlow writes it), tf.train.latest_checkpoint and tf.train.CheckpointManager."""

import collections
import os
import time

from graphfn.util.tf_export import tf_export

_STATE_FILE = "checkpoint"


def _relative(path, directory):
    return os.path.relpath(path, directory or ".") if os.path.isabs(path) == os.path.isabs(directory or ".") else path


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            all_model_checkpoint_timestamps=None, last_preserved_timestamp=None,
                            latest_filename=None):
    """Writes `save_dir/checkpoint` (atomically), paths relative to `save_dir` as TF saves them."""
    from google.protobuf import text_format  # protobuf on first use, not at import
    from graphfn.checkpoint import checkpoint_protos as protos  # protobuf on first use, not at import

    state = protos.CheckpointState(model_checkpoint_path=_relative(model_checkpoint_path, save_dir))
    state.all_model_checkpoint_paths.extend(_relative(p, save_dir) for p in all_model_checkpoint_paths or ())
    if all_model_checkpoint_timestamps is not None:
        state.all_model_checkpoint_timestamps.extend(all_model_checkpoint_timestamps)
    if last_preserved_timestamp is not None:
        state.last_preserved_timestamp = last_preserved_timestamp
    path = os.path.join(save_dir, latest_filename or _STATE_FILE)
    temporary = path + ".tmp%d" % os.getpid()
    with open(temporary, "w") as f:
        f.write(text_format.MessageToString(state))
    os.replace(temporary, path)


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's CheckpointState with absolute paths, or None when there is no state file."""
    from google.protobuf import text_format  # protobuf on first use, not at import
    from graphfn.checkpoint import checkpoint_protos as protos  # protobuf on first use, not at import

    checkpoint_dir = os.fspath(checkpoint_dir)
    path = os.path.join(checkpoint_dir, latest_filename or _STATE_FILE)
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    state = protos.CheckpointState()
    try:
        text_format.Parse(text, state)
    except text_format.ParseError:
        return None
    if not state.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)

    def absolute(p):
        return p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)
    state.model_checkpoint_path = absolute(state.model_checkpoint_path)
    paths = [absolute(p) for p in state.all_model_checkpoint_paths]
    del state.all_model_checkpoint_paths[:]
    state.all_model_checkpoint_paths.extend(paths)
    return state


@tf_export("train.latest_checkpoint")
def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is not None and state.model_checkpoint_path:
        if os.path.exists(state.model_checkpoint_path + ".index"):
            return state.model_checkpoint_path
    return None


def _delete_checkpoint_files(prefix):
    import glob  # used only here
    for path in [prefix + ".index"] + glob.glob(glob.escape(prefix) + ".data-?????-of-?????"):
        try:
            os.remove(path)
        except OSError:
            pass


@tf_export("train.CheckpointManager")
class CheckpointManager:
    """Numbers, records and deletes the checkpoints of one `tf.train.Checkpoint` in a directory."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None, checkpoint_name="ckpt",
                 step_counter=None, checkpoint_interval=None, init_fn=None, last_checkpoint_step=None):
        if directory is None:
            raise ValueError("directory must not be None")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got %s." % (max_to_keep,))
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._checkpoint_prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = last_checkpoint_step
        self._maybe_delete = collections.OrderedDict()  # checkpoint path -> time it was written
        state = get_checkpoint_state(self._directory)
        now = time.time()
        if state is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now
        else:
            # Resumes where an earlier manager (or TF) left the directory.
            self._latest_checkpoint = state.model_checkpoint_path
            timestamps = list(state.all_model_checkpoint_timestamps)
            if len(timestamps) != len(state.all_model_checkpoint_paths):
                timestamps = [now] * len(state.all_model_checkpoint_paths)
            for path, stamp in zip(state.all_model_checkpoint_paths, timestamps):
                self._maybe_delete[path] = min(stamp, now)
            self._last_preserved_timestamp = min(state.last_preserved_timestamp, now)

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The prefix of the newest checkpoint, or None."""
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The prefixes of the checkpoints kept, oldest first."""
        return list(self._maybe_delete)

    def _record_state(self):
        paths, stamps = list(self._maybe_delete), list(self._maybe_delete.values())
        update_checkpoint_state(self._directory, model_checkpoint_path=self._latest_checkpoint,
                                all_model_checkpoint_paths=paths, all_model_checkpoint_timestamps=stamps,
                                last_preserved_timestamp=self._last_preserved_timestamp)

    def _sweep(self):
        if not self._max_to_keep:
            return  # everything is kept
        while len(self._maybe_delete) > self._max_to_keep:
            path, stamp = self._maybe_delete.popitem(last=False)
            hours = self._keep_checkpoint_every_n_hours
            if hours and stamp - hours * 3600.0 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp  # kept on disk, no longer listed
                continue
            _delete_checkpoint_files(path)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Writes `<directory>/<checkpoint_name>-<number>` (the number: `checkpoint_number`, else
        the checkpoint's incremented `save_counter`), records it and deletes the checkpoints past
        `max_to_keep`. Returns the path, or None when `checkpoint_interval` says not yet."""
        if self._checkpoint_interval is not None:
            step = int(_value(self._step_counter))
            if check_interval and self._last_checkpoint_step is not None and \
                    step < self._last_checkpoint_step + self._checkpoint_interval:
                return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        if checkpoint_number is None:
            checkpoint_number = counter
        number = int(_value(checkpoint_number))
        path = self._checkpoint.write("%s-%d" % (self._checkpoint_prefix, number), options=options)
        self._maybe_delete.pop(path, None)  # rewritten: moves to the end
        self._maybe_delete[path] = time.time()
        self._latest_checkpoint = path
        self._record_state()
        self._sweep()
        self._record_state()
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path; without one, calls `init_fn` and returns None."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(_value(self._step_counter))
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def sync(self):
        """graphfn writes synchronously: nothing to wait for."""


def _value(number):
    if hasattr(number, "numpy"):
        return number.numpy()
    return number
