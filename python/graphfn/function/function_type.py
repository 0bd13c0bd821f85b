"""FunctionType: a traced signature, each parameter constrained to a trace type, printed as TF
prints it: "(x: TensorSpec(shape=(), dtype=tf.int32, name=None), n: Literal[2]) -> ..."."""

from graphfn.function import trace_type
from graphfn.util import nest

class Parameter:
    __slots__ = ("name", "kind", "type")

    def __init__(self, name, kind, type_):
        self.name = name
        self.kind = kind
        self.type = type_

    @property
    def kind_name(self):
        return self.kind.name  # an inspect.Parameter kind: "POSITIONAL_OR_KEYWORD", ...


class FunctionType:
    def __init__(self, parameters, output_type=None):
        self.parameters = list(parameters)
        self.output_type = output_type

    def __repr__(self):
        params, star = [], False
        for p in self.parameters:
            star = star or p.kind.name == "VAR_POSITIONAL"
            if p.kind.name == "KEYWORD_ONLY" and not star:
                params.append("*")  # as inspect.Signature (and TF) mark keyword-only parameters
                star = True
            params.append("%s: %r" % (p.name, p.type))
        return "(%s) -> %s" % (", ".join(params), _output_text(self.output_type))


def _output_text(output_type):
    return "None" if output_type is None else repr(output_type)


def output_type_of(structure, spec_of):
    """TF's description of a function's outputs: a TensorSpec, or the structure's trace type."""
    if structure is None:
        return None
    if isinstance(structure, (list, tuple, dict)):
        return trace_type.trace_type(nest.map_structure(lambda v: spec_of(v) if v is not None else None, structure))
    return spec_of(structure)
