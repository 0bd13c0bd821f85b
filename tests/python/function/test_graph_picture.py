"""ConcreteFunction.graph as a picture: SVG from Graphviz's dot when installed, else graphfn's
own layout. Both must be well-formed XML naming every node, with one edge per input."""

import shutil
import xml.etree.ElementTree as ET

import pytest

import graphfn as tf
from graphfn.function import graph_picture

SVG = "{http://www.w3.org/2000/svg}"


def _simple():
    @tf.function
    def f(x, y):
        return tf.reduce_sum(tf.matmul(x, y) + 1.0)

    return f.get_concrete_function(tf.TensorSpec([2, 3]), tf.TensorSpec([3, 2])).graph


def _with_cond():
    @tf.function
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = -x
        return y

    return f.get_concrete_function(tf.constant(1)).graph


def _node_titles(root):
    return [g.find(SVG + "title").text for g in root.iter(SVG + "g") if g.get("class") == "node"]


def _edges(root):
    return [g for g in root.iter(SVG + "g") if g.get("class") == "edge"]


def _expected_edges(graph):
    return graph_picture.count_edges(graph_picture._read(graph._graph))


RENDERERS = [pytest.param(False, id="plain")]
if shutil.which("dot"):
    RENDERERS.append(pytest.param(True, id="graphviz"))


@pytest.mark.parametrize("use_graphviz", RENDERERS)
@pytest.mark.parametrize("make", [_simple, _with_cond], ids=["simple", "cond"])
def test_svg_is_xml_with_every_node_and_edge(make, use_graphviz):
    graph = make()
    root = ET.fromstring(graph.to_svg(use_graphviz=use_graphviz))
    assert root.tag == SVG + "svg"
    titles = _node_titles(root)
    for op in graph.get_operations():
        assert op.name in titles
    assert len(_edges(root)) == _expected_edges(graph)


def test_plain_layout_edge_count_simple_graph():
    # x, y -> MatMul -> add (with add/y) -> Sum (with Const) -> Identity: 7 inputs in all.
    root = ET.fromstring(_simple().to_svg(use_graphviz=False))
    assert len(_edges(root)) == 7
    assert sorted(_node_titles(root)) == sorted(["x", "y", "MatMul", "add/y", "add", "Const", "Sum", "Identity"])


def test_child_graphs_drawn_nested():
    graph = _with_cond()
    root = ET.fromstring(graph.to_svg(use_graphviz=False))
    clusters = [g.find(SVG + "title").text for g in root.iter(SVG + "g") if g.get("class") == "cluster"]
    assert any(c.startswith("then_branch: ") for c in clusters)
    assert any(c.startswith("else_branch: ") for c in clusters)
    # The branches' own nodes are drawn too (more nodes than the outer graph has).
    assert len(_node_titles(root)) > len(graph.get_operations())


def test_fallback_without_graphviz(monkeypatch, tmp_path):
    monkeypatch.setenv("GRAPHFN_NO_GRAPHVIZ", "1")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    graph = _simple()
    assert not graph_picture.graphviz_available()
    path = tmp_path / "graph.svg"
    svg = graph.to_svg(str(path))
    assert path.read_text(encoding="utf-8") == svg
    assert graph._repr_svg_() == svg
    ET.fromstring(svg)


def test_broken_graphviz_falls_back(monkeypatch):
    def fail(*args, **kwargs):
        raise OSError("no dot here")

    monkeypatch.setattr(graph_picture.subprocess, "run", fail)
    root = ET.fromstring(_simple().to_svg(use_graphviz=True))
    assert len(_edges(root)) == 7


def test_to_dot_lists_nodes_and_clusters():
    dot = _with_cond().to_dot()
    assert dot.startswith("digraph G {")
    assert "subgraph cluster_1" in dot and "subgraph cluster_2" in dot
