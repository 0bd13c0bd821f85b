"""keras.optimizers.Adam, with Keras 3's update (bias correction folded into the step size,
epsilon added to sqrt(v))."""

import graphfn as _tf
from graphfn.keras.optimizers.optimizer import Optimizer


class Adam(Optimizer):
    """With t = iterations + 1:
        alpha = lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)
        m += (g - m) * (1 - beta_1);  v += (g^2 - v) * (1 - beta_2)
        w -= m * alpha / (sqrt(v) + epsilon)
    (amsgrad: v is replaced by the running maximum of v)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._momentums, self._velocities, self._velocity_hats = [], [], []
        for v in variables:
            self._momentums.append(self.add_variable_from_reference(v, "momentum"))
            self._velocities.append(self.add_variable_from_reference(v, "velocity"))
            if self.amsgrad:
                self._velocity_hats.append(self.add_variable_from_reference(v, "velocity_hat"))

    def _step_size(self, learning_rate, dtype):
        """alpha for this step (the same for every variable of a dtype: computed once)."""
        lr = _tf.cast(learning_rate, dtype)
        local_step = _tf.cast(self._iterations + 1, dtype)
        beta_1_power = _tf.pow(_tf.cast(self.beta_1, dtype), local_step)
        beta_2_power = _tf.pow(_tf.cast(self.beta_2, dtype), local_step)
        return lr * _tf.sqrt(1 - beta_2_power) / (1 - beta_1_power)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        gradient = _tf.cast(gradient, dtype)
        index = self._get_variable_index(variable)
        m = self._momentums[index]
        v = self._velocities[index]
        alpha = self._per_step(dtype, lambda: self._step_size(learning_rate, dtype))
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((_tf.square(gradient) - v) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[index]
            v_hat.assign(_tf.maximum(v_hat, v))
            v = v_hat
        variable.assign_sub((m * alpha) / (_tf.sqrt(v) + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config
