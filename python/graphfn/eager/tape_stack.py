"""The GradientTapes recording on each thread, innermost last, and what a variable read tells
them. It sits below variables.py (a variable read notifies the tapes) and below backprop.py
(GradientTape pushes and pops itself here, and needs variables), so that neither imports the
other's layer the wrong way."""

import threading


class _TapeState(threading.local):
    tapes = ()  # the recording GradientTapes of this thread, innermost last


state = _TapeState()


def variable_accessed(variable):
    """Called when a trainable variable is read eagerly: tapes that watch accessed variables
    watch it (TF's watch_accessed_variables)."""
    for tape in state.tapes:
        if tape._watch_accessed_variables:
            tape._watch_variable(variable)
