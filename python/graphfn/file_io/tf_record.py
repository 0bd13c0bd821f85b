"""TFRecord files: tf.io.TFRecordWriter, tf.io.TFRecordOptions, tf.io.TFRecordCompressionType
and tf.compat.v1.io.tf_record_iterator. The framing (length, masked CRC-32C of the length, data,
masked CRC-32C of the data) and zlib/gzip compression are C++ (kernels/record_io.cc, through
_core.RecordWriter / _core.RecordReader); a damaged file raises tf.errors.DataLossError with TF's
text, a missing one NotFoundError."""

from graphfn import _core
from graphfn.util.tf_export import tf_export


@tf_export("compat.v1.io.TFRecordCompressionType", "compat.v1.python_io.TFRecordCompressionType")
class TFRecordCompressionType:
    """The compression kinds of a TFRecord file."""
    NONE = 0
    ZLIB = 1
    GZIP = 2


_COMPRESSION_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
                      TFRecordCompressionType.GZIP: "GZIP"}


@tf_export("io.TFRecordOptions", "compat.v1.io.TFRecordOptions")
class TFRecordOptions:
    """How a TFRecord file is compressed: compression_type "" / "ZLIB" / "GZIP" (or a
    TFRecordCompressionType). graphfn compresses with zlib's defaults as TF does; the tuning
    fields are kept for TF's API but only their defaults (None) are supported."""

    compression_type_map = dict(_COMPRESSION_NAMES)

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        if compression_type is None:
            compression_type = ""
        if isinstance(compression_type, int):
            compression_type = self.compression_type_map.get(compression_type, compression_type)
        if compression_type not in ("", "ZLIB", "GZIP"):
            raise ValueError('Not a valid compression_type: "{}"'.format(compression_type))
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy
        tuned = [n for n in ("flush_mode", "input_buffer_size", "output_buffer_size", "window_bits",
                             "compression_level", "compression_method", "mem_level", "compression_strategy")
                 if getattr(self, n) is not None]
        if tuned:
            raise NotImplementedError("graphfn's TFRecordOptions supports only compression_type; got " +
                                      ", ".join(tuned))

    @classmethod
    def get_compression_type_string(cls, options):
        """"" / "ZLIB" / "GZIP" for options given as a TFRecordOptions, a name or a type (None: "")."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return cls(options).compression_type


def _compression(options):
    return TFRecordOptions.get_compression_type_string(options)


@tf_export("io.TFRecordWriter", "compat.v1.io.TFRecordWriter")
class TFRecordWriter:
    """Writes records to a TFRecord file: write(record) (bytes or str), flush(), close(), and
    `with`. options: a TFRecordOptions, "" / "ZLIB" / "GZIP", or None."""

    def __init__(self, path, options=None):
        self._writer = _core.RecordWriter(str(path), _compression(options))

    def write(self, record):
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif isinstance(record, (bytearray, memoryview)):
            record = bytes(record)
        elif not isinstance(record, bytes):
            raise TypeError("write(): incompatible function arguments. The record must be bytes or str, got %s"
                            % type(record).__name__)
        self._writer.write(record)

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@tf_export("compat.v1.io.tf_record_iterator", "compat.v1.python_io.tf_record_iterator")
def tf_record_iterator(path, options=None):
    """The records of a TFRecord file, as bytes, one at a time. DataLossError for a damaged file
    (TF's text: "corrupted record at 12", "truncated record at 0' failed with ...")."""
    reader = _core.RecordReader(str(path), _compression(options))
    while True:
        record = reader.read()
        if record is None:
            return
        yield record
