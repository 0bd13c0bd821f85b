"""graphfn.float32 and friends: DType objects named and numbered like TensorFlow's."""

import builtins
import sys

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
            if self._np == "object":
                self._np = object
            elif self._np == "bfloat16":  # NumPy has none: ml_dtypes' (as TF and JAX use)
                import ml_dtypes
                self._np = ml_dtypes.bfloat16
            else:
                self._np = getattr(numpy(), self._np)
        return self._np

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        """float32 for complex64, float64 for complex128; other dtypes are their own."""
        return {"complex64": float32, "complex128": float64}.get(self._name, self)

    @property
    def is_floating(self):
        return self._name in ("float16", "bfloat16", "float32", "float64")

    @property
    def is_complex(self):
        return self._name in ("complex64", "complex128")

    @property
    def is_integer(self):
        return self._name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")

    @property
    def is_unsigned(self):
        return self._name in ("uint8", "uint16", "uint32", "uint64")

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def is_numeric(self):
        return self.is_floating or self.is_integer or self.is_complex

    @property
    def is_quantized(self):
        return False

    @property
    def is_numpy_compatible(self):
        return self._name != "resource"

    @property
    def size(self):
        if self._name == "resource":
            return 1
        return 0 if self._name == "string" else numpy().dtype(self.as_numpy_dtype).itemsize

    def _limits(self, which):
        if self.is_complex or not (self.is_floating or self.is_integer or self.is_bool):
            raise TypeError("Cannot find %s value of %s with type %s." % (which, self, self))
        np = numpy()
        if self.is_bool:
            return builtins.bool(which == "maximum")
        if self._name == "bfloat16":
            import ml_dtypes
            info = ml_dtypes.finfo(self.as_numpy_dtype)
        else:
            info = np.finfo(self.as_numpy_dtype) if self.is_floating else np.iinfo(self.as_numpy_dtype)
        return info.max if which == "maximum" else info.min

    @property
    def min(self):
        return self._limits("minimum")

    @property
    def max(self):
        return self._limits("maximum")

    @property
    def limits(self):
        """(min, max) of an integer or bool dtype, as TF's (ValueError for others)."""
        if not (self.is_integer or self.is_bool):
            raise ValueError(builtins.str(self) + " does not have defined limits.")
        return self.min, self.max

    def is_compatible_with(self, other):
        return self == as_dtype(other)

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
complex64 = DType(8, "complex64", "complex64")
bfloat16 = DType(14, "bfloat16", "bfloat16")
uint16 = DType(17, "uint16", "uint16")
complex128 = DType(18, "complex128", "complex128")
float16 = DType(19, "float16", "float16")
resource = DType(20, "resource", "object")
uint32 = DType(22, "uint32", "uint32")
uint64 = DType(23, "uint64", "uint64")
double = float64
float = float32  # noqa: A001 (TF's alias)
half = float16

_ALL = (float32, float64, int32, uint8, int16, int8, string, complex64, int64, bool, bfloat16, uint16,
        complex128, float16, resource, uint32, uint64)
_BY_ENUM = {d.as_datatype_enum: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update({"float": float32, "double": float64, "half": float16})
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
    elif type_value is builtins.complex:
        pass  # TF has no dtype for Python's complex type
    elif type_value in _PY_TYPES:
        return _PY_TYPES[type_value]
    else:
        np = numpy()
        if not _BY_NP:
            _BY_NP.update({np.dtype(d.as_numpy_dtype): d for d in _ALL if d not in (string, resource, bfloat16)})
            if "ml_dtypes" in sys.modules:  # a bfloat16 array means ml_dtypes was imported
                _BY_NP[np.dtype(bfloat16.as_numpy_dtype)] = bfloat16
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            if np_dtype in _BY_NP:
                return _BY_NP[np_dtype]
            if np_dtype.kind in "OSU":
                return string
    if getattr(type_value, "__name__", None) == "bfloat16" or builtins.str(getattr(type_value, "name", "")) == "bfloat16":
        return bfloat16  # ml_dtypes.bfloat16, or its NumPy dtype, met before _BY_NP knew it
    raise TypeError("Cannot convert the argument `type_value`: %r to a TensorFlow DType." % (type_value,))


def from_enum(enum):
    return _BY_ENUM[enum]
