"""The tf.strings functions whose results are RaggedTensors: split, bytes_split, unicode_decode,
unicode_decode_with_offsets, unicode_split, unicode_split_with_offsets, and the ragged cases of
unicode_encode and ngrams. Each flattens its input to a vector of strings (or rows), runs the C++
op (values plus row splits or [row, column] indices, as TF's raw ops give them) and rebuilds the
input's ragged partition around the result. A scalar input gives a dense vector, as in TF.

graphfn.ops.ragged_tensor is imported on first use, so `import graphfn` does not load it."""

from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops import array_ops
from graphfn.ops import strings
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


def _ragged():
    # Through graphfn.ops.ragged, which registers RaggedTensor's dispatch (tf.strings.length of a
    # split's result and the like), as the public tf.ragged names do.
    from graphfn.ops import ragged  # noqa: F401,PLC0415 (lazily: `import graphfn` does not load ragged)
    from graphfn.ops import ragged_tensor  # noqa: PLC0415 (lazily, as above)
    return ragged_tensor


def _is_ragged(value):
    ragged = _ragged()
    return isinstance(value, ragged.RaggedTensor)


def _strings_or_ragged(value, dtype=dtypes.string):
    if _is_ragged(value):
        return value
    return array_ops.convert_to_tensor(value, dtype)


def _rows_from_sparse(op_outputs):
    """A [row, column] listing (indices, values, dense shape) as a RaggedTensor of its rows."""
    indices, values, shape = op_outputs
    return _ragged().RaggedTensor.from_value_rowids(values, indices[:, 0], nrows=shape[0], validate=False)


def _split_each_string(input, split_vector, name_for_rank):  # noqa: A002
    """Applies split_vector (a vector of strings -> RaggedTensor of rows) to every string of a
    Tensor or RaggedTensor of any rank, the result one ragged dimension deeper."""
    if _is_ragged(input):
        return input.with_flat_values(_split_each_string(input.flat_values, split_vector, name_for_rank))
    rank = input.shape.rank
    if rank is None:
        raise ValueError(name_for_rank)
    if rank == 0:
        return split_vector(array_ops.reshape(input, [1]))[0]
    if rank == 1:
        return split_vector(input)
    nested = _ragged().RaggedTensor.from_tensor(input, ragged_rank=rank - 1)
    return nested.with_flat_values(split_vector(nested.flat_values))


@tf_export("strings.split")
def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Splits each string at `sep` (at runs of whitespace when None) into a RaggedTensor row."""
    input = _strings_or_ragged(input)
    sep = array_ops.convert_to_tensor("" if sep is None else sep, dtypes.string)

    def split_vector(vector):
        return _rows_from_sparse(node("StringSplitV2", name)(vector, sep, maxsplit=maxsplit))
    return _split_each_string(input, split_vector, "input must have a statically-known rank.")


@tf_export("strings.bytes_split")
def bytes_split(input, name=None):  # noqa: A002
    """Splits each string into its bytes (a RaggedTensor row of one-byte strings)."""
    input = _strings_or_ragged(input)
    delimiter = array_ops.convert_to_tensor("", dtypes.string)

    def split_vector(vector):
        return _rows_from_sparse(node("StringSplit", name)(vector, delimiter, skip_empty=False))
    return _split_each_string(input, split_vector, "input must have a statically-known rank.")


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters, with_offsets, name):  # noqa: A002
    input = _strings_or_ragged(input)
    rank = input.shape.rank
    if rank is None:
        raise ValueError("Rank of `input` must be statically known.")
    ragged = _ragged()
    if rank > 1:
        if not _is_ragged(input):
            input = ragged.RaggedTensor.from_tensor(input, ragged_rank=rank - 1)
        elif input.ragged_rank < rank - 1:
            input = input.with_flat_values(ragged.RaggedTensor.from_tensor(
                input.flat_values, ragged_rank=rank - input.ragged_rank - 1))
    flat = array_ops.reshape(input.flat_values if _is_ragged(input) else input, [-1])
    op = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    outputs = node(op, name)(flat, input_encoding=input_encoding, errors=errors, replacement_char=replacement_char,
                             replace_control_characters=replace_control_characters)
    row_splits, char_values = outputs[0], outputs[1]

    def shaped(values):
        if rank == 0:
            return values
        rows = ragged.RaggedTensor.from_row_splits(values, row_splits, validate=False)
        return input.with_flat_values(rows) if rank > 1 else rows
    if with_offsets:
        return shaped(char_values), shaped(outputs[2])
    return shaped(char_values)


@tf_export("strings.unicode_decode")
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The code points of each string, one RaggedTensor row per string."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters, False, name)


@tf_export("strings.unicode_decode_with_offsets")
def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                replace_control_characters=False, name=None):
    """unicode_decode, plus the byte offset where each character starts."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters, True, name)


def _encode_each(code_points, input_encoding, errors, replacement_char):
    """Each code point of a Tensor or RaggedTensor alone as a string, in the same shape."""
    if _is_ragged(code_points):
        return code_points.with_flat_values(_encode_each(code_points.flat_values, input_encoding, errors,
                                                         replacement_char))
    flat = array_ops.reshape(code_points, [-1])
    one_each = array_ops.range_(array_ops.size(flat, out_type=dtypes.int64) + 1, dtype=dtypes.int64)
    encoded = node("UnicodeEncode")(flat, one_each, output_encoding=input_encoding, errors=errors,
                                    replacement_char=replacement_char)
    return array_ops.reshape(encoded, array_ops.shape(code_points))


@tf_export("strings.unicode_split")
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Each string split into its characters (one string per character, re-encoded)."""
    code_points = _decode(input, input_encoding, errors, replacement_char, False, False, name)
    return _encode_each(code_points, input_encoding, errors, replacement_char)


@tf_export("strings.unicode_split_with_offsets")
def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """unicode_split, plus the byte offset where each character starts."""
    code_points, offsets = _decode(input, input_encoding, errors, replacement_char, False, True, name)
    return _encode_each(code_points, input_encoding, errors, replacement_char), offsets


def ragged_unicode_encode(input, output_encoding, errors, replacement_char, name):  # noqa: A002
    """unicode_encode of a RaggedTensor: its innermost rows become strings."""
    if input.flat_values.shape.rank > 1:
        return input.with_flat_values(strings.dense_unicode_encode(input.flat_values, output_encoding, errors,
                                                                   replacement_char))
    if input.ragged_rank > 1:
        return input.with_values(ragged_unicode_encode(input.values, output_encoding, errors, replacement_char, name))
    values = array_ops.convert_to_tensor(input.values, dtypes.int32) if not isinstance(input.values, Tensor) \
        else input.values
    return node("UnicodeEncode", name)(values, input.row_splits, output_encoding=output_encoding, errors=errors,
                                       replacement_char=replacement_char)


def ragged_ngrams(data, widths, separator, left_pad, right_pad, pad_width, preserve_short_sequences, name):
    """ngrams of a RaggedTensor's innermost rows (a RaggedTensor of the same partition)."""
    if data.ragged_rank > 1:
        return data.with_values(ragged_ngrams(data.values, widths, separator, left_pad, right_pad, pad_width,
                                              preserve_short_sequences, name))
    grams, gram_splits = node("StringNGrams", name)(
        data.values, data.row_splits, separator=separator, ngram_widths=widths, left_pad=left_pad,
        right_pad=right_pad, pad_width=pad_width, preserve_short_sequences=preserve_short_sequences)
    return _ragged().RaggedTensor.from_row_splits(grams, gram_splits, validate=False)


@tf_export("strings.unicode_encode")
def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Encodes the innermost dimension (or the innermost ragged rows) of int32 code points as one
    string per row."""
    if strings._is_ragged(input):
        return ragged_unicode_encode(input, output_encoding, errors, replacement_char, name)
    return strings.dense_unicode_encode(input, output_encoding, errors, replacement_char, name)


@tf_export("strings.ngrams")
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of the innermost dimension of `data` (a dense tensor, or a RaggedTensor's rows),
    joined with `separator`."""
    return strings.ngrams(data, ngram_width, separator, pad_values, padding_width, preserve_short_sequences, name,
                          ragged_ngrams=ragged_ngrams)
