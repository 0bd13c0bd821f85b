"""`python -m graphfn`: a short tour of what graphfn does today."""

import timeit

import graphfn as tf


def main():
    print("graphfn", tf.__version__, "- eager tour\n")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    print(">>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])")
    print(repr(x))
    print(">>> x * 2 + 1")
    print(x * 2 + 1)
    print(">>> tf.constant(1) + tf.constant(1.0)   # no implicit dtype promotion, as in TF")
    try:
        tf.constant(1) + tf.constant(1.0)
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError:", e)

    a = tf.constant(1.5)
    n = 100_000
    seconds = timeit.timeit(lambda: a + a, number=n)
    print("\neager scalar add: %.2f us per op" % (seconds / n * 1e6))


if __name__ == "__main__":
    main()
