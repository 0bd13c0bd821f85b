"""Records the image codec fixtures of tests/python/test_image_codecs.py with real TensorFlow 2.21:

    ~/tf/bin/python tools/record_image_fixtures.py

writes tests/python/data_fixtures/images/: small JPEG and PNG files encoded by TF (plus a palette
PNG, GIF and BMP files made here byte by byte, which TF cannot write), and image_codecs.npz holding the
source pixels, TF's decoded arrays for many attr combinations ("decode/<file>/<attrs>") and TF's
encoded bytes ("encode/<case>"). The tests compare graphfn with these, value for value."""

import os
import struct
import zlib

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "python", "data_fixtures", "images")


def source_images():
    """Deterministic small images of odd sizes (JPEG's blocks and scaling meet partial blocks)."""
    rng = np.random.RandomState(0)
    y, x = np.mgrid[0:19, 0:23]
    rgb = np.stack([x * 11, y * 13, (x + y) * 6], axis=-1) + rng.randint(0, 40, (19, 23, 3))
    rgb = np.clip(rgb, 0, 255).astype(np.uint8)
    gray = np.clip(np.mgrid[0:13, 0:17][1] * 15 + rng.randint(0, 30, (13, 17)), 0, 255).astype(np.uint8)[..., None]
    alpha = (np.arange(19 * 23).reshape(19, 23, 1) * 7 % 256).astype(np.uint8)
    rgba = np.concatenate([rgb, alpha], axis=-1)
    gray_alpha = np.concatenate([gray, gray[::-1]], axis=-1)
    rgb16 = (rgb.astype(np.uint16) * 257 + rng.randint(0, 200, rgb.shape)).astype(np.uint16)
    return {"rgb": rgb, "gray": gray, "rgba": rgba, "gray_alpha": gray_alpha, "rgb16": rgb16}


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def palette_png():
    """A 4-bit palette PNG with a tRNS chunk (transparency per palette entry), 9 x 6."""
    palette = bytes(v for i in range(16) for v in (i * 16, 255 - i * 16, (i * 80) % 256))
    trns = bytes((i * 17) % 256 for i in range(16))
    rows = b""
    for r in range(6):
        indices = [(r * 9 + c) % 16 for c in range(9)] + [0]
        rows += b"\0" + bytes(indices[i] << 4 | indices[i + 1] for i in range(0, 10, 2))
    header = struct.pack(">IIBBBBB", 9, 6, 4, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"PLTE", palette) +
            png_chunk(b"tRNS", trns) + png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b""))


def bmp(pixels, top_down=False):
    """An uncompressed BMP of 8, 24 or 32 bits per pixel; pixels are [h, w, c] (BGR(A) order)."""
    h, w, c = pixels.shape
    row_size = (c * w + 3) // 4 * 4
    rows = []
    for r in (range(h) if top_down else range(h - 1, -1, -1)):
        row = pixels[r].astype(np.uint8).tobytes()
        rows.append(row + b"\0" * (row_size - len(row)))
    data = b"".join(rows)
    info = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, 8 * c, 0, len(data), 2835, 2835, 0, 0)
    header = b"BM" + struct.pack("<IHHI", 14 + len(info) + len(data), 0, 0, 14 + len(info))
    return header + info + data


def lzw_literals(indices, min_code_size):
    """GIF image data for `indices`: LZW codes that are all literals, with a clear code often enough
    that the code width never grows (valid LZW, just not compressed), in 255-byte sub-blocks."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    codes = []
    for i, index in enumerate(indices):
        if i % 10 == 0:
            codes.append(clear)
        codes.append(index)
    codes.append(end)
    bits = "".join(format(c, "0%db" % width)[::-1] for c in codes)  # least significant bit first
    bits += "0" * (-len(bits) % 8)
    data = bytes(int(bits[i:i + 8][::-1], 2) for i in range(0, len(bits), 8))
    blocks = b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255] for i in range(0, len(data), 255))
    return bytes([min_code_size]) + blocks + b"\0"


def gif(width, height, palette, frames):
    """A GIF89a: a global palette of 16 colors; frames are (left, top, pixels [h, w] of indices,
    transparent index or None, local palette or None)."""
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF3, 0, 0) + bytes(palette)
    for left, top, pixels, transparent, local in frames:
        if transparent is not None:
            out += b"\x21\xf9\x04" + bytes([1, 10, 0, transparent, 0])
        h, w = pixels.shape
        out += b"\x2c" + struct.pack("<HHHHB", left, top, w, h, 0x83 if local is not None else 0)
        if local is not None:
            out += bytes(local)
        out += lzw_literals(pixels.reshape(-1).tolist(), 4)
    return out + b"\x3b"


def gif_files():
    palette = [v for i in range(16) for v in (i * 16, 255 - i * 15, (i * 70) % 256)]
    local = [v for i in range(16) for v in ((i * 40) % 256, i * 8, 200 - i * 5)]
    grid = np.add.outer(np.arange(8), np.arange(10)) % 16
    one = gif(9, 7, palette, [(0, 0, grid[:7, :9], None, None)])
    animated = gif(10, 8, palette, [
        (2, 1, grid[:4, :5], None, None),                          # smaller than the canvas: black around
        (0, 0, (grid * 3) % 16, 5, local),                         # index 5 transparent: frame 0 shows through
        (3, 2, (grid[:5, :6] + 7) % 16, 0, None)])                 # a patch, index 0 transparent
    return {"one_frame.gif": one, "animated.gif": animated}


def attrs_key(attrs):
    """"channels=1,dct_method=INTEGER_FAST"; a list value as "1:2:10:7"."""
    text = lambda v: ":".join(map(str, v)) if isinstance(v, list) else str(v)  # noqa: E731
    return ",".join("%s=%s" % (k, text(attrs[k])) for k in sorted(attrs)) or "default"


def main():
    os.makedirs(OUT, exist_ok=True)
    images = source_images()
    arrays = {"source/" + k: v for k, v in images.items()}
    files = {
        "rgb_q90.jpg": tf.io.encode_jpeg(images["rgb"], quality=90),
        "rgb_q95.jpg": tf.io.encode_jpeg(images["rgb"]),
        "gray.jpg": tf.io.encode_jpeg(images["gray"]),
        "rgb_progressive_444.jpg": tf.io.encode_jpeg(images["rgb"], quality=75, progressive=True,
                                                     chroma_downsampling=False),
        "rgb.png": tf.io.encode_png(images["rgb"]),
        "rgba.png": tf.io.encode_png(images["rgba"]),
        "gray.png": tf.io.encode_png(images["gray"]),
        "gray_alpha.png": tf.io.encode_png(images["gray_alpha"]),
        "rgb16.png": tf.io.encode_png(images["rgb16"]),
    }
    files = {k: v.numpy() for k, v in files.items()}
    files["palette_trns.png"] = palette_png()
    files["bgr24.bmp"] = bmp(images["rgb"][:7, :5, ::-1])
    files["bgra32_top_down.bmp"] = bmp(images["rgba"][:6, :9][..., [2, 1, 0, 3]], top_down=True)
    files["gray8.bmp"] = bmp(images["gray"][:5, :7])
    whole = files["rgb_q90.jpg"]
    scan = whole.index(b"\xff\xda")  # cut halfway through the entropy-coded data
    files.update(gif_files())
    files["rgb_truncated.jpg"] = whole[: scan + (len(whole) - scan) // 2]
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)

    def record(file, op, **attrs):
        arrays["decode/%s/%s/%s" % (file, op, attrs_key(attrs))] = getattr(tf.io, op)(files[file], **attrs).numpy()

    jpegs = ["rgb_q90.jpg", "rgb_q95.jpg", "gray.jpg", "rgb_progressive_444.jpg"]
    for file in jpegs:
        for channels in (0, 1, 3):
            for dct in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
                record(file, "decode_jpeg", channels=channels, dct_method=dct)
        for ratio in (2, 4, 8):
            record(file, "decode_jpeg", ratio=ratio)
        record(file, "decode_jpeg", fancy_upscaling=False)
        record(file, "decode_jpeg", fancy_upscaling=False, ratio=2, dct_method="INTEGER_ACCURATE")
        record(file, "decode_image", dtype=tf.float32)
        record(file, "decode_png")
        record(file, "decode_gif")
    for file in ["rgb_q90.jpg", "gray.jpg", "rgb_progressive_444.jpg"]:
        for window in ([1, 2, 10, 7], [0, 0, 13, 17], [3, 9, 8, 8], [12, 16, 1, 1]):
            for channels in (0, 1, 3):
                record(file, "decode_and_crop_jpeg", crop_window=window, channels=channels)
        record(file, "decode_and_crop_jpeg", crop_window=[1, 1, 4, 5], ratio=2)
        record(file, "decode_and_crop_jpeg", crop_window=[2, 5, 6, 3], fancy_upscaling=False,
               dct_method="INTEGER_ACCURATE")
    record("rgb_truncated.jpg", "decode_jpeg", try_recover_truncated=True)
    record("rgb_truncated.jpg", "decode_jpeg", try_recover_truncated=True, channels=1)
    pngs = ["rgb.png", "rgba.png", "gray.png", "gray_alpha.png", "rgb16.png", "palette_trns.png"]
    for file in pngs:
        for channels in (0, 1, 3, 4):
            record(file, "decode_png", channels=channels)
        record(file, "decode_image", dtype=tf.float32)
        record(file, "decode_image", dtype=tf.float32, channels=1)
        record(file, "decode_jpeg")
        record(file, "decode_gif")
        record(file, "decode_image", expand_animations=False)
    for file in ["one_frame.gif", "animated.gif"]:
        record(file, "decode_gif")
        record(file, "decode_image")
        record(file, "decode_image", expand_animations=False)
        record(file, "decode_image", dtype=tf.float32, channels=3)
    record("one_frame.gif", "decode_png")
    record("one_frame.gif", "decode_jpeg", channels=3)
    for file in ["bgr24.bmp", "bgra32_top_down.bmp", "gray8.bmp"]:
        for channels in (0, 3, 4):
            record(file, "decode_bmp", channels=channels)
        if "top_down" not in file:  # TF 2.21 crashes converting a top-down BMP to float (a negative size)
            record(file, "decode_image", dtype=tf.float32)

    small = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 7 % 256).astype(np.uint8)
    arrays["source/small"] = small
    adjusted = {
        "uint8_q30": lambda: tf.image.adjust_jpeg_quality(small, 30),
        "uint8_q95_accurate": lambda: tf.image.adjust_jpeg_quality(small, 95, dct_method="INTEGER_ACCURATE"),
        "float_q50": lambda: tf.image.adjust_jpeg_quality((small / 255.0).astype(np.float32), 50),
        "float_out_of_range_q80": lambda: tf.image.adjust_jpeg_quality(
            (small / 255.0).astype(np.float32) * 2 - 0.5, 80),
        "gray_q10": lambda: tf.image.adjust_jpeg_quality(small[:, :, :1], tf.constant(10)),
    }
    for key, make in adjusted.items():
        arrays["adjust_jpeg_quality/" + key] = make().numpy()

    encodes = {
        "jpeg/rgb/default": lambda: tf.io.encode_jpeg(images["rgb"]),
        "jpeg/gray/default": lambda: tf.io.encode_jpeg(images["gray"]),
        "jpeg/rgb/q10_444": lambda: tf.io.encode_jpeg(images["rgb"], quality=10, chroma_downsampling=False),
        "jpeg/rgb/progressive": lambda: tf.io.encode_jpeg(images["rgb"], progressive=True),
        "jpeg/rgb/optimized_cm_xmp": lambda: tf.io.encode_jpeg(
            images["rgb"], quality=50, optimize_size=True, density_unit="cm", x_density=72, y_density=96,
            xmp_metadata="<x:xmpmeta>graphfn</x:xmpmeta>"),
        "jpeg/rgb/format_rgb_q100": lambda: tf.io.encode_jpeg(images["rgb"], format="rgb", quality=100),
        "jpeg/gray/format_grayscale_q0": lambda: tf.io.encode_jpeg(images["gray"], format="grayscale", quality=0),
        "png/rgb/default": lambda: tf.io.encode_png(images["rgb"]),
        "png/rgb/0": lambda: tf.io.encode_png(images["rgb"], compression=0),
        "png/rgb/9": lambda: tf.io.encode_png(images["rgb"], compression=9),
        "png/rgba/default": lambda: tf.io.encode_png(images["rgba"]),
        "png/gray/1": lambda: tf.io.encode_png(images["gray"], compression=1),
        "png/gray_alpha/default": lambda: tf.io.encode_png(images["gray_alpha"]),
    }
    for key, make in encodes.items():
        arrays["encode/" + key] = np.frombuffer(make().numpy(), np.uint8)
    np.savez_compressed(os.path.join(OUT, "image_codecs.npz"), **arrays)
    print("wrote %d files and %d arrays to %s" % (len(files), len(arrays), os.path.abspath(OUT)))


if __name__ == "__main__":
    main()
