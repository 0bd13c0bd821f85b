"""StringSplitV2/StringSplit (kernels/strings_split.cc) split their rows over the thread pool in
blocks of 2048: one thread and three threads give the same listing, and the tokens are Python's
str.split's (TF's whitespace and separator splits are str.split's for ASCII text)."""

import textwrap

import numpy as np

from thread_count_runs import run_with_threads

_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import graphfn as tf
    rng = np.random.RandomState(5)
    words = ["a", "bb", "ccc", "", " ", "\\t", "dd  ee", "x,y", ",", "long" * 5]
    text = np.array(["".join(rng.choice(words, rng.randint(0, 12))) for _ in range(7001)], dtype=object)
    out = {}
    for name, sep in [("space", None), ("comma", ","), ("two", "  ")]:
        r = tf.strings.split(tf.constant(text), sep=sep)
        out[name + "_values"] = r.flat_values.numpy().astype(str)
        out[name + "_splits"] = r.row_splits.numpy()
        raw = tf.raw_ops.StringSplitV2(input=tf.constant(text), sep=tf.constant(sep or ""))
        out[name + "_indices"] = raw[0].numpy()
        out[name + "_shape"] = raw[2].numpy()
    out["text"] = text.astype(str)
    np.savez(sys.argv[1], **out)
""")


def test_one_thread_and_three_threads_give_the_same_listing(tmp_path):
    one, three = run_with_threads(_SCRIPT, tmp_path, 1), run_with_threads(_SCRIPT, tmp_path, 3)
    assert sorted(one.files) == sorted(three.files)
    for name in one.files:
        np.testing.assert_array_equal(one[name], three[name], err_msg=name)


def test_tokens_are_python_str_split(tmp_path):
    out = run_with_threads(_SCRIPT, tmp_path, 3)
    text = [str(t) for t in out["text"]]
    for name, sep in [("space", None), ("comma", ","), ("two", "  ")]:
        rows = [t.split(sep) for t in text]
        assert out[name + "_values"].tolist() == [w for row in rows for w in row], name
        assert out[name + "_splits"].tolist() == np.cumsum([0] + [len(row) for row in rows]).tolist(), name
        indices = [[r, c] for r, row in enumerate(rows) for c in range(len(row))]
        assert out[name + "_indices"].tolist() == indices, name
        assert out[name + "_shape"].tolist() == [len(rows), max(len(row) for row in rows)], name
