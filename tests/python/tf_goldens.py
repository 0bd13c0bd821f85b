"""Shared checks for tables of expressions whose repr or error TensorFlow printed."""

import numpy as np
import pytest

import graphfn as tf

NAMESPACE = {"tf": tf, "np": np}


def golden_tests(results, errors, namespace=NAMESPACE):
    """The two parametrized tests for a module's RESULTS and ERRORS tables, evaluated in
    `namespace` (tf and np unless the module names more)."""

    @pytest.mark.parametrize("expr, expected", results)
    def test_result_matches_tensorflow(expr, expected):
        assert repr(eval(expr, namespace)) == expected

    @pytest.mark.parametrize("expr, error, message", errors)
    def test_error_matches_tensorflow(expr, error, message):
        with pytest.raises(error) as info:
            eval(expr, namespace)
        assert message in str(info.value)

    return test_result_matches_tensorflow, test_error_matches_tensorflow
