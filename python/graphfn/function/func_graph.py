"""FuncGraph: the Python view of a traced graph (its nodes, inputs and outputs)."""


class NodeDef:
    """One node as `as_graph_def()` lists it: name, op and inputs (control inputs last, as
    "^name", sorted by name like TF's GraphDef)."""

    __slots__ = ("name", "op", "input")

    def __init__(self, name, op, inputs):
        self.name = name
        self.op = op
        self.input = inputs

    def __repr__(self):
        return "NodeDef(name=%r, op=%r, input=%r)" % (self.name, self.op, self.input)


class GraphDef:
    """The nodes of a traced graph; prints as TF's GraphDef text format."""

    __slots__ = ("node", "_text")

    def __init__(self, nodes, text):
        self.node = nodes
        self._text = text

    def __str__(self):
        return self._text

    __repr__ = __str__


class FuncGraph:
    def __init__(self, graph, name, inputs, outputs, structured_outputs):
        self._graph = graph
        self.name = name
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.structured_outputs = structured_outputs

    def as_graph_def(self):
        g = self._graph
        nodes = [NodeDef(name, g.node_op(i), g.node_inputs(i) + ["^" + c for c in sorted(g.node_control_inputs(i))])
                 for i, name in enumerate(g.node_names())]
        return GraphDef(nodes, g.graph_def_text())

    def get_operations(self):
        g = self._graph
        return [g.node_operation(i) for i in range(g.num_nodes)]

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
