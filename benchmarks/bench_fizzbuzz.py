"""FizzBuzz to 100 000 under graphfn.function vs TensorFlow's tf.function (the seed's version:
`for num in tf.range(max_num)`, a counter, tf.print of each answer).

    PYTHONPATH=python /work/tfenv/bin/python benchmarks/bench_fizzbuzz.py [--repeat 3] [--json out.json]

tf.print writes to file descriptor 2, which is pointed at /dev/null while timing. Cells are the
median time of one call (100 000 iterations), in µs.
"""

import contextlib
import os
import sys

import graphfn as gf
from _harness import optional
from _harness import main as harness_main
from _harness import time_per_call_us

tf = optional("tensorflow")

N = 100000


def _fizzbuzz(lib):
    @lib.function
    def fizzbuzz(max_num):
        counter = 0
        for num in lib.range(max_num):
            if num % 3 == 0 and num % 5 == 0:
                lib.print('FizzBuzz')
            elif num % 3 == 0:
                lib.print('Fizz')
            elif num % 5 == 0:
                lib.print('Buzz')
            else:
                lib.print(num)
            counter += 1
        return counter

    n = lib.constant(N)
    assert int(fizzbuzz(lib.constant(15))) == 15
    return lambda: fizzbuzz(n)


@contextlib.contextmanager
def _stderr_to_devnull():
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(devnull)
        os.close(saved)


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    us = {}
    with _stderr_to_devnull():
        for name, lib in libs:
            us[name] = time_per_call_us(_fizzbuzz(lib), repeat)
    return [{"benchmark": "FizzBuzz to %d (tf.print, counter), per call" % N, "us": us}]


def main(argv=None):
    versions = {"tensorflow": tf.__version__ if tf is not None else None}
    return harness_main(__doc__, run, versions, ["TensorFlow"] if tf is not None else [], 3, argv)


if __name__ == "__main__":
    sys.exit(main())
