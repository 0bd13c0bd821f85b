"""pytest plugin for running Keras's own tests (tests/keras_suite/run.py loads it with -p).

With GRAPHFN_KERAS_SUITE=graphfn it makes graphfn the TensorFlow that Keras imports, before any
test module (and so Keras) is imported; with GRAPHFN_KERAS_SUITE=tensorflow it leaves the real
TensorFlow alone, for the comparison run. Keras runs with its TensorFlow backend in both."""

import os

os.environ["KERAS_BACKEND"] = "tensorflow"
if os.environ.get("GRAPHFN_KERAS_SUITE", "graphfn") == "graphfn":
    import graphfn

    graphfn.install_as_tensorflow()

import sys

import pytest

# Keras's repository has a top-level conftest.py that the wheel does not ship; a few test files
# import `skip_if_backend` from it, and its hooks register two markers and skip the tests that
# need several devices. This plugin stands in for it (the backend is always "tensorflow").


def skip_if_backend(given_backend, reason):
    return pytest.mark.skipif(given_backend == "tensorflow", reason=reason)


sys.modules.setdefault("conftest", sys.modules[__name__])


def pytest_configure(config):
    config.addinivalue_line("markers", "requires_trainable_backend: mark test for trainable backend only")
    config.addinivalue_line("markers", "multi_device: mark test for running with multiple devices only")


def pytest_collection_modifyitems(config, items):
    one_device = pytest.mark.skip(reason="Requires multiple devices")
    for item in items:
        if "multi_device" in item.keywords:
            item.add_marker(one_device)
