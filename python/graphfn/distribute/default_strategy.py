"""tf.distribute's default strategy: one replica on the local device.

Outside any `strategy.scope()`, TensorFlow code runs under a default strategy whose replica
context does nothing but call the functions given to it: `all_reduce` of one replica is the
value itself, `merge_call` calls the function with the strategy, `extended.update` applies the
update to the variable. Keras 3 writes its training loop and optimizers against this interface;
graphfn has only this strategy (no MirroredStrategy and co. yet, see docs/keras.md)."""

import contextlib
import enum
import threading

from graphfn.util.tf_export import tf_export


@tf_export("distribute.ReduceOp")
class ReduceOp(enum.Enum):
    """How values of several replicas combine."""
    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        name = getattr(aggregation, "name", str(aggregation)).upper()
        if name not in ("SUM", "MEAN"):
            raise ValueError("Could not convert from `tf.VariableAggregation` %s to `tf.distribute.ReduceOp` type"
                             % aggregation)
        return ReduceOp[name]


def _reduce_op(reduce_op):
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    try:
        return ReduceOp[str(reduce_op).upper()]
    except KeyError:
        raise ValueError("ReduceOp must be 'SUM' or 'MEAN' (or tf.distribute.ReduceOp), got %r" % (reduce_op,))


class _Extended:
    """strategy.extended: the variable-placement and update hooks."""

    def __init__(self, strategy):
        self._container_strategy_weakref = strategy
        self.worker_devices = ("/job:localhost/replica:0/task:0/device:CPU:0",)
        self.parameter_devices = self.worker_devices
        self.num_replicas_per_host = 1

    def colocate_vars_with(self, colocate_with_variable):
        return contextlib.nullcontext()

    def update(self, var, fn, args=(), kwargs=None, group=True):
        return fn(var, *args, **(kwargs or {}))

    def variable_created_in_scope(self, v):
        return True

    def _in_multi_worker_mode(self):
        return False

    def _use_merge_call(self):
        return False

    @property
    def experimental_require_static_shapes(self):
        return False


@tf_export("distribute.Strategy")
class Strategy:
    """A way to run a computation on several devices. graphfn has one: the default strategy
    (tf.distribute.get_strategy() outside any scope), one replica on this machine."""

    def __init__(self, extended=None):
        if type(self) is not _DefaultStrategy:
            raise NotImplementedError("graphfn does not have tf.distribute strategies other than the default one "
                                      "yet (tf.distribute.get_strategy()).")
        self.extended = _Extended(self)

    @property
    def num_replicas_in_sync(self):
        return 1

    @contextlib.contextmanager
    def scope(self):
        yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        with _replica_scope():
            return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op, value, axis=None):
        reduce_op = _reduce_op(reduce_op)
        if axis is None:
            return value
        from graphfn.ops import reduction_ops  # lazily: the ops import much of graphfn
        if reduce_op is ReduceOp.SUM:
            return reduction_ops.reduce_sum(value, axis=axis)
        return reduction_ops.reduce_mean(value, axis=axis)

    def gather(self, value, axis):
        return value

    def experimental_local_results(self, value):
        return (value,)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(InputContext())


class _DefaultStrategy(Strategy):
    pass


@tf_export("distribute.InputContext")
class InputContext:
    """What an input function of a strategy is told: one pipeline, one replica."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError("The `global_batch_size` %r is not divisible by `num_replicas_in_sync` %r "
                             % (global_batch_size, self.num_replicas_in_sync))
        return global_batch_size // self.num_replicas_in_sync


@tf_export("distribute.ReplicaContext")
class ReplicaContext:
    """The replica a function runs on: replica 0 of 1."""

    def __init__(self, strategy, replica_id_in_sync_group=0):
        self._strategy = strategy
        self.replica_id_in_sync_group = replica_id_in_sync_group

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return 1

    def all_reduce(self, reduce_op, value, options=None):
        _reduce_op(reduce_op)  # checks it
        return value  # one replica: the sum and the mean of one value are the value

    def all_gather(self, value, axis, options=None):
        return value

    def merge_call(self, merge_fn, args=(), kwargs=None):
        return merge_fn(self._strategy, *args, **(kwargs or {}))


_DEFAULT = _DefaultStrategy()
_state = threading.local()


@contextlib.contextmanager
def _replica_scope():
    depth = getattr(_state, "in_run", 0)
    _state.in_run = depth + 1
    try:
        yield
    finally:
        _state.in_run = depth


@tf_export("distribute.get_strategy")
def get_strategy():
    """The current strategy: the default one (graphfn has no other yet)."""
    return _DEFAULT


@tf_export("distribute.has_strategy")
def has_strategy():
    """False: only the default strategy exists, and it does not count."""
    return False


@tf_export("distribute.get_replica_context")
def get_replica_context():
    """The default replica context (TF returns it outside any strategy scope)."""
    return ReplicaContext(_DEFAULT)


@tf_export("distribute.in_cross_replica_context")
def in_cross_replica_context():
    return False


def maybe_merge_call(fn, strategy, *args, **kwargs):
    """Calls fn(strategy, *args, **kwargs): with one replica there is nothing to merge."""
    return fn(strategy, *args, **kwargs)


def strategy_supports_no_merge_call():
    return True


tf_export("__internal__.distribute.interim.maybe_merge_call")(maybe_merge_call)
tf_export("__internal__.distribute.strategy_supports_no_merge_call")(strategy_supports_no_merge_call)


def _missing_strategy(name):
    class MissingStrategy(Strategy):
        def __init__(self, *args, **kwargs):
            raise NotImplementedError("graphfn does not have tf.distribute.%s yet: graphfn runs on one device "
                                      "with the default strategy (tf.distribute.get_strategy())." % name)
    MissingStrategy.__name__ = MissingStrategy.__qualname__ = name
    return tf_export("distribute." + name)(MissingStrategy)


MirroredStrategy = _missing_strategy("MirroredStrategy")
MultiWorkerMirroredStrategy = _missing_strategy("MultiWorkerMirroredStrategy")
TPUStrategy = _missing_strategy("TPUStrategy")
OneDeviceStrategy = _missing_strategy("OneDeviceStrategy")


# Types of distributed values: graphfn never makes them, but code checks isinstance against them.
@tf_export("distribute.DistributedValues")
class DistributedValues:
    pass


@tf_export("distribute.DistributedDataset")
class DistributedDataset:
    pass


@tf_export("distribute.DistributedIterator")
class DistributedIterator:
    pass


@tf_export("types.experimental.distributed.PerReplica")
class PerReplica(DistributedValues):
    pass
