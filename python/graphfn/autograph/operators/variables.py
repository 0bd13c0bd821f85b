"""Placeholders for variables that converted control flow may leave unset."""


class Undefined:
    """The value of a variable that has not been assigned yet (e.g. created in one branch)."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def __repr__(self):
        return self.symbol_name

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self  # so composite reads like `x.y` of an undefined x stay undefined


class UndefinedReturnValue:
    """The return value of a function that has not executed a `return` yet."""

    __slots__ = ()


def ld(value):
    """A read of a variable: undefined ones raise AutoGraph's UnboundLocalError."""
    if type(value) is Undefined:
        raise UnboundLocalError("'%s' is used before assignment" % value.symbol_name)
    return value


def is_undefined(value):
    return type(value) is Undefined or type(value) is UndefinedReturnValue
