"""tf.strings over 100 000 sentences, graphfn vs TF (issue 18's goal: split + hash at least TF's speed).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_strings.py [--repeat 5] [--json out.json]

The sentences: 4-16 words each, drawn from a 5 000-word vocabulary (seeded). Rows (µs per call,
medians of `repeat` timings): tf.strings.split then to_hash_bucket_fast on the RaggedTensor,
eagerly and inside a function; split alone; and three element-wise ops (length, lower,
regex_replace) on the same sentences.
"""

import statistics
import sys
import time

import numpy as np

import graphfn as gf
from _harness import main_beside_tf_and_jax
from _harness import optional

tf = optional("tensorflow")

SENTENCES = 100_000
CALLS = 3


def _sentences():
    rng = np.random.RandomState(0)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocabulary = ["".join(rng.choice(letters, rng.randint(2, 10))) for _ in range(5000)]
    return np.array([" ".join(rng.choice(vocabulary, rng.randint(4, 17))) for _ in range(SENTENCES)], dtype=object)


def _median_us(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(CALLS):
            fn()
        times.append((time.perf_counter() - start) / CALLS * 1e6)
    return statistics.median(times)


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    text = _sentences()
    rows = {}
    for name, lib in libs:
        sentences = lib.constant(text)

        def split_and_hash(s, lib=lib):
            return lib.strings.to_hash_bucket_fast(lib.strings.split(s), 1 << 20)
        in_function = lib.function(split_and_hash)
        cases = {"split + to_hash_bucket_fast, eager": lambda: split_and_hash(sentences),
                 "split + to_hash_bucket_fast in a function": lambda: in_function(sentences),
                 "split, eager": lambda: lib.strings.split(sentences),
                 "length, eager": lambda: lib.strings.length(sentences),
                 "lower, eager": lambda: lib.strings.lower(sentences),
                 "regex_replace, eager": lambda: lib.strings.regex_replace(sentences, "[aeiou]+", "_")}
        for row, fn in cases.items():
            rows.setdefault(row, {})[name] = _median_us(fn, repeat)
    return [{"benchmark": k, "us": v} for k, v in rows.items()]


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, None, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
