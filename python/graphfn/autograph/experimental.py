"""graphfn.autograph.experimental: do_not_convert, set_loop_options, Feature."""

from graphfn.autograph.impl.api import do_not_convert  # noqa: F401
from graphfn.autograph.impl.conversion import Feature  # noqa: F401


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options for the enclosing loop. Must be the first statement of the loop body; the converter
    moves them into the loop call, so calling it directly does nothing."""
