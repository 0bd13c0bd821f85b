"""tf.name_scope: a prefix for the names of the nodes (and variables) created inside it.

While tracing, the scope lives on the graph being built and is made unique like a node name
("foo", then "foo_1"); eagerly it is a per-thread string (kept by the C++ TraceContext) that is
never made unique, as in TF."""

from graphfn import _core
from graphfn.util.tf_export import tf_export


def current_scope():
    """The scope new names go in: "outer/inner/" or ""."""
    graph = _core.current_graph()
    return graph._name_scope if graph is not None else _core.eager_name_scope()


@tf_export("name_scope")
class name_scope:
    """`with graphfn.name_scope("layer1") as scope:` names the nodes created inside
    "layer1/...", and `scope` is "layer1/". A name ending in "/" is used as it is (re-entering
    a scope), and "" returns to the top level."""

    __slots__ = ("_name", "_graph", "_previous")

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name

    @property
    def name(self):
        return self._name

    def __enter__(self):
        self._graph = graph = _core.current_graph()
        self._previous = previous = current_scope()
        name = self._name
        if not name or name.endswith("/"):
            scope = name
        elif graph is not None:
            scope = graph.unique_name(previous + name) + "/"
        else:
            scope = previous + name + "/"
        if graph is not None:
            graph._name_scope = scope
        else:
            _core.set_eager_name_scope(scope)
        return scope

    def __exit__(self, *exc_info):
        if self._graph is not None:
            self._graph._name_scope = self._previous
        else:
            _core.set_eager_name_scope(self._previous)
        return False
