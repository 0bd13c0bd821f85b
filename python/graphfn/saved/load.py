"""graphfn.saved_model.load: reads a directory written by graphfn.saved_model.save (the C++
reader validates the file and rebuilds the graphs) and rebuilds the Python objects: modules
with their attributes, variables, restored functions and signatures. The code that defined
them is not needed."""

import inspect
import json
import os

from graphfn import _core
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import trace_type as trace_types
from graphfn.function.function_type import FunctionType, Parameter, output_type_of
from graphfn.saved import restored, structure
from graphfn.saved.load_options import LoadOptions
from graphfn.saved.save import FORMAT
from graphfn.util import nest
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable


@tf_export("saved_model.load")
def load(export_dir, tags=None, options=None):
    """Loads what graphfn.saved_model.save wrote to `export_dir`. `options` (a LoadOptions) says
    whether the model may write files (allow_file_output)."""
    export_dir = os.fspath(export_dir)
    # TF reads the options' attributes too, so anything else fails as it does there (AttributeError).
    allow_file_output = bool((LoadOptions() if options is None else options).allow_file_output)
    path = os.path.join(export_dir, _core.SAVED_GRAPH_FILE_NAME)
    if not os.path.isfile(path):
        hint = ""
        if os.path.isfile(os.path.join(export_dir, "saved_model.pb")):
            hint = " (this looks like a TensorFlow SavedModel; graphfn reads only its own format, see docs/saving.md)"
        raise OSError("SavedModel file does not exist at: %s%s" % (path, hint))
    object_graph, variables, functions, signatures = _core.read_saved_graph(export_dir, allow_file_output)
    try:
        return _Loader(object_graph, variables, functions, signatures).root()
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError) as e:
        raise ValueError("%s is not a valid graphfn saved model: %s: %s" % (path, type(e).__name__, e)) from None


class _Loader:
    def __init__(self, object_graph, variables, functions, signatures):
        data = json.loads(object_graph.decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("the object graph is not graphfn's")
        self._nodes = data["nodes"]
        self._variables = [Variable._from_handle(handle, value, name, trainable)
                           for name, trainable, handle, value in variables]
        self._functions = [_concrete_function(name, graph, json.loads(meta.decode("utf-8")))
                           for name, graph, meta in functions]
        self._signatures = restored.SignatureMap(
            {key: _signature_function(functions[index][1], inputs, outputs)
             for key, index, inputs, outputs in signatures})
        self._objects = {}

    def root(self):
        root = self._object(0)
        try:
            root.signatures = self._signatures
        except AttributeError:
            pass  # a restored variable: no signatures
        return root

    def _object(self, index):
        if not isinstance(index, int) or not 0 <= index < len(self._nodes):
            raise IndexError("object %r does not exist" % (index,))
        if index in self._objects:
            return self._objects[index]
        node = self._nodes[index]
        kind = node["type"]
        if kind == "module":
            obj = self._objects[index] = restored.user_object(callable_="__call__" in node["children"])
            for name, child in node["children"].items():
                setattr(obj, name, self._object(child))
            return obj
        if kind == "variable":
            obj = self._variables[node["variable"]]
        elif kind == "concrete":
            obj = self._functions[node["function"]]
        elif kind == "function":
            input_signature = node["input_signature"]
            obj = restored.RestoredFunction(
                node["name"], structure.decode_parameters(node["params"]),
                None if input_signature is None else tuple(structure.decode(input_signature)),
                [self._functions[i] for i in node["concrete"]])
        elif kind in ("list", "tuple"):
            obj = self._objects[index] = []
            obj.extend(None if i is None else self._object(i) for i in node["items"])
            if kind == "tuple":
                obj = tuple(obj)
        elif kind == "dict":
            obj = self._objects[index] = {}
            obj.update((str(k), None if i is None else self._object(i)) for k, i in node["items"])
        else:
            raise ValueError("unknown object type %r" % (kind,))
        self._objects[index] = obj
        return obj


def _concrete_function(name, graph, meta):
    """A saved trace as a concrete function: the placeholders and results of the loaded graph
    take the places of the TensorSpecs in its saved argument and output structures."""
    signature = structure.decode_parameters(meta["params"])
    args = {param: structure.decode(value) for param, value in meta["args"].items()}
    outputs = structure.decode(meta["outputs"])
    placeholders = graph.argument_tensors()
    arguments = _fill(args, placeholders, "arguments")
    structured_outputs = _fill(outputs, graph.result_tensors(), "results")
    parameters = [Parameter(p, signature.parameters[p].kind, trace_types.trace_type(v)) for p, v in args.items()]
    function_type = FunctionType(parameters, output_type_of(
        structured_outputs, lambda t: TensorSpec(t.shape, t.dtype) if t is not None else None))
    return restored.RestoredConcreteFunction(str(meta["name"]), graph, signature, function_type, arguments,
                                             placeholders, graph.result_tensors(), structured_outputs)


def _fill(structure_, tensors, what):
    """`structure_` with its TensorSpec leaves replaced, in order, by `tensors`."""
    leaves = nest.flatten(structure_)
    if sum(isinstance(leaf, TensorSpec) for leaf in leaves) != len(tensors):
        raise ValueError("a saved function's signature does not match its graph's %s" % what)
    it = iter(tensors)
    return nest.pack_sequence_as(structure_, [next(it) if isinstance(leaf, TensorSpec) else leaf for leaf in leaves])


def _signature_function(graph, input_names, output_names):
    """A signature as TF restores it: keyword-only inputs in name order, a dict of outputs."""
    in_order = sorted(range(len(input_names)), key=lambda i: input_names[i])
    out_order = sorted(range(len(output_names)), key=lambda i: output_names[i])
    graph = graph.permuted(in_order, out_order)
    inputs = graph.argument_tensors()
    names = [input_names[i] for i in in_order]
    outputs = dict(zip((output_names[i] for i in out_order), graph.result_tensors()))
    signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY) for n in names])
    parameters = [Parameter(n, inspect.Parameter.KEYWORD_ONLY, TensorSpec(t.shape, t.dtype, n))
                  for n, t in zip(names, inputs)]
    output_type = trace_types.Mapping([(k, TensorSpec(t.shape, t.dtype, k)) for k, t in outputs.items()])
    return restored.RestoredSignature("signature_wrapper", graph, signature, FunctionType(parameters, output_type),
                                      dict(zip(names, inputs)), inputs, graph.result_tensors(), outputs)
