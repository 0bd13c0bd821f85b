"""sample_from_datasets, choose_from_datasets, list_files shuffling, Counter, Options along a
pipeline, and these sources inside a graphfn.function: facts recorded from TF 2.21 (the draw order
itself is graphfn's own: TF draws from Philox, graphfn from a seeded mt19937_64)."""

import numpy as np
import pytest

import graphfn as tf

D = tf.data.Dataset


def values(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_sample_is_deterministic_per_seed_and_keeps_each_input_in_order():
    ds = D.sample_from_datasets([D.range(100), D.range(100, 200)], seed=3)
    first = values(ds)
    assert first == values(ds)  # TF 2.21: True
    assert sorted(first) == list(range(200))
    assert [v for v in first if v < 100] == list(range(100))
    assert first != sorted(first)


def test_sample_follows_the_global_seed():
    tf.random.set_seed(11)
    a = values(D.sample_from_datasets([D.range(10), D.range(10, 20)]))
    tf.random.set_seed(11)
    assert values(D.sample_from_datasets([D.range(10), D.range(10, 20)])) == a  # TF 2.21: True


def test_sample_draws_in_proportion_to_the_weights():
    ones = D.sample_from_datasets([D.from_tensors(0).repeat(), D.from_tensors(1).repeat()], weights=[0.25, 0.75],
                                  seed=3)
    share = np.mean(values(ones.take(4000)))
    assert abs(share - 0.75) < 0.025  # TF 2.21: 0.7505


def test_sample_stop_on_empty_dataset_ends_with_the_first_exhausted_input():
    got = values(D.sample_from_datasets([D.range(5), D.range(100, 200)], seed=3, stop_on_empty_dataset=True))
    assert len(got) < 105 and [v for v in got if v < 5] == list(range(5))  # TF 2.21: True True
    assert [v for v in got if v >= 100] == list(range(100, 100 + len(got) - 5))


def test_list_files_shuffles_per_iteration_with_a_seed(tmp_path):
    for name in "abcdefgh":
        (tmp_path / (name + ".txt")).write_text("x")
    ds = D.list_files(str(tmp_path / "*.txt"), seed=4)
    a, b = ([v.decode()[-5:] for v in ds.as_numpy_iterator()] for _ in range(2))
    assert sorted(a) == sorted(b) == [c + ".txt" for c in "abcdefgh"] and a != b  # TF 2.21: True True
    again = D.list_files(str(tmp_path / "*.txt"), seed=4)
    assert [v.decode()[-5:] for v in again.as_numpy_iterator()] == a  # TF 2.21: True


def test_counter_and_sources_inside_a_function(tmp_path):
    (tmp_path / "n.csv").write_text("1\n2\n3\n")
    path = str(tmp_path / "n.csv")

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for v in tf.data.experimental.Counter(1).take(10):
            s += v
        for v in D.sample_from_datasets([D.range(3), D.range(3)], weights=[0.5, 0.5], seed=1):
            s += v
        for (a,) in tf.data.experimental.CsvDataset(path, [tf.int64]):
            s += a
        for _ in D.list_files(str(tmp_path / "*.csv"), shuffle=False):
            s += 100
        return s

    assert int(total()) == 55 + 6 + 6 + 100  # TF 2.21: Counter(1).take(10) sums to 55


def test_options_carry_along_the_pipeline_and_merge():
    o = tf.data.Options()
    o.deterministic = False
    ds = D.range(3).with_options(o).map(lambda x: x).batch(2)
    assert ds.options().deterministic is False  # TF 2.21: False
    assert D.zip((ds, D.range(3))).options().deterministic is False  # TF 2.21: False
    o2 = tf.data.Options()
    o2.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    merged = ds.with_options(o2).options()
    assert merged.deterministic is False and merged.experimental_distribute.auto_shard_policy == -1  # TF 2.21
    later = tf.data.Options()
    later.deterministic = True
    assert ds.with_options(later).options().deterministic is True  # TF 2.21: the later one wins
    assert ds.options() is not o and o.deterministic is False


def test_deterministic_false_still_gives_every_element():
    o = tf.data.Options()
    o.deterministic = False
    ds = D.range(20).with_options(o).map(lambda x: x * 2, num_parallel_calls=4, deterministic=False)
    assert sorted(values(ds)) == [2 * i for i in range(20)]


@pytest.mark.parametrize("field, value", [("threading.private_threadpool_size", 4),
                                          ("threading.max_intra_op_parallelism", 1),
                                          ("experimental_optimization.map_parallelization", True),
                                          ("experimental_optimization.apply_default_optimizations", False),
                                          ("autotune.enabled", False)])
def test_option_fields_are_kept(field, value):
    o = tf.data.Options()
    group, name = field.split(".")
    setattr(getattr(o, group), name, value)
    got = D.range(3).with_options(o).prefetch(1).options()
    assert getattr(getattr(got, group), name) == value
    assert values(D.range(3).with_options(o)) == [0, 1, 2]
