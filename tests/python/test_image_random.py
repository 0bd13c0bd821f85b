"""Random and stateless random tf.image ops: TF's ranges and distributions (samples need not be
TF's bits), determinism per seed for the stateless ones, and TF's errors (recorded from TF 2.21)."""

import numpy as np
import pytest

import graphfn as tf
from graphfn import errors

IMG = np.random.default_rng(7).uniform(0.1, 0.9, size=(4, 5, 3)).astype(np.float32)
BATCH = np.random.default_rng(8).uniform(0, 1, size=(64, 2, 3, 1)).astype(np.float32)


def test_random_flip_left_right_is_a_fair_coin():
    tf.random.set_seed(1)
    flipped = 0
    for _ in range(300):
        out = tf.image.random_flip_left_right(IMG).numpy()
        if np.array_equal(out, IMG[:, ::-1]):
            flipped += 1
        else:
            np.testing.assert_array_equal(out, IMG)
    assert 120 <= flipped <= 180  # 300 fair coins: 150 +- 2.9 sigma


@pytest.mark.parametrize("fn, axis", [(tf.image.random_flip_up_down, 1), (tf.image.random_flip_left_right, 2)])
def test_random_flip_batch_flips_each_image_independently(fn, axis):
    out = fn(BATCH, seed=3).numpy()
    flipped = np.flip(BATCH, axis=axis)
    is_flipped = [np.array_equal(o, f) for o, f in zip(out, flipped)]
    for o, b, f in zip(out, BATCH, is_flipped):
        if not f:
            np.testing.assert_array_equal(o, b)
    assert 16 <= sum(is_flipped) <= 48


@pytest.mark.parametrize("fn", [tf.image.stateless_random_flip_left_right, tf.image.stateless_random_flip_up_down])
def test_stateless_flip_is_deterministic_per_seed(fn):
    outcomes = set()
    for seed in range(40):
        first = fn(IMG, seed=(seed, 5)).numpy()
        np.testing.assert_array_equal(first, fn(IMG, seed=(seed, 5)).numpy())
        np.testing.assert_array_equal(first, tf.function(lambda: fn(IMG, seed=(seed, 5)))().numpy())
        outcomes.add(first.tobytes())
    assert len(outcomes) == 2  # both "flipped" and "not flipped" occur over the seeds


def test_random_brightness_delta_is_uniform_in_range():
    tf.random.set_seed(2)
    deltas = []
    for _ in range(200):
        out = tf.image.random_brightness(IMG, 0.2).numpy()
        delta = out - IMG
        np.testing.assert_allclose(delta, delta.flat[0], atol=1e-6)  # one delta per image
        deltas.append(delta.flat[0])
    deltas = np.array(deltas)
    assert deltas.min() >= -0.2 - 1e-6 and deltas.max() < 0.2 + 1e-6
    assert abs(deltas.mean()) < 0.03  # uniform(-0.2, 0.2): mean 0, sd of the mean 0.008
    assert abs(deltas.std() - 0.4 / np.sqrt(12)) < 0.02


def _contrast_factor(out, image):
    mean = image.mean(axis=(0, 1), keepdims=True)
    return np.median((out - mean) / (image - mean))


def test_random_contrast_factor_is_in_range():
    tf.random.set_seed(3)
    factors = [_contrast_factor(tf.image.random_contrast(IMG, 0.5, 1.5).numpy(), IMG) for _ in range(100)]
    assert min(factors) >= 0.5 - 1e-4 and max(factors) <= 1.5 + 1e-4
    assert abs(np.mean(factors) - 1.0) < 0.08


def test_stateless_contrast_and_brightness_are_deterministic():
    for seed in [(1, 2), (3, 4)]:
        a = tf.image.stateless_random_contrast(IMG, 0.2, 0.8, seed=seed).numpy()
        np.testing.assert_array_equal(a, tf.image.stateless_random_contrast(IMG, 0.2, 0.8, seed=seed).numpy())
        assert 0.2 - 1e-4 <= _contrast_factor(a, IMG) <= 0.8 + 1e-4
        b = tf.image.stateless_random_brightness(IMG, 0.3, seed=seed).numpy()
        np.testing.assert_array_equal(b, tf.image.stateless_random_brightness(IMG, 0.3, seed=seed).numpy())
        assert abs((b - IMG).flat[0]) <= 0.3
    first = tf.image.stateless_random_brightness(IMG, 0.3, seed=(1, 2)).numpy()
    assert not np.array_equal(first, tf.image.stateless_random_brightness(IMG, 0.3, seed=(2, 1)).numpy())


@pytest.mark.parametrize("name, args", [("saturation", (0.5, 2.0)), ("hue", (0.3,))])
def test_random_saturation_and_hue(name, args):
    tf.random.set_seed(4)
    out = getattr(tf.image, "random_" + name)(IMG, *args).numpy()
    assert out.shape == IMG.shape and out.min() >= 0 and out.max() <= 1 + 1e-6
    stateless = getattr(tf.image, "stateless_random_" + name)
    a = stateless(IMG, *args, seed=(9, 9)).numpy()
    np.testing.assert_array_equal(a, stateless(IMG, *args, seed=(9, 9)).numpy())
    # The image's value channel (max of r, g, b) is unchanged by hue and saturation shifts.
    np.testing.assert_allclose(a.max(axis=-1), IMG.max(axis=-1), atol=1e-5)


def _offset_of(crop, image):
    h, w = crop.shape[:2]
    for i in range(image.shape[0] - h + 1):
        for j in range(image.shape[1] - w + 1):
            if np.array_equal(image[i:i + h, j:j + w], crop):
                return i, j
    raise AssertionError("the crop is not a window of the image")


def test_random_crop_offsets_are_uniform():
    tf.random.set_seed(5)
    image = np.arange(4 * 5 * 1, dtype=np.float32).reshape(4, 5, 1)
    counts = {}
    for _ in range(240):
        crop = tf.image.random_crop(image, [2, 3, 1]).numpy()
        offset = _offset_of(crop, image)
        counts[offset] = counts.get(offset, 0) + 1
    assert len(counts) == 9  # every offset in [0, 2] x [0, 2]
    assert min(counts.values()) >= 10  # 240 / 9 = 26.7 each


def test_stateless_random_crop_is_deterministic():
    image = np.arange(6 * 6 * 2, dtype=np.float32).reshape(6, 6, 2)
    seen = set()
    for seed in range(20):
        a = tf.image.stateless_random_crop(image, [3, 2, 2], seed=(seed, 0)).numpy()
        np.testing.assert_array_equal(a, tf.image.stateless_random_crop(image, [3, 2, 2], seed=(seed, 0)).numpy())
        seen.add(_offset_of(a, image))
    assert len(seen) > 5


def test_stateless_uniform_moments_and_determinism():
    x = tf.random.stateless_uniform([20000], seed=[3, 4], minval=-1.0, maxval=3.0).numpy()
    assert x.min() >= -1 and x.max() < 3
    assert abs(x.mean() - 1.0) < 0.03 and abs(x.var() - 16 / 12) < 0.05
    np.testing.assert_array_equal(x, tf.random.stateless_uniform([20000], seed=[3, 4], minval=-1.0, maxval=3.0).numpy())
    ints = tf.random.stateless_uniform([10000], seed=[1, 1], minval=5, maxval=9, dtype=tf.int32).numpy()
    assert set(np.unique(ints)) == {5, 6, 7, 8}
    n = tf.random.stateless_normal([20000], seed=[5, 6], mean=2.0, stddev=0.5).numpy()
    assert abs(n.mean() - 2.0) < 0.02 and abs(n.std() - 0.5) < 0.02
    t = tf.random.stateless_truncated_normal([20000], seed=[5, 6]).numpy()
    assert np.abs(t).max() < 2 and abs(t.std() - 0.8796) < 0.02  # sd of N(0, 1) truncated to (-2, 2)


# (expression, TF's exception type, TF's message), recorded from TF 2.21.
STATELESS_ERRORS = [
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2, 3]), errors.InvalidArgumentError,
     "seed must have shape [2], not [3]"),
    (lambda: tf.random.stateless_uniform([2], seed=[1.0, 2.0]), errors.InvalidArgumentError,
     "Value for attr 'Tseed' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32), ValueError,
     "For integer `dtype` argument <dtype: 'int32'>, argument `minval` and `maxval` must be both None or not None. "
     "Got `minval`=0 and `maxval`=None."),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32, minval=5, maxval=3),
     errors.InvalidArgumentError, "Need minval < maxval, got 5 >= 3"),
    (lambda: tf.image.stateless_random_flip_left_right(np.zeros((2, 2, 1), np.float32), seed=[1, 2, 3]),
     errors.InvalidArgumentError, "seed must have shape [2], not [3]"),
    (lambda: tf.image.stateless_random_crop(np.zeros((2, 2, 1), np.float32), [3, 1, 1], seed=[1, 2]),
     errors.InvalidArgumentError, "Need value.shape >= size, got "),
]


@pytest.mark.parametrize("index", range(len(STATELESS_ERRORS)))
def test_stateless_errors_match_tensorflow(index):
    expr, error, message = STATELESS_ERRORS[index]
    with pytest.raises(error) as info:
        expr()
    assert message in str(info.value)
