"""tf.strings on string tensors of any shape: thin wrappers over the C++ ops of
cpp/graphfn/ops/strings_ops.cc (TF's raw op names and attrs). to_hash_bucket_fast and as_string
live in string_hash.py; the functions that return or take RaggedTensors (split, unicode_decode,
unicode_encode, ngrams, ...) in strings_ragged.py."""

import sys

from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops import math_ops
from graphfn.ops import reduction_ops
from graphfn.ops import _fast_path
from graphfn.ops._op_table import node
from graphfn.framework.tensor import Tensor
from graphfn.util.tf_export import tf_export

_STRING_TYPES = (str, bytes)


def _strings(value):
    return array_ops.convert_to_tensor(value, dtypes.string)


def _run(op_type, name, raw_inputs, inputs, **attrs):
    """Runs op_type on the converted `inputs`; its eager errors read as TF's, whose text depends
    on whether the raw inputs took TF's fast path (tensors and numbers) or its slow one."""
    fast = all(_fast_path.is_plain(v) for v in raw_inputs)
    return _fast_path.call(fast, node(op_type, name), *inputs, **attrs)


@tf_export("strings.length")
def string_length(input, unit="BYTE", name=None):  # noqa: A002 (TF's argument names)
    """The length of each string, in bytes or in UTF-8 characters (int32)."""
    return _run("StringLength", name, [input], [_strings(input)], unit=unit)


@tf_export("strings.lower")
def string_lower(input, encoding="", name=None):  # noqa: A002
    """Lower-cases each string: ASCII letters only, or all of Unicode with encoding='utf-8'."""
    return _run("StringLower", name, [input], [_strings(input)], encoding=encoding)


@tf_export("strings.upper")
def string_upper(input, encoding="", name=None):  # noqa: A002
    """Upper-cases each string: ASCII letters only, or all of Unicode with encoding='utf-8'."""
    return _run("StringUpper", name, [input], [_strings(input)], encoding=encoding)


@tf_export("strings.strip")
def string_strip(input, name=None):  # noqa: A002
    """Removes leading and trailing ASCII whitespace."""
    return _run("StringStrip", name, [input], [_strings(input)])


@tf_export("strings.join")
def string_join(inputs, separator="", name=None):
    """Element-wise concatenation of string tensors of one shape (or scalars), with a separator."""
    tensors = [_strings(t) for t in inputs]
    return _run("StringJoin", name, inputs, [tensors], separator=separator)


@tf_export("strings.reduce_join")
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Joins the strings along `axis` (all axes when None; the first listed axis varies fastest)."""
    inputs = _strings(inputs)
    if axis is None:
        rank = inputs.shape.rank
        if rank is None:
            rank_t = array_ops.rank(inputs)
            axis = array_ops.range_(rank_t - 1, -1, -1)
        else:
            axis = list(range(rank - 1, -1, -1))
    axis = array_ops.convert_to_tensor(axis, dtypes.int32)
    return node("ReduceJoin", name)(inputs, axis, keep_dims=bool(keepdims), separator=separator)


@tf_export("strings.substr")
def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
    """Substrings from `pos` (negative counts from the end), `len` bytes or UTF-8 characters long."""
    raw = [input, pos, len]
    # An int given beside a tensor takes the tensor's dtype, as TF's op wrapper infers T.
    index_dtype = next((v.dtype for v in (pos, len) if isinstance(v, Tensor)), dtypes.int32)
    pos_t = array_ops.convert_to_tensor(pos, dtype_hint=index_dtype)
    len_t = array_ops.convert_to_tensor(len, dtype_hint=index_dtype)
    return _run("Substr", name, raw, [_strings(input), pos_t, len_t], unit=unit)


@tf_export("strings.to_number")
def string_to_number(input, out_type=dtypes.float32, name=None):  # noqa: A002
    """Parses each string as a number of `out_type` (float32, float64, int32, int64)."""
    return _run("StringToNumber", name, [input], [_strings(input)], out_type=dtypes.as_dtype(out_type))


@tf_export("strings.to_hash_bucket_strong")
def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """SipHash-2-4 of each string under the two-int `key`, modulo num_buckets."""
    return _run("StringToHashBucketStrong", name, [input], [_strings(input)], num_buckets=num_buckets, key=list(key))


@tf_export("strings.to_hash_bucket")
def string_to_hash_bucket(input, num_buckets, name=None):  # noqa: A002
    """TF's legacy 64-bit string hash modulo num_buckets (to_hash_bucket_fast is preferred)."""
    return _run("StringToHashBucket", name, [input], [_strings(input)], num_buckets=num_buckets)


def _is_python_text(value):
    return isinstance(value, _STRING_TYPES)


@tf_export("strings.regex_replace")
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replaces matches of the RE2 `pattern` with `rewrite` (\\1 names a group)."""
    if _is_python_text(pattern) and _is_python_text(rewrite):
        return _run("StaticRegexReplace", name, [input], [_strings(input)], pattern=pattern, rewrite=rewrite,
                    replace_global=replace_global)
    return _run("RegexReplace", name, [input, pattern, rewrite], [_strings(input), _strings(pattern), _strings(rewrite)],
                replace_global=replace_global)


@tf_export("strings.regex_full_match")
def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches the RE2 `pattern`."""
    if _is_python_text(pattern):
        return _run("StaticRegexFullMatch", name, [input], [_strings(input)], pattern=pattern)
    return _run("RegexFullMatch", name, [input, pattern], [_strings(input), _strings(pattern)])


@tf_export("strings.unicode_script")
def unicode_script(input, name=None):  # noqa: A002
    """The ICU script code (UScriptCode) of each int32 code point; -1 for invalid ones."""
    return _run("UnicodeScript", name, [input], [array_ops.convert_to_tensor(input, dtypes.int32)])


@tf_export("strings.unicode_transcode")
def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    """Re-encodes each string from input_encoding to output_encoding."""
    return _run("UnicodeTranscode", name, [input], [_strings(input)], input_encoding=input_encoding,
                                          output_encoding=output_encoding, errors=errors,
                                          replacement_char=replacement_char,
                                          replace_control_characters=replace_control_characters)


def _dense_rows(values):
    """A dense tensor of rank >= 1 as rows of its last dimension: (flat values, uniform row
    splits, number of rows, the leading shape)."""
    shape = array_ops.shape(values, out_type=dtypes.int64)
    leading = shape[:-1]
    num_rows = reduction_ops.reduce_prod(leading)
    splits = array_ops.range_(num_rows + 1, dtype=dtypes.int64) * shape[-1]
    return array_ops.reshape(values, [-1]), splits, num_rows, leading


def dense_unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """unicode_encode of a dense tensor (strings_ragged.unicode_encode is the public function):
    the innermost dimension of int32 code points becomes one string per row."""
    input = array_ops.convert_to_tensor(input, dtypes.int32)
    rank = input.shape.rank
    if rank is None:
        raise ValueError("Rank of input_tensor must be statically known.")
    if rank == 0:
        raise ValueError("input_tensor's rank must be at least 1.")
    flat, splits, _, leading = _dense_rows(input)
    encoded = node("UnicodeEncode", name)(flat, splits, output_encoding=output_encoding, errors=errors,
                                          replacement_char=replacement_char)
    return array_ops.reshape(encoded, leading)


def _is_ragged(value):
    """Whether value is a RaggedTensor (without loading the ragged module when nothing has)."""
    module = sys.modules.get("graphfn.ops.ragged_tensor")
    return module is not None and isinstance(value, module.RaggedTensor)


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None, ragged_ngrams=None):
    """tf.strings.ngrams (exported by strings_ragged, which gives `ragged_ngrams` for
    RaggedTensor data): the n-grams of the innermost dimension of `data`."""
    if pad_values is None:
        left_pad = right_pad = ""
    elif isinstance(pad_values, (list, tuple)):
        if len(pad_values) != 2 or not all(_is_python_text(v) for v in pad_values):
            raise ValueError("pad_values must be a string, tuple of strings, or None.")
        left_pad, right_pad = pad_values
    elif _is_python_text(pad_values):
        left_pad = right_pad = pad_values
    else:
        raise TypeError("pad_values must be a string, tuple of strings, or None.")
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    widths = [ngram_width] if isinstance(ngram_width, int) else list(ngram_width)
    pad_width = 0 if pad_values is None else (-1 if padding_width is None else padding_width)
    if _is_ragged(data):
        return ragged_ngrams(data, widths, separator, left_pad, right_pad, pad_width,
                                            preserve_short_sequences, name)
    data = _strings(data)
    rank = data.shape.rank
    if rank is None:
        raise ValueError("Rank of data must be known.")
    if rank == 0:
        raise ValueError("Data must have rank>0")
    flat, splits, num_rows, leading = _dense_rows(data)
    grams, _ = node("StringNGrams", name)(
        flat, splits, separator=separator, ngram_widths=widths, left_pad=left_pad, right_pad=right_pad,
        pad_width=pad_width, preserve_short_sequences=preserve_short_sequences)
    if rank == 1:
        return grams
    # Every row has as many n-grams (the rows are equally long): the dense result TF gives.
    per_row = array_ops.size(grams, out_type=dtypes.int64) // math_ops.maximum(num_rows, 1)
    return array_ops.reshape(grams, array_ops.concat([leading, array_ops.reshape(per_row, [1])], 0))


@tf_export("strings.format")
def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """The template with each placeholder replaced by one input's printed text (as tf.print
    shows tensors, `summarize` elements at each end of a dimension)."""
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    expected = len(template.split(placeholder)) - 1
    if len(inputs) != expected:
        raise ValueError("The template expects %d tensors, but the inputs only has %d. Please ensure the number of "
                         "placeholders in template matches inputs length." % (expected, len(inputs)))
    tensors = [array_ops.convert_to_tensor(v) for v in inputs]
    return node("StringFormat", name)(tensors, template=template, placeholder=placeholder, summarize=summarize)
