"""Dataset.save / Dataset.load (and tf.data.experimental's): the elements, element_spec and
cardinality come back as TF 2.21 gives them (recorded from TF); saving again replaces; a folder
without a saved dataset is TF's NotFoundError. graphfn's files are its own format."""

import pytest

import graphfn as tf

D = tf.data.Dataset


def test_save_then_load_gives_the_elements_spec_and_cardinality(tmp_path):
    ds = D.from_tensor_slices(({"a": [1, 2, 3]}, ["x", "y", "z"])).batch(2)
    assert ds.save(str(tmp_path / "p")) is None
    loaded = D.load(str(tmp_path / "p"))
    # TF 2.21:
    assert repr(loaded) == ("<_LoadDataset element_spec=({'a': TensorSpec(shape=(None,), dtype=tf.int32, name=None)}, "
                            "TensorSpec(shape=(None,), dtype=tf.string, name=None))>")
    assert int(loaded.cardinality()) == 2
    got = [({k: v.tolist() for k, v in f.items()}, s.tolist()) for f, s in loaded.as_numpy_iterator()]
    assert got == [({"a": [1, 2]}, [b"x", b"y"]), ({"a": [3]}, [b"z"])]
    assert D.load(str(tmp_path / "p"), element_spec=ds.element_spec).element_spec == ds.element_spec


def test_saving_again_replaces_and_filtered_counts_are_known(tmp_path):
    path = str(tmp_path / "p")
    D.range(10).save(path)
    D.range(3).save(path)
    assert [int(v) for v in D.load(path)] == [0, 1, 2]  # TF 2.21
    D.range(5).filter(lambda x: x > 2).save(str(tmp_path / "f"))
    assert int(D.load(str(tmp_path / "f")).cardinality()) == 2  # TF 2.21: 2
    tf.data.experimental.save(D.range(2), str(tmp_path / "e"))
    assert [int(v) for v in tf.data.experimental.load(str(tmp_path / "e"))] == [0, 1]


def test_loading_a_folder_without_a_saved_dataset(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match=r"^tf\.data snapshot element_spec file not found: .*/missing/"):
        D.load(str(tmp_path / "missing"))
