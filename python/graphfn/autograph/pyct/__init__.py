"""Generic Python AST tools used by the AutoGraph converters (nothing TF-specific here)."""
