"""Conversion entry points: converting and caching functions, converted_call, to_code, errors."""
