"""graphfn.autograph.experimental: do_not_convert, set_loop_options, Feature."""

import enum

from graphfn.autograph.impl.api import do_not_convert  # noqa: F401


class Feature(enum.Enum):
    """Optional conversions (TF's names), for graphfn.function's experimental_autograph_options
    and to_code/to_graph's experimental_optional_features. ASSERT_STATEMENTS (or ALL) turns
    `assert` on a tensor into tf.debugging.Assert; the others are accepted and change nothing."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options for the enclosing loop. Must be the first statement of the loop body; the converter
    moves them into the loop call, so calling it directly does nothing."""
