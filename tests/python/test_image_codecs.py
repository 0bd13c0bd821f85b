"""Image codecs (tf.io.decode_* / encode_*): pixels and bytes against TensorFlow 2.21's.

The fixture files in data_fixtures/images/ were written by TF (tools/record_image_fixtures.py), and
image_codecs.npz holds TF's decoded arrays for many attr combinations and TF's encoded bytes.
Errors and graph shapes below were recorded from TF 2.21 too."""

import os
import struct
import zlib

import numpy as np
import pytest

import graphfn as tf

HERE = os.path.join(os.path.dirname(__file__), "data_fixtures", "images")
RECORDED = np.load(os.path.join(HERE, "image_codecs.npz"))


def read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


J, P, B, T, G8, A, O = (read(n) for n in ("rgb_q90.jpg", "rgb.png", "bgr24.bmp", "rgb_truncated.jpg", "gray8.bmp",
                                           "animated.gif", "one_frame.gif"))
IMG = np.zeros((5, 7, 3), np.uint8)
SOURCE = {k.split("/")[1]: RECORDED[k] for k in RECORDED.files if k.startswith("source/")}


def bmp_header(width, height, bpp, offset=54, size=None):
    """A BMP's first 54 bytes (only the fields TF reads are set), padded or cut to `size`."""
    head = b"BM" + struct.pack("<IHHi", 0, 0, 0, offset) + struct.pack("<IiiHH", 40, width, height, 1, bpp) + b"\0" * 24
    return head if size is None else (head + b"\0" * size)[:max(size, 32)]


def png_ihdr(width, height):
    """A PNG signature and IHDR chunk (8-bit RGB) and nothing else."""
    data = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + data + struct.pack(">I", zlib.crc32(b"IHDR" + data))


def _attrs(text):
    """'channels=1,dct_method=INTEGER_FAST' -> keyword arguments (as the recorder wrote them)."""
    out = {}
    for item in ([] if text == "default" else text.split(",")):
        key, value = item.split("=", 1)
        if key == "dtype":
            out[key] = tf.float32
        elif value in ("True", "False"):
            out[key] = value == "True"
        elif key == "dct_method":
            out[key] = value
        elif key == "crop_window":
            out[key] = [int(v) for v in value.split(":")]
        else:
            out[key] = int(value)
    return out


DECODE_CASES = sorted(k for k in RECORDED.files if k.startswith("decode/") and "truncated" not in k)


@pytest.mark.parametrize("key", DECODE_CASES)
def test_decoded_pixels_equal_tensorflows(key):
    _, file, op, attrs = key.split("/")
    got = getattr(tf.io, op)(read(file), **_attrs(attrs)).numpy()
    expected = RECORDED[key]
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_truncated_jpeg_recovery():
    # try_recover_truncated ends the data with an end-of-image marker; what libjpeg then makes of
    # the missing blocks differs between libjpeg-turbo versions (TF bundles 2.1.4), so only the
    # intact first 16x16 block (less the pixels fancy upsampling mixes with the next) is compared.
    got = tf.io.decode_jpeg(T, try_recover_truncated=True).numpy()
    expected = RECORDED["decode/rgb_truncated.jpg/decode_jpeg/try_recover_truncated=True"]
    assert got.shape == expected.shape == (19, 23, 3) and got.dtype == np.uint8
    np.testing.assert_array_equal(got[:14, :15], expected[:14, :15])
    gray = tf.io.decode_jpeg(T, try_recover_truncated=True, channels=1).numpy()
    assert gray.shape == (19, 23, 1)
    assert tf.io.decode_jpeg(T, try_recover_truncated=True, acceptable_fraction=0.5).shape == (19, 23, 3)


ENCODE_CASES = {
    "jpeg/rgb/default": lambda: tf.io.encode_jpeg(SOURCE["rgb"]),
    "jpeg/gray/default": lambda: tf.io.encode_jpeg(SOURCE["gray"]),
    "jpeg/rgb/q10_444": lambda: tf.io.encode_jpeg(SOURCE["rgb"], quality=10, chroma_downsampling=False),
    "jpeg/rgb/progressive": lambda: tf.io.encode_jpeg(SOURCE["rgb"], progressive=True),
    "jpeg/rgb/optimized_cm_xmp": lambda: tf.io.encode_jpeg(
        SOURCE["rgb"], quality=50, optimize_size=True, density_unit="cm", x_density=72, y_density=96,
        xmp_metadata="<x:xmpmeta>graphfn</x:xmpmeta>"),
    "jpeg/rgb/format_rgb_q100": lambda: tf.io.encode_jpeg(SOURCE["rgb"], format="rgb", quality=100),
    "jpeg/gray/format_grayscale_q0": lambda: tf.io.encode_jpeg(SOURCE["gray"], format="grayscale", quality=0),
    "png/rgb/default": lambda: tf.io.encode_png(SOURCE["rgb"]),
    "png/rgb/0": lambda: tf.io.encode_png(SOURCE["rgb"], compression=0),
    "png/rgb/9": lambda: tf.io.encode_png(SOURCE["rgb"], compression=9),
    "png/rgba/default": lambda: tf.io.encode_png(SOURCE["rgba"]),
    "png/gray/1": lambda: tf.io.encode_png(SOURCE["gray"], compression=1),
    "png/gray_alpha/default": lambda: tf.io.encode_png(SOURCE["gray_alpha"]),
}


@pytest.mark.parametrize("key", sorted(ENCODE_CASES))
def test_encoded_bytes_equal_tensorflows(key):
    got = ENCODE_CASES[key]()
    assert got.dtype == tf.string and got.shape == ()
    assert got.numpy() == RECORDED["encode/" + key].tobytes()


ADJUSTED = {
    "uint8_q30": lambda small: tf.image.adjust_jpeg_quality(small, 30),
    "uint8_q95_accurate": lambda small: tf.image.adjust_jpeg_quality(small, 95, dct_method="INTEGER_ACCURATE"),
    "float_q50": lambda small: tf.image.adjust_jpeg_quality((small / 255.0).astype(np.float32), 50),
    "float_out_of_range_q80": lambda small: tf.image.adjust_jpeg_quality(
        (small / 255.0).astype(np.float32) * 2 - 0.5, 80),
    "gray_q10": lambda small: tf.image.adjust_jpeg_quality(small[:, :, :1], tf.constant(10)),
}


@pytest.mark.parametrize("key", sorted(ADJUSTED))
def test_adjust_jpeg_quality_equals_tensorflows(key):
    got = ADJUSTED[key](SOURCE["small"]).numpy()
    expected = RECORDED["adjust_jpeg_quality/" + key]
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_random_jpeg_quality():
    # graphfn's stateless random numbers are not TF's (docs/ops.md), so the quality drawn differs
    # from TF's; the image is adjust_jpeg_quality's at the quality drawn.
    small = SOURCE["small"]
    quality = tf.random.stateless_uniform([], seed=(1, 2), minval=20, maxval=90, dtype=tf.int32)
    np.testing.assert_array_equal(tf.image.stateless_random_jpeg_quality(small, 20, 90, seed=(1, 2)).numpy(),
                                  tf.image.adjust_jpeg_quality(small, quality).numpy())
    assert tf.image.random_jpeg_quality(small, 20, 90).shape == (4, 5, 3)
    # TF 2.21's errors:
    with pytest.raises(ValueError, match="^`min_jpeg_quality` must be less than `max_jpeg_quality`.$"):
        tf.image.random_jpeg_quality(small, 90, 20)
    with pytest.raises(ValueError, match="^jpeg encoding range must be between 0 and 100.$"):
        tf.image.random_jpeg_quality(small, -1, 20)
    with pytest.raises(ValueError, match="^jpeg encoding range must be between 0 and 100.$"):
        tf.image.stateless_random_jpeg_quality(small, 0, 101, seed=(1, 2))


def test_png_round_trip_is_lossless_and_batched():
    for name in ("rgb", "rgba", "gray", "gray_alpha"):
        np.testing.assert_array_equal(tf.io.decode_png(tf.io.encode_png(SOURCE[name])).numpy(), SOURCE[name])
    batch = np.stack([SOURCE["rgb"], SOURCE["rgb"][::-1]]).reshape(2, 1, 19, 23, 3)
    encoded = tf.io.encode_png(batch)
    assert encoded.shape == (2, 1)
    np.testing.assert_array_equal(tf.io.decode_png(encoded[1, 0]).numpy(), SOURCE["rgb"][::-1])
    assert tf.io.encode_png(np.zeros((0, 4, 4, 3), np.uint8)).shape == (0,)


def test_is_jpeg_and_extract_jpeg_shape():
    got = tf.io.is_jpeg([J, P, b"", b"\xff\xd8", b"\xff\xd8\xff", b"\xff\xd8\xfe"])
    assert got.dtype == tf.bool and got.numpy().tolist() == [True, False, False, False, True, False]
    assert tf.io.is_jpeg(J).shape == ()
    shape = tf.io.extract_jpeg_shape(J)
    assert shape.dtype == tf.int32 and shape.numpy().tolist() == [19, 23, 3]
    assert tf.io.extract_jpeg_shape(read("gray.jpg"), tf.int64).numpy().tolist() == [13, 17, 1]
    assert tf.io.extract_jpeg_shape(read("gray.jpg"), tf.int64).dtype == tf.int64


def test_bmp_values():
    # TF 2.21: an 8-bit BMP is one channel, repeated to three; decode_bmp of crafted headers.
    assert tf.io.decode_image(G8, channels=3).numpy()[0, :3].tolist() == [[15, 15, 15], [38, 38, 38], [39, 39, 39]]
    assert tf.io.decode_bmp(bmp_header(5, -7, 24, offset=20, size=132)).shape == (7, 5, 3)
    assert tf.io.decode_bmp(bmp_header(1, 1, 32, offset=60, size=64)).shape == (1, 1, 4)


def test_tf_image_names_are_the_tf_io_functions():
    for name in ("decode_jpeg", "decode_and_crop_jpeg", "decode_png", "decode_bmp", "decode_gif", "decode_image", "encode_jpeg",
                 "encode_png", "is_jpeg", "extract_jpeg_shape"):
        assert getattr(tf.image, name) is getattr(tf.io, name)


# (expression, TF's exception class, TF's message less its "{{function_node ...}} " prefix)
ERRORS = [
    ('tf.io.decode_jpeg(J[:50])', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(T)', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(b"")', tf.errors.InvalidArgumentError, 'Input is empty. [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(b"abc")', tf.errors.InvalidArgumentError, 'Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(b"\\xff\\xd8\\xff")', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(J, channels=2)', tf.errors.InvalidArgumentError, '`channels` must be 0, 1, 3 or 4 but got 2 [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(J, channels=4)', tf.errors.InvalidArgumentError, 'JPEG does not support 4 channels [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(J, channels=-1)', tf.errors.InvalidArgumentError, '`channels` must be 0, 1, 3 or 4 but got -1 [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(J, ratio=3)', tf.errors.InvalidArgumentError, 'ratio must be 1, 2, 4, or 8, got 3 [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(J, dct_method="foo")', tf.errors.InvalidArgumentError, "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'} [Op:DecodeJpeg]"),
    ('tf.io.decode_jpeg([J, J])', tf.errors.InvalidArgumentError, '`contents` must be scalar but got shape[2] [Op:DecodeJpeg]'),
    ('tf.io.decode_jpeg(B)', tf.errors.InvalidArgumentError, 'Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. Op used: DecodeJpeg [Op:DecodeJpeg]'),
    ('tf.io.decode_png(P[:-10])', tf.errors.InvalidArgumentError, 'Invalid PNG data, size 1102 [Op:DecodePng]'),
    ('tf.io.decode_png(P[:30])', tf.errors.InvalidArgumentError, 'Invalid PNG. Failed to initialize decoder. [Op:DecodePng]'),
    ('tf.io.decode_png(b"\\x89PNG\\r\\n\\x1a\\nxxxxxxxx")', tf.errors.InvalidArgumentError, 'Invalid PNG. Failed to initialize decoder. [Op:DecodePng]'),
    ('tf.io.decode_png(png_ihdr(100000, 100000))', tf.errors.InvalidArgumentError, 'Invalid PNG. Failed to initialize decoder. [Op:DecodePng]'),
    ('tf.io.decode_png(png_ihdr(30000, 30000))', tf.errors.InvalidArgumentError, 'Invalid PNG. Failed to initialize decoder. [Op:DecodePng]'),
    ('tf.io.decode_png(P, channels=5)', tf.errors.InvalidArgumentError, '`channels` must be 0, 1, 3 or 4 but got 5 [Op:DecodePng]'),
    ('tf.io.decode_png(P, dtype=tf.float32)', tf.errors.InvalidArgumentError, "Value for attr 'dtype' of float is not in the list of allowed values: uint8, uint16"),
    ('tf.io.decode_png(B)', tf.errors.InvalidArgumentError, 'Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. Op used: DecodePng [Op:DecodePng]'),
    ('tf.io.decode_png([P])', tf.errors.InvalidArgumentError, '`contents` must be scalar but got shape[1] [Op:DecodePng]'),
    ('tf.io.decode_bmp(J)', tf.errors.InvalidArgumentError, 'Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or `decode_image` instead. [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(P)', tf.errors.InvalidArgumentError, 'Trying to decode PNG format using DecodeBmp op. Use `decode_png` or `decode_image` instead. [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(b"BM" + b"\\0" * 10)', tf.errors.InvalidArgumentError, 'Incomplete bmp content, requires at least 32 bytes to find the header size, width, height, and bpp, got 12 bytes [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(B, channels=1)', tf.errors.InvalidArgumentError, '`channels` must be 0, 3 or 4 for BMP, but got 1 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(B[:-1])', tf.errors.InvalidArgumentError, 'Input size should match (header_size + row_size * abs_height) but they differ by -1 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(B + b"\\0")', tf.errors.InvalidArgumentError, 'Input size should match (header_size + row_size * abs_height) but they differ by 1 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(5, 7, 16))', tf.errors.InvalidArgumentError, 'Number of channels inherent in the image must be 1, 3 or 4, was 2 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(0, 7, 24))', tf.errors.InvalidArgumentError, 'Width must be positive [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(5, 0, 24))', tf.errors.InvalidArgumentError, 'Height must be nonzero [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(5, 7, 24, offset=-1))', tf.errors.InvalidArgumentError, 'header size must be nonnegative [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(100000, 100000, 24))', tf.errors.InvalidArgumentError, 'Total possible pixel bytes must be less than 2^30 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(5, 7, 24, offset=0, size=140))', tf.errors.InvalidArgumentError, 'Input size should match (header_size + row_size * abs_height) but they differ by 28 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(5, 7, 24, offset=2**31 - 1, size=44))', tf.errors.InvalidArgumentError, 'Input size should match (header_size + row_size * abs_height) but they differ by 2147483581 [Op:DecodeBmp]'),
    ('tf.io.decode_bmp(bmp_header(1, 1, 32, offset=64, size=64))', tf.errors.InvalidArgumentError, 'Input size should match (header_size + row_size * abs_height) but they differ by -4 [Op:DecodeBmp]'),
    ('tf.io.decode_image(b"xyz")', tf.errors.InvalidArgumentError, 'Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodeImage]'),
    ('tf.io.decode_image(J, channels=4)', tf.errors.InvalidArgumentError, 'JPEG does not support 4 channels [Op:DecodeImage]'),
    ('tf.io.decode_image(J, channels=2)', tf.errors.InvalidArgumentError, '`channels` must be 0, 1, 3 or 4 but got 2 [Op:DecodeImage]'),
    ('tf.io.decode_image(P[:-10], dtype=tf.float32)', tf.errors.InvalidArgumentError, 'Invalid PNG data, size 1102 [Op:DecodeImage]'),
    ('tf.io.decode_gif(B)', tf.errors.InvalidArgumentError, 'Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. Op used: DecodeGif [Op:DecodeGif]'),
    ('tf.io.decode_gif(J[:40])', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeGif]'),
    ('tf.io.encode_jpeg(IMG[:, :, :2])', tf.errors.InvalidArgumentError, 'image must have 1 or 3 channels, got [5,7,2] [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG[0])', tf.errors.InvalidArgumentError, 'image must be 3-dimensional[7,3] [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG[:0])', tf.errors.InternalError, 'JPEG encoding failed [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG[:, :0])', tf.errors.InternalError, 'JPEG encoding failed [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG, quality=101)', tf.errors.InvalidArgumentError, 'quality must be in [0,100], got 101 [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG, quality=-1)', tf.errors.InvalidArgumentError, 'quality must be in [0,100], got -1 [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG, format="grayscale")', tf.errors.InvalidArgumentError, 'format grayscale expects 1 channels, got [5,7,3] [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG[:, :, :1], format="rgb")', tf.errors.InvalidArgumentError, 'format rgb expects 3 channels, got [5,7,1] [Op:EncodeJpeg]'),
    ('tf.io.encode_jpeg(IMG, format="bad")', tf.errors.InvalidArgumentError, 'Value for attr \'format\' of "bad" is not in the list of allowed values: "", "grayscale", "rgb"'),
    ('tf.io.encode_jpeg(IMG, density_unit="mm")', tf.errors.InvalidArgumentError, 'Value for attr \'density_unit\' of "mm" is not in the list of allowed values: "in", "cm"'),
    ('tf.io.encode_png(IMG[:, :, :0])', tf.errors.InvalidArgumentError, 'image must have 1, 2, 3, or 4 channels, got 0 [Op:EncodePng]'),
    ('tf.io.encode_png(np.zeros((5, 7, 5), np.uint8))', tf.errors.InvalidArgumentError, 'image must have 1, 2, 3, or 4 channels, got 5 [Op:EncodePng]'),
    ('tf.io.encode_png(IMG[:0])', tf.errors.InternalError, 'PNG encoding failed at the following flattened batch indices: 0 [Op:EncodePng]'),
    ('tf.io.encode_png(np.zeros((3, 0, 7, 3), np.uint8))', tf.errors.InternalError, 'PNG encoding failed at the following flattened batch indices: 0, 1, 2 [Op:EncodePng]'),
    ('tf.io.encode_png(IMG[0])', tf.errors.InvalidArgumentError, 'images must be at least rank 3[7,3] [Op:EncodePng]'),
    ('tf.io.encode_png(IMG, compression=10)', tf.errors.InvalidArgumentError, 'compression should be in [-1,9], got 10 [Op:EncodePng]'),
    ('tf.io.encode_png(IMG, compression=-2)', tf.errors.InvalidArgumentError, 'compression should be in [-1,9], got -2 [Op:EncodePng]'),
    ('tf.io.encode_png(IMG.astype(np.float32))', tf.errors.InvalidArgumentError, "Value for attr 'T' of float is not in the list of allowed values: uint8, uint16"),
    ('tf.io.encode_png(IMG.astype(np.int32))', tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list of allowed values: uint8, uint16"),
    ('tf.io.decode_image(b"GIF89a" + b"\\0" * 20)', tf.errors.InvalidArgumentError, 'Invalid GIF data (size 26), failed to slurp gif file: Wrong record type detected [Op:DecodeImage]'),
    ('tf.io.decode_png(A)', tf.errors.InvalidArgumentError, 'Got 3 frames, but animated gifs can only be decoded by tf.io.decode_gif or tf.io.decode_image [Op:DecodePng]'),
    ('tf.io.decode_jpeg(A)', tf.errors.InvalidArgumentError, 'Got 3 frames, but animated gifs can only be decoded by tf.io.decode_gif or tf.io.decode_image [Op:DecodeJpeg]'),
    ('tf.io.decode_gif(A[:60])', tf.errors.InvalidArgumentError, 'Invalid GIF data (size 60), failed to open gif file: No screen descriptor detected [Op:DecodeGif]'),
    ('tf.io.decode_gif(b"GIF8")', tf.errors.InvalidArgumentError, 'Invalid GIF data (size 4), failed to open gif file: Failed to read from given file [Op:DecodeGif]'),
    ('tf.io.decode_gif(b"GIF89a")', tf.errors.InvalidArgumentError, 'Invalid GIF data (size 6), failed to open gif file: No screen descriptor detected [Op:DecodeGif]'),
    ('tf.io.decode_image(A, channels=1)', tf.errors.InvalidArgumentError, 'channels must be 0 or 3 for GIF, got 1 [Op:DecodeImage]'),
    ('tf.io.decode_image(A, channels=4)', tf.errors.InvalidArgumentError, 'channels must be 0 or 3 for GIF, got 4 [Op:DecodeImage]'),
    ('tf.io.decode_bmp(A)', tf.errors.InvalidArgumentError, 'Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or `decode_image` instead. [Op:DecodeBmp]'),
    ('tf.io.decode_gif(O[:13] + O[13 + 48:])', tf.errors.InvalidArgumentError, 'Invalid GIF data (size 72), failed to slurp gif file: Wrong record type detected [Op:DecodeGif]'),
    ('tf.io.decode_and_crop_jpeg(J, [0, 0, 20, 23])', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J, [0, 0, 0, 5])', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J, [-1, 0, 5, 5])', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J, [1, 2, 3])', tf.errors.InvalidArgumentError, 'crop_size must have four elements [3] [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J, [[1, 2, 3, 4]])', tf.errors.InvalidArgumentError, 'crop_window must be 1-D, got shape [1,4] [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(P, [0, 0, 2, 2])', tf.errors.InvalidArgumentError, 'DecodeAndCropJpeg operation can run on JPEG only, but detected PNG. [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(A, [0, 0, 2, 2])', tf.errors.InvalidArgumentError, 'DecodeAndCropJpeg operation can run on JPEG only, but detected GIF. [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(B, [0, 0, 2, 2])', tf.errors.InvalidArgumentError, 'DecodeAndCropJpeg operation can run on JPEG only, but detected BMP. [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J, [0, 0, 2, 2], channels=4)', tf.errors.InvalidArgumentError, 'JPEG does not support 4 channels [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J, [0, 0, 2, 2], ratio=3)', tf.errors.InvalidArgumentError, 'ratio must be 1, 2, 4, or 8, got 3 [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(B, [0, 0, 2, 2], channels=1)', tf.errors.InvalidArgumentError, '`channels` must be 0, 3 or 4 for BMP, but got 1 [Op:DecodeAndCropJpeg]'),
    ('tf.io.decode_and_crop_jpeg(J[:300], [0, 0, 2, 2])', tf.errors.InvalidArgumentError, 'jpeg::Uncompress failed. Invalid JPEG data or crop window. [Op:DecodeAndCropJpeg]'),
    ('tf.image.adjust_jpeg_quality(IMG, 101)', tf.errors.InvalidArgumentError, 'quality must be in [0,100], got 101 [Op:EncodeJpegVariableQuality]'),
    ('tf.image.adjust_jpeg_quality(IMG[:, :, :2], 50)', tf.errors.InvalidArgumentError, 'image must have 1 or 3 channels, got [5,7,2] [Op:EncodeJpegVariableQuality]'),
    ('tf.image.adjust_jpeg_quality(IMG, [50, 60])', tf.errors.InvalidArgumentError, 'quality must be scalar: [2] [Op:EncodeJpegVariableQuality]'),
    ('tf.io.extract_jpeg_shape(P)', tf.errors.InvalidArgumentError, 'Invalid JPEG data, size 1112 [Op:ExtractJpegShape]'),
    ('tf.io.extract_jpeg_shape(b"")', tf.errors.InvalidArgumentError, 'Invalid JPEG data, size 0 [Op:ExtractJpegShape]'),
    ('tf.io.extract_jpeg_shape(J[:100])', tf.errors.InvalidArgumentError, 'Invalid JPEG data, size 100 [Op:ExtractJpegShape]'),
    ('tf.io.extract_jpeg_shape([J])', tf.errors.InvalidArgumentError, 'contents must be scalar, got shape [1] [Op:ExtractJpegShape]'),
    ('tf.io.extract_jpeg_shape(J, output_type=tf.float32)', tf.errors.InvalidArgumentError, "Value for attr 'output_type' of float is not in the list of allowed values: int32, int64"),
]

NAMESPACE = {"tf": tf, "np": np, "J": J, "P": P, "B": B, "T": T, "A": A, "O": O, "IMG": IMG,
             "bmp_header": bmp_header, "png_ihdr": png_ihdr}


@pytest.mark.parametrize("expr, error, message", ERRORS)
def test_errors_match_tensorflow(expr, error, message):
    with pytest.raises(error) as info:
        eval(expr, NAMESPACE)
    assert message in str(info.value)


# (function body, input signature shape, dtype) -> TF's output (shape, dtype) or (error, message)
GRAPHS = [
    ('tf.io.decode_jpeg(x)', [], 'string', ('(None, None, None)', 'uint8')),
    ('tf.io.decode_jpeg(x, channels=1)', [], 'string', ('(None, None, 1)', 'uint8')),
    ('tf.io.decode_png(x, channels=3)', [], 'string', ('(None, None, 3)', 'uint8')),
    ('tf.io.decode_png(x, channels=4)', None, 'string', ('(None, None, 4)', 'uint8')),
    ('tf.io.decode_bmp(x)', [], 'string', ('(None, None, None)', 'uint8')),
    ('tf.io.decode_bmp(x, channels=4)', [], 'string', ('(None, None, 4)', 'uint8')),
    ('tf.io.decode_gif(x)', [], 'string', ('(None, None, None, 3)', 'uint8')),
    ('tf.io.decode_image(x)', [], 'string', ('<unknown>', 'uint8')),
    ('tf.io.decode_image(x, channels=3)', [], 'string', ('<unknown>', 'uint8')),
    ('tf.io.decode_image(x, channels=3, expand_animations=False)', [], 'string', ('(None, None, 3)', 'uint8')),
    ('tf.io.decode_image(x, expand_animations=False, dtype=tf.float32)', [], 'string', ('(None, None, None)', 'float32')),
    ('tf.io.extract_jpeg_shape(x)', [], 'string', ('(3,)', 'int32')),
    ('tf.io.extract_jpeg_shape(x, tf.int64)', None, 'string', ('(3,)', 'int64')),
    ('tf.io.is_jpeg(x)', [], 'string', ('()', 'bool')),
    ('tf.io.is_jpeg(x)', [4], 'string', ('(4,)', 'bool')),
    ('tf.io.encode_jpeg(x)', [None, None, 3], 'uint8', ('()', 'string')),
    ('tf.io.encode_jpeg(x)', None, 'uint8', ('()', 'string')),
    ('tf.io.encode_png(x)', [2, 5, None, None, 3], 'uint8', ('(2, 5)', 'string')),
    ('tf.io.encode_png(x)', None, 'uint8', ('<unknown>', 'string')),
    ('tf.io.encode_png(x)', [4, 4, 1], 'uint8', ('()', 'string')),
    ('tf.io.decode_and_crop_jpeg(x, [1, 2, 10, 7])', [], 'string', ('(10, 7, None)', 'uint8')),
    ('tf.io.decode_and_crop_jpeg(x, tf.concat([[0, 0], tf.io.extract_jpeg_shape(x)[:2]], 0), channels=3)', [], 'string', ('(None, None, 3)', 'uint8')),
    ('tf.io.decode_and_crop_jpeg(x, [1, 2, 3], channels=3)', [], 'string', ('ValueError', 'Dimension must be 4 but is 3')),
    ('tf.io.decode_and_crop_jpeg(x, [[1, 2, 3, 4]], channels=3)', [], 'string', ('ValueError', 'Shape must be rank 1 but is rank 2')),
    ('tf.io.decode_jpeg(x)', [2], 'string', ('ValueError', 'Shape must be rank 0 but is rank 1')),
    ('tf.io.decode_png(x)', [None], 'string', ('ValueError', 'Shape must be rank 0 but is rank 1')),
    ('tf.io.decode_image(x)', [1], 'string', ('ValueError', 'Shape must be rank 0 but is rank 1')),
    ('tf.io.decode_gif(x)', [1, 2], 'string', ('ValueError', 'Shape must be rank 0 but is rank 2')),
    ('tf.io.decode_bmp(x)', [3], 'string', ('ValueError', 'Shape must be rank 0 but is rank 1')),
    ('tf.io.extract_jpeg_shape(x)', [3], 'string', ('ValueError', 'Shape must be rank 0 but is rank 1')),
    ('tf.io.decode_jpeg(x, channels=-1)', [], 'string', ('ValueError', 'channels must be non-negative, got -1')),
    ('tf.io.decode_image(x, channels=-2)', [], 'string', ('ValueError', 'channels must be non-negative, got -2')),
    ('tf.io.encode_jpeg(x)', [4, 4], 'uint8', ('ValueError', 'Shape must be rank 3 but is rank 2')),
    ('tf.io.encode_png(x)', [4, 4], 'uint8', ('ValueError', 'Shape must be at least rank 3 but is rank 2')),
    ("tf.io.encode_jpeg(x, format='bad')", [4, 4, 3], 'uint8',
     ('ValueError', 'Attr \'format\' of \'EncodeJpeg\' Op passed string \'bad\' not in: "", "grayscale", "rgb".')),
]


@pytest.mark.parametrize("body, shape, dtype, expected", GRAPHS)
def test_graph_shapes_and_errors_match_tensorflow(body, shape, dtype, expected):
    def f(x):
        return eval(body, {"tf": tf, "x": x})

    spec = tf.TensorSpec(shape, getattr(tf, dtype))
    if expected[0] == "ValueError":
        with pytest.raises(ValueError) as info:
            tf.function(f).get_concrete_function(spec)
        assert expected[1] in str(info.value)
        return
    out = tf.function(f).get_concrete_function(spec).structured_outputs
    assert (str(out.shape), out.dtype.name) == expected


def test_codecs_run_inside_functions():
    @tf.function
    def decode_both(jpeg, png):
        return tf.io.decode_jpeg(jpeg, channels=1, dct_method="INTEGER_ACCURATE"), tf.io.decode_png(png, channels=3)

    gray, rgb = decode_both(tf.constant(J), tf.constant(P))
    np.testing.assert_array_equal(
        gray.numpy(), RECORDED["decode/rgb_q90.jpg/decode_jpeg/channels=1,dct_method=INTEGER_ACCURATE"])
    np.testing.assert_array_equal(rgb.numpy(), RECORDED["decode/rgb.png/decode_png/channels=3"])

    @tf.function
    def encode(image):
        return tf.io.encode_png(image), tf.io.encode_jpeg(image), tf.io.is_jpeg(tf.io.encode_jpeg(image))

    png, jpeg, is_jpeg = encode(tf.constant(SOURCE["rgb"]))
    assert png.numpy() == RECORDED["encode/png/rgb/default"].tobytes()
    assert jpeg.numpy() == RECORDED["encode/jpeg/rgb/default"].tobytes()
    assert bool(is_jpeg)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is empty"):
        decode_both(tf.constant(b""), tf.constant(P))


def test_damaged_gif_keeps_its_complete_frames():
    # TF 2.21 on the animation cut short: the frames read whole are decoded (the canvas is the
    # largest of them), unless too little is left (values: the recorded full decode's frames).
    full = RECORDED["decode/animated.gif/decode_gif/default"]
    for cut, frames in ((1, 3), (2, 2), (20, 2), (40, 2)):
        got = tf.io.decode_gif(A[:-cut]).numpy()
        assert got.shape == (frames, 8, 10, 3)
        np.testing.assert_array_equal(got, full[:frames])
    assert tf.io.decode_gif(A[:-80]).shape == (1, 4, 5, 3)


# What graphfn cannot do that TF can: its own errors, which name the reason.
def test_what_graphfn_does_not_decode_says_so():
    with pytest.raises(tf.errors.UnimplementedError, match="graphfn cannot decode WebP images yet"):
        tf.io.decode_image(b"RIFF\0\0\0\0WEBPVP8 ")
    with pytest.raises(tf.errors.UnimplementedError, match="graphfn cannot decode JPEG XL images yet"):
        tf.io.decode_image(b"\xff\x0a" + b"\0" * 10)
    for dtype in ("uint16", np.uint16, np.dtype("uint16")):
        with pytest.raises(TypeError, match=r"graphfn has no uint16 dtype: decode_png\(dtype=uint16\)"):
            tf.io.decode_png(P, dtype=dtype)
    with pytest.raises(TypeError, match=r"decode_image\(dtype=float64\), which TensorFlow decodes through uint16"):
        tf.io.decode_image(J, dtype=tf.float64)
