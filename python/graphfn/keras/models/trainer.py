"""compile / fit / evaluate / predict for keras.Model.

Each training step is train_step(data): forward pass under a GradientTape, the compiled loss,
tape.gradient and optimizer.apply. Steps run eagerly (graphfn.function cannot yet record a
GradientTape while tracing); logs are Keras's: the running mean of the loss (weighted by batch
size) and of each compiled metric, sorted by name, "val_" ones after validation."""

import math
import sys
import time

import numpy as np

from graphfn.keras.models.dataset_input import DatasetEpochs, check_dataset_arguments, dataset_batches, is_dataset

from graphfn.eager.backprop import GradientTape
from graphfn.framework.tensor import Tensor
from graphfn.keras import losses as losses_module
from graphfn.keras import metrics as metrics_module
from graphfn.keras import optimizers as optimizers_module
from graphfn.keras import random_state
from graphfn.ops import array_ops


class History:
    """What fit returns: history[name] holds one value per epoch."""

    def __init__(self):
        self.history = {}
        self.epoch = []
        self.params = {}
        self.model = None

    def set_model(self, model):
        self.model = model


def _unpack(data):
    if isinstance(data, tuple):
        data = data + (None,) * (3 - len(data))
        return data[0], data[1], data[2]
    return data, None, None


def _as_array(value):
    if value is None:
        return None
    if isinstance(value, Tensor) or hasattr(value, "numpy"):
        return np.asarray(value.numpy())
    return np.asarray(value)


def _num_samples(x):
    return int(np.shape(x)[0])


def _batches(arrays, batch_size, order):
    for start in range(0, len(order), batch_size):
        index = order[start:start + batch_size]
        yield tuple(None if a is None else array_ops.convert_to_tensor(a[index]) for a in arrays)


def _resolve_metric(identifier, y_true, y_pred):
    """A compiled metric; "accuracy"/"acc" become binary, sparse categorical or categorical
    accuracy from the shapes of the labels and predictions (as Keras chooses)."""
    if str(identifier).lower() in ("accuracy", "acc"):
        t_rank, p_rank = y_true.shape.rank, y_pred.shape.rank
        if y_pred.shape[-1] == 1:
            metric = metrics_module.BinaryAccuracy(name=str(identifier))
        elif t_rank < p_rank or (y_true.shape[-1] == 1 and y_pred.shape[-1] > 1):
            metric = metrics_module.SparseCategoricalAccuracy(name=str(identifier))
        else:
            metric = metrics_module.CategoricalAccuracy(name=str(identifier))
        return metric
    metric = metrics_module.get(identifier)
    if isinstance(identifier, str):
        metric.name = identifier
    return metric


def _format_value(value):
    return "%.4f" % value if abs(value) > 1e-3 else "%.4e" % value


def _format_time(seconds_per_step):
    if seconds_per_step >= 1 or seconds_per_step == 0:
        return "%.0fs/step" % seconds_per_step
    if seconds_per_step >= 1e-3:
        return "%.0fms/step" % (seconds_per_step * 1e3)
    return "%.0fus/step" % (seconds_per_step * 1e6)


def _print_progress(verbose, steps, elapsed, logs):
    """The line Keras's progress bar ends an epoch with (verbose=1 without the live bar)."""
    if not verbose:
        return
    values = "".join(" - %s: %s" % (k, _format_value(v)) for k, v in logs.items())
    per_step = _format_time(elapsed / max(steps, 1))
    digits = int(math.log10(steps)) + 1 if steps > 0 else 1
    count = "%*d/%d" % (digits, steps, steps)
    if verbose == 2:
        sys.stdout.write("%s - %.0fs - %s%s\n" % (count, elapsed, per_step, values))
    else:
        sys.stdout.write("%s %s %.0fs %s%s\n" % (count, "\u2501" * 20, elapsed, per_step, values))


def _callbacks_call(callbacks, method, *args):
    for callback in callbacks:
        fn = getattr(callback, method, None)
        if fn is not None:
            fn(*args)


class Trainer:
    """The training API of keras.Model."""

    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", auto_scale_loss=True):
        self.optimizer = optimizers_module.get(optimizer)
        self.loss = loss
        compiled = losses_module.get(loss) if isinstance(loss, str) else loss
        if compiled is not None and not isinstance(compiled, losses_module.Loss):
            compiled = losses_module.LossFunctionWrapper(compiled, name=getattr(compiled, "__name__", None))
        self._compiled_loss = compiled
        self._metric_identifiers = list(metrics or [])
        # As Keras 3: `metrics` ignore sample weights, `weighted_metrics` use them.
        self._weighted_metric_identifiers = list(weighted_metrics or [])
        self._compiled_metrics = None
        self._weighted_metric_count = 0
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.run_eagerly = run_eagerly
        self.compiled = True

    def _assert_compiled(self):
        if not getattr(self, "compiled", False):
            raise ValueError("You must call `compile()` before using the model.")

    # Steps -------------------------------------------------------------------------------------------

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        if self._compiled_loss is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return self._compiled_loss(y, y_pred, sample_weight=sample_weight)

    def _update_metrics(self, x, y, y_pred, sample_weight, loss):
        self._loss_tracker.update_state(loss, sample_weight=int(x.shape[0]))
        if self._compiled_metrics is None:
            weighted = getattr(self, "_weighted_metric_identifiers", [])
            self._compiled_metrics = [_resolve_metric(m, y, y_pred) for m in self._metric_identifiers + weighted]
            self._weighted_metric_count = len(weighted)
        first_weighted = len(self._compiled_metrics) - self._weighted_metric_count
        for i, metric in enumerate(self._compiled_metrics):
            metric.update_state(y, y_pred, sample_weight=sample_weight if i >= first_weighted else None)

    def train_step(self, data):
        x, y, sample_weight = _unpack(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        trainable = self.trainable_weights
        grads = tape.gradient(loss, trainable)
        self.optimizer.apply(grads, trainable)
        self._update_metrics(x, y, y_pred, sample_weight, loss)
        return self.get_metrics_result()

    def test_step(self, data):
        x, y, sample_weight = _unpack(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._update_metrics(x, y, y_pred, sample_weight, loss)
        return self.get_metrics_result()

    def predict_step(self, data):
        x, _, _ = _unpack(data)
        return self(x, training=False)

    @property
    def metrics(self):
        tracked = [self._loss_tracker] if getattr(self, "_loss_tracker", None) is not None else []
        return tracked + list(getattr(self, "_compiled_metrics", None) or [])

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for metric in self.metrics:
            metric.reset_state()

    def get_metrics_result(self):
        return {name: float(m.result().numpy()) for name, m in sorted((m.name, m) for m in self.metrics)}

    # Loops -------------------------------------------------------------------------------------------

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1):
        self._assert_compiled()
        verbose = 1 if verbose == "auto" else verbose
        if is_dataset(x):
            # As Keras: a dataset brings its own batches (batch_size is ignored), targets and
            # weights, and is not shuffled; steps_per_epoch may continue one iterator across epochs.
            check_dataset_arguments(x, y, sample_weight, validation_split, shuffle)
            if class_weight is not None:
                raise NotImplementedError("graphfn.keras fit does not implement `class_weight`")
            epochs_source = DatasetEpochs(x, steps_per_epoch)
            steps = epochs_source.steps
            batch_size = batch_size or 32
        else:
            if class_weight is not None or steps_per_epoch is not None:
                raise NotImplementedError("graphfn.keras fit does not implement `class_weight`, or `steps_per_epoch` "
                                          "with arrays (it does with a tf.data.Dataset)")
            batch_size = batch_size or 32
            x, y, sample_weight = _as_array(x), _as_array(y), _as_array(sample_weight)
            if validation_split and validation_data is None:
                split = int(_num_samples(x) * (1.0 - validation_split))
                validation_data = (x[split:], None if y is None else y[split:]) + (
                    () if sample_weight is None else (sample_weight[split:],))
                x, y = x[:split], None if y is None else y[:split]
                sample_weight = None if sample_weight is None else sample_weight[:split]
            n = _num_samples(x)
            steps = int(math.ceil(n / batch_size))
            epochs_source = None
        history = History()
        history.set_model(self)
        history.params = {"verbose": verbose, "epochs": epochs, "steps": steps}
        callbacks = list(callbacks or [])
        for callback in callbacks:
            if hasattr(callback, "set_model"):
                callback.set_model(self)
        _callbacks_call(callbacks, "on_train_begin", None)
        self.stop_training = False
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            _callbacks_call(callbacks, "on_epoch_begin", epoch, None)
            if verbose and epochs > 1:  # as Keras 3's progress bar: no "Epoch 1/1" line
                sys.stdout.write("Epoch %d/%d\n" % (epoch + 1, epochs))
            if epochs_source is not None:
                batches = epochs_source.epoch()
            else:
                order = random_state.permutation(n) if shuffle else np.arange(n)
                batches = _batches((x, y, sample_weight), batch_size, order)
            start = time.time()
            logs = {}
            steps_run = 0
            for step, batch in enumerate(batches):
                _callbacks_call(callbacks, "on_train_batch_begin", step, None)
                logs = self.train_step(batch)
                _callbacks_call(callbacks, "on_train_batch_end", step, logs)
                steps_run = step + 1
            logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                if is_dataset(validation_data):
                    val_logs = self.evaluate(validation_data, steps=validation_steps, verbose=0, return_dict=True)
                else:
                    val_x, val_y, val_w = _unpack(tuple(validation_data))
                    val_logs = self.evaluate(val_x, val_y, sample_weight=val_w,
                                             batch_size=validation_batch_size or batch_size, verbose=0,
                                             return_dict=True)
                logs.update({"val_" + k: v for k, v in val_logs.items()})
            _print_progress(verbose, steps_run if epochs_source is not None else steps, time.time() - start, logs)
            for key, value in logs.items():
                history.history.setdefault(key, []).append(value)
            history.epoch.append(epoch)
            _callbacks_call(callbacks, "on_epoch_end", epoch, logs)
            if self.stop_training:
                break
        _callbacks_call(callbacks, "on_train_end", None)
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False):
        self._assert_compiled()
        verbose = 1 if verbose == "auto" else verbose
        batch_size = batch_size or 32
        if is_dataset(x):
            check_dataset_arguments(x, y, sample_weight)
            batches = dataset_batches(x, steps)
        else:
            x, y, sample_weight = _as_array(x), _as_array(y), _as_array(sample_weight)
            batches = _batches((x, y, sample_weight), batch_size, np.arange(_num_samples(x)))
        self.reset_metrics()
        start = time.time()
        logs = {}
        steps_run = 0
        for batch in batches:
            logs = self.test_step(batch)
            steps_run += 1
        _print_progress(verbose, steps_run, time.time() - start, logs)
        if return_dict:
            return logs
        values = [logs["loss"]] + [logs[m.name] for m in (self._compiled_metrics or [])]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        batch_size = batch_size or 32
        if is_dataset(x):  # elements are x, or (x, y[, sample_weight]) of which x is used
            outputs = [np.asarray(self.predict_step(batch).numpy()) for batch in dataset_batches(x, steps)]
            return np.concatenate(outputs, axis=0)
        x = _as_array(x)
        outputs = [np.asarray(self.predict_step((batch,)).numpy())
                   for (batch,) in _batches((x,), batch_size, np.arange(_num_samples(x)))]
        return np.concatenate(outputs, axis=0)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        self._assert_compiled()
        self.reset_metrics()
        logs = self.train_step((array_ops.convert_to_tensor(_as_array(x)),
                                None if y is None else array_ops.convert_to_tensor(_as_array(y)),
                                None if sample_weight is None else array_ops.convert_to_tensor(sample_weight)))
        if return_dict:
            return logs
        values = [logs["loss"]] + [logs[m.name] for m in (self._compiled_metrics or [])]
        return values[0] if len(values) == 1 else values

    def predict_on_batch(self, x):
        return np.asarray(self(array_ops.convert_to_tensor(_as_array(x)), training=False).numpy())
