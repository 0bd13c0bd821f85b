"""keras.optimizers.SGD: gradient descent, with (Nesterov) momentum."""

import graphfn as _tf
from graphfn.keras.optimizers.optimizer import Optimizer


class SGD(Optimizer):
    """Without momentum: w -= lr * g. With momentum: m = momentum * m - lr * g, then w += m
    (Nesterov: w += momentum * m - lr * g)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name, **kwargs)
        if not isinstance(momentum, (int, float)) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = []
        if self.momentum != 0:
            self.momentums = [self.add_variable_from_reference(v, "momentum") for v in variables]

    def update_step(self, gradient, variable, learning_rate):
        learning_rate = _tf.cast(learning_rate, variable.dtype)
        gradient = _tf.cast(gradient, variable.dtype)
        if self.momentum == 0:
            variable.assign_sub(gradient * learning_rate)
            return
        m = self.momentums[self._get_variable_index(variable)]
        momentum = _tf.cast(self.momentum, variable.dtype)
        m.assign(m * momentum - gradient * learning_rate)
        if self.nesterov:
            variable.assign_add(m * momentum - gradient * learning_rate)
        else:
            variable.assign_add(m)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
