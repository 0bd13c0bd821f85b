"""File datasets (tf.data.TextLineDataset, TFRecordDataset, experimental.CsvDataset,
experimental.make_csv_dataset) and Dataset.list_files. The files are read by the C++ pipeline
(cpp/graphfn/data/file_datasets.cc, csv_reader.cc); a missing or damaged file is TF's error
from the iterator, as in TF, not from the constructor."""

import collections
import csv
import gzip
import os

from graphfn import _core
from graphfn import context
from graphfn.data import dataset_ops
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.ops import array_ops
from graphfn.util.tf_export import tf_export

_STRING_SCALAR = TensorSpec([], dtypes.string)
_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def eager_tensor(value, dtype=None, what="argument"):
    """`value` as an eager tensor, also while a function is traced (a dataset is built from known
    values); a tensor computed inside the function gets graphfn's NotImplementedError."""
    if isinstance(value, Tensor):
        if not hasattr(value, "numpy"):
            raise NotImplementedError("graphfn builds datasets from known values: a %s computed inside a "
                                      "tf.function (%s) is not supported yet" % (what, value))
        return value
    with context.init_scope():
        return array_ops.convert_to_tensor(value, dtype=dtype)


def _filenames_node(filenames):
    """The C++ dataset of the file names (a string, list of strings, string tensor or dataset)."""
    if isinstance(filenames, dataset_ops.DatasetV2):
        spec = filenames.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string:
            raise TypeError("The `filenames` argument must contain `tf.string` elements. Got a dataset of `%r` "
                            "elements." % (spec,))
        if not spec.shape.is_compatible_with([]):
            raise TypeError("The `filenames` argument must contain `tf.string` elements of shape [] (i.e. scalars). "
                            "Got a dataset of element shape %s." % (spec.shape,))
        return filenames._node
    if isinstance(filenames, (list, tuple)) and not filenames:
        names = eager_tensor([], dtypes.string)
    else:
        names = eager_tensor(filenames, what="file name")
    if names.dtype != dtypes.string:
        raise TypeError("The `filenames` argument must contain `tf.string` elements. Got `%r` elements." % names.dtype)
    with context.init_scope():
        return _core.data_tensor_slices([array_ops.reshape(names, [-1])])


def _text(value, default=""):
    """A string argument (str, bytes or a string tensor) as str."""
    if value is None:
        return default
    if isinstance(value, Tensor):
        value = value.numpy()
    return value.decode() if isinstance(value, bytes) else str(value)


def _size(value, default=-1):
    return default if value is None else dataset_ops._int(value)


def _parallel_reads(value):
    if value is None:
        return 1
    n = dataset_ops._int(value)
    return os.cpu_count() or 1 if n == dataset_ops.AUTOTUNE else n


@tf_export("data.TextLineDataset")
class TextLineDatasetV2(dataset_ops.DatasetV2):
    """The lines of text files (without their line ends), one string per line."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        node = _core.data_text_line(_filenames_node(filenames), _text(compression_type), _size(buffer_size),
                                    _parallel_reads(num_parallel_reads))
        super().__init__(node, _STRING_SCALAR)


@tf_export("data.TFRecordDataset")
class TFRecordDatasetV2(dataset_ops.DatasetV2):
    """The records of TFRecord files, one string per record."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        buffer_size = 256 * 1024 if buffer_size is None else dataset_ops._int(buffer_size)
        node = _core.data_tfrecord(_filenames_node(filenames), _text(compression_type), buffer_size,
                                   _parallel_reads(num_parallel_reads))
        super().__init__(node, _STRING_SCALAR)


def _record_default(value):
    """One CsvDataset column default: a dtype (a required column) or a value (its default)."""
    if isinstance(value, dtypes.DType):
        if value not in _CSV_TYPES:
            raise ValueError("Attempt to convert a value (%r) with an unsupported type (%s) to a Tensor."
                             % (value, type(value)))
        return eager_tensor([], value)
    return eager_tensor(value, what="record default")


@tf_export("data.experimental.CsvDataset")
class CsvDatasetV2(dataset_ops.DatasetV2):
    """The records of CSV files, one tuple of scalars (one per column) per record."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None, name=None):
        if exclude_cols is not None:
            raise NotImplementedError("graphfn's CsvDataset does not support `exclude_cols` yet; use `select_cols`")
        defaults = [_record_default(d) for d in record_defaults]
        node = _csv_node(filenames, defaults, compression_type, buffer_size, header, field_delim, use_quote_delim,
                         na_value, select_cols, 1)
        super().__init__(node, tuple(TensorSpec([], d.dtype) for d in defaults))


def _csv_node(filenames, defaults, compression_type, buffer_size, header, field_delim, use_quote_delim, na_value,
              select_cols, num_parallel_reads):
    select = [] if select_cols is None else [dataset_ops._int(c) for c in select_cols]
    return dataset_ops._build("CSVDatasetV2", _core.data_csv, _filenames_node(filenames), _text(compression_type),
                              _size(buffer_size), defaults, select, bool(header), _text(field_delim),
                              bool(use_quote_delim), _text(na_value), num_parallel_reads)


# ---- Dataset.list_files ----------------------------------------------------------------------

def _matching_files(patterns):
    from graphfn.file_io import gfile  # lazily: only list_files needs it

    found = []
    for pattern in patterns:
        found.extend(gfile.glob(pattern))
    return sorted(set(found))


def list_files(file_pattern, shuffle=None, seed=None):
    if isinstance(file_pattern, dataset_ops.DatasetV2):
        raise NotImplementedError("graphfn's list_files takes patterns as strings or string tensors")
    patterns = eager_tensor(file_pattern, dtypes.string, what="file pattern")
    import numpy as np  # lazily: import graphfn does not load numpy

    texts = [p.decode() for p in np.asarray(patterns.numpy(), dtype=object).reshape(-1)]
    names = _matching_files(texts)
    if not names:
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'No files "
            "matched pattern: %s'" % ", ".join(texts))
    dataset = dataset_ops.DatasetV2.from_tensor_slices(eager_tensor(names, dtypes.string))
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(len(names), seed=seed)
    return dataset


# ---- tf.data.experimental.make_csv_dataset ----------------------------------------------------

def _fits_int(text, bits):
    try:
        v = int(text)
    except ValueError:
        return False
    return -2 ** (bits - 1) <= v < 2 ** (bits - 1)


def _fits_float(text, dtype):
    import numpy as np  # lazily: import graphfn does not load numpy

    try:
        v = float(text)
    except ValueError:
        return False
    if dtype == dtypes.float32:
        return not (np.isfinite(v) and not np.isfinite(np.float32(v)))
    return True


_INFERENCE_ORDER = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string)


def _widened(text, na_value, previous):
    """The narrowest of int32, int64, float32, float64, string holding `text` and what the column
    held before (TF's make_csv_dataset inference)."""
    if text in ("", na_value):
        return previous
    checks = (lambda t: _fits_int(t, 32), lambda t: _fits_int(t, 64), lambda t: _fits_float(t, dtypes.float32),
              lambda t: _fits_float(t, dtypes.float64), lambda t: True)
    for i, (dtype, fits) in enumerate(zip(_INFERENCE_ORDER, checks)):
        if fits(text) and (previous is None or previous in _INFERENCE_ORDER[:i + 1]):
            return dtype
    return dtypes.string


def _csv_rows(open_file, name, delim, quotes):
    with open_file(name) as f:
        yield from csv.reader(f, delimiter=delim, quoting=csv.QUOTE_MINIMAL if quotes else csv.QUOTE_NONE)


def _inferred_defaults(filenames, open_file, num_cols, delim, quotes, na_value, header, rows, select):
    columns = list(range(num_cols)) if select is None else select
    types = [None] * len(columns)
    seen = 0
    for name in filenames:
        reader = _csv_rows(open_file, name, delim, quotes)
        line = 1
        if header:
            next(reader, None)
            line += 1
        for row in reader:
            if rows is not None and seen >= rows:
                break
            if len(row) != num_cols:
                raise ValueError("Problem inferring types: CSV row %d has %d number of fields. Expected: %d."
                                 % (line, len(row), num_cols))
            for j, c in enumerate(columns):
                types[j] = _widened(row[c], na_value, types[j])
            seen += 1
            line += 1
        if rows is not None and seen >= rows:
            break
    types = [t or dtypes.string for t in types]
    return [eager_tensor(["" if t == dtypes.string else 0], t) for t in types]


def _header_names(filenames, open_file, delim, quotes):
    names = None
    for name in filenames:
        row = next(_csv_rows(open_file, name, delim, quotes), None)
        if row is None:
            raise ValueError("Failed when reading the header line of %s. Is it an empty file?" % name)
        if names is None:
            names = row
        elif row != names:
            raise ValueError("All input CSV files should have the same column names in the header row. File %s has "
                             "different column names." % name)
    return names


def _column_indices(select_columns, column_names):
    index_of = {n: i for i, n in enumerate(column_names)}
    indices = []
    for v in select_columns:
        if isinstance(v, int):
            if v < 0 or v >= len(column_names):
                raise ValueError("Column index %d specified in `select_columns` should be > 0  and <= %d, which is the "
                                 "number of columns." % (v, len(column_names)))
            indices.append(v)
        elif v not in index_of:
            raise ValueError("Column %s specified in `select_columns` must be of one of the columns: %s."
                             % (v, index_of.keys()))
        else:
            indices.append(index_of[v])
    unique = sorted(set(indices))
    if len(unique) != len(select_columns):
        # TF 2.21 looks for the duplicates among the de-duplicated indices, so it names none.
        raise ValueError("The `select_columns` argument contains duplicate columns: %s."
                         % set(a for a, b in zip(unique[:-1], unique[1:]) if a == b))
    return unique


@tf_export("data.experimental.make_csv_dataset")
def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """Batches of (features dict, label) (or of features dicts) read from CSV files, as TF's."""
    if ignore_errors:
        raise NotImplementedError("graphfn's make_csv_dataset does not support ignore_errors=True yet")
    patterns = file_pattern if isinstance(file_pattern, list) else [file_pattern]
    if not patterns:
        raise ValueError("Argument `file_pattern` should not be empty.")
    from graphfn.file_io import gfile  # lazily: only make_csv_dataset and list_files need it

    filenames = sorted(name for p in patterns for name in gfile.glob(p))
    if not filenames:
        raise ValueError("No files match `file_pattern` %s." % (file_pattern,))
    compression = _text(compression_type)

    def open_file(name):
        if compression == "GZIP":
            return gzip.open(name, "rt", encoding=encoding, newline="")
        return open(name, "r", encoding=encoding, newline="")

    if column_names is None or column_defaults is None:
        if compression == "ZLIB":
            raise ValueError("`compression_type` %s is not supported for probing columns." % (compression_type,))
        if compression not in ("", "GZIP"):
            raise ValueError("Received unknown `compression_type` %s. Expected: GZIP, ZLIB or  (empty string)."
                             % (compression_type,))
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        column_names = _header_names(filenames, open_file, field_delim, use_quote_delim)
    column_names = list(column_names)
    if len(column_names) != len(set(column_names)):
        ordered = sorted(column_names)
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate column names: %s."
                         % set(a for a, b in zip(ordered[:-1], ordered[1:]) if a == b))
    if select_columns is not None:
        select_columns = _column_indices(select_columns, column_names)
    if column_defaults is not None:
        column_defaults = [eager_tensor([], d) if isinstance(d, dtypes.DType) and d in _CSV_TYPES else d
                           for d in column_defaults]
    else:
        column_defaults = _inferred_defaults(filenames, open_file, len(column_names), field_delim, use_quote_delim,
                                             na_value, header, num_rows_for_inference, select_columns)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the same length: "
                         "`column_defaults` has length %d, `select_columns` has length %d."
                         % (len(column_defaults), len(select_columns)))
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError("`label_name` provided must be one of the columns: %s. Received: %s."
                         % (column_names, label_name))

    files = dataset_ops.DatasetV2.from_tensor_slices(eager_tensor(filenames, dtypes.string))
    if shuffle:
        files = files.shuffle(len(filenames), shuffle_seed)
    dataset = CsvDatasetV2(files, column_defaults, compression_type=compression_type, header=header,
                           field_delim=field_delim, use_quote_delim=use_quote_delim, na_value=na_value,
                           select_cols=select_columns)
    if num_parallel_reads not in (None, 1):  # TF's interleave of that many files, a record at a time
        dataset._node = _csv_node(files, column_defaults, compression_type, None, header, field_delim,
                                  use_quote_delim, na_value, select_columns, _parallel_reads(num_parallel_reads))
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    # As TF: batches are full-sized (a static batch dimension) when the data repeats forever.
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
    names = list(column_names)

    def to_features(*columns):
        features = collections.OrderedDict(zip(names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    dataset = dataset.map(to_features)
    return dataset.prefetch(dataset_ops.AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


__all__ = ["TextLineDatasetV2", "TFRecordDatasetV2", "CsvDatasetV2", "list_files", "make_csv_dataset"]

dataset_ops._SOURCES["list_files"] = list_files
