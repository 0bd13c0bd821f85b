"""tf.config.experimental.enable_op_determinism.

graphfn's kernels give the same bits run to run whether or not this is on: threaded kernels split
work at boundaries that depend only on the sizes and the thread count, and each output element is
computed in a fixed order (docs/performance.md, "Determinism"). What the switch changes is TF's
other rule: random ops then need a seed (random_seed.get_seed), and a Generator cannot start from
a nondeterministic state."""

from graphfn.util.tf_export import tf_export

_enabled = False

RANDOM_SEED_REQUIRED = ("Random ops require a seed to be set when determinism is enabled. Please set a seed "
                        "before running the op, e.g. by calling tf.random.set_seed(1).")


@tf_export("config.experimental.enable_op_determinism")
def enable_op_determinism():
    """Makes ops deterministic: random ops need a seed from then on, as in TF."""
    global _enabled
    _enabled = True


def disable_op_determinism():
    """TF's internal counterpart (tensorflow.python.framework.config), not public API."""
    global _enabled
    _enabled = False


def is_op_determinism_enabled():
    return _enabled
