"""FuncGraph: the Python view of a traced graph (its nodes, inputs and outputs)."""


class NodeDef:
    """One node as `as_graph_def()` lists it: name, op and inputs."""

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
        nodes = [NodeDef(name, g.node_op(i), g.node_inputs(i)) for i, name in enumerate(g.node_names())]
        return GraphDef(nodes, g.graph_def_text())

    def get_operations(self):
        return self.as_graph_def().node

    def to_text(self):
        """A compact listing of the graph's nodes (graphfn only; for debugging)."""
        return self._graph.to_text()
