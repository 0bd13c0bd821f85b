"""Gradients of tf.image ops against TensorFlow 2.21's recorded gradients (image_cases.GRAD_CASES),
eagerly and inside tf.function, and against central finite differences."""

import json
import os
import sys

import numpy as np
import pytest

import graphfn as tf

sys.path.insert(0, os.path.dirname(__file__))
import image_cases  # noqa: E402
from test_image_ops import TF  # noqa: E402  (graphfn with raw_ops for the resize ops)

with open(os.path.join(os.path.dirname(__file__), "image_goldens.json")) as _f:
    GRADIENTS = json.load(_f)["gradients"]


def _loss(case, x):
    y = case(TF, x)
    return tf.reduce_sum(y * image_cases.grad_weights(tuple(y.shape)))


def _gradient(case, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = _loss(case, x)
    return tape.gradient(loss, x)


@pytest.mark.parametrize("name", sorted(image_cases.GRAD_CASES))
def test_gradient_matches_tensorflow(name):
    got = _gradient(image_cases.GRAD_CASES[name], tf.constant(image_cases.BATCH))
    np.testing.assert_allclose(got.numpy(), np.asarray(GRADIENTS[name]), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["bilinear", "nearest", "bicubic", "lanczos3", "raw_bilinear_align", "crop_or_pad",
                                  "sobel"])
def test_gradient_in_function_matches_tensorflow(name):
    case = image_cases.GRAD_CASES[name]
    got = tf.function(lambda x: _gradient(case, x))(tf.constant(image_cases.BATCH))
    np.testing.assert_allclose(got.numpy(), np.asarray(GRADIENTS[name]), rtol=1e-4, atol=1e-4)


# Nearest neighbour is piecewise constant and total variation has kinks: finite differences
# check the smooth ones, in float64 where the ops allow it.
@pytest.mark.parametrize("name", ["bilinear", "bilinear_down", "bicubic", "raw_bilinear_align", "raw_bicubic_align",
                                  "flip", "rot90", "crop", "pad", "crop_or_pad", "standardization", "sobel",
                                  "crop_and_resize"])
def test_gradient_matches_finite_differences(name):
    case = image_cases.GRAD_CASES[name]
    x0 = image_cases.BATCH.astype(np.float64)[:, :, :, :1]
    analytic = _gradient(case, tf.constant(x0)).numpy()
    eps = 1e-2  # several ops compute in float32 whatever the input; the linear ones are exact
    numeric = np.zeros_like(x0)
    for idx in np.ndindex(*x0.shape):
        plus, minus = x0.copy(), x0.copy()
        plus[idx] += eps
        minus[idx] -= eps
        numeric[idx] = (float(_loss(case, tf.constant(plus))) - float(_loss(case, tf.constant(minus)))) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=2e-3, atol=2e-3)


def test_resize_area_has_no_gradient():
    x = tf.constant(image_cases.BATCH)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 3], method="area")
    with pytest.raises(LookupError, match="ResizeArea"):
        tape.gradient(y, x)


def test_integer_images_have_no_gradient():
    x = tf.constant(image_cases.U8[None])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 3])
    assert tape.gradient(y, x) is None


@pytest.mark.parametrize("crop_size", [[3, 4], [1, 1]])
def test_crop_and_resize_boxes_gradient_matches_tensorflow(crop_size):
    boxes = tf.constant(image_cases.CROP_BOXES)
    with tf.GradientTape() as tape:
        tape.watch(boxes)
        loss = image_cases.crop_boxes_loss(TF, boxes, crop_size)
    got = tape.gradient(loss, boxes).numpy()
    np.testing.assert_allclose(got, np.asarray(GRADIENTS["boxes_%dx%d" % tuple(crop_size)]), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("in_function", [False, True])
def test_rgb_to_hsv_gradient_matches_tensorflow(in_function):
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = image_cases.hsv_loss(TF, x)
        return tape.gradient(loss, x)
    fn = tf.function(gradient) if in_function else gradient
    got = fn(tf.constant(image_cases.HSV_INPUT)).numpy()
    np.testing.assert_allclose(got, np.asarray(GRADIENTS["rgb_to_hsv"]), rtol=1e-4, atol=1e-4)
