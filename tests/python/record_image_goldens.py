"""Records TensorFlow 2.21's results for image_cases.py into image_goldens.json:
    ~/tf/bin/python tests/python/record_image_goldens.py
Values (as lists), dtypes and shapes for CASES; exception type and message for ERRORS;
gradients for GRAD_CASES."""

import json
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
import image_cases  # noqa: E402


def main():
    results, errors = {}, {}
    for name, case in image_cases.CASES.items():
        value = case(tf)
        results[name] = {"dtype": value.dtype.name, "shape": list(value.shape),
                         "value": np.asarray(value.numpy(), np.float64).tolist()}
    for name, case in image_cases.ERRORS.items():
        try:
            case(tf)
        except Exception as e:  # noqa: BLE001 (recording whatever TF raises)
            errors[name] = {"type": type(e).__name__, "message": str(e)}
        else:
            raise AssertionError("%s did not raise in TF" % name)
    gradients = {}
    for name, case in image_cases.GRAD_CASES.items():
        x = tf.constant(image_cases.BATCH)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = case(tf, x)
            loss = tf.reduce_sum(y * image_cases.grad_weights(y.shape))
        gradients[name] = np.asarray(tape.gradient(loss, x).numpy(), np.float64).tolist()
    for crop_size in ([3, 4], [1, 1]):
        boxes = tf.constant(image_cases.CROP_BOXES)
        with tf.GradientTape() as tape:
            tape.watch(boxes)
            loss = image_cases.crop_boxes_loss(tf, boxes, crop_size)
        gradients["boxes_%dx%d" % tuple(crop_size)] = np.asarray(tape.gradient(loss, boxes).numpy(), np.float64).tolist()
    x = tf.constant(image_cases.HSV_INPUT)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = image_cases.hsv_loss(tf, x)
    gradients["rgb_to_hsv"] = np.asarray(tape.gradient(loss, x).numpy(), np.float64).tolist()
    shapes = {}
    for name, (shape, case) in image_cases.SHAPE_CASES.items():
        fn = tf.function(lambda x, case=case: case(tf, x))
        shapes[name] = str(fn.get_concrete_function(tf.TensorSpec(shape, tf.float32)).structured_outputs.shape)
    path = os.path.join(os.path.dirname(__file__), "image_goldens.json")
    with open(path, "w") as f:
        json.dump({"results": results, "errors": errors, "gradients": gradients, "shapes": shapes}, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
