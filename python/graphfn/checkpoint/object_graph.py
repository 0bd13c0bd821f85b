"""The graph of named dependencies a checkpoint saves, as TensorFlow builds it.

Nodes are numbered breadth-first from the root, children in their declared order; each object
is one node however many paths reach it, and its checkpoint keys come from the first path found
(`model/layer/kernel/.ATTRIBUTES/VARIABLE_VALUE`, local names escaped: "." -> "..", "/" -> ".S").

What the children of an object are:
- a graphfn `Variable`: none; it saves `VARIABLE_VALUE`.
- a `Trackable` (Keras 3's layers, variables and optimizers; graphfn's AutoTrackable): its
  `_trackable_children("checkpoint")`; it saves what `_serialize_to_tensors()` returns, if
  its class defines that method.
- a list, tuple or dict (TF's ListWrapper / _DictWrapper): the checkpointable elements, named
  by index or key.
- a `graphfn.Module`, or an object of graphfn's built-in Keras: its attributes in assignment
  order that hold checkpointable values (what TF's tf.Module, an AutoTrackable, tracks)."""

import collections

from graphfn.module.module import Module
from graphfn.trackable.base import Trackable
from graphfn.util.lazy_numpy import numpy
from graphfn.variables import Variable

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VARIABLE_VALUE = "VARIABLE_VALUE"


def _walks_attributes(value):
    return isinstance(value, Module)


def _is_container(value):
    return isinstance(value, (list, tuple, dict))


def is_checkpointable(value):
    if isinstance(value, (Variable, Trackable)) or _walks_attributes(value):
        return True
    if _is_container(value):
        items = value.values() if isinstance(value, dict) else value
        return any(is_checkpointable(item) for item in items)
    return False


def children(obj):
    """The (local name, child) pairs of `obj`, in order."""
    if isinstance(obj, Variable):
        return []
    if isinstance(obj, dict):
        return [(str(k), v) for k, v in obj.items() if is_checkpointable(v)]
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if is_checkpointable(v)]
    if isinstance(obj, Trackable):
        named = obj._trackable_children(save_type="checkpoint")
        return [(name, v) for name, v in named.items() if is_checkpointable(v)]
    if _walks_attributes(obj):
        ignored = getattr(obj, "_TF_MODULE_IGNORED_PROPERTIES", ())
        return [(name, v) for name, v in vars(obj).items()
                if name not in ignored and not name.startswith("_self_") and is_checkpointable(v)]
    return []


def serialize(obj):
    """The tensors `obj` itself saves: {attribute name: tensor or array}, maybe empty."""
    if isinstance(obj, Variable):
        return {VARIABLE_VALUE: obj}
    if isinstance(obj, Trackable) and hasattr(type(obj), "_serialize_to_tensors"):
        try:
            return dict(obj._serialize_to_tensors())
        except NotImplementedError:
            return {}
    return {}


def escape_local_name(name):
    return name.replace(".", "..").replace("/", ".S")


def full_name(obj):
    name = getattr(obj, "_shared_name", None)
    if name is None:
        name = getattr(obj, "name", "") or ""
        name = name[:-2] if isinstance(name, str) and name.endswith(":0") else name
    return name if isinstance(name, str) else ""


class ObjectGraph:
    """The nodes reachable from `root`: `objects[i]`, `paths[i]` (local names from the root)
    and `edges[i]` ((local name, child node id) pairs)."""

    def __init__(self, root, extra_root_children=()):
        self.objects, self.paths, self.edges = [root], [()], []
        node_of = {id(root): 0}
        queue = collections.deque([0])
        while queue:
            node = queue.popleft()
            obj = self.objects[node]
            named = children(obj)
            if node == 0:
                named = named + [c for c in extra_root_children if c[0] not in dict(named)]
            edges = []
            for name, child in named:
                child_id = node_of.get(id(child))
                if child_id is None:
                    child_id = node_of[id(child)] = len(self.objects)
                    self.objects.append(child)
                    self.paths.append(self.paths[node] + (name,))
                    queue.append(child_id)
                edges.append((name, child_id))
            self.edges.append(edges)

    def checkpoint_key(self, node, attribute):
        prefix = "/".join(escape_local_name(n) for n in self.paths[node])
        return (prefix + "/" if prefix else "") + ".ATTRIBUTES/" + attribute


def to_numpy(value):
    """A tensor, variable or array as a NumPy array (bytes stay object arrays)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    return numpy().asarray(value)


def save_tensors(root, extra_root_children=()):
    """{checkpoint key: NumPy array} for everything reachable from `root`, then the serialized
    object graph under `_CHECKPOINTABLE_OBJECT_GRAPH`."""
    from graphfn.checkpoint import checkpoint_protos as protos  # protobuf on first use, not at import

    graph = ObjectGraph(root, extra_root_children)
    proto = protos.TrackableObjectGraph()
    tensors = {}
    has_values = []
    for node, obj in enumerate(graph.objects):
        entry = proto.nodes.add()
        for name, child_id in graph.edges[node]:
            entry.children.add(node_id=child_id, local_name=name)
        saved = serialize(obj)
        for attribute, value in saved.items():
            key = graph.checkpoint_key(node, attribute)
            entry.attributes.add(name=attribute, full_name=full_name(obj), checkpoint_key=key)
            tensors[key] = to_numpy(value)
        has_values.append(bool(saved))
    # A node has checkpoint values when it or something below it saves a tensor (a fixed point:
    # a shared child may have a smaller id than its parent).
    changed = True
    while changed:
        changed = False
        for node in reversed(range(len(graph.objects))):
            if not has_values[node] and any(has_values[c] for _, c in graph.edges[node]):
                has_values[node] = changed = True
    for node, flag in enumerate(has_values):
        proto.nodes[node].has_checkpoint_values.value = flag
    tensors[OBJECT_GRAPH_KEY] = numpy().array(proto.SerializeToString(), dtype=object)
    return tensors
