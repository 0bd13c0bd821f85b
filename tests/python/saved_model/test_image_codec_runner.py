"""A saved function that decodes and encodes images runs in graphfn-run (no Python): the codec
ops are C++ kernels. Expected pixels and bytes are TF 2.21's (tests/python/data_fixtures/images)."""

import os

import numpy as np

import graphfn as tf
from saved_cases import run_graphfn_run

IMAGES = os.path.join(os.path.dirname(__file__), "..", "data_fixtures", "images")


class Codecs(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def gray(self, png):
        image = tf.io.decode_png(png, channels=1)
        return {"pixels": image, "jpeg": tf.io.encode_jpeg(tf.io.decode_image(png, expand_animations=False))}


def test_image_codecs_run_in_graphfn_run(tmp_path):
    recorded = np.load(os.path.join(IMAGES, "image_codecs.npz"))
    with open(os.path.join(IMAGES, "rgb.png"), "rb") as f:
        png = f.read()
    module = Codecs()
    tf.saved_model.save(module, str(tmp_path / "codecs"), signatures={"serving_default": module.gray})
    np.save(tmp_path / "png.npy", np.array(png))
    result = run_graphfn_run(tmp_path / "codecs", "--input", "png=%s" % (tmp_path / "png.npy"), "--output_dir",
                             tmp_path / "out")
    assert result.returncode == 0, result.stderr
    pixels = np.load(tmp_path / "out" / "pixels.npy")
    np.testing.assert_array_equal(pixels, recorded["decode/rgb.png/decode_png/channels=1"])
    jpeg = np.load(tmp_path / "out" / "jpeg.npy")
    assert jpeg.tobytes() == recorded["encode/jpeg/rgb/default"].tobytes()
