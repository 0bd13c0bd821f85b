"""keras.optimizers.Optimizer: the base of SGD, Adam, ...

apply_gradients(zip(grads, variables)) builds the optimizer's slot variables on its first call
(named "<optimizer>/<variable path with _>_<slot>", as Keras 3), then runs each subclass's
update_step. Every update is a variable op (assign, assign_add, assign_sub) on tensors, so the
same code runs eagerly and inside graphfn.function (where the ops become graph nodes, kept in
program order by automatic control dependencies)."""

import itertools
import warnings

import graphfn as _tf
from graphfn import variables as _variables
from graphfn.keras import backend, initializers
from graphfn.keras.variables import Variable

_keys = itertools.count()


def _source_variable(variable):
    """The caller's variable behind the copy a traced function makes of a variable argument (the
    copy holds the graph's handle and lives for one trace only)."""
    return variable.__dict__.get("_traced_from", variable)


def _var_key(variable):
    """A stable key of a variable, kept on the caller's variable: a function traced twice (as on
    a first call that creates slot variables) sees two copies of a variable argument, one key."""
    variable = _source_variable(variable)
    key = variable.__dict__.get("_optimizer_key")
    if key is None:
        key = variable.__dict__["_optimizer_key"] = next(_keys)
    return key


def _var_label(variable):
    return getattr(variable, "path", None) or variable.name


class Optimizer:
    """Optimizer(learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
    global_clipnorm=None, name=None). Subclasses implement build(variables) (creating slots
    with add_variable_from_reference) and update_step(gradient, variable, learning_rate)."""

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError("Argument(s) not recognized: %s" % (kwargs,))
        if use_ema or gradient_accumulation_steps:
            raise NotImplementedError("graphfn.keras optimizers do not implement `use_ema` or "
                                      "`gradient_accumulation_steps`")
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             "clipnorm=%s, clipvalue=%s, global_clipnorm=%s" % (clipnorm, clipvalue, global_clipnorm))
        self.name = name if name is not None else backend.auto_name(backend.snake_case(type(self).__name__))
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = use_ema
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._trainable_variables_indices = {}
        with backend.path_scope(self.name, owner=self):
            self._iterations = Variable(0, name="iteration", dtype="int64", trainable=False)
        self._variables.append(self._iterations)
        if callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if not isinstance(learning_rate, float):
                raise ValueError("Argument `learning_rate` should be float, or an instance of LearningRateSchedule, "
                                 "or a callable (that takes in the current iteration value and returns the "
                                 "corresponding learning rate value). Received instead: learning_rate=%s"
                                 % (learning_rate,))
            with backend.path_scope(self.name, owner=self):
                self._learning_rate = Variable(learning_rate, name="learning_rate", dtype=backend.floatx(),
                                               trainable=False)
            self._variables.append(self._learning_rate)

    # State -----------------------------------------------------------------------------------------

    @property
    def iterations(self):
        return self._iterations

    @property
    def variables(self):
        return self._variables[:]

    @property
    def learning_rate(self):
        if isinstance(self._learning_rate, _variables.Variable):
            return self._learning_rate
        try:
            return self._learning_rate(self._iterations)
        except TypeError:
            return self._learning_rate()

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        if callable(learning_rate) and not isinstance(learning_rate, _variables.Variable):
            self._learning_rate = learning_rate
        elif isinstance(self._learning_rate, _variables.Variable):
            self._learning_rate.assign(learning_rate)
        else:
            with backend.path_scope(self.name, owner=self):
                self._learning_rate = Variable(float(learning_rate), name="learning_rate",
                                               dtype=backend.floatx(), trainable=False)
            self._variables.append(self._learning_rate)

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none", name=None):
        with backend.path_scope(self.name, owner=self):
            variable = Variable(initializers.get(initializer), shape=shape, dtype=dtype or backend.floatx(),
                                trainable=False, name=name)
        self._variables.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A zero slot shaped like `reference_variable`, named after its path ("dense/kernel" ->
        "dense_kernel_<name>") or, for a graphfn.Variable, its name ("Variable:0" ->
        "Variable_0_<name>")."""
        name = name or "var"
        if hasattr(reference_variable, "path"):
            name = "%s_%s" % (reference_variable.path.replace("/", "_"), name)
        else:
            name = "%s_%s" % (str(reference_variable.name).replace("/", "_").replace(":", "_"), name)
        return self.add_variable(shape=reference_variable.shape.as_list(), initializer=initializer,
                                 dtype=reference_variable.dtype, name=name)

    def build(self, variables):
        """Records the variables this optimizer updates (subclasses add their slots)."""
        for variable in variables:
            self._trainable_variables_indices[_var_key(variable)] = len(self._trainable_variables)
            self._trainable_variables.append(_source_variable(variable))
        self.built = True

    def _get_variable_index(self, variable):
        return self._trainable_variables_indices[_var_key(variable)]

    # Applying gradients --------------------------------------------------------------------------------

    def apply_gradients(self, grads_and_vars):
        grads, trainable_variables = zip(*grads_and_vars)
        self.apply(grads, trainable_variables)
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Updates `trainable_variables` (by default those the optimizer was built with) from
        `grads`, then increments `iterations`."""
        if len(grads) == 0:
            return
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first. ")
            if len(grads) != len(self._trainable_variables_indices):
                raise ValueError("When passing `grads` as a list of gradient tensors, the gradients must match "
                                 "`optimizer.variables` one-to-on. Received a list of %d gradients, but the optimizer "
                                 "is tracking %d trainable variables." % (len(grads), len(self._trainable_variables)))
            trainable_variables = self._trainable_variables
        else:
            trainable_variables = list(trainable_variables)
            if not self.built:
                with backend.path_scope(self.name, owner=self):
                    self.build(trainable_variables)
                self.built = True
            for variable in trainable_variables:
                if _var_key(variable) not in self._trainable_variables_indices:
                    raise ValueError("Unknown variable: %s. This optimizer can only be called for the variables it "
                                     "was originally built with. When working with a new set of variables, you "
                                     "should recreate a new optimizer instance." % (variable,))
        grads, trainable_variables = self._filter_empty_gradients(grads, trainable_variables)
        if self.loss_scale_factor is not None:
            grads = [g / self.loss_scale_factor for g in grads]
        grads = self._clip_gradients(grads)
        self._apply_weight_decay(trainable_variables)
        learning_rate = self.learning_rate
        self._step_values = {}
        try:
            for grad, variable in zip(grads, trainable_variables):
                self.update_step(grad, variable, learning_rate)
        finally:
            self._step_values = None
        for variable in trainable_variables:
            constraint = getattr(variable, "constraint", None)
            if constraint is not None:
                variable.assign(constraint(variable))
        self._iterations.assign_add(1)

    def update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError

    def _per_step(self, key, compute):
        """compute(), once per apply() for each key (values that depend only on the step, such
        as Adam's step size, are the same for all variables of a dtype)."""
        cache = getattr(self, "_step_values", None)
        if cache is None:
            return compute()
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    @staticmethod
    def _filter_empty_gradients(grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        missing = [_var_label(v) for g, v in zip(grads, variables) if g is None]
        if missing:
            warnings.warn("Gradients do not exist for variables %s when minimizing the loss. If using "
                          "`model.compile()`, did you forget to provide a `loss` argument?" % (missing,),
                          UserWarning, stacklevel=4)
        return [g for g, _ in kept], [v for _, v in kept]

    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [self._clip_by_norm(g) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = _tf.sqrt(_tf.add_n([_tf.reduce_sum(_tf.square(g)) for g in grads]))
            scale = self.global_clipnorm * _tf.minimum(1.0 / norm, 1.0 / self.global_clipnorm)
            scale = scale + (norm - norm)  # NaN for a non-finite norm, as Keras
            return [g * scale for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            return [_tf.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def _clip_by_norm(self, values):
        """values * clipnorm / max(||values||, clipnorm) (a zero gradient stays zero)."""
        l2sum = _tf.reduce_sum(_tf.square(values), keepdims=True)
        positive = l2sum > 0
        l2norm = _tf.where(positive, _tf.sqrt(_tf.where(positive, l2sum, _tf.ones_like(l2sum))), l2sum)
        return values * self.clipnorm / _tf.maximum(l2norm, self.clipnorm)

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None:
            return
        for variable in variables:
            lr = _tf.cast(self.learning_rate, variable.dtype)
            wd = _tf.cast(self.weight_decay, variable.dtype)
            variable.assign_sub(variable * wd * lr)

    # Configuration ---------------------------------------------------------------------------------------

    def get_config(self):
        learning_rate = self._learning_rate
        if isinstance(learning_rate, _variables.Variable):
            learning_rate = float(learning_rate.numpy())
        return {"name": self.name, "learning_rate": learning_rate, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
