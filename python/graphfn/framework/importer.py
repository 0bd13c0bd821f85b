"""tf.graph_util.import_graph_def: copies the graph a GraphDef describes into the default graph.

graphfn's GraphDef (Graph.as_graph_def()) keeps the graph it was made from, so importing copies
that graph's nodes (graphfn reads no serialized GraphDef protos). The copies are named
"<name>/<node name>" ("import/..." by default, made unique like a name scope); placeholders are
copied too, and `input_map` makes their readers read other tensors instead, as in TF."""

from graphfn.framework import graph as graph_lib
from graphfn.util.tf_export import tf_export


@tf_export("graph_util.import_graph_def")
def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports `graph_def`'s nodes into the default graph; returns the tensors and operations
    `return_elements` names (None without it)."""
    if not isinstance(graph_def, graph_lib.GraphDef) or graph_def._graph is None:
        raise TypeError("Argument `graph_def` must be a GraphDef proto.")
    source = graph_def._graph
    input_map = dict(input_map or {})
    placeholders = source.argument_tensors()
    placeholder_names = {t.name for t in placeholders}
    unknown = sorted(key for key in input_map if not _names_a_tensor(source, key))
    if unknown:
        raise ValueError("Attempted to map inputs that were not found in graph_def: [%s]" % ", ".join(unknown))
    for key in input_map:
        if _tensor_name(key) not in placeholder_names:
            raise ValueError("graphfn's import_graph_def can map placeholders only; %r is not one" % key)
    for element in return_elements or ():
        _check_return_element(source, element)

    target = graph_lib.get_default_graph()
    with target.as_default():
        prefix = "" if name == "" else target.unique_name(target._name_scope + (name or "import")) + "/"
        for t in placeholders:
            mapped = input_map.get(t.name, input_map.get(t.op.name))
            if mapped is not None and mapped.dtype != t.dtype:
                _raise_dtype_mismatch(source, t, mapped, prefix)
        inputs, outer_scope = [], target._name_scope
        target._name_scope = prefix  # placeholder copies are named as the other nodes
        try:
            for t in placeholders:
                copy = graph_lib.placeholder(t.dtype, t.shape, t.op.name)
                mapped = input_map.get(t.name, input_map.get(t.op.name))
                inputs.append(copy if mapped is None else mapped)
        finally:
            target._name_scope = outer_scope
        target._import_graph(source, inputs, prefix)
        if return_elements is None:
            return None
        return [target.as_graph_element(prefix + element) for element in return_elements]


# TF's DataTypeString where it differs from the dtype's Python name.
_TF_TYPE_STRING = {"float32": "float", "float64": "double", "float16": "half"}


def _raise_dtype_mismatch(source, placeholder, mapped, prefix):
    """TF's error: names the first node reading the placeholder and the input it feeds."""
    for i, node_name in enumerate(source.node_names()):
        for k, input_name in enumerate(source.node_inputs(i)):
            if _tensor_name(input_name) == placeholder.name:
                raise ValueError("Input %d of node %s was passed %s from %s incompatible with expected %s."
                                 % (k, prefix + node_name, mapped.dtype.name, mapped.name,
                                    _TF_TYPE_STRING.get(placeholder.dtype.name, placeholder.dtype.name)))


def _tensor_name(key):
    return key if ":" in key else key + ":0"


def _names_a_tensor(graph, key):
    try:
        graph.get_tensor_by_name(_tensor_name(key))
        return True
    except (KeyError, ValueError):
        return False


def _check_return_element(graph, element):
    if not isinstance(element, str):
        raise TypeError("return_elements must be strings, got %s" % type(element).__name__)
    try:
        graph.as_graph_element(element)
    except (KeyError, ValueError):
        if ":" in element:
            raise ValueError("Requested return tensor %r not found in graph def" % element) from None
        raise ValueError("Requested return node %r not found in graph def" % element) from None

