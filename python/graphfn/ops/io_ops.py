"""tf.io.read_file / write_file (whole files), tf.io.decode_raw (DecodeRaw, DecodePaddedRaw with
fixed_length) and tf.io.decode_csv (DecodeCSV): wrappers of the C++ ops in
cpp/graphfn/ops/io_ops.cc, usable eagerly and inside functions."""

from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("io.read_file", "compat.v1.read_file")
def read_file(filename, name=None):
    """The contents of the file `filename` (a scalar string) as a scalar string tensor."""
    return node("ReadFile", name)(array_ops.convert_to_tensor(filename, dtypes.string))


@tf_export("io.write_file", "compat.v1.write_file")
def write_file(filename, contents, name=None):
    """Writes `contents` to `filename`, creating missing parent folders (as TF)."""
    op = node("WriteFile", name)(array_ops.convert_to_tensor(filename, dtypes.string),
                                 array_ops.convert_to_tensor(contents, dtypes.string))
    return None if op == () else op  # eagerly None, as TF; while tracing the operation


@tf_export("io.decode_raw")
def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string's bytes as numbers of `out_type` (one more dimension). With fixed_length,
    strings are cut or zero-padded to that many bytes (DecodePaddedRaw)."""
    input_bytes = array_ops.convert_to_tensor(input_bytes, dtypes.string)
    out_type = dtypes.as_dtype(out_type)
    if fixed_length is not None:
        return node("DecodePaddedRaw", name)(input_bytes, array_ops.convert_to_tensor(fixed_length, dtypes.int32),
                                             out_type=out_type, little_endian=little_endian)
    return node("DecodeRaw", name)(input_bytes, out_type=out_type, little_endian=little_endian)


def _default_tensor(default):
    # A list of tensors ([tf.constant(0, tf.int64)]) is stacked, keeping their dtype: graphfn's
    # convert_to_tensor of such a list gives int32 today (TF: int64), a conversion bug of its own.
    if isinstance(default, (list, tuple)) and default and all(hasattr(d, "dtype") for d in default):
        return array_ops.stack(list(default))
    return array_ops.convert_to_tensor(default)


@tf_export("io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="", select_cols=None,
               name=None):
    """Each CSV record's fields as one tensor per column, of its default's dtype; an empty field
    (or na_value) takes the default, an empty default makes the column required."""
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    records = array_ops.convert_to_tensor(records, dtypes.string)
    defaults = [_default_tensor(d) for d in record_defaults]
    outputs = node("DecodeCSV", name)(records, defaults, field_delim=field_delim, use_quote_delim=use_quote_delim,
                                      na_value=na_value, select_cols=list(select_cols or []))
    return list(outputs)
