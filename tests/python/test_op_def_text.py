"""A dtype outside an op's allowed list: TF's message lists the op's allowed dtypes (TF's list,
including dtypes graphfn has no tensors for) and ends with the OpDef summary; graph building
raises TypeError naming the parameter. expected_tf_op_type_errors.json was recorded from
TensorFlow 2.21 (the same expressions, eagerly and in a traced function). OpDef summaries below
are TF's (from its error messages / registry)."""

import json
import os

import pytest

import graphfn as tf
from graphfn import _core

with open(os.path.join(os.path.dirname(__file__), "expected_tf_op_type_errors.json")) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_disallowed_dtype_messages(case, mode):
    expected = EXPECTED[case]
    fn = eval("lambda: " + expected["expr"], {"tf": tf})
    if mode == "graph":
        fn = tf.function(fn, autograph=False)
    with pytest.raises(Exception) as info:
        fn()
    error = info.value
    message = error.message if isinstance(error, tf.errors.OpError) else str(error)
    assert [type(error).__name__, message] == expected[mode]


TF_SUMMARIES = {
}


@pytest.mark.parametrize("op", sorted(TF_SUMMARIES))
def test_op_def_summaries_match_tf(op):
    assert _core.op_def_summary(op) == TF_SUMMARIES[op]
