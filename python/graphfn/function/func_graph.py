"""FuncGraph: a concrete function's view of its traced graph (its nodes, inputs and outputs).

It is a tf.Graph, as TF's FuncGraph: isinstance(cf.graph, tf.Graph) holds, and the graph methods
framework/graph.py gives every graph (get_operations, get_tensor_by_name, ...) answer through it."""

from graphfn.framework.graph import GraphDef, NodeDef  # noqa: F401  (graph methods use them)


class FuncGraph:
    _is_graph_view = True  # isinstance(view, tf.Graph)

    def __init__(self, graph, name, inputs, outputs, structured_outputs):
        self._graph = graph
        self.name = name
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.structured_outputs = structured_outputs

    def __getattr__(self, name):
        # The graph's methods and properties (as_graph_def, get_operations, finalized, ...).
        if name.startswith("__") or name == "_graph":
            raise AttributeError(name)
        return getattr(self._graph, name)

    def to_svg(self, path=None, use_graphviz=None):
        """The graph as an SVG picture (text); also written to `path` if given. Uses Graphviz's
        `dot` when installed (use_graphviz=None), else a plain layout of graphfn's own."""
        from graphfn.function import graph_picture  # lazily: it loads subprocess, not needed by `import graphfn`
        svg = graph_picture.render(self._graph, self.name, use_graphviz)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        return svg

    def to_dot(self):
        """The graph in Graphviz's DOT language (child graphs as clusters)."""
        from graphfn.function import graph_picture  # lazily, as in to_svg
        return graph_picture.to_dot(graph_picture._read(self._graph), self.name)

    def _repr_svg_(self):  # Jupyter shows the picture
        return self.to_svg()

    def to_text(self):
        """A compact listing of the graph's nodes (graphfn only; for debugging)."""
        return self._graph.to_text()
