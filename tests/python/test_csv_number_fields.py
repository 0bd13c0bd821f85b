"""Number fields of CSV records, as TF 2.21's DecodeCSV and CsvDataset read them (one parser,
kernels/csv_fields.h): hexadecimal floats, nan, inf, out-of-range floats, spaces; integers in
base 10 only. Expected values recorded from TF 2.21."""

import math

import numpy as np
import pytest

import graphfn as tf


@pytest.mark.parametrize("field, want", [("0x1p3", 8.0), ("0x10", 16.0), (" 2.5 ", 2.5), ("1e3", 1000.0),
                                         ("-inf", -math.inf), ("1e400", math.inf)])
def test_decode_csv_floats(field, want):
    assert tf.io.decode_csv([field], [[0.0]])[0].numpy()[0] == np.float32(want)


def test_decode_csv_nan():
    assert np.isnan(tf.io.decode_csv(["nan"], [[0.0]])[0].numpy()[0])


def test_decode_csv_integers_are_base_ten():
    assert tf.io.decode_csv([" 7 "], [[0]])[0].numpy().tolist() == [7]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field 0 in record 0 is not a valid int32: 0x10"):
        tf.io.decode_csv(["0x10"], [[0]])


def test_csv_dataset_hexadecimal_floats(tmp_path):
    path = tmp_path / "hex.csv"
    path.write_text("0x1p3\n0x10\n")
    for dtype in (tf.float32, tf.float64):
        values = [float(row[0]) for row in tf.data.experimental.CsvDataset(str(path), [dtype])]
        assert values == [8.0, 16.0]
