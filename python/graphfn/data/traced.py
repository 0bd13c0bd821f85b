"""A user function of a map, filter or reduce, traced once with graphfn.function's machinery
into a _core.CompiledFunction that the C++ pipeline calls per element without Python."""

from graphfn.data import structure
from graphfn.function import polymorphic_function


class TracedFunction:
    """fn traced for elements of `input_spec`: .compiled (for _core.data), .output_spec (the
    structure and TensorSpecs of what fn returns)."""

    def __init__(self, fn, input_spec, name, unpack_tuple=True):
        flat_specs = structure.flatten(input_spec)
        returned = []

        def flat_function(tensors):
            element = structure.pack(input_spec, tensors)
            # As TF: a tuple element is passed as separate arguments, anything else as one.
            if unpack_tuple and isinstance(element, tuple) and not hasattr(type(element), "_fields"):
                result = fn(*element)
            else:
                result = fn(element)
            result = structure.to_tensors(result)
            returned.append(result)
            return structure.flatten(result)

        function = polymorphic_function.Function(flat_function, name=name, input_signature=[flat_specs])
        concrete = function.get_concrete_function()
        self.compiled = concrete._function
        outputs = [structure.spec_of(t) for t in concrete.outputs]
        self.output_spec = structure.pack(returned[0], outputs)
