"""keras.optimizers.RMSprop."""

import graphfn as _tf
from graphfn.keras.optimizers.optimizer import Optimizer


class RMSprop(Optimizer):
    """v = rho * v + (1 - rho) * g^2; step = lr * g / sqrt(v + epsilon) (centered: v minus the
    squared running mean of g); with momentum: m = momentum * m + step, w -= m; else w -= step."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._velocities = [self.add_variable_from_reference(v, "velocity") for v in variables]
        self._momentums = []
        if self.momentum > 0:
            self._momentums = [self.add_variable_from_reference(v, "momentum") for v in variables]
        self._average_gradients = []
        if self.centered:
            self._average_gradients = [self.add_variable_from_reference(v, "average_gradient") for v in variables]

    def update_step(self, gradient, variable, learning_rate):
        lr = _tf.cast(learning_rate, variable.dtype)
        gradient = _tf.cast(gradient, variable.dtype)
        index = self._get_variable_index(variable)
        velocity = self._velocities[index]
        rho = self.rho
        velocity.assign(rho * velocity + (1 - rho) * _tf.square(gradient))
        if self.centered:
            average = self._average_gradients[index]
            average.assign(rho * average + (1 - rho) * gradient)
            denominator = velocity - _tf.square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = (lr * gradient) / _tf.sqrt(denominator)
        if self.momentum > 0:
            momentum = self._momentums[index]
            momentum.assign(self.momentum * momentum + increment)
            variable.assign_sub(momentum)
        else:
            variable.assign_sub(increment)

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config
