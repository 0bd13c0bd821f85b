"""graphfn.float32 and friends: DType objects named and numbered like TensorFlow's."""

import builtins

from graphfn.util.lazy_numpy import numpy


class DType:
    """An element type. Compares equal to itself only; `as_numpy_dtype` gives NumPy's type."""

    __slots__ = ("_enum", "_name", "_np")

    def __init__(self, enum, name, np_type_name):
        self._enum = enum
        self._name = name
        self._np = np_type_name  # replaced by the NumPy type on first use (NumPy loads lazily)

    @property
    def name(self):
        return self._name

    @property
    def as_datatype_enum(self):
        return self._enum

    @property
    def as_numpy_dtype(self):
        if isinstance(self._np, builtins.str):
            self._np = getattr(numpy(), self._np) if self._np != "object" else object
        return self._np

    @property
    def base_dtype(self):
        return self

    @property
    def is_floating(self):
        return self._name in ("float16", "float32", "float64")

    @property
    def is_integer(self):
        return self._name in ("int8", "int16", "int32", "int64", "uint8")

    @property
    def is_unsigned(self):
        return self._name == "uint8"

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def is_numpy_compatible(self):
        return self._name != "resource"

    @property
    def size(self):
        return 0 if self._name == "string" else numpy().dtype(self.as_numpy_dtype).itemsize

    @property
    def min(self):
        np = numpy()
        return np.finfo(self.as_numpy_dtype).min if self.is_floating else np.iinfo(self.as_numpy_dtype).min

    @property
    def max(self):
        np = numpy()
        return np.finfo(self.as_numpy_dtype).max if self.is_floating else np.iinfo(self.as_numpy_dtype).max

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: %r>" % self._name

    def __hash__(self):
        return self._enum

    def __eq__(self, other):
        if isinstance(other, DType):
            return self._enum == other._enum
        try:
            return self._enum == as_dtype(other)._enum
        except TypeError:
            return False

    def __ne__(self, other):
        return not self == other

    def __reduce__(self):
        return as_dtype, (self._name,)


float32 = DType(1, "float32", "float32")
float64 = DType(2, "float64", "float64")
int32 = DType(3, "int32", "int32")
uint8 = DType(4, "uint8", "uint8")
int16 = DType(5, "int16", "int16")
int8 = DType(6, "int8", "int8")
string = DType(7, "string", "object")
int64 = DType(9, "int64", "int64")
bool = DType(10, "bool", "bool_")  # noqa: A001 (TF's name)
resource = DType(20, "resource", "object")
double = float64
float = float32  # noqa: A001 (TF's alias)

_ALL = (float32, float64, int32, uint8, int16, int8, string, int64, bool, resource)
_BY_ENUM = {d.as_datatype_enum: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update({"float": float32, "double": float64})
_BY_NP = {}  # NumPy dtype -> DType, filled when as_dtype first meets a NumPy dtype


_PY_TYPES = {builtins.bool: bool, builtins.int: int32, builtins.float: float32,
             builtins.str: string, builtins.bytes: string}


def as_dtype(type_value):
    """Converts a DType, name, enum number, NumPy dtype or Python type to a DType."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, builtins.str):
        if type_value in _BY_NAME:
            return _BY_NAME[type_value]
    elif isinstance(type_value, builtins.int) and not isinstance(type_value, builtins.bool):
        if type_value in _BY_ENUM:
            return _BY_ENUM[type_value]
    elif type_value in _PY_TYPES:
        return _PY_TYPES[type_value]
    else:
        np = numpy()
        if not _BY_NP:
            _BY_NP.update({np.dtype(d.as_numpy_dtype): d for d in _ALL if d not in (string, resource)})
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            if np_dtype in _BY_NP:
                return _BY_NP[np_dtype]
            if np_dtype.kind in "OSU":
                return string
    raise TypeError("Cannot convert %r to a dtype. " % (type_value,))


def from_enum(enum):
    return _BY_ENUM[enum]
