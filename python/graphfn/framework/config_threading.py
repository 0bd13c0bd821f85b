"""tf.config.threading: the sizes of the intra-op pool (the threads one large kernel may use) and
of the inter-op pool (the threads a graph's independent ops may run on), settable until the
runtime starts, as in TF.

TF keeps the values as given and checks them only when it builds its configuration (the getters,
and the context's initialisation on the first op); the same value may be set again at any time,
a different one only before initialisation. graphfn's runtime starts with its first kernel (an
eager op or a function call) or the first use of the pool; the pool's size is fixed then
(docs/performance.md, "Threading")."""

import operator

from graphfn import _core
from graphfn.util.tf_export import tf_export

_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1
_settings = {"intra_op_parallelism_threads": None, "inter_op_parallelism_threads": None}


def _as_int32(field, value):
    """The value as TF's ConfigProto field takes it, with TF's errors (None: unset, 0)."""
    if value is None:
        return 0
    if isinstance(value, bool):
        raise TypeError("Field tensorflow.ConfigProto.%s: Expected an int, got a boolean." % field)
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(value).__name__) from None
    if not _INT32_MIN <= number <= _INT32_MAX:
        raise ValueError("Value out of range: %d" % number)
    return number


def _configured(field):
    # TF builds the whole ConfigProto for either getter: a bad value of one field fails both.
    values = {name: _as_int32(name, value) for name, value in _settings.items()}
    return values[field]


def _set(field, label, num_threads, core_setter):
    if _settings[field] == num_threads:
        return
    if _core.threading_runtime_started():
        raise RuntimeError("%s parallelism cannot be modified after initialization." % label)
    _settings[field] = num_threads
    try:
        threads = _as_int32(field, num_threads)
    except (TypeError, ValueError):
        threads = 0  # TF fails later, in the getters; graphfn's pool keeps its default size
    if not core_setter(threads):
        raise RuntimeError("%s parallelism cannot be modified after initialization." % label)


@tf_export("config.threading.get_intra_op_parallelism_threads")
def get_intra_op_parallelism_threads():
    """The threads one op may use; 0 means the system picks (all cores, or GRAPHFN_NUM_THREADS)."""
    return _configured("intra_op_parallelism_threads")


@tf_export("config.threading.set_intra_op_parallelism_threads")
def set_intra_op_parallelism_threads(num_threads):
    """Sets the threads one op may use (0: the system picks). Before the runtime starts only."""
    _set("intra_op_parallelism_threads", "Intra op", num_threads, _core.set_intra_op_threads)


@tf_export("config.threading.get_inter_op_parallelism_threads")
def get_inter_op_parallelism_threads():
    """The threads for running independent ops at once; 0 means the system picks."""
    return _configured("inter_op_parallelism_threads")


@tf_export("config.threading.set_inter_op_parallelism_threads")
def set_inter_op_parallelism_threads(num_threads):
    """Sets the threads for running independent ops at once (the calling thread included; 1
    runs every graph's ops in order, 0 the system picks). Before the runtime starts only."""
    _set("inter_op_parallelism_threads", "Inter op", num_threads, _core.set_inter_op_threads)
