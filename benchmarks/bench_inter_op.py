"""Inter-op parallelism (issue 19): multi-tower models under tf.function, graphfn vs TensorFlow.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_inter_op.py [--repeat 5] [--json out.json]

Each row is one call of a function whose towers are independent: graphfn may run them at once on
its inter-op pool (docs/performance.md, "Threading"); TF's executor does the same with its own.
Rows: four MLP towers (three matmuls each, 512-384-256 wide) concatenated into a dense layer,
batch 64 and batch 8; the same model's SGD train step (batch 64); four convolution towers (two
3x3 convs each, [16,28,28,16] input) concatenated.
Columns: graphfn with its default inter-op threads (both cores here), TensorFlow 2.21, and
graphfn with set_inter_op_parallelism_threads(1) in a fresh interpreter (the serial executor;
its ratio is the gain of running towers at once). The ratio columns are the other time over
graphfn's (above 1: graphfn is faster). The machine is shared: compare within one run only.
"""

import json
import os
import subprocess
import sys

import numpy as np

import graphfn as gf
from _harness import fresh_interpreter_env
from _harness import main as harness_main
from _harness import optional
from _harness import time_per_call_us

tf = optional("tensorflow")
SERIAL = "graphfn inter-op 1"


def _normal(rng, *shape, scale=0.05):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _mlp_towers(batch, train):
    rng = np.random.default_rng(0)
    x_np, y_np = _normal(rng, batch, 512, scale=1.0), _normal(rng, batch, 10, scale=1.0)
    towers_np = [[_normal(rng, 512, 384), _normal(rng, 384, 256), _normal(rng, 256, 128)] for _ in range(4)]
    head_np = _normal(rng, 4 * 128, 10)

    def make(lib):
        x, y = lib.constant(x_np), lib.constant(y_np)
        towers = [[lib.Variable(w) for w in ws] for ws in towers_np]
        head = lib.Variable(head_np)
        variables = [w for ws in towers for w in ws] + [head]

        def model(x):
            outs = []
            for ws in towers:
                h = x
                for w in ws:
                    h = lib.nn.relu(lib.matmul(h, w))
                outs.append(h)
            return lib.matmul(lib.concat(outs, axis=1), head)

        @lib.function
        def forward(x):
            return model(x)

        @lib.function
        def step(x, y):
            with lib.GradientTape() as tape:
                loss = lib.reduce_mean(lib.square(model(x) - y))
            for v, g in zip(variables, tape.gradient(loss, variables)):
                v.assign_sub(0.01 * g)
            return loss

        return (lambda: step(x, y)) if train else (lambda: forward(x))
    return make


def _conv_towers():
    rng = np.random.default_rng(1)
    x_np = _normal(rng, 16, 28, 28, 16, scale=1.0)
    filters_np = [[_normal(rng, 3, 3, 16, 32), _normal(rng, 3, 3, 32, 32)] for _ in range(4)]

    def make(lib):
        x = lib.constant(x_np)
        filters = [[lib.constant(f) for f in fs] for fs in filters_np]

        @lib.function
        def forward(x):
            outs = []
            for fs in filters:
                h = x
                for f in fs:
                    h = lib.nn.relu(lib.nn.conv2d(h, f, strides=1, padding="SAME"))
                outs.append(h)
            return lib.reduce_mean(lib.concat(outs, axis=3), axis=[1, 2])
        return lambda: forward(x)
    return make


def rows():
    return [
        ("4 MLP towers 512-384-256-128, concat, dense 10; batch 64", _mlp_towers(64, False)),
        ("4 MLP towers 512-384-256-128, concat, dense 10; batch 8", _mlp_towers(8, False)),
        ("train step of the 4 MLP towers, batch 64", _mlp_towers(64, True)),
        ("4 conv towers (3x3x16->32, 3x3x32->32) on [16,28,28,16], concat", _conv_towers()),
    ]


def _serial_child(repeat):
    """Runs in a fresh interpreter: graphfn's times with one inter-op thread, as JSON."""
    gf.config.threading.set_inter_op_parallelism_threads(1)
    print(json.dumps([time_per_call_us(make(gf), repeat) for _, make in rows()]))


def _load():
    return " ".join("%.2f" % v for v in os.getloadavg())


_VERSIONS = {"tensorflow": tf.__version__ if tf is not None else None}


def run(repeat):
    _VERSIONS["load average before"] = _load()
    results = []
    for name, make in rows():
        row = {"benchmark": name, "us": {"graphfn": time_per_call_us(make(gf), repeat)}}
        if tf is not None:
            row["us"]["TensorFlow"] = time_per_call_us(make(tf), repeat)
        results.append(row)
    child = subprocess.run([sys.executable, os.path.abspath(__file__), "--serial-child", str(repeat)],
                           capture_output=True, text=True, env=fresh_interpreter_env(), check=True)
    for row, us in zip(results, json.loads(child.stdout.splitlines()[-1])):
        row["us"][SERIAL] = us
    _VERSIONS["load average after"] = _load()
    return results


def main(argv=None):
    others = (["TensorFlow"] if tf is not None else []) + [SERIAL]
    return harness_main(__doc__, run, _VERSIONS, others, 5, argv)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serial-child"]:
        _serial_child(int(sys.argv[2]))
        sys.exit(0)
    sys.exit(main())
