"""tf.data sources, file datasets, cache and Options against TF 2.21: each case of
data_sources_cases.py (repr, cardinality and elements of a dataset, or its error type and message)
as TensorFlow 2.21 printed it (data_sources_goldens.json, recorded by
tools/record_data_sources.py). The input files are written into tmp_path by the same code that
wrote TF's."""

import json
import os

import pytest

import data_sources_cases as cases
import graphfn as tf

with open(os.path.join(os.path.dirname(__file__), "data_sources_goldens.json")) as _f:
    RECORDED = json.load(_f)

@pytest.fixture(scope="module")
def names(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("data_sources"))
    cases.write_files(root, tf)
    return cases.namespace(tf, root)


def test_every_case_was_recorded():
    assert [case for case, _ in RECORDED] == cases.CASES


@pytest.mark.parametrize("case, expected", RECORDED, ids=[str(i) for i in range(len(RECORDED))])
def test_outcome_matches_tensorflow(names, case, expected):
    assert cases.outcome(tf, case, names) == expected
