"""Image codecs on one 256 x 256 RGB image, graphfn vs TF (both call libjpeg-turbo / libpng).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_image_codecs.py [--repeat 5] [--json out.json]

Rows (µs per call, medians of `repeat` timings of 100 calls): decode_jpeg eagerly and inside a
function, decode_png, encode_jpeg and encode_png eagerly.
"""

import statistics
import sys
import time

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax

tf = optional("tensorflow")

CALLS = 100


def _image():
    rng = np.random.RandomState(0)
    y, x = np.mgrid[0:256, 0:256]
    return np.clip(np.stack([x, y, (x + y) // 2], -1) + rng.randint(0, 30, (256, 256, 3)), 0, 255).astype(np.uint8)


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
    rows = {}
    for name, lib in libs:
        image = lib.constant(_image())
        jpeg = lib.io.encode_jpeg(image)
        png = lib.io.encode_png(image)
        decode_in_function = lib.function(lambda s, lib=lib: lib.io.decode_jpeg(s))
        cases = {"decode_jpeg, eager": lambda: lib.io.decode_jpeg(jpeg),
                 "decode_jpeg in a function": lambda: decode_in_function(jpeg),
                 "decode_png, eager": lambda: lib.io.decode_png(png),
                 "encode_jpeg, eager": lambda: lib.io.encode_jpeg(image),
                 "encode_png, eager": lambda: lib.io.encode_png(image)}
        for row, fn in cases.items():
            rows.setdefault(row, {})[name] = _median_us(fn, repeat)
    return [{"benchmark": k, "us": v} for k, v in rows.items()]


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, None, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
