"""One AST transformer per construct, applied in order by impl/conversion.py."""
