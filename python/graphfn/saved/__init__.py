"""Saving traced functions, variables and modules to graphfn's own on-disk format, and loading
them back without the Python code that defined them (graphfn.saved_model.save / load).
docs/saving.md describes the format; cpp/graphfn/serialize/ reads and writes it."""
