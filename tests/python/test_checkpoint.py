"""tf.train.Checkpoint & co. in TensorFlow's checkpoint format. Fixtures and expected values were
recorded with TF 2.21 (checkpoint_fixtures/make_fixtures.py); the messages below are TF's."""

import filecmp
import json
import os
import shutil

import numpy as np
import pytest

import graphfn as tf
from graphfn.checkpoint import tensor_bundle
import checkpoint_fixture_models as models

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "checkpoint_fixtures")
MODULE_DIR = os.path.join(FIXTURES, "module")
with open(os.path.join(FIXTURES, "expected.json")) as _f:
    EXPECTED = json.load(_f)


as_json = models.as_json


# Reading TensorFlow's files -----------------------------------------------------------------------

def test_list_variables_and_reader_of_a_tf_checkpoint():
    assert tf.train.list_variables(MODULE_DIR) == [tuple(e) for e in EXPECTED["module"]["variables"]]
    reader = tf.train.load_checkpoint(MODULE_DIR)  # a directory: its latest checkpoint
    assert {k: v.name for k, v in reader.get_variable_to_dtype_map().items()} == EXPECTED["module"]["dtypes"]
    assert reader.get_variable_to_shape_map() == dict(EXPECTED["module"]["variables"])
    for key, value in EXPECTED["module"]["values"].items():
        assert as_json(reader.get_tensor(key)) == value, key
    assert tf.train.latest_checkpoint(MODULE_DIR) == os.path.join(MODULE_DIR, "ckpt-2")
    first = tf.train.load_checkpoint(os.path.join(MODULE_DIR, "ckpt-1"))
    assert as_json(first.get_tensor("model/v/.ATTRIBUTES/VARIABLE_VALUE")) == EXPECTED["module"]["first_v"]


def test_reader_value_types_are_tfs():
    reader = tf.train.load_checkpoint(os.path.join(MODULE_DIR, "ckpt-2"))
    scalar = reader.get_tensor("model/lst/0/.ATTRIBUTES/VARIABLE_VALUE")
    assert type(scalar) is np.float32 and scalar == -1.0
    assert reader.get_tensor("model/s/.ATTRIBUTES/VARIABLE_VALUE") == b"world"
    assert reader.get_tensor("model/v/.ATTRIBUTES/VARIABLE_VALUE").dtype == np.float32
    assert reader.has_tensor("model/v/.ATTRIBUTES/VARIABLE_VALUE") and not reader.has_tensor("nope")
    with pytest.raises(tf.errors.NotFoundError, match="^Key nope not found in checkpoint$"):
        reader.get_tensor("nope")


def test_reader_errors_are_tfs():
    missing = os.path.join(MODULE_DIR, "nonexistent")
    with pytest.raises(tf.errors.NotFoundError) as e:
        tf.train.load_checkpoint(missing)
    assert str(e.value) == "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for " + missing
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints in given directory"):
        tf.train.load_checkpoint(FIXTURES)
    assert tf.train.latest_checkpoint(missing) is None


def test_restore_a_tf_checkpoint_into_a_module():
    net = models.make_module(tf)
    for v in (net.v, net.lst[0]):
        v.assign(tf.zeros_like(v))
    status = tf.train.Checkpoint(model=net).restore(os.path.join(MODULE_DIR, "ckpt-2"))
    status.assert_consumed().assert_existing_objects_matched().assert_nontrivial_match()
    values = EXPECTED["module"]["values"]
    for key, variable in [("model/v", net.v), ("model/sub/w", net.sub.w), ("model/sub/d", net.sub.d),
                          ("model/h", net.h), ("model/bf", net.bf), ("model/i8", net.i8), ("model/u8", net.u8),
                          ("model/i64", net.i64), ("model/c64", net.c64), ("model/flag", net.flag),
                          ("model/s", net.s), ("model/sv", net.sv), ("model/lst/0", net.lst[0]),
                          ("model/lst/1/a", net.lst[1]["a"]), ("model/lst/1/b..c.Sd", net.lst[1]["b.c/d"])]:
        assert as_json(variable.numpy()) == values[key + "/.ATTRIBUTES/VARIABLE_VALUE"], key


def test_a_bundle_rewritten_by_graphfn_is_byte_identical(tmp_path):
    reader = tensor_bundle.BundleReader(os.path.join(MODULE_DIR, "ckpt-2"))
    in_file_order = sorted(reader.keys(), key=lambda k: reader._entries[k].offset)
    tensor_bundle.write_bundle(str(tmp_path / "copy"), {k: reader.tensor(k) for k in in_file_order})
    assert filecmp.cmp(tmp_path / "copy.index", os.path.join(MODULE_DIR, "ckpt-2.index"), shallow=False)
    assert filecmp.cmp(tmp_path / "copy.data-00000-of-00001",
                       os.path.join(MODULE_DIR, "ckpt-2.data-00000-of-00001"), shallow=False)


def test_graphfn_writes_the_checkpoint_tf_writes(tmp_path):
    # The same module saved the same way: TF's files, byte for byte (so TF reads graphfn's).
    net = models.make_module(tf)
    checkpoint = tf.train.Checkpoint(model=net)
    assert checkpoint.save(str(tmp_path / "ckpt")) == str(tmp_path / "ckpt-1")
    models.change_module(net)
    assert checkpoint.save(str(tmp_path / "ckpt")) == str(tmp_path / "ckpt-2")
    for name in ("ckpt-1.index", "ckpt-1.data-00000-of-00001", "ckpt-2.index", "ckpt-2.data-00000-of-00001"):
        assert filecmp.cmp(tmp_path / name, os.path.join(MODULE_DIR, name), shallow=False), name
    assert (tmp_path / "checkpoint").read_text() == EXPECTED["module"]["state_file"]


def test_corrupted_files_raise_data_loss(tmp_path):
    shutil.copy(os.path.join(MODULE_DIR, "ckpt-2.index"), tmp_path / "c.index")
    with open(os.path.join(MODULE_DIR, "ckpt-2.data-00000-of-00001"), "rb") as f:
        data = bytearray(f.read())
    data[5] ^= 0xFF
    (tmp_path / "c.data-00000-of-00001").write_bytes(bytes(data))
    reader = tf.train.load_checkpoint(str(tmp_path / "c"))
    with pytest.raises(tf.errors.DataLossError, match="Checksum does not match"):
        for key in reader.get_variable_to_shape_map():
            reader.get_tensor(key)
    index = bytearray((tmp_path / "c.index").read_bytes())
    index[20] ^= 0xFF
    (tmp_path / "c.index").write_bytes(bytes(index))
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch"):
        tf.train.load_checkpoint(str(tmp_path / "c"))
    (tmp_path / "c.index").write_bytes(b"not a table")
    with pytest.raises(tf.errors.DataLossError, match="bad magic number"):
        tf.train.load_checkpoint(str(tmp_path / "c"))


# Checkpoint: save, write, restore, read -----------------------------------------------------------

def _module():
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])
    m.w = tf.Variable(3)
    return m


def test_save_counter_write_and_read(tmp_path):
    checkpoint = tf.train.Checkpoint(model=_module())
    assert checkpoint.save_counter.numpy() == 0 and checkpoint.save_counter.dtype == tf.int64
    assert checkpoint.save_counter.name == "save_counter:0"
    assert checkpoint.save(str(tmp_path / "c")) == str(tmp_path / "c-1")
    assert checkpoint.save(str(tmp_path / "c")) == str(tmp_path / "c-2")
    assert checkpoint.write(str(tmp_path / "w")) == str(tmp_path / "w")
    assert (tmp_path / "checkpoint").read_text() == 'model_checkpoint_path: "c-2"\nall_model_checkpoint_paths: "c-2"\n'
    assert sorted(os.listdir(tmp_path)) == ["c-1.data-00000-of-00001", "c-1.index", "c-2.data-00000-of-00001",
                                            "c-2.index", "checkpoint", "w.data-00000-of-00001", "w.index"]
    other = _module()
    other.v.assign([0.0, 0.0])
    status = tf.train.Checkpoint(model=other).read(str(tmp_path / "w"))
    assert type(status).__name__ == "CheckpointLoadStatus"
    assert other.v.numpy().tolist() == [1.0, 2.0]
    # A restore creates the counter, so saving continues the numbering (TF: d-3).
    restored = tf.train.Checkpoint(model=_module())
    restored.restore(str(tmp_path / "c-2"))
    assert restored.save_counter.numpy() == 2
    assert restored.save(str(tmp_path / "d")) == str(tmp_path / "d-3")
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "d-3")


def test_root_checkpoint_keys(tmp_path):
    path = tf.train.Checkpoint(_module()).save(str(tmp_path / "root"))
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                             ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
                                             ("v/.ATTRIBUTES/VARIABLE_VALUE", [2]), ("w/.ATTRIBUTES/VARIABLE_VALUE", [])]


def test_statuses_and_their_messages(tmp_path):
    path = tf.train.Checkpoint(model=_module()).save(str(tmp_path / "c"))
    partial = tf.Module()
    partial.v = tf.Variable([0.0, 0.0])
    status = tf.train.Checkpoint(model=partial).restore(path)
    assert partial.v.numpy().tolist() == [1.0, 2.0]
    with pytest.raises(AssertionError) as e:
        status.assert_consumed()
    assert str(e.value) == ('Unresolved object in checkpoint (root).model.w: attributes {\n  name: "VARIABLE_VALUE"\n'
                            '  full_name: "Variable"\n  checkpoint_key: "model/w/.ATTRIBUTES/VARIABLE_VALUE"\n}\n'
                            'has_checkpoint_values {\n  value: true\n}\n')
    assert status.assert_existing_objects_matched() is status
    assert status.assert_nontrivial_match() is status and status.expect_partial() is status
    extra = tf.Module()
    extra.v = tf.Variable([0.0, 0.0])
    extra.extra = tf.Variable(1.0)
    status = tf.train.Checkpoint(model=extra).restore(path)
    message = ("Found 1 Python objects that were not bound to checkpointed values, likely due to changes in the Python "
               "program. Showing 1 of 1 unmatched objects: [<tf.Variable 'Variable:0' shape=() dtype=float32, "
               "numpy=1.0>]")
    for check in (status.assert_consumed, status.assert_existing_objects_matched):
        with pytest.raises(AssertionError) as e:
            check()
        assert str(e.value) == message
    nothing = tf.train.Checkpoint(model=_module()).restore(None)
    assert type(nothing).__name__ == "InitializationOnlyStatus"
    with pytest.raises(AssertionError, match=r"^No checkpoint specified \(save_path=None\); nothing is being restored.$"):
        nothing.assert_consumed()


def test_restore_errors_are_tfs(tmp_path):
    path = tf.train.Checkpoint(model=_module()).save(str(tmp_path / "c"))
    wrong_shape = tf.Module()
    wrong_shape.v = tf.Variable([0.0, 0.0, 0.0])
    with pytest.raises(ValueError) as e:
        tf.train.Checkpoint(model=wrong_shape).restore(path)
    assert str(e.value) == ("Received incompatible tensor with shape (2,) when attempting to restore variable with "
                            "shape (3,) and name Variable:0.")
    wrong_dtype = tf.Module()
    wrong_dtype.v = tf.Variable([0, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_name = model/v/.ATTRIBUTES/VARIABLE_VALUE; "
                       "expected dtype int32 does not equal original dtype float"):
        tf.train.Checkpoint(model=wrong_dtype).restore(path)
    missing = str(tmp_path / "nope")
    with pytest.raises(tf.errors.NotFoundError) as e:
        tf.train.Checkpoint(model=_module()).restore(missing)
    assert str(e.value) == ("Error when restoring from checkpoint or SavedModel at %s: Unsuccessful TensorSliceReader "
                            "constructor: Failed to find any matching files for %s\nPlease double-check that the path "
                            "is correct. You may be missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1')."
                            % (missing, missing))
    with pytest.raises(tf.errors.DataLossError, match="Is a directory"):
        tf.train.Checkpoint(model=_module()).restore(str(tmp_path))
    for args, kwargs, name in (((), {"x": 5}, "x"), ((5,), {}, "root")):
        with pytest.raises(ValueError) as e:
            tf.train.Checkpoint(*args, **kwargs)
        assert str(e.value) == ("`Checkpoint` was expecting %s to be a trackable object (an object derived from "
                                "`Trackable`), got 5. If you believe this object should be trackable (i.e. it is part "
                                "of the TensorFlow Python API and manages state), please open an issue." % name)


def test_deferred_restoration_of_variables_created_later(tmp_path):
    path = tf.train.Checkpoint(model=_module()).save(str(tmp_path / "c"))
    checkpoint = tf.train.Checkpoint(model=tf.Module())
    checkpoint.restore(path)
    checkpoint.model.v = tf.Variable([0.0, 0.0])  # restored on assignment, as in TF
    assert checkpoint.model.v.numpy().tolist() == [1.0, 2.0]
    later = tf.train.Checkpoint()
    later.restore(path)
    later.model = _module()  # a whole dependency added to the checkpoint afterwards
    assert later.model.w.numpy() == 3
    assert later.model.v.numpy().tolist() == [1.0, 2.0]


def test_trackable_objects_save_and_restore_with_their_own_protocol(tmp_path):
    class Counter(tf.__internal__.tracking.AutoTrackable):
        def __init__(self):
            self.count = 0

        def _serialize_to_tensors(self):
            return {"COUNT": tf.constant(self.count, tf.int64)}

        def _restore_from_tensors(self, restored_tensors):
            self.count = int(restored_tensors["COUNT"].numpy())

    holder = tf.__internal__.tracking.AutoTrackable()
    holder.counter = Counter()
    holder.counter.count = 41
    holder.layers = [tf.Variable(1.0), {"k": tf.Variable(2.0)}]  # a list: tracked as TF wraps it
    path = tf.train.Checkpoint(holder=holder).save(str(tmp_path / "c"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "holder/counter/.ATTRIBUTES/COUNT", "holder/layers/0/.ATTRIBUTES/VARIABLE_VALUE",
        "holder/layers/1/k/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = tf.__internal__.tracking.AutoTrackable()
    fresh.counter = Counter()
    fresh.layers = [tf.Variable(0.0), {"k": tf.Variable(0.0)}]
    tf.train.Checkpoint(holder=fresh).restore(path).assert_consumed()
    assert fresh.counter.count == 41 and fresh.layers[1]["k"].numpy() == 2.0


def test_checkpoint_options_are_tfs():
    options = tf.train.CheckpointOptions()
    assert options.experimental_io_device is None and options.enable_async is False
    assert tf.train.CheckpointOptions.__slots__ == (
        "experimental_io_device", "experimental_enable_async_checkpoint", "experimental_write_callbacks",
        "enable_async", "experimental_sharding_callback", "experimental_skip_slot_variables")


def test_write_callbacks_run_after_writing(tmp_path):
    seen = []
    options = tf.train.CheckpointOptions(experimental_write_callbacks=[seen.append, lambda: seen.append("done")])
    path = tf.train.Checkpoint(model=_module()).write(str(tmp_path / "w"), options=options)
    assert seen == [path, "done"]


# CheckpointManager --------------------------------------------------------------------------------

def _relative(path, directory):
    return os.path.relpath(path, directory)


def test_checkpoint_manager_replays_tfs_sequence(tmp_path):
    scratch = str(tmp_path)
    events = []
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, scratch, max_to_keep=2, checkpoint_name="step")
    events.append(["latest", manager.latest_checkpoint, manager.checkpoints])
    for number in (None, None, 10, None):
        path = manager.save(checkpoint_number=number)
        events.append(["save", _relative(path, scratch), [_relative(p, scratch) for p in manager.checkpoints],
                       sorted(os.listdir(scratch)), int(checkpoint.save_counter.numpy())])
    with open(os.path.join(scratch, "checkpoint")) as f:
        state = f.read().splitlines()
    events.append(["state", [line for line in state if "timestamp" not in line]])
    resumed = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), scratch, max_to_keep=2,
                                         checkpoint_name="step")
    events.append(["resumed", _relative(resumed.latest_checkpoint, scratch),
                   [_relative(p, scratch) for p in resumed.checkpoints]])
    restored = resumed.restore_or_initialize()
    events.append(["restore_or_initialize", _relative(restored, scratch),
                   float(resumed.checkpoint.v.numpy()), int(resumed.checkpoint.save_counter.numpy())])
    events.append(["latest_checkpoint", _relative(tf.train.latest_checkpoint(scratch), scratch)])
    assert events == EXPECTED["manager"]
    assert any(line.startswith("all_model_checkpoint_timestamps: ") for line in state)
    assert any(line.startswith("last_preserved_timestamp: ") for line in state)


def test_checkpoint_manager_arguments(tmp_path):
    checkpoint = tf.train.Checkpoint()
    for bad in (0, -1):
        with pytest.raises(ValueError, match="^Expected a positive integer or `None` for `max_to_keep`, got %d.$" % bad):
            tf.train.CheckpointManager(checkpoint, str(tmp_path), max_to_keep=bad)
    with pytest.raises(ValueError, match="^`step_counter` should be passed if `checkpoint_interval` is not None.$"):
        tf.train.CheckpointManager(checkpoint, str(tmp_path), max_to_keep=2, checkpoint_interval=3)
    initialized = []
    manager = tf.train.CheckpointManager(checkpoint, str(tmp_path / "new"), max_to_keep=None,
                                         init_fn=lambda: initialized.append(1))
    assert manager.restore_or_initialize() is None and initialized == [1]
    for _ in range(4):
        manager.save()
    assert len(manager.checkpoints) == 4  # max_to_keep=None keeps everything


def test_checkpoint_manager_interval_and_hours(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), str(tmp_path), max_to_keep=1,
                                         step_counter=step, checkpoint_interval=5)
    saved = []
    for i in range(12):
        step.assign(i)
        saved.append(manager.save() is not None)
    assert saved == [i in (0, 5, 10) for i in range(12)]
    assert manager.save(check_interval=False) is not None
    kept = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), str(tmp_path / "h"), max_to_keep=1,
                                      keep_checkpoint_every_n_hours=1e-9)
    paths = [kept.save() for _ in range(3)]
    assert kept.checkpoints == paths[-1:]
    assert all(os.path.exists(p + ".index") for p in paths)  # older ones preserved on disk


def test_tf_data_iterators_are_refused_clearly():
    iterator = iter(tf.data.Dataset.range(3))
    with pytest.raises(tf.errors.UnimplementedError, match="graphfn cannot checkpoint a tf.data iterator"):
        tf.train.Checkpoint(iterator=iterator)


def test_tf_keras_model_and_optimizer_round_trip(tmp_path):
    # tf.keras (the real Keras 3 on graphfn), in this process: the model's variables and the optimizer's slots and iteration count
    # come back as saved (keys as Keras 3's: optimizer/_variables/<i>, ...).
    def make():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam(0.1)
        model.compile(optimizer, "mse")
        return model, optimizer

    x, y = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3), np.ones((2, 1), np.float32)
    model, optimizer = make()
    model.fit(x, y, epochs=3, verbose=0)
    path = tf.train.Checkpoint(model=model, optimizer=optimizer).save(str(tmp_path / "c"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE" in keys
    fresh, fresh_optimizer = make()
    fresh.fit(x, y, epochs=1, verbose=0)
    tf.train.Checkpoint(model=fresh, optimizer=fresh_optimizer).restore(path).assert_consumed()
    assert np.array_equal(model.predict(x, verbose=0), fresh.predict(x, verbose=0))
    assert fresh_optimizer.iterations.numpy() == 3
    for saved, restored in zip(optimizer.variables, fresh_optimizer.variables):
        assert np.array_equal(saved.numpy(), restored.numpy())


def test_damaged_contents_with_valid_checksums_raise_data_loss(tmp_path):
    from graphfn.checkpoint import table_format
    header = b"\x08\x01\x1a\x02\x08\x01"  # one shard, version 1
    for items, message in (([(b"", header), (b"k", b"\xff\xff\xff")], "cannot parse its BundleEntryProto"),
                           ([(b"", b"\xff\xff")], "cannot parse its BundleHeaderProto"),
                           ([(b"", header), (b"k", b"\x08\xe7\x07")], "entry b'k' has unknown dtype 999"),
                           ([(b"k", b"\x08\x01")], "has no header entry")):
        (tmp_path / "x.index").write_bytes(table_format.build_table(items))
        (tmp_path / "x.data-00000-of-00001").write_bytes(b"\0" * 4)
        with pytest.raises(tf.errors.DataLossError, match=message):
            tf.train.load_checkpoint(str(tmp_path / "x"))
    graph = np.array(b"\xff\xff\xff", dtype=object)
    tensor_bundle.write_bundle(str(tmp_path / "g"), {"_CHECKPOINTABLE_OBJECT_GRAPH": graph})
    with pytest.raises(tf.errors.DataLossError, match="cannot parse its TrackableObjectGraph"):
        tf.train.Checkpoint(model=_module()).restore(str(tmp_path / "g"))
    dangling = np.array(b"\n\x06\n\x04\x08\x07\x12\x00", dtype=object)  # node 0 -> child node 7
    tensor_bundle.write_bundle(str(tmp_path / "d"), {"_CHECKPOINTABLE_OBJECT_GRAPH": dangling})
    with pytest.raises(tf.errors.DataLossError, match="refers to a node it does not have"):
        tf.train.Checkpoint(model=_module()).restore(str(tmp_path / "d"))


def test_name_based_checkpoints_are_refused(tmp_path):
    tensor_bundle.write_bundle(str(tmp_path / "v1"), {"dense/kernel": np.zeros((2, 2), np.float32)})
    assert tf.train.list_variables(str(tmp_path / "v1")) == [("dense/kernel", [2, 2])]
    with pytest.raises(tf.errors.UnimplementedError, match="name-based"):
        tf.train.Checkpoint(model=_module()).restore(str(tmp_path / "v1"))
