"""tf.image cases shared by the recorder (run with TensorFlow 2.21: record_image_goldens.py) and
the tests (run with graphfn: test_image_ops.py). Each case is a function of the module `tf`
(TensorFlow or graphfn) returning a tensor; inputs are fixed NumPy arrays."""

import numpy as np

_rng = np.random.default_rng(20261126)
IMG = _rng.uniform(0, 1, size=(5, 7, 3)).astype(np.float32)           # one RGB image
BATCH = _rng.uniform(-2, 3, size=(2, 4, 6, 2)).astype(np.float32)      # two 2-channel images
U8 = _rng.integers(0, 256, size=(4, 5, 3)).astype(np.uint8)
I16 = _rng.integers(-3000, 3000, size=(3, 4, 1)).astype(np.int16)
BIG = _rng.uniform(0, 1, size=(1, 16, 18, 3)).astype(np.float32)       # for ssim (>= 11 pixels)
BIG2 = np.clip(BIG + _rng.normal(0, 0.1, size=BIG.shape).astype(np.float32), 0, 1)
F64 = _rng.uniform(0, 1, size=(3, 4, 3))
GRAY = _rng.uniform(0, 1, size=(2, 3, 1)).astype(np.float32)


def _resize_cases():
    cases = {}
    sizes = {"up": [7, 10], "down": [3, 4], "mixed": [2, 9], "one": [1, 1]}
    for method in ("bilinear", "nearest", "bicubic", "area"):
        for label, size in sizes.items():
            cases["resize_%s_%s" % (method, label)] = (lambda tf, m=method, s=size: tf.image.resize(IMG, s, method=m))
        cases["resize_%s_batch" % method] = (lambda tf, m=method: tf.image.resize(BATCH, [5, 4], method=m))
        cases["resize_%s_uint8" % method] = (lambda tf, m=method: tf.image.resize(U8, [6, 3], method=m))
    for method in ("lanczos3", "lanczos5", "gaussian", "mitchellcubic", "bilinear", "bicubic", "nearest", "area"):
        for label, size in (("up", [7, 10]), ("down", [2, 3])):
            cases["resize_%s_antialias_%s" % (method, label)] = (
                lambda tf, m=method, s=size: tf.image.resize(BATCH, s, method=m, antialias=True))
    for method in ("lanczos3", "gaussian", "mitchellcubic"):
        cases["resize_%s_plain" % method] = lambda tf, m=method: tf.image.resize(IMG, [3, 11], method=m)
    cases["resize_lanczos3_uint8"] = lambda tf: tf.image.resize(U8, [2, 8], method="lanczos3")
    boxes = [[0.1, 0.2, 0.8, 0.9], [0.5, 0.0, 0.2, 1.0], [-0.2, 0.3, 1.3, 0.6], [0.25, 0.25, 0.25, 0.75]]
    cases["crop_and_resize"] = lambda tf: tf.image.crop_and_resize(BATCH, boxes, [0, 1, 1, 0], [3, 4])
    cases["crop_and_resize_nearest"] = lambda tf: tf.image.crop_and_resize(BATCH, boxes, [1, 0, 0, 1], [5, 2],
                                                                           method="nearest", extrapolation_value=-1.0)
    cases["crop_and_resize_uint8"] = lambda tf: tf.image.crop_and_resize(U8[None], boxes[:2], [0, 0], [1, 3])
    cases["resize_aspect"] = lambda tf: tf.image.resize(IMG, [10, 10], preserve_aspect_ratio=True)
    cases["resize_aspect_down"] = lambda tf: tf.image.resize(BATCH, [3, 3], preserve_aspect_ratio=True, method="area")
    cases["resize_float64_bilinear"] = lambda tf: tf.image.resize(F64, [5, 2])
    cases["resize_float64_nearest"] = lambda tf: tf.image.resize(F64, [5, 2], method="nearest")
    cases["resize_enum"] = lambda tf: tf.image.resize(IMG, [6, 8], method=tf.image.ResizeMethod.BICUBIC)
    cases["resize_with_pad"] = lambda tf: tf.image.resize_with_pad(IMG, 8, 8)
    cases["resize_with_pad_wide"] = lambda tf: tf.image.resize_with_pad(BATCH, 3, 10, method="nearest")
    cases["resize_with_pad_uint8"] = lambda tf: tf.image.resize_with_pad(U8, 7, 7)
    # The raw ops with TF 1's sampling (align_corners, legacy centres).
    for op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic"):
        for ac, hp in ((False, False), (True, False)):
            cases["raw_%s_%d%d" % (op, ac, hp)] = (
                lambda tf, op=op, ac=ac, hp=hp: getattr(tf.raw_ops, op)(images=BATCH, size=[7, 3], align_corners=ac,
                                                                        half_pixel_centers=hp))
    cases["raw_ResizeArea_align"] = lambda tf: tf.raw_ops.ResizeArea(images=BATCH, size=[3, 5], align_corners=True)
    return cases


def _geometry_cases():
    return {
        "flip_left_right": lambda tf: tf.image.flip_left_right(IMG),
        "flip_up_down": lambda tf: tf.image.flip_up_down(BATCH),
        "flip_left_right_batch": lambda tf: tf.image.flip_left_right(BATCH),
        "rot90_1": lambda tf: tf.image.rot90(IMG),
        "rot90_2": lambda tf: tf.image.rot90(IMG, 2),
        "rot90_3_batch": lambda tf: tf.image.rot90(BATCH, k=3),
        "rot90_neg": lambda tf: tf.image.rot90(U8, -1),
        "transpose": lambda tf: tf.image.transpose(IMG),
        "transpose_batch": lambda tf: tf.image.transpose(BATCH),
        "crop": lambda tf: tf.image.crop_to_bounding_box(IMG, 1, 2, 3, 4),
        "crop_batch": lambda tf: tf.image.crop_to_bounding_box(BATCH, 0, 1, 4, 2),
        "pad": lambda tf: tf.image.pad_to_bounding_box(IMG, 1, 2, 8, 10),
        "pad_uint8_batch": lambda tf: tf.image.pad_to_bounding_box(U8[None], 0, 1, 5, 7),
        "crop_or_pad_crop": lambda tf: tf.image.resize_with_crop_or_pad(IMG, 3, 4),
        "crop_or_pad_pad": lambda tf: tf.image.resize_with_crop_or_pad(IMG, 8, 9),
        "crop_or_pad_mixed": lambda tf: tf.image.resize_with_crop_or_pad(BATCH, 2, 9),
        "central_crop": lambda tf: tf.image.central_crop(IMG, 0.5),
        "central_crop_batch": lambda tf: tf.image.central_crop(BATCH, 0.6),
        "central_crop_all": lambda tf: tf.image.central_crop(IMG, 1.0),
    }


def _color_cases():
    return {
        "convert_u8_f32": lambda tf: tf.image.convert_image_dtype(U8, tf.float32),
        "convert_f32_u8": lambda tf: tf.image.convert_image_dtype(IMG, tf.uint8),
        "convert_f32_u8_saturate": lambda tf: tf.image.convert_image_dtype(IMG * 1.5 - 0.2, tf.uint8, saturate=True),
        "convert_u8_i16": lambda tf: tf.image.convert_image_dtype(U8, tf.int16),
        "convert_i16_u8": lambda tf: tf.image.convert_image_dtype(I16, tf.uint8),
        "convert_i16_u8_saturate": lambda tf: tf.image.convert_image_dtype(I16, tf.uint8, saturate=True),
        "convert_i16_i32": lambda tf: tf.image.convert_image_dtype(I16, tf.int32),
        "convert_f32_f64": lambda tf: tf.image.convert_image_dtype(IMG, tf.float64),
        "convert_f32_i32": lambda tf: tf.image.convert_image_dtype(IMG, tf.int32),
        "convert_same": lambda tf: tf.image.convert_image_dtype(U8, tf.uint8),
        "grayscale": lambda tf: tf.image.rgb_to_grayscale(IMG),
        "grayscale_uint8": lambda tf: tf.image.rgb_to_grayscale(U8),
        "gray_to_rgb": lambda tf: tf.image.grayscale_to_rgb(tf.constant(GRAY)),
        "rgb_to_hsv": lambda tf: tf.image.rgb_to_hsv(IMG),
        "hsv_to_rgb": lambda tf: tf.image.hsv_to_rgb(IMG),
        "hsv_roundtrip_f64": lambda tf: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(F64)),
        "brightness": lambda tf: tf.image.adjust_brightness(IMG, 0.3),
        "brightness_uint8": lambda tf: tf.image.adjust_brightness(U8, 0.2),
        "brightness_uint8_neg": lambda tf: tf.image.adjust_brightness(U8, -0.5),
        "contrast": lambda tf: tf.image.adjust_contrast(IMG, 1.8),
        "contrast_batch": lambda tf: tf.image.adjust_contrast(BATCH, 0.4),
        "contrast_uint8": lambda tf: tf.image.adjust_contrast(U8, 2.0),
        "saturation": lambda tf: tf.image.adjust_saturation(IMG, 0.4),
        "saturation_high": lambda tf: tf.image.adjust_saturation(IMG, 3.0),
        "saturation_uint8": lambda tf: tf.image.adjust_saturation(U8, 1.5),
        "hue": lambda tf: tf.image.adjust_hue(IMG, 0.2),
        "hue_neg": lambda tf: tf.image.adjust_hue(IMG, -0.7),
        "hue_uint8": lambda tf: tf.image.adjust_hue(U8, 0.45),
        "gamma": lambda tf: tf.image.adjust_gamma(IMG, 2.2),
        "gamma_gain": lambda tf: tf.image.adjust_gamma(IMG, 0.5, gain=1.3),
        "gamma_uint8": lambda tf: tf.image.adjust_gamma(U8, 0.8, 1.1),
        "standardization": lambda tf: tf.image.per_image_standardization(IMG),
        "standardization_batch": lambda tf: tf.image.per_image_standardization(BATCH),
        "standardization_uint8": lambda tf: tf.image.per_image_standardization(U8),
        "standardization_constant": lambda tf: tf.image.per_image_standardization(np.ones((2, 2, 1), np.float32)),
    }


def _metric_cases():
    return {
        "total_variation": lambda tf: tf.image.total_variation(tf.constant(IMG)),
        "total_variation_batch": lambda tf: tf.image.total_variation(tf.constant(BATCH)),
        "psnr": lambda tf: tf.image.psnr(tf.constant(BIG), BIG2, max_val=1.0),
        "psnr_uint8": lambda tf: tf.image.psnr(tf.constant(U8), tf.image.flip_left_right(U8), max_val=255),
        "ssim": lambda tf: tf.image.ssim(BIG, BIG2, max_val=1.0),
        "ssim_small_filter": lambda tf: tf.image.ssim(IMG, IMG[::-1], max_val=1.0, filter_size=3, filter_sigma=0.8),
        "ssim_map": lambda tf: tf.image.ssim(BIG, BIG2, 1.0, filter_size=5, return_index_map=True),
        "sobel": lambda tf: tf.image.sobel_edges(tf.constant(BATCH)),
        "sobel_rgb": lambda tf: tf.image.sobel_edges(tf.constant(IMG[None])),
    }


CASES = {}
for _group in (_resize_cases(), _geometry_cases(), _color_cases(), _metric_cases()):
    CASES.update(_group)

# Cases run inside tf.function as well (graph mode, static shapes).
GRAPH_CASES = ["resize_bilinear_up", "resize_nearest_batch", "resize_bicubic_down", "resize_area_mixed",
               "resize_aspect", "resize_with_pad", "flip_left_right", "rot90_3_batch", "crop", "pad",
               "crop_or_pad_mixed", "central_crop", "convert_f32_u8", "grayscale", "rgb_to_hsv", "contrast",
               "saturation", "hue", "standardization_batch", "psnr", "ssim", "sobel", "total_variation_batch"]

# Expressions that raise: name -> function of tf.
ERRORS = {
    "resize_rank2": lambda tf: tf.image.resize(np.zeros((2, 3), np.float32), [2, 4]),
    "resize_rank5": lambda tf: tf.image.resize(np.zeros((1, 1, 2, 3, 1), np.float32), [2, 4]),
    "resize_size3": lambda tf: tf.image.resize(IMG, [2, 4, 3]),
    "resize_float_size": lambda tf: tf.image.resize(IMG, [2.5, 4]),
    "resize_bad_method": lambda tf: tf.image.resize(IMG, [2, 4], method="foo"),
    "resize_zero_size": lambda tf: tf.image.resize(IMG, [0, 4]),
    "resize_negative_size": lambda tf: tf.image.resize(IMG, [-1, 4], method="nearest"),
    "raw_bilinear_rank3": lambda tf: tf.raw_ops.ResizeBilinear(images=IMG, size=[2, 2]),
    "raw_bilinear_size1": lambda tf: tf.raw_ops.ResizeBilinear(images=BATCH, size=[2]),
    "raw_bilinear_empty": lambda tf: tf.raw_ops.ResizeBilinear(images=np.zeros((1, 0, 3, 1), np.float32), size=[2, 2]),
    "raw_bilinear_both": lambda tf: tf.raw_ops.ResizeBilinear(images=BATCH, size=[2, 2], align_corners=True,
                                                              half_pixel_centers=True),
    "raw_bilinear_bool": lambda tf: tf.raw_ops.ResizeBilinear(images=np.zeros((1, 2, 2, 1), bool), size=[2, 2]),
    "hsv_channels": lambda tf: tf.image.rgb_to_hsv(np.zeros((2, 2), np.float32)),
    "saturation_channels": lambda tf: tf.image.adjust_saturation(np.zeros((2, 2, 2), np.float32), 1.0),
    "hue_channels": lambda tf: tf.image.adjust_hue(np.zeros((2, 2, 2), np.float32), 0.1),
    "hue_delta": lambda tf: tf.image.adjust_hue(IMG, 1.5),
    "contrast_rank2": lambda tf: tf.image.adjust_contrast(np.zeros((2, 2), np.float32), 1.0),
    "flip_rank2": lambda tf: tf.image.flip_left_right(np.zeros((2, 2), np.float32)),
    "flip_rank5": lambda tf: tf.image.flip_up_down(np.zeros((1, 1, 2, 2, 1), np.float32)),
    "flip_zero_dim": lambda tf: tf.image.flip_up_down(np.zeros((0, 2, 1), np.float32)),
    "rot90_rank2": lambda tf: tf.image.rot90(np.zeros((2, 2), np.float32)),
    "transpose_rank5": lambda tf: tf.image.transpose(np.zeros((1, 1, 2, 2, 1), np.float32)),
    "crop_offset": lambda tf: tf.image.crop_to_bounding_box(IMG, -1, 0, 2, 2),
    "crop_too_big": lambda tf: tf.image.crop_to_bounding_box(IMG, 3, 0, 3, 2),
    "crop_target": lambda tf: tf.image.crop_to_bounding_box(IMG, 0, 0, 0, 2),
    "crop_rank2": lambda tf: tf.image.crop_to_bounding_box(np.zeros((2, 2), np.float32), 0, 0, 1, 1),
    "pad_offset": lambda tf: tf.image.pad_to_bounding_box(IMG, 0, -1, 8, 8),
    "pad_too_small": lambda tf: tf.image.pad_to_bounding_box(IMG, 1, 0, 5, 8),
    "crop_or_pad_target": lambda tf: tf.image.resize_with_crop_or_pad(IMG, 0, 3),
    "resize_with_pad_target": lambda tf: tf.image.resize_with_pad(IMG, 3, 0),
    "central_crop_fraction": lambda tf: tf.image.central_crop(IMG, 0.0),
    "central_crop_fraction_big": lambda tf: tf.image.central_crop(IMG, 1.5),
    "convert_bool": lambda tf: tf.image.convert_image_dtype(IMG, tf.bool),
    "gamma_negative": lambda tf: tf.image.adjust_gamma(IMG, -1.0),
    "gray_to_rgb_channels": lambda tf: tf.image.grayscale_to_rgb(tf.constant(IMG)),
    "gray_to_rgb_rank1": lambda tf: tf.image.grayscale_to_rgb(tf.zeros([3])),
    "total_variation_rank2": lambda tf: tf.image.total_variation(tf.constant(np.zeros((2, 2), np.float32))),
    "psnr_shapes": lambda tf: tf.image.psnr(IMG, BATCH, 1.0),
    "psnr_rank2": lambda tf: tf.image.psnr(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32), 1.0),
    "random_brightness_negative": lambda tf: tf.image.random_brightness(IMG, -0.1),
    "random_contrast_order": lambda tf: tf.image.random_contrast(IMG, 0.5, 0.2),
    "random_contrast_negative": lambda tf: tf.image.random_contrast(IMG, -0.5, 0.2),
    "random_hue_big": lambda tf: tf.image.random_hue(IMG, 0.6),
    "random_saturation_order": lambda tf: tf.image.random_saturation(IMG, 2.0, 1.0),
    "stateless_brightness_negative": lambda tf: tf.image.stateless_random_brightness(IMG, -0.1, seed=(1, 2)),
    "crop_and_resize_rank3": lambda tf: tf.image.crop_and_resize(IMG, [[0, 0, 1, 1.0]], [0], [2, 2]),
    "crop_and_resize_boxes_1d": lambda tf: tf.image.crop_and_resize(BATCH, [0, 0, 1, 1.0], [0], [2, 2]),
    "crop_and_resize_box_ind_2d": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1, 1.0]], [[0]], [2, 2]),
    "crop_and_resize_size3": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1, 1.0]], [0], [2, 2, 2]),
    "crop_and_resize_zero_crop": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1, 1.0]], [0], [0, 2]),
    "crop_and_resize_index": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1, 1.0]], [3], [2, 2]),
    "crop_and_resize_columns": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1.0]], [0], [2, 2]),
    "crop_and_resize_count": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1, 1.0]], [0, 0], [2, 2]),
    "crop_and_resize_method": lambda tf: tf.image.crop_and_resize(BATCH, [[0, 0, 1, 1.0]], [0], [2, 2], method="area"),
    "random_crop_too_big": lambda tf: tf.image.random_crop(IMG, [6, 2, 3]),
}

# Gradients: d/dx sum(case(x) * cos(0, 1, 2, ...)) for x = BATCH (the weights are a fixed function
# of the output's shape).
GRAD_CASES = {
    "bilinear": lambda tf, x: tf.image.resize(x, [7, 5]),
    "bilinear_down": lambda tf, x: tf.image.resize(x, [3, 4]),
    "nearest": lambda tf, x: tf.image.resize(x, [7, 5], method="nearest"),
    "nearest_down": lambda tf, x: tf.image.resize(x, [3, 4], method="nearest"),
    "bicubic": lambda tf, x: tf.image.resize(x, [5, 9], method="bicubic"),
    "lanczos3": lambda tf, x: tf.image.resize(x, [5, 9], method="lanczos3"),
    "bilinear_antialias": lambda tf, x: tf.image.resize(x, [3, 2], antialias=True),
    "raw_bilinear_align": lambda tf, x: tf.raw_ops.ResizeBilinear(images=x, size=[5, 8], align_corners=True),
    "raw_nearest_legacy": lambda tf, x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[5, 8]),
    "raw_bicubic_align": lambda tf, x: tf.raw_ops.ResizeBicubic(images=x, size=[3, 8], align_corners=True),
    "flip": lambda tf, x: tf.image.flip_left_right(x),
    "rot90": lambda tf, x: tf.image.rot90(x, 1),
    "crop": lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 2, 2, 3),
    "pad": lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 0, 6, 9),
    "crop_or_pad": lambda tf, x: tf.image.resize_with_crop_or_pad(x, 6, 3),
    "resize_with_pad": lambda tf, x: tf.image.resize_with_pad(x, 5, 5),
    "standardization": lambda tf, x: tf.image.per_image_standardization(x),
    "total_variation": lambda tf, x: tf.image.total_variation(x),
    "brightness": lambda tf, x: tf.image.adjust_brightness(x, 0.1),
    "gamma": lambda tf, x: tf.image.adjust_gamma(tf.abs(x), 1.5),
    "sobel": lambda tf, x: tf.image.sobel_edges(x),
    "crop_and_resize": lambda tf, x: tf.image.crop_and_resize(x, [[0.1, 0.2, 0.8, 0.9], [0.6, 0.0, 0.2, 1.0]],
                                                              [1, 0], [3, 4]),
    "crop_and_resize_nearest": lambda tf, x: tf.image.crop_and_resize(x, [[0.1, 0.2, 0.8, 0.9]], [1], [3, 4],
                                                                      method="nearest"),
}


def grad_weights(shape):
    return np.cos(np.arange(int(np.prod(shape)), dtype=np.float32)).reshape(shape)

# Static output shapes while tracing with partly known input shapes: name -> (input shape, fn).
SHAPE_CASES = {
    "resize_unknown_batch": ([None, 4, 6, 3], lambda tf, x: tf.image.resize(x, [5, 7])),
    "resize_unknown_hw": ([None, None, 3], lambda tf, x: tf.image.resize(x, [5, 7], method="nearest")),
    "resize_unknown_rank4": ([None, None, None, None], lambda tf, x: tf.image.resize(x, [2, 3], method="bicubic")),
    "resize_lanczos": ([None, 4, 6, 1], lambda tf, x: tf.image.resize(x, [3, 3], method="lanczos3")),
    "flip_unknown": ([None, None, 3], lambda tf, x: tf.image.flip_left_right(x)),
    "flip_batch_unknown": ([None, 4, None, 2], lambda tf, x: tf.image.flip_up_down(x)),
    "rot90_unknown": ([None, 5, 3], lambda tf, x: tf.image.rot90(x, 1)),
    "transpose_unknown": ([None, 5, 3], lambda tf, x: tf.image.transpose(x)),
    "crop_unknown": ([None, None, 3], lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 1, 2, 2)),
    "pad_unknown": ([None, None, None, 3], lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 1, 6, 6)),
    "grayscale_unknown": ([None, None, 3], lambda tf, x: tf.image.rgb_to_grayscale(x)),
    "hsv_unknown": ([None, None, 3], lambda tf, x: tf.image.rgb_to_hsv(x)),
    "brightness_unknown": ([None, None, 3], lambda tf, x: tf.image.adjust_brightness(x, 0.1)),
    "contrast_unknown": ([None, None, 3], lambda tf, x: tf.image.adjust_contrast(x, 1.5)),
    "standardization_unknown": ([None, None, 3], lambda tf, x: tf.image.per_image_standardization(x)),
    "total_variation_unknown": ([None, None, None, 3], lambda tf, x: tf.image.total_variation(x)),
    "convert_unknown": ([None, None, 3], lambda tf, x: tf.image.convert_image_dtype(x, tf.uint8)),
}

# tf.image.crop_and_resize's gradient with respect to the boxes (bilinear), for BATCH.
CROP_BOXES = [[0.1, 0.2, 0.8, 0.9], [0.6, 0.0, 0.2, 1.0], [0.3, 0.3, 0.3, 0.7], [-0.1, 0.2, 0.5, 1.2]]


def crop_boxes_loss(tf, boxes, crop_size):
    y = tf.image.crop_and_resize(BATCH, boxes, [1, 0, 1, 0], crop_size)
    return tf.reduce_sum(y * grad_weights(tuple(y.shape)))

# rgb_to_hsv's gradient: IMG with ties between channels, greys and zeros in its first row.
HSV_INPUT = IMG.copy()
HSV_INPUT[0, :5] = [[0.5, 0.5, 0.2], [0.3, 0.3, 0.3], [0.0, 0.4, 0.2], [0.2, 0.7, 0.7], [0.9, 0.1, 0.9]]


def hsv_loss(tf, x):
    y = tf.image.rgb_to_hsv(x)
    return tf.reduce_sum(y * grad_weights(tuple(y.shape)))
