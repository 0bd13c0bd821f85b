"""Heavy kernels (issue 19): convolutions and a small convnet's training step, graphfn next to
TensorFlow, PyTorch eager and JAX jit (each where installed).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_conv.py [--repeat 5] [--json out.json]

Cells are medians in µs (the peak-memory row: MB). Rows:
- conv2d [32, 28, 28, 32] * [3, 3, 32, 64], NHWC, SAME, stride 1: forward, backprop input and
  backprop filter (the raw ops Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter, eager);
  PyTorch runs the same arithmetic on channels-last tensors (torch.nn.functional.conv2d and
  torch.nn.grad.conv2d_input / conv2d_weight), JAX jit lax.conv_general_dilated in NHWC/HWIO.
- convnet train step: Conv 32 -> MaxPool -> Conv 64 -> MaxPool -> Dense 10 (relu, batch 64 of
  28x28x1, softmax cross-entropy, plain SGD with assign_sub) under `function`; PyTorch eager is
  the same model (torch.nn layers, channels-last, manual SGD under no_grad), JAX jit the same
  arithmetic as one jitted step.
- convnet training loop peak RSS: 30 steps in a fresh interpreter per library, VmHWM in MB
  (includes the interpreter and the library's import).
"""

import os
import subprocess
import sys

import numpy as np

import graphfn as gf
from _harness import fresh_interpreter_env
from _harness import main
from _harness import optional
from _harness import time_per_call_us

# The peak-memory probe imports this module to build one library's model: the others stay out.
_PROBE = os.environ.get("CONV_BENCH_PROBE")
tf = optional("tensorflow") if _PROBE in (None, "tensorflow") else None
jax = optional("jax") if _PROBE is None else None
torch = optional("torch") if _PROBE in (None, "torch") else None

CONV_X, CONV_W = (32, 28, 28, 32), (3, 3, 32, 64)
CONV_Y = (32, 28, 28, 64)


def _conv_arrays():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(CONV_X).astype(np.float32)
    w = rng.standard_normal(CONV_W).astype(np.float32) * 0.1
    dy = rng.standard_normal(CONV_Y).astype(np.float32)
    return x, w, dy


def _conv_calls(lib):
    x, w, dy = (lib.constant(a) for a in _conv_arrays())
    raw = lib.raw_ops
    common = dict(strides=[1, 1, 1, 1], padding="SAME")
    x_shape, w_shape = lib.constant(CONV_X, dtype=lib.int32), lib.constant(CONV_W, dtype=lib.int32)
    return {"fwd": lambda: raw.Conv2D(input=x, filter=w, **common),
            "bwd input": lambda: raw.Conv2DBackpropInput(input_sizes=x_shape, filter=w, out_backprop=dy, **common),
            "bwd filter": lambda: raw.Conv2DBackpropFilter(input=x, filter_sizes=w_shape, out_backprop=dy, **common)}


def _torch_conv_calls():
    x, w, dy = _conv_arrays()
    cl = torch.channels_last
    tx = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous(memory_format=cl)
    tw = torch.from_numpy(w).permute(3, 2, 0, 1).contiguous(memory_format=cl)
    tdy = torch.from_numpy(dy).permute(0, 3, 1, 2).contiguous(memory_format=cl)
    F, grad = torch.nn.functional, torch.nn.grad
    return {"fwd": lambda: F.conv2d(tx, tw, padding=1),
            "bwd input": lambda: grad.conv2d_input(tx.shape, tw, tdy, padding=1),
            "bwd filter": lambda: grad.conv2d_weight(tx, tw.shape, tdy, padding=1)}


def _jax_conv_calls():
    x, w, dy = (jax.numpy.asarray(a) for a in _conv_arrays())
    dims = ("NHWC", "HWIO", "NHWC")

    def conv(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dims)

    fwd = jax.jit(conv)
    bwd_input = jax.jit(lambda w, dy: jax.vjp(lambda x_: conv(x_, w), x)[1](dy)[0])
    bwd_filter = jax.jit(lambda x, dy: jax.vjp(lambda w_: conv(x, w_), w)[1](dy)[0])
    return {"fwd": lambda: fwd(x, w).block_until_ready(),
            "bwd input": lambda: bwd_input(w, dy).block_until_ready(),
            "bwd filter": lambda: bwd_filter(x, dy).block_until_ready()}


# The convnet ------------------------------------------------------------------------------------

BATCH, LEARNING_RATE = 64, 0.01


def _convnet_data():
    rng = np.random.default_rng(1)
    images = rng.random((BATCH, 28, 28, 1), dtype=np.float32)
    labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, BATCH)]
    params = [rng.standard_normal((3, 3, 1, 32)).astype(np.float32) * 0.3, np.zeros(32, np.float32),
              rng.standard_normal((3, 3, 32, 64)).astype(np.float32) * 0.06, np.zeros(64, np.float32),
              rng.standard_normal((7 * 7 * 64, 10)).astype(np.float32) * 0.02, np.zeros(10, np.float32)]
    return images, labels, params


def make_convnet_step(lib):
    """The train step under lib.function (graphfn or TensorFlow) and its (images, labels)."""
    images, labels, params = _convnet_data()
    variables = [lib.Variable(p) for p in params]
    x, y = lib.constant(images), lib.constant(labels)

    @lib.function
    def step(x, y):
        w1, b1, w2, b2, wd, bd = variables
        with lib.GradientTape() as tape:
            h = lib.nn.relu(lib.nn.bias_add(lib.nn.conv2d(x, w1, 1, "SAME"), b1))
            h = lib.nn.max_pool2d(h, 2, 2, "VALID")
            h = lib.nn.relu(lib.nn.bias_add(lib.nn.conv2d(h, w2, 1, "SAME"), b2))
            h = lib.nn.max_pool2d(h, 2, 2, "VALID")
            logits = lib.matmul(lib.reshape(h, [-1, 7 * 7 * 64]), wd) + bd
            loss = lib.reduce_mean(lib.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(LEARNING_RATE * g)
        return loss

    return lambda: step(x, y)


def make_torch_convnet_step():
    """The same model in PyTorch eager, channels-last."""
    images, labels, params = _convnet_data()
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(7 * 7 * 64, 10))
    model = model.to(memory_format=torch.channels_last)
    x = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
    y = torch.from_numpy(labels)
    loss_fn = nn.CrossEntropyLoss()

    def step():
        model.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.sub_(LEARNING_RATE * p.grad)
        return loss

    return step


def make_jax_convnet_step():
    images, labels, params = _convnet_data()
    jnp, lax = jax.numpy, jax.lax
    dims = ("NHWC", "HWIO", "NHWC")

    def loss_fn(p, x, y):
        w1, b1, w2, b2, wd, bd = p
        h = jax.nn.relu(lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=dims) + b1)
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        h = jax.nn.relu(lax.conv_general_dilated(h, w2, (1, 1), "SAME", dimension_numbers=dims) + b2)
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        logits = h.reshape(h.shape[0], -1) @ wd + bd
        return jnp.mean(-jnp.sum(y * jax.nn.log_softmax(logits), axis=-1))

    @jax.jit
    def step(p, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        return [a - LEARNING_RATE * b for a, b in zip(p, g)], loss

    state = {"p": [jnp.asarray(a) for a in params]}
    x, y = jnp.asarray(images), jnp.asarray(labels)

    def call():
        state["p"], loss = step(state["p"], x, y)
        loss.block_until_ready()

    return call


_PEAK_PROBE = """
import os, sys
sys.path.insert(0, {here!r})
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import bench_conv as b
lib = {lib}
step = b.make_torch_convnet_step() if lib == "torch" else b.make_convnet_step(__import__(lib))
for _ in range(30):
    step()
with open("/proc/self/status") as f:
    print(next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024)
"""


def _peak_rss_mb(module):
    here = os.path.dirname(os.path.abspath(__file__))
    code = _PEAK_PROBE.format(here=here, lib=repr(module))
    env = dict(fresh_interpreter_env(), CONV_BENCH_PROBE=module)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError("peak RSS probe for %s failed:\n%s" % (module, proc.stderr[-2000:]))
    return float(proc.stdout.split()[-1])


def conv_rows(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    calls = {name: _conv_calls(lib) for name, lib in libs}
    if torch is not None:
        calls["PyTorch eager"] = _torch_conv_calls()
    if jax is not None:
        calls["JAX jit"] = _jax_conv_calls()
    rows = []
    label = "conv2d [32,28,28,32]*[3,3,32,64] SAME"
    for kind in ("fwd", "bwd input", "bwd filter"):
        rows.append({"benchmark": "%s %s" % (label, kind),
                     "us": {name: time_per_call_us(c[kind], repeat) for name, c in calls.items()}})
    step_row = {"benchmark": "convnet train step (batch 64, function)", "us": {}}
    for name, lib in libs:
        step_row["us"][name] = time_per_call_us(make_convnet_step(lib), repeat)
    if torch is not None:
        step_row["us"]["PyTorch eager"] = time_per_call_us(make_torch_convnet_step(), repeat)
    if jax is not None:
        step_row["us"]["JAX jit"] = time_per_call_us(make_jax_convnet_step(), repeat)
    rows.append(step_row)
    memory_row = {"benchmark": "convnet training loop peak RSS, MB (not µs)",
                  "us": {"graphfn": _peak_rss_mb("graphfn")}}
    if tf is not None:
        memory_row["us"]["TensorFlow"] = _peak_rss_mb("tensorflow")
    if torch is not None:
        memory_row["us"]["PyTorch eager"] = _peak_rss_mb("torch")
    rows.append(memory_row)
    return rows


def run(repeat):
    return conv_rows(repeat)


def _main(argv=None):
    versions = {name: getattr(mod, "__version__", None) for name, mod in
                (("tensorflow", tf), ("torch", torch), ("jax", jax))}
    others = [n for n, mod in (("TensorFlow", tf), ("PyTorch eager", torch), ("JAX jit", jax)) if mod is not None]
    load = "%.1f" % os.getloadavg()[0]
    print("load average at start: %s" % load)
    return main(__doc__, run, dict(versions, load=load), others, 5, argv)


if __name__ == "__main__":
    sys.exit(_main())
