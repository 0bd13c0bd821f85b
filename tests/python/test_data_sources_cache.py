"""Dataset.cache in memory and in files, with TF 2.21's semantics (recorded from TF): the second
iteration replays the cache instead of running the input; an iteration stopped part way caches
nothing; a cache file is read by any dataset with that filename (even of other elements: TF
replays the file), with TF's error for another dtype; a second writer meets TF's lock-file error;
a missing folder is TF's NotFoundError from the iterator."""

import os

import pytest

import graphfn as tf


def counting(calls, n=4):
    def gen():
        for i in range(n):
            calls.append(i)
            yield i
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))


def ints(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


@pytest.mark.parametrize("in_file", [False, True])
def test_second_iteration_reads_the_cache_and_a_partial_one_is_not_kept(tmp_path, in_file):
    calls = []
    ds = counting(calls).cache(str(tmp_path / "c") if in_file else "")
    it = iter(ds)
    next(it), next(it)
    del it
    calls.clear()
    assert ints(ds) == [0, 1, 2, 3] and calls == [0, 1, 2, 3]  # TF: the partial cache is not reused
    calls.clear()
    assert ints(ds) == [0, 1, 2, 3] and calls == []
    if in_file:
        # TF 2.21 leaves these two files (graphfn's contents are its own format).
        assert sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]


def test_cache_then_repeat_reads_the_input_once():
    calls = []
    assert ints(counting(calls, 3).cache().repeat(3)) == [0, 1, 2] * 3  # TF 2.21: calls [0, 1, 2]
    assert calls == [0, 1, 2]


def test_a_cache_file_serves_every_dataset_naming_it(tmp_path):
    path = str(tmp_path / "shared")
    calls = []
    assert ints(counting(calls).cache(path)) == [0, 1, 2, 3]
    calls.clear()
    assert ints(counting(calls).cache(path)) == [0, 1, 2, 3] and calls == []
    assert ints(tf.data.Dataset.range(3).cache(path)) == [0, 1, 2, 3]  # TF replays the file's 4 elements
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\}\} Data type mismatch at component 0: expected int32 but got int64\. \[Op:Iter"):
        list(tf.data.Dataset.range(3, output_type=tf.int32).cache(path))


def test_cached_structures_and_strings_round_trip(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(({"a": [[1.5, 2.0], [3.0, -1.0]], "b": ["x", "\xe9\x00y"]},
                                             [True, False]))
    cached = ds.cache(str(tmp_path / "s"))
    first = list(cached.as_numpy_iterator())
    second = list(cached.as_numpy_iterator())
    for got in (first, second):
        assert [(e[0]["a"].tolist(), e[0]["b"], bool(e[1])) for e in got] == [
            ([1.5, 2.0], "x".encode(), True), ([3.0, -1.0], "\xe9\x00y".encode(), False)]
    assert cached.element_spec == ds.element_spec


def test_a_second_writer_meets_the_lock_file(tmp_path):
    path = str(tmp_path / "two")
    ds = tf.data.Dataset.range(3).cache(path)
    first, second = iter(ds), iter(ds)
    assert int(next(first)) == 0
    with pytest.raises(tf.errors.AlreadyExistsError, match=r"There appears to be a concurrent caching iterator "
                       r"running - cache lockfile already exists \('.*two_0\.lockfile'\)\. If you are sure no other "
                       r"running TF computations are using this cache prefix, delete the lockfile and re-initialize "
                       r"the iterator\. Lockfile contents: Created at: \d+"):
        next(second)
    assert [int(v) for v in first] == [1, 2]
    assert ints(ds) == [0, 1, 2]


def test_a_missing_folder_fails_in_the_iterator(tmp_path):
    ds = tf.data.Dataset.range(3).cache(str(tmp_path / "nodir" / "x"))  # TF: no error here
    with pytest.raises(tf.errors.NotFoundError, match=r"nodir/x_0\.lockfile; No such file or directory"):
        list(ds)


def test_a_damaged_cache_file_is_data_loss_not_a_crash(tmp_path):
    path = str(tmp_path / "d")
    ints(tf.data.Dataset.range(5).cache(path))
    data = tmp_path / "d.data-00000-of-00001"
    raw = bytearray(data.read_bytes())
    raw[20] ^= 0xFF
    data.write_bytes(bytes(raw))
    with pytest.raises(tf.errors.DataLossError):
        list(tf.data.Dataset.range(5).cache(path))


def test_cardinality_passes_through():
    assert int(tf.data.Dataset.range(4).cache().cardinality()) == 4
    assert int(tf.data.Dataset.range(4).repeat().cache().cardinality()) == -1
