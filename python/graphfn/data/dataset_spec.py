"""tf.data.DatasetSpec: the type of a dataset (its element_spec), and how a dataset passed to a
graphfn.function is traced: by this spec, as TF does, so that datasets with equal element specs
share one concrete function. A DatasetSpec is a TypeSpec (framework/type_spec.py, graphfn's one
composite-tensor mechanism) with one component: the dataset's resource tensor
(`DatasetV2._variant_tensor`), which the traced graph receives as a scalar resource placeholder
named after the parameter and each call feeds."""

from graphfn.data import structure
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.framework.type_spec import TypeSpec
from graphfn.util.tf_export import tf_export


def _leaf_is_subtype(a, b):
    if hasattr(a, "is_subtype_of"):
        return a.is_subtype_of(b)
    return a == b


def _leaf_supertype(a, b):
    if hasattr(a, "most_specific_common_supertype"):
        return a.most_specific_common_supertype(b)
    return a if a == b else None


@tf_export("data.DatasetSpec")
class DatasetSpec(TypeSpec):
    """The type of a dataset: its element_spec (and TF's dataset shape, a scalar)."""

    # Set by dataset_ops (which imports this module): tf.data.Dataset, and the dataset class a
    # traced function receives for a dataset parameter.
    _value_type = None
    _argument_type = None

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def value_type(self):
        return DatasetSpec._value_type

    @property
    def _shape(self):
        return self._dataset_shape

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    # Components: the dataset's resource tensor -------------------------------------------------

    @property
    def _component_specs(self):
        return TensorSpec((), dtypes.resource)

    def _to_components(self, value):
        return value._variant_tensor

    def _from_components(self, components):
        """The dataset a traced function receives: its resource tensor is a graph input."""
        return DatasetSpec._argument_type(components, self._element_spec)

    def _serialize(self):
        return (self._element_spec, self._dataset_shape)

    # Types -------------------------------------------------------------------------------------

    def _same_layout(self, other):
        return (isinstance(other, DatasetSpec) and structure.same_structure(self._element_spec, other._element_spec)
                and self._dataset_shape == other._dataset_shape)

    def is_subtype_of(self, other):
        return self._same_layout(other) and all(
            _leaf_is_subtype(a, b) for a, b in zip(structure.flatten(self._element_spec),
                                                   structure.flatten(other._element_spec)))

    def most_specific_common_supertype(self, others):
        result = self
        for other in others:
            if not result._same_layout(other):
                return None
            leaves = [_leaf_supertype(a, b) for a, b in zip(structure.flatten(result._element_spec),
                                                            structure.flatten(other._element_spec))]
            if any(leaf is None for leaf in leaves):
                return None
            result = DatasetSpec(structure.pack(result._element_spec, leaves), result._dataset_shape)
        return result

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value if isinstance(spec_or_value, DatasetSpec) else getattr(spec_or_value, "_type_spec", None)
        if not (isinstance(other, DatasetSpec) and self._same_layout(other)):
            return False
        return all(a.is_compatible_with(b) for a, b in zip(structure.flatten(self._element_spec),
                                                           structure.flatten(other._element_spec)))

    # Tracing ------------------------------------------------------------------------------------

    def _cast_argument(self, value):
        """A call's argument for a parameter of this spec (input_signature): a dataset whose
        elements fit. As TF: a value that is no dataset has no `_variant_tensor`; a dataset of
        other elements is TF's run-time InvalidArgumentError."""
        if isinstance(value, DatasetSpec):
            return value  # get_concrete_function(spec)
        variant = getattr(type(value), "_variant_tensor", None)
        if variant is None:
            name = type(value).__name__
            if name == "EagerTensor":
                name = "tensorflow.python.framework.ops.EagerTensor"  # how TF's C type names itself
            raise AttributeError("'%s' object has no attribute '_variant_tensor'" % name)
        mine, theirs = structure.flatten(self._element_spec), structure.flatten(value.element_spec)
        for a, b in zip(mine, theirs):
            if a.dtype != b.dtype:
                raise errors.InvalidArgumentError(None, None, "Type mismatch: actual %s vs. expect %s"
                                                  % (b.dtype.name, a.dtype.name))
        if len(mine) != len(theirs):
            raise errors.InvalidArgumentError(None, None, "Number of components does not match: expected %d "
                                              "types but got %d." % (len(mine), len(theirs)))
        for i, (a, b) in enumerate(zip(mine, theirs)):
            if not a.shape.is_compatible_with(b.shape):
                raise errors.InvalidArgumentError(None, None, "Incompatible shapes at component %d: expected %s "
                                                  "but got %s." % (i, _dims(a.shape), _dims(b.shape)))
        return value

    # Values ------------------------------------------------------------------------------------

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self._dataset_shape == other._dataset_shape
                and structure.same_structure(self._element_spec, other._element_spec)
                and structure.flatten(self._element_spec) == structure.flatten(other._element_spec))

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((tuple(structure.flatten(self._element_spec)), tuple(self._dataset_shape.as_list() or ())))

    def __repr__(self):
        return "DatasetSpec(%r, %r)" % (self._element_spec, self._dataset_shape)


def _dims(shape):
    return "<unknown>" if shape.rank is None else "[%s]" % ",".join("?" if d is None else str(d)
                                                                     for d in shape.as_list())
