"""tf.VariableAggregation and tf.VariableSynchronization: how a variable's replicas combine
and synchronize. graphfn has one replica, so variables accept these values and store nothing."""

import enum

from graphfn.util.tf_export import tf_export


@tf_export("VariableAggregation")
class VariableAggregationV2(enum.Enum):
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


@tf_export("VariableSynchronization")
class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3
