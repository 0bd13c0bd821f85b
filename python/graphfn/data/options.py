"""tf.data.Options and its groups (OptimizationOptions, ThreadingOptions, ...): TF 2.21's fields,
defaults (None: "TF's default"), type checks and errors, and merging along a pipeline (a later
with_options wins field by field). What graphfn does with them is in docs/data.md ("Options"):
`deterministic` decides whether map(num_parallel_calls) may return results out of order; the
others are accepted and kept (options() returns them) but change nothing, since graphfn's
pipeline has no graph rewrites, thread pools of its own per dataset, or sharding."""

import enum

from graphfn.util.tf_export import tf_export


@tf_export("data.experimental.AutoShardPolicy")
class AutoShardPolicy(enum.IntEnum):
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


@tf_export("data.experimental.ExternalStatePolicy")
class ExternalStatePolicy(enum.Enum):
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsGroup:
    """Fields declared in _FIELDS as name -> (type, default factory); unknown names are refused."""

    _FIELDS = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in cls._FIELDS:  # each field a property, as TF's options classes have
            setattr(cls, name, property(lambda self, n=name: object.__getattribute__(self, "_" + n),
                                        lambda self, value, n=name: _OptionsGroup.__setattr__(self, n, value)))

    def __init__(self):
        for name, (_, default) in self._FIELDS.items():
            object.__setattr__(self, "_" + name, default())

    def __setattr__(self, name, value):
        field = self._FIELDS.get(name)
        if field is None:
            raise AttributeError("Cannot set the property %s on %s." % (name, type(self).__name__))
        kind = field[0]
        if value is not None and not _is_a(value, kind):
            raise TypeError('Property "%s" must be of type %s, got: %s (type: %s)' % (name, kind, value, type(value)))
        object.__setattr__(self, "_" + name, value)

    def __repr__(self):  # TF's default repr, with graphfn's module
        return "<%s.%s object at %#x>" % (type(self).__module__, type(self).__name__, id(self))

    def __eq__(self, other):
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None  # as TF: options compare by value and are not hashable

    def _merged_with(self, later):
        """A copy of self with every field `later` sets (to other than its default) taken from it."""
        merged = type(self)()
        for name in self._FIELDS:
            mine, theirs = getattr(self, name), getattr(later, name)
            if isinstance(mine, _OptionsGroup):
                value = mine._merged_with(theirs)
            else:
                value = mine if theirs == _default_of(type(self), name) else theirs
            object.__setattr__(merged, "_" + name, value)
        return merged


def _is_a(value, kind):
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind)


def _default_of(cls, name):
    return cls._FIELDS[name][1]()


def _none():
    return None


@tf_export("data.experimental.OptimizationOptions")
class OptimizationOptions(_OptionsGroup):
    _FIELDS = {name: (bool, _none) for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
        "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination",
        "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")}


@tf_export("data.experimental.ThreadingOptions", "data.ThreadingOptions")
class ThreadingOptions(_OptionsGroup):
    _FIELDS = {"max_intra_op_parallelism": (int, _none), "private_threadpool_size": (int, _none)}


@tf_export("data.experimental.DistributeOptions")
class DistributeOptions(_OptionsGroup):
    _FIELDS = {"auto_shard_policy": (AutoShardPolicy, lambda: AutoShardPolicy.AUTO), "num_devices": (int, _none)}


@tf_export("data.experimental.AutotuneOptions")
class AutotuneOptions(_OptionsGroup):
    _FIELDS = {"autotune_algorithm": (enum.Enum, _none), "cpu_budget": (int, _none), "enabled": (bool, _none),
               "initial_parallelism": (int, _none), "min_parallelism": (int, _none), "ram_budget": (int, _none)}


class ServiceOptions(_OptionsGroup):
    _FIELDS = {"pinned": (bool, _none)}


@tf_export("data.Options")
class Options(_OptionsGroup):
    _FIELDS = {
        "autotune": (AutotuneOptions, AutotuneOptions),
        "dataset_name": (str, _none),
        "deterministic": (bool, _none),
        "experimental_deterministic": (bool, _none),
        "experimental_distribute": (DistributeOptions, DistributeOptions),
        "experimental_external_state_policy": (ExternalStatePolicy, _none),
        "experimental_optimization": (OptimizationOptions, OptimizationOptions),
        "experimental_service": (ServiceOptions, ServiceOptions),
        "experimental_slack": (bool, _none),
        "experimental_symbolic_checkpoint": (bool, _none),
        "experimental_warm_start": (bool, _none),
        "framework_type": (list, _none),
        "threading": (ThreadingOptions, ThreadingOptions),
    }

    @property
    def experimental_threading(self):  # TF's deprecated name of `threading`
        return self.threading

    def merge(self, options):
        """These options with the fields `options` sets taking precedence (TF's Options.merge)."""
        return self._merged_with(options)
