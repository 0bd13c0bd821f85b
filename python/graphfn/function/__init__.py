"""graphfn.function: tracing Python functions into graphs, one concept per module."""
