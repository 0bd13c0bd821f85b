"""Pictures of traced graphs as SVG: Graphviz's `dot` when it is installed, else a plain layout
of our own (layers top-down by depth, one box per node, lines with arrows for edges; the child
graphs of If/While/Case nodes drawn as nested boxes). Used by FuncGraph.to_svg / _repr_svg_."""

import os
import shutil
import subprocess
from xml.sax.saxutils import escape

# Colours by kind of node (same in both renderers).
_FILL = {"Placeholder": "#dbe9f6", "Const": "#eeeeee"}
_CONTROL_FLOW_FILL = "#fff4cc"
_DEFAULT_FILL = "#ffffff"


class _Node:
    __slots__ = ("name", "op", "inputs", "control_inputs", "children")

    def __init__(self, name, op, inputs, control_inputs, children):
        self.name, self.op, self.inputs, self.control_inputs, self.children = (
            name, op, inputs, control_inputs, children)


def _read(graph):
    """[_Node] of a _core.Graph; children are (label, [_Node]) for each child graph."""
    nodes = []
    for i, name in enumerate(graph.node_names()):
        inputs = [s.split(":")[0] for s in graph.node_inputs(i)]
        children = [("%s: %s" % (attr, fname), _read(child)) for attr, fname, child in graph.node_functions(i)]
        nodes.append(_Node(name, graph.node_op(i), inputs, graph.node_control_inputs(i), children))
    return nodes


def count_edges(nodes):
    """Data and control edges of a graph and of its child graphs (what a picture draws)."""
    return sum(len(n.inputs) + len(n.control_inputs) + sum(count_edges(c) for _, c in n.children)
               for n in nodes)


def _fill(node):
    return _CONTROL_FLOW_FILL if node.children else _FILL.get(node.op, _DEFAULT_FILL)


def graphviz_available():
    return os.environ.get("GRAPHFN_NO_GRAPHVIZ") != "1" and shutil.which("dot") is not None


def render(graph, title=None, use_graphviz=None):
    """SVG text of a _core.Graph."""
    nodes = _read(graph)
    if use_graphviz is None:
        use_graphviz = graphviz_available()
    if use_graphviz:
        try:
            return _dot_svg(nodes, title)
        except (OSError, subprocess.SubprocessError):
            pass  # a broken Graphviz install: draw it ourselves
    return _plain_svg(nodes, title)


# Graphviz ---------------------------------------------------------------------------------------

def _quote(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def to_dot(nodes, title=None):
    """DOT source: a node per graph node, a cluster per child graph."""
    lines = ["digraph G {", "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
             '  edge [arrowsize=0.6];']
    if title:
        lines.append("  label=%s; labelloc=t;" % _quote(title))
    counter = [0]

    def emit(nodes, prefix, indent):
        # Node ids are the names (Graphviz shows them as each node's SVG <title>); a child graph's
        # are prefixed with its cluster, as a branch has names of its own ("Identity", ...).
        ids = {n.name: _quote(prefix + n.name) for n in nodes}
        for n in nodes:
            lines.append("%s%s [label=%s, tooltip=%s, fillcolor=%s];" % (
                indent, ids[n.name], _quote("%s\n%s" % (n.name, n.op)), _quote(n.name), _quote(_fill(n))))
            for label, child in n.children:
                counter[0] += 1
                cluster = "cluster_%d" % counter[0]
                lines.append("%ssubgraph %s {" % (indent, cluster))
                lines.append('%s  label=%s; style="rounded,dashed";' % (indent, _quote("%s (%s)" % (label, n.name))))
                emit(child, "%s/" % cluster, indent + "  ")
                lines.append(indent + "}")
        for n in nodes:
            for src in n.inputs:
                lines.append("%s%s -> %s;" % (indent, ids[src], ids[n.name]))
            for src in n.control_inputs:
                lines.append("%s%s -> %s [style=dashed];" % (indent, ids[src], ids[n.name]))

    emit(nodes, "", "  ")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_svg(nodes, title):
    proc = subprocess.run(["dot", "-Tsvg"], input=to_dot(nodes, title), capture_output=True, text=True,
                          timeout=60, check=True)
    svg = proc.stdout
    # Drop the XML prolog and DOCTYPE so the text can be embedded in HTML (Jupyter) as it is.
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


# The plain layout ---------------------------------------------------------------------------------

_CHAR_W, _LINE_H, _PAD, _GAP_X, _GAP_Y = 7.0, 14.0, 8.0, 16.0, 34.0


class _Box:
    """A laid-out node: size, and the child graphs' pictures inside it."""

    def __init__(self, node):
        self.node = node
        self.children = [(label, _Layout(child)) for label, child in node.children]
        text_w = max(len(node.name), len(node.op)) * _CHAR_W + 2 * _PAD
        self.head_h = 2 * _LINE_H + 2 * _PAD
        kids_w = sum(c.width for _, c in self.children) + _GAP_X * max(0, len(self.children) - 1)
        kids_h = max([c.height + _LINE_H for _, c in self.children], default=0)
        self.w = max(text_w, kids_w + 2 * _PAD)
        self.h = self.head_h + (kids_h + _PAD if self.children else 0)
        self.x = self.y = 0.0


class _Layout:
    """Positions of a graph's boxes: layer = longest path from an input (nodes are stored in a
    topological order), boxes in a layer ordered by where their inputs are, layers centred."""

    def __init__(self, nodes):
        self.nodes = nodes
        self.boxes = {n.name: _Box(n) for n in nodes}
        depth = {}
        for n in nodes:
            depth[n.name] = 1 + max([depth[s] for s in n.inputs + n.control_inputs], default=-1)
        layers = {}
        for n in nodes:
            layers.setdefault(depth[n.name], []).append(self.boxes[n.name])
        self.width = 0.0
        rows = []
        y = 0.0
        for d in sorted(layers):
            row = layers[d]
            if d > 0:  # barycentre ordering: fewer crossings than creation order
                def centre(box):
                    srcs = [self.boxes[s] for s in box.node.inputs + box.node.control_inputs]
                    return sum(s.x + s.w / 2 for s in srcs) / len(srcs) if srcs else 0.0
                row.sort(key=centre)
            x = 0.0
            for box in row:
                box.x, box.y = x, y
                x += box.w + _GAP_X
            rows.append((row, x - _GAP_X))
            self.width = max(self.width, x - _GAP_X)
            y += max(b.h for b in row) + _GAP_Y
        for row, row_w in rows:  # centre each layer
            for box in row:
                box.x += (self.width - row_w) / 2
        self.height = max(y - _GAP_Y, 0.0)

    def draw(self, out, ox, oy):
        for n in self.nodes:
            dst = self.boxes[n.name]
            for srcs, dashed in ((n.inputs, False), (n.control_inputs, True)):
                for s in srcs:
                    src = self.boxes[s]
                    out.append('<g class="edge"><title>%s&#45;&gt;%s</title><line x1="%.1f" y1="%.1f" x2="%.1f" '
                               'y2="%.1f" stroke="#555" stroke-width="1"%s marker-end="url(#arrow)"/></g>' % (
                                   escape(s), escape(n.name), ox + src.x + src.w / 2, oy + src.y + src.h,
                                   ox + dst.x + dst.w / 2, oy + dst.y,
                                   ' stroke-dasharray="4,3"' if dashed else ""))
        for n in self.nodes:
            box = self.boxes[n.name]
            x, y = ox + box.x, oy + box.y
            out.append('<g class="node"><title>%s</title>' % escape(n.name))
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="5" fill="%s" stroke="#333"/>' % (
                x, y, box.w, box.h, _fill(n)))
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>' % (
                x + box.w / 2, y + _PAD + _LINE_H - 3, escape(n.name)))
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%s</text>' % (
                x + box.w / 2, y + _PAD + 2 * _LINE_H - 3, escape(n.op)))
            out.append("</g>")
            cx = x + (box.w - (sum(c.width for _, c in box.children)
                               + _GAP_X * max(0, len(box.children) - 1))) / 2
            for label, child in box.children:
                cy = y + box.head_h
                out.append('<g class="cluster"><title>%s</title>' % escape(label))
                out.append('<text x="%.1f" y="%.1f" font-style="italic" fill="#555">%s</text>' % (
                    cx, cy + _LINE_H - 3, escape(label)))
                child.draw(out, cx, cy + _LINE_H)
                out.append("</g>")
                cx += child.width + _GAP_X


def _plain_svg(nodes, title):
    layout = _Layout(nodes)
    margin = 12.0
    top = margin + (_LINE_H + 6 if title else 0)
    width, height = layout.width + 2 * margin, layout.height + top + margin
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%dpt" height="%dpt" viewBox="0 0 %.1f %.1f" '
           'font-family="Helvetica, Arial, sans-serif" font-size="11">' % (width, height, width, height),
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>',
           '<rect width="100%" height="100%" fill="white"/>']
    if title:
        out.append('<text x="%.1f" y="%.1f" font-weight="bold">%s</text>' % (margin, margin + _LINE_H - 3,
                                                                            escape(title)))
    layout.draw(out, margin, top)
    out.append("</svg>")
    return "\n".join(out) + "\n"
