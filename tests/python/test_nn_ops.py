"""tf.nn.softmax, log_softmax and the softmax cross-entropy losses (expected values and messages
from TF 2.21)."""

import numpy as np
import pytest

import graphfn as tf

_PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
LOGITS = [[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]]


def test_softmax():
    np.testing.assert_allclose(tf.nn.softmax([1.0, 2.0, 3.0]).numpy(), [0.09003057, 0.24472848, 0.6652409], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.softmax([[1.0, 2.0], [3.0, 5.0]], axis=0).numpy(),
                               [[0.11920291, 0.04742587], [0.880797, 0.95257413]], rtol=1e-6)
    assert tf.math.softmax(tf.zeros([2, 0])).shape == (2, 0)
    assert tf.nn.softmax(tf.constant([1.0, 2.0], tf.float64)).dtype == tf.float64


def test_log_softmax():
    np.testing.assert_allclose(tf.nn.log_softmax([[1.0, 2.0, 3.0]]).numpy(), [[-2.407606, -1.4076059, -0.40760595]],
                               rtol=1e-6)


def test_sparse_softmax_cross_entropy():
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 2], logits=LOGITS)
    np.testing.assert_allclose(loss.numpy(), [2.407606, 2.407606], rtol=1e-6)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 1]], logits=[LOGITS])
    assert loss.shape == (1, 2)
    np.testing.assert_allclose(loss.numpy(), [[2.407606, 1.4076059]], rtol=1e-6)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=0, logits=[1.0, 2.0, 3.0])
    assert loss.shape == () and abs(float(loss) - 2.4076058864593506) < 1e-6


def test_softmax_cross_entropy():
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]], logits=LOGITS)
    np.testing.assert_allclose(loss.numpy(), [1.4076059, 0.9076059], rtol=1e-6)


@pytest.mark.parametrize("fn,exc,message", [
    (lambda: tf.nn.softmax(3.0), tf.errors.AbortedError,
     _PREFIX % "Softmax" + "Input dims must be <= 5 and >=1 [Op:Softmax] name: "),
    (lambda: tf.nn.log_softmax(3.0), tf.errors.InvalidArgumentError,
     _PREFIX % "LogSoftmax" + "logits must have >= 1 dimension, got [] [Op:LogSoftmax] name: "),
    (lambda: tf.nn.softmax([[1.0, 2.0], [3.0, 5.0]], axis=2), tf.errors.InvalidArgumentError,
     "`dim` must be in the range [-2, 2) where 2 is the number of dimensions in the input. Received: dim=2"),
    (lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 5], logits=LOGITS),
     tf.errors.InvalidArgumentError,
     _PREFIX % "SparseSoftmaxCrossEntropyWithLogits" + "Received a label value of 5 which is outside the valid range "
     "of [0, 3).  Label values: 0 5 [Op:SparseSoftmaxCrossEntropyWithLogits] name: "),
    (lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0], logits=LOGITS), ValueError,
     "`labels.shape` must equal `logits.shape` except for the last dimension. Received: labels.shape=(1,) and "
     "logits.shape=(2, 3)"),
    (lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 1]], logits=LOGITS), ValueError,
     "`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=(1, 2) of rank 2 and "
     "logits.shape=(2, 3) of rank 2"),
    (lambda: tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0], [0.5, 0.5]], logits=LOGITS),
     tf.errors.InvalidArgumentError,
     _PREFIX % "SoftmaxCrossEntropyWithLogits" + "logits and labels must be broadcastable: logits_size=[2,3] "
     "labels_size=[2,2] [Op:SoftmaxCrossEntropyWithLogits] name: "),
])
def test_errors(fn, exc, message):
    with pytest.raises(exc) as e:
        fn()
    assert str(e.value) == message


def test_sparse_cross_entropy_of_a_perfect_prediction_is_positive_zero():
    # TF 2.21 returns +0.0 (not -0.0) when the label's logit dominates completely.
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0]), logits=tf.constant([[100.0, 0.0]]))
    assert loss.numpy()[0] == 0.0 and not np.signbit(loss.numpy()[0])
