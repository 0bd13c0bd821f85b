"""Dataset.from_generator: the one tf.data source that runs Python per element. The C++ node
(data/host_source.cc, bindings/bind_data_sources.cc) asks make_state() for a _GeneratorState
when an iterator needs its first element, then calls its next_flat() per element with the GIL
taken for that call only. Each yielded value is checked against the signature with TF 2.21's
errors (an InvalidArgumentError whose text starts with the TypeError TF's generator wrapper
raises)."""

import atexit

import numpy as np

from graphfn import _core
from graphfn.data import structure
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.ops import array_ops
from graphfn.ops import script_ops


def _signature(output_types, output_shapes, output_signature):
    """The element_spec from output_signature or from the deprecated output_types/output_shapes."""
    if output_signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the `output_signature` argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the `output_signature` "
                            "argument.")
        for spec in structure.flatten(output_signature):
            if not isinstance(spec, TensorSpec):
                raise TypeError("`output_signature` must contain objects that are subclass of `tf.TypeSpec` but found "
                                "%s which is not." % type(spec))
        return output_signature
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the `output_signature` argument "
                        "or the `output_types` argument.")
    types = structure.map_structure(dtypes.as_dtype, output_types)
    if output_shapes is None:
        return structure.map_structure(lambda t: TensorSpec(None, t), types)
    shapes = _shapes_up_to(types, output_shapes)
    return structure.pack(types, [TensorSpec(s, t) for s, t in zip(structure.flatten(shapes),
                                                                    structure.flatten(types))])


def _shapes_up_to(types, shapes):
    """output_shapes read as the structure of output_types (a tuple of ints at a leaf is a shape)."""
    if isinstance(types, tuple):
        if not isinstance(shapes, (tuple, list)):
            raise TypeError("If shallow structure is a sequence, input must also be a sequence. Input has type: %r."
                            % type(shapes).__name__)
        if len(shapes) != len(types):
            raise ValueError("The two structures don't have the same sequence length. Input structure has length %d, "
                             "while shallow structure has length %d." % (len(shapes), len(types)))
        return tuple(_shapes_up_to(t, s) for t, s in zip(types, shapes))
    if isinstance(types, dict):
        return {k: _shapes_up_to(types[k], shapes[k]) for k in types}
    return TensorShape(shapes)


def _flatten_up_to(spec, value):
    """The yielded value's leaves, matched to the signature's structure (None when they differ)."""
    if isinstance(spec, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(spec):
            return None
        parts = [_flatten_up_to(s, v) for s, v in zip(spec, value)]
        return None if any(p is None for p in parts) else [leaf for p in parts for leaf in p]
    if isinstance(spec, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(spec):
            return None
        parts = [_flatten_up_to(spec[k], value[k]) for k in sorted(spec)]
        return None if any(p is None for p in parts) else [leaf for p in parts for leaf in p]
    if structure._expands(spec):
        return _composite_parts(spec, value)
    return [value]


def _composite_parts(spec, value):
    """A composite leaf's flat tensors (a SparseTensor's indices, values and shape), as TF's
    from_generator takes a SparseTensor or RaggedTensor yielded for a SparseTensorSpec or
    RaggedTensorSpec; None when the value is not such a composite."""
    if not isinstance(value, spec.value_type):
        return None
    if not spec.is_compatible_with(value._type_spec):
        raise _Incompatible()
    return spec._to_tensor_list(value)


def _value_spec(value):
    """The spec TF prints for a yielded element: composites' own specs, TensorSpecs of the rest."""
    def leaf_spec(v):
        if isinstance(v, CompositeTensor):
            return v._type_spec
        return structure.spec_of(array_ops.convert_to_tensor(v))
    return structure.map_structure(leaf_spec, value)


# Pipeline threads stop calling generators once the interpreter starts shutting down.
atexit.register(_core.data_generators_shutdown)


class _Rejected(Exception):
    """A yielded value that does not fit the signature: (TF error code, message)."""


class _Incompatible(Exception):
    """A yielded composite (SparseTensor, RaggedTensor) whose spec does not fit the signature's."""


def _shape_text(shape):
    return "(%s)" % ", ".join(str(d) for d in shape) if len(shape) != 1 else "(%s,)" % shape[0]


def _convert(value, spec):
    """One yielded leaf as a tensor of spec's dtype, as TF converts it (through NumPy)."""
    if spec.dtype == dtypes.string:
        array = np.asarray(value)
        if array.dtype.kind not in "SUO":
            raise _Rejected(errors.INTERNAL, "Unsupported object type %s" % type(array.flat[0].item()).__name__
                            if array.size else "Unsupported object type")
    else:
        try:
            array = np.asarray(value, dtype=spec.dtype.as_numpy_dtype)
        except (ValueError, TypeError, OverflowError):
            raise _Rejected(errors.INVALID_ARGUMENT, "TypeError: `generator` yielded an element that could not be converted to the expected "
                            "type. The expected type was %s, but the yielded element was %s."
                            % (spec.dtype.name, value)) from None
    if not spec.shape.is_compatible_with(TensorShape(array.shape)):
        raise _Rejected(errors.INVALID_ARGUMENT, "TypeError: `generator` yielded an element of shape %s where an element of shape %s was "
                        "expected." % (_shape_text(array.shape), _shape_text(spec.shape.as_list())))
    return array_ops.convert_to_tensor(array, dtype=spec.dtype)


def _leaves(signature):
    """The signature's specs, composite specs kept whole."""
    if isinstance(signature, tuple):
        return [leaf for s in signature for leaf in _leaves(s)]
    if isinstance(signature, dict):
        return [leaf for k in sorted(signature) for leaf in _leaves(signature[k])]
    return [signature]


def _error(e):
    """(TF error code, message) for an exception of the generator: TF's py_func codes
    (ValueError/TypeError InvalidArgument, ...), and Unknown for a tf.errors one (TF 2.21 reports
    a NotFoundError raised by the generator as UnknownError "NotFoundError: ...")."""
    code = errors.UNKNOWN if isinstance(e, errors.OpError) else script_ops._error_code(e)
    return code, script_ops._error_text(e)


class _GeneratorState:
    """One iterator's generator (generator(*args) called when the iterator starts)."""

    def __init__(self, iterator, signature):
        self._iterator = iterator
        self._signature = signature
        self._specs = structure.flatten(signature)
        self._has_composites = any(structure._expands(s) for s in _leaves(signature))

    def next_flat(self):
        """(0, [tensors]) for the next element, (0, None) at the end, (code, message) on an error."""
        try:
            value = next(self._iterator)
        except StopIteration:
            return 0, None
        except BaseException as e:  # noqa: BLE001 (every failure of user code becomes the iterator's error)
            return _error(e)
        try:
            try:
                leaves = _flatten_up_to(self._signature, value)
            except _Incompatible:
                raise _Rejected(errors.INVALID_ARGUMENT, "TypeError: `generator` yielded an element of %s where an "
                                "element of %s was expected." % (_value_spec(value), self._signature)) from None
            if leaves is None and self._has_composites:
                raise _Rejected(errors.INVALID_ARGUMENT, "TypeError: `generator` yielded an element that did not match "
                                "the expected structure. The expected structure was %s, but the yielded element was "
                                "%s." % (self._signature, value))
            if leaves is None:
                expected = structure.map_structure(lambda s: s.dtype, self._signature)
                raise _Rejected(errors.INVALID_ARGUMENT, "TypeError: `generator` yielded an element that did not match the expected "
                                "structure. The expected structure was %s, but the yielded element was %s."
                                % (expected, value))
            return 0, [_convert(v, s) for v, s in zip(leaves, self._specs)]
        except _Rejected as e:
            return e.args[0], e.args[1]


def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None):
    """(C++ node, element_spec) of Dataset.from_generator."""
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    signature = _signature(output_types, output_shapes, output_signature)
    # As TF: the arguments reach the generator as NumPy values (strings as bytes).
    call_args = tuple(array_ops.convert_to_tensor(a).numpy() for a in (args or ()))

    def make_state():
        try:
            return 0, _GeneratorState(iter(generator(*call_args)), signature)
        except BaseException as e:  # noqa: BLE001
            return _error(e)

    return _core.data_from_generator(make_state), signature
