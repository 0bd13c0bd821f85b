"""graphfn.saved_model.save: gathers an object's variables, traced functions and signatures and
writes them in graphfn's format (docs/saving.md) through the C++ writer.

What is saved, as TensorFlow saves it: every variable reachable through the object's
attributes, every concrete function traced so far by each reachable tf.function (tracing one
first when it has an input_signature), and the signatures; Python values the object holds are
not saved."""

import inspect
import json
import os

from graphfn import _core
from graphfn.framework.tensor import Tensor
from graphfn.function.concrete_function import ConcreteFunction, _spec_or_value
from graphfn.function.polymorphic_function import Function
from graphfn.module.module import Module
from graphfn.saved import structure
from graphfn.trackable.base import Trackable
from graphfn.util import nest
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable

DEFAULT_SIGNATURE_KEY = tf_export("saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY")("serving_default")
FORMAT = "graphfn.saved_model"


@tf_export("saved_model.save")
def save(obj, export_dir, signatures=None, options=None):
    """Saves `obj` (a Module, a tf.function or a concrete function) to `export_dir`."""
    if not isinstance(obj, (Function, ConcreteFunction)) and not _is_module(obj) and _variable_behind(obj) is None:
        raise ValueError("Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
                         "`Trackable` class, for export. Got %r with type %s." % (obj, type(obj)))
    saver = _Saver()
    saver.node(obj)
    signature_entries = [saver.signature(key, fn) for key, fn in _signature_map(obj, signatures).items()]
    functions = saver.finish()
    object_graph = json.dumps({"format": FORMAT, "nodes": saver.nodes})
    _core.write_saved_graph(os.fspath(export_dir), object_graph, saver.variables, functions, signature_entries)


def _variable_behind(value):
    """The graphfn Variable `value` saves as: itself, or for a Keras 3 variable the tf.Variable it
    wraps (its `value`; in TF too a Keras variable writes itself as that variable), else None."""
    if isinstance(value, Variable):
        return value
    if isinstance(value, Trackable) and isinstance(inspect.getattr_static(type(value), "value", None), property):
        inner = value.value
        return inner if isinstance(inner, Variable) else None
    return None


def _is_module(value):
    """A tf.Module or a Trackable (an AutoTrackable, a Keras 3 layer or model): objects whose
    children are walked."""
    if isinstance(value, Module):
        return True
    return isinstance(value, Trackable) and _variable_behind(value) is None


def _trackable(value):
    """True for what a module's attribute can save: variables, modules, functions, or lists,
    tuples and dicts holding any."""
    if _variable_behind(value) is not None or _is_module(value) or isinstance(value, (Function, ConcreteFunction)):
        return True
    if isinstance(value, (list, tuple, dict)):
        return any(_trackable(v) for v in (value.values() if isinstance(value, dict) else value))
    return False


def _module_children(module):
    """(name, value) of a module's saveable children. A Trackable names them itself
    (`_trackable_children("savedmodel")`), plus the functions assigned to its attributes; a
    tf.Module: its instance attributes. Then the tf.function methods of its class (bound to the
    instance)."""
    if isinstance(module, Trackable) and not isinstance(module, Module):
        named = dict(module._trackable_children("savedmodel"))
        for k, v in vars(module).items():
            if k not in named and isinstance(v, (Function, ConcreteFunction)):
                named[k] = v
        children = [(k, v) for k, v in named.items() if _trackable(v)]
    else:
        children = [(k, v) for k, v in sorted(vars(module).items())
                    if k not in getattr(module, "_TF_MODULE_IGNORED_PROPERTIES", ()) and _trackable(v)]
    names = {k for k, _ in children}
    for name in sorted(dir(type(module))):
        if name not in vars(module) and name not in names and \
                isinstance(inspect.getattr_static(type(module), name, None), Function):
            children.append((name, getattr(module, name)))
    return children


class _Saver:
    """The object graph as a list of JSON nodes (shared objects once, by index), and the
    variables and concrete functions the nodes refer to."""

    def __init__(self):
        self.nodes = []
        self.variables = []      # (name, trainable, handle) for the C++ writer
        self._concretes = []     # ConcreteFunctions, in function-index order
        self._memo = {}          # id(object) -> node index
        self._variable_index = {}  # resource id -> variable index
        self._keep = []          # objects whose ids are in _memo stay alive meanwhile

    def node(self, value):
        key = id(value)
        if key in self._memo:
            return self._memo[key]
        index = len(self.nodes)
        self._memo[key] = index
        self._keep.append(value)
        self.nodes.append(None)
        self.nodes[index] = self._describe(value)
        return index

    def _describe(self, value):
        variable = _variable_behind(value)
        if variable is not None:
            return {"type": "variable", "variable": self._variable(variable)}
        if isinstance(value, Function):
            return {"type": "function", "name": value._name,
                    "params": structure.encode_parameters(value.function_spec),
                    "input_signature": None if value.input_signature is None
                    else structure.encode(list(value.input_signature)),
                    "concrete": [self.function(cf) for cf in value._list_all_concrete_functions()]}
        if isinstance(value, ConcreteFunction):
            return {"type": "concrete", "function": self.function(value)}
        if _is_module(value):
            return {"type": "module", "class": type(value).__name__,
                    "children": {name: self.node(child) for name, child in _module_children(value)}}
        if isinstance(value, dict):
            return {"type": "dict", "items": [[str(k), self._item(v)] for k, v in value.items()]}
        return {"type": type(value).__name__, "items": [self._item(v) for v in value]}  # list, tuple

    def _item(self, value):
        return self.node(value) if _trackable(value) else None

    def _variable(self, variable):
        resource = _core.resource_id(variable.handle)
        if resource not in self._variable_index:
            self._variable_index[resource] = len(self.variables)
            self.variables.append((variable.name, variable.trainable, variable.handle))
        return self._variable_index[resource]

    def function(self, concrete):
        for i, c in enumerate(self._concretes):
            if c is concrete:
                return i
        self._concretes.append(concrete)
        return len(self._concretes) - 1

    def signature(self, key, function):
        concrete = _signature_function(key, function)
        input_names = [t.name.split(":")[0] for t in concrete.inputs]
        for name in input_names:
            if not name.isidentifier():
                raise ValueError("Signature '%s' has an input named %r, which is not a valid Python identifier; "
                                 "name the TensorSpec in the input_signature." % (key, name))
        return key, self.function(concrete), input_names, _output_names(key, concrete)

    def finish(self):
        """(name, graph, signature JSON) of each concrete function, after checking that the
        variables they capture are saved."""
        out = []
        for concrete in self._concretes:
            graph = concrete.graph._graph
            for node_name, resource in graph.captured_resources():
                if resource not in self._variable_index:
                    raise AssertionError(
                        "Tried to export a function which references an 'untracked' resource. TensorFlow objects "
                        "(e.g. tf.Variable) captured by functions must be 'tracked' by assigning them to an "
                        "attribute of a tracked object or assigned to an attribute of the main object directly. "
                        "See the information below:\n\tFunction name = %s\n\tInternal Tensor = %s:0"
                        % (concrete.name, node_name))
            out.append((concrete._python_name, graph, json.dumps(_describe_concrete(concrete))))
        return out


def _describe_concrete(concrete):
    def specs(value):
        if isinstance(value, Variable):
            raise structure.Unsaveable("graphfn cannot save a function that takes a tf.Variable argument (%s)"
                                       % concrete._python_name)
        return _spec_or_value(value)

    args = {}
    for param in concrete.function_type.parameters:
        args[param.name] = structure.encode(nest.map_structure(specs, concrete._arguments[param.name]))
    return {"name": concrete._python_name,
            "params": structure.encode_parameters(concrete._signature),
            "args": args,
            "outputs": structure.encode(nest.map_structure(
                lambda t: _spec_or_value(t) if isinstance(t, Tensor) else t, concrete.structured_outputs))}


def _signature_map(obj, signatures):
    """key -> Function or ConcreteFunction, as TF resolves `signatures`."""
    if signatures is None:
        candidates = [obj] if isinstance(obj, Function) else (
            [v for _, v in _module_children(obj)] if _is_module(obj) else [])
        with_specs = [f for f in candidates if isinstance(f, Function) and f.input_signature is not None]
        return {DEFAULT_SIGNATURE_KEY: with_specs[0]} if len(with_specs) == 1 else {}
    if not isinstance(signatures, dict):
        return {DEFAULT_SIGNATURE_KEY: signatures}
    for key in signatures:
        if not isinstance(key, str):
            raise ValueError("Signature keys must be strings, got %r" % (key,))
    return dict(signatures)


def _signature_function(key, function):
    if isinstance(function, Function) and function.input_signature is not None:
        return function.get_concrete_function()
    if isinstance(function, ConcreteFunction):
        return function
    raise ValueError("Expected a TensorFlow function for which to generate a signature, but got %s. Only "
                     "`tf.functions` with an input signature or concrete functions can be used as a signature."
                     % (function,))


def _output_names(key, concrete):
    """TF's signature output names: output_0, output_1, ... for a tensor or a sequence of them,
    the keys (sorted, as nest flattens them) for a dict of them."""
    outputs = concrete.structured_outputs
    if isinstance(outputs, dict):
        items = sorted(outputs.items())
    elif isinstance(outputs, (list, tuple)):
        items = [("output_%d" % i, v) for i, v in enumerate(outputs)]
    else:
        items = [("output_0", outputs)]
    for name, value in items:
        if not isinstance(value, Tensor) or not isinstance(name, str):
            raise ValueError(
                "Got a non-Tensor value %r for key '%s' in the output of the function %s used to generate the "
                "SavedModel signature '%s'. Outputs for functions used as signatures must be a single Tensor, a "
                "sequence of Tensors, or a dictionary from string to Tensor." % (value, name, concrete.name, key))
    return [name for name, _ in items]
