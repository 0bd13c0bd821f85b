"""`python -m graphfn`: a short tour — eager ops, a traced function and its graph, and the
eager-vs-graph timing of the TensorFlow guide's power(x, 100)."""

import timeit

import graphfn as tf


def show(source, compute=None):
    """Prints the source line, then runs it (so tracing output appears after it)."""
    print(">>> " + source)
    if compute is not None:
        print(compute())


def eager_tour():
    print("== Eager execution: ops run at once, printed as TensorFlow prints them\n")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    show("x = tf.constant([[1.0, 2.0], [3.0, 4.0]])")
    show("x", lambda: repr(x))
    show("tf.matmul(x, x) + 1", lambda: tf.matmul(x, x) + 1)
    show("tf.reduce_sum(x, axis=0)", lambda: tf.reduce_sum(x, axis=0))
    show("tf.constant(1) + tf.constant(1.0)   # no implicit dtype promotion")
    try:
        tf.constant(1) + tf.constant(1.0)
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError:", e)


def function_tour():
    print("\n== graphfn.function: trace once per input signature, then replay the graph\n")

    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a

    show("double(tf.constant(1))", lambda: double(tf.constant(1)))
    show("double(tf.constant(2))   # same signature: no tracing", lambda: double(tf.constant(2)))
    show("double(tf.constant('a'))", lambda: double(tf.constant("a")))
    show("double.pretty_printed_concrete_signatures()")
    print(double.pretty_printed_concrete_signatures())
    graph = double.get_concrete_function(tf.constant(1)).graph
    show("for node in graph.as_graph_def().node: print(f'{node.input} -> {node.name}')")
    for node in graph.as_graph_def().node:
        print(f"{node.input} -> {node.name}")


def power(x, y):
    result = tf.eye(10, dtype=tf.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


def speed_tour():
    print("\n== Eager vs graph: power(x, 100), 100 chained 10x10 int32 matmuls, 1000 calls\n")
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.int32)
    power_as_graph = tf.function(power)
    power_as_graph(x, 100)  # trace once, outside the timing
    eager = timeit.timeit(lambda: power(x, 100), number=1000)
    graph = timeit.timeit(lambda: power_as_graph(x, 100), number=1000)
    print("Eager execution: %.3f s" % eager)
    print("Graph execution: %.3f s  (%.1fx faster)" % (graph, eager / graph))


def main():
    print("graphfn %s: TensorFlow's tf.function on a small C++ core\n" % tf.__version__)
    eager_tour()
    function_tour()
    speed_tour()


if __name__ == "__main__":
    main()
