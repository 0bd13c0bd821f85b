"""tf.summary.scalar, histogram, image, text and audio: the TensorBoard plugins' summaries, in
the form TF 2.21 (with TensorBoard installed) writes them: a tensor value and SummaryMetadata
naming the plugin ("scalars", "histograms", "images", "text", "audio").

- scalar: a float32 scalar.
- histogram: a float64 [buckets, 3] tensor of (left edge, right edge, count), TensorBoard's
  bucketing: `buckets` (30) equal-width buckets from min to max, the last one closed; all equal
  values: every bucket is [v, v] and the last holds them all; no data: zeros.
- image: a string tensor [2 + k]: width, height, then the first max_outputs images as PNG (pixels
  made uint8 as tf.image.convert_image_dtype(saturate=True) does, encoded by graphfn's codec).
- text: the string tensor as it is.
- audio: a string tensor [k, 2]: 16-bit PCM WAV of each clip and an empty label."""

import numpy as np

from graphfn.framework import dtypes
from graphfn.ops import array_ops, image_codecs, image_ops, math_ops
from graphfn.summaries import event_pb, state as summary_state

_WAV_ENCODING = 11  # AudioPluginData.Encoding.WAV


def _metadata(plugin_name, description=None, content=b""):
    metadata = event_pb.SummaryMetadata()
    metadata.plugin_data.plugin_name = plugin_name
    if content:
        metadata.plugin_data.content = content
    if description:
        metadata.summary_description = description
    return metadata


def _convert(value):
    return array_ops.convert_to_tensor(value)


def _recording():
    return summary_state.has_writer()


def scalar(name, data, step=None, description=None):
    """Writes the scalar `data` (as float32) to the default writer at `step`. Returns True on
    success, False when no default writer is set."""
    with summary_state.summary_scope(name, "scalar_summary") as (tag, _):
        data = _convert(data)
        if data.shape.rank is not None and data.shape.rank != 0:
            raise ValueError("Expected scalar shape, saw shape: %s." % (data.shape,))
        if not _recording():
            return summary_state.write(tag, data, step)
        return summary_state.write_summary(tag, [lambda: math_ops.cast(data, dtypes.float32)],
                                           summary_state._encode_as_is(1), step,
                                           _metadata("scalars", description))


def histogram_buckets(data, bucket_count=30):
    """TensorBoard's buckets of `data` as a float64 [bucket_count, 3] array."""
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    bucket_count = max(0, int(bucket_count))
    if data.size == 0 or bucket_count == 0:
        return np.zeros((bucket_count, 3), np.float64)
    low, high = data.min(), data.max()
    spread = high - low
    if spread == 0:
        edges = np.full(bucket_count, high)
        counts = np.zeros(bucket_count, np.float64)
        counts[-1] = data.size
        return np.stack([edges, edges, counts]).T
    width = spread / bucket_count
    # As TF's ops compute them: floor of the offset over the width, cast to int32, clamped.
    indices = np.minimum(np.floor((data - low) / width).astype(np.int64), bucket_count - 1)
    counts = np.bincount(indices, minlength=bucket_count).astype(np.float64)
    edges = low + np.arange(bucket_count + 1, dtype=np.float64) * (spread / bucket_count)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts]).T


def histogram(name, data, step=None, buckets=None, description=None):
    """Writes a histogram of the elements of `data` (30 buckets, or `buckets`) to the default
    writer at `step`. Returns True on success, False when no default writer is set."""
    def bucket_count():
        count = 30 if buckets is None else buckets
        if isinstance(count, (int, np.integer)) and not isinstance(count, bool):
            return int(count)
        count = _convert(count)
        if count.dtype.name != "int32":
            raise TypeError("tensor must be of type tf.int32; got tf.%s" % count.dtype.name)
        return int(count.numpy())

    with summary_state.summary_scope(name, "histogram_summary") as (tag, _):
        data = _convert(data)
        if not _recording():
            return summary_state.write(tag, data, step)
        count = bucket_count()

        def encode(proto, array):
            summary_state.fill_tensor_proto(proto, histogram_buckets(array, count))

        return summary_state.write_summary(tag, [data], encode, step, _metadata("histograms", description))


def _encode_images(proto, images, max_outputs):
    pixels = image_ops.convert_image_dtype(array_ops.constant(images), dtypes.uint8, saturate=True)
    count = max(0, min(int(max_outputs), images.shape[0]))
    encoded = [image_codecs.encode_png(pixels[i]).numpy() for i in range(count)]
    values = [str(images.shape[2]).encode(), str(images.shape[1]).encode()] + encoded
    summary_state.fill_tensor_proto(proto, np.array(values, dtype=object))


def image(name, data, step=None, max_outputs=3, description=None):
    """Writes up to `max_outputs` images of `data` ([k, height, width, channels], channels 1, 3
    or 4; floats in [0, 1] or integers) as PNG to the default writer at `step`."""
    with summary_state.summary_scope(name, "image_summary") as (tag, _):
        data = _convert(data)
        if not _recording():
            return summary_state.write(tag, data, step)
        if data.shape.rank is not None and data.shape.rank != 4:
            raise ValueError("Tensor  must have rank 4.  Received rank %d, shape %s" % (data.shape.rank, data.shape))
        if int(max_outputs) < 0:
            raise ValueError("Condition x >= 0 did not hold element-wise: x = %d" % int(max_outputs))

        def encode(proto, array):
            _encode_images(proto, array, max_outputs)

        return summary_state.write_summary(tag, [data], encode, step, _metadata("images", description))


def text(name, data, step=None, description=None):
    """Writes the string tensor `data` (any shape) to the default writer at `step`."""
    with summary_state.summary_scope(name, "text_summary") as (tag, _):
        data = _convert(data)
        if data.dtype.name != "string":
            raise TypeError("tensor must be of type tf.string; got tf.%s" % data.dtype.name)
        if not _recording():
            return summary_state.write(tag, data, step)
        return summary_state.write_summary(tag, [data], summary_state._encode_as_is(7), step,
                                           _metadata("text", description))


def wav_bytes(samples, sample_rate):
    """A 16-bit PCM WAV file of float `samples` [frames, channels] in [-1, 1], as TF's
    EncodeWav writes it (each sample rounded from x * 32768 and clamped to int16)."""
    samples = np.asarray(samples, np.float32)
    frames, channels = samples.shape
    pcm = np.clip(np.round(samples * np.float32(32768.0)), -32768, 32767).astype("<i2").tobytes()
    header = b"".join([
        b"RIFF", np.uint32(36 + len(pcm)).tobytes(), b"WAVE",
        b"fmt ", np.uint32(16).tobytes(), np.uint16(1).tobytes(), np.uint16(channels).tobytes(),
        np.uint32(sample_rate).tobytes(), np.uint32(sample_rate * channels * 2).tobytes(),
        np.uint16(channels * 2).tobytes(), np.uint16(16).tobytes(),
        b"data", np.uint32(len(pcm)).tobytes()])
    return header + pcm


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Writes up to `max_outputs` clips of `data` ([k, frames, channels], floats in [-1, 1]) as WAV
    files at `sample_rate` Hz to the default writer at `step`."""
    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError("Unknown encoding: %r" % encoding)
    with summary_state.summary_scope(name, "audio_summary") as (tag, _):
        data = _convert(data)
        if not _recording():
            return summary_state.write(tag, data, step)
        if data.shape.rank is not None and data.shape.rank != 3:
            raise ValueError("Tensor  must have rank 3.  Received rank %d, shape %s" % (data.shape.rank, data.shape))
        if int(max_outputs) < 0:
            raise ValueError("Condition x >= 0 did not hold element-wise: x = %d" % int(max_outputs))

        def encode(proto, clips, rate):
            rate = int(rate)
            wavs = [wav_bytes(clip, rate) for clip in clips[:max(0, int(max_outputs))]]
            values = np.array([[w, b""] for w in wavs], dtype=object).reshape(len(wavs), 2)
            summary_state.fill_tensor_proto(proto, values)

        return summary_state.write_summary(tag, [data, sample_rate], encode, step,
                                           _metadata("audio", description, bytes([0x10, _WAV_ENCODING])))
