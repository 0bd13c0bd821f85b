"""TensorFlow's tensor bundle: the `<prefix>.index` + `<prefix>.data-00000-of-00001` pair a
checkpoint is (TF's core/util/tensor_bundle), read and written in TF's exact format.

- The index is an SSTable (table_format.py). Key "" holds a BundleHeaderProto (number of data
  shards, endianness, format version 1); every other key is a tensor's name and holds a
  BundleEntryProto: dtype, shape, shard, offset and size in that shard's data file, and the
  masked CRC-32C of the tensor's bytes.
- A data file is the tensors' bytes one after another: numbers as little-endian arrays; strings
  as the varint64 length of each element, the masked CRC-32C of those lengths (each length as a
  4-byte little-endian integer in the CRC, 8 bytes past 4 GiB), then the bytes of each element.
  A string tensor's entry CRC covers the lengths, that length checksum and the bytes.
Sliced (partitioned) entries are refused with UnimplementedError."""

import os
import struct
import uuid

from graphfn.framework import dtypes, errors
from graphfn.checkpoint import table_format
from graphfn.util.lazy_numpy import numpy

DT_STRING = 7
_FORMAT_VERSION = 1
# TensorFlow's DataTypeString for the dtypes whose graphfn name differs (used in messages).
_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def tf_type_name(dtype):
    return _TF_TYPE_NAMES.get(dtype.name, dtype.name)


def parse_proto(message_class, data, where):
    """`message_class` parsed from `data`; DataLossError (not protobuf's DecodeError) when damaged."""
    from google.protobuf.message import DecodeError  # protobuf on first use, not at import
    try:
        return message_class.FromString(data)
    except DecodeError:
        raise errors.DataLossError(None, None, "Corrupted checkpoint %s: cannot parse its %s"
                                   % (where, message_class.DESCRIPTOR.name)) from None


def data_path(prefix, shard=0, num_shards=1):
    return "%s.data-%05d-of-%05d" % (prefix, shard, num_shards)


def index_path(prefix):
    return prefix + ".index"


def _string_bytes(array):
    """A string tensor's on-disk bytes and its (unmasked) CRC-32C."""
    elements = [e if isinstance(e, bytes) else str(e).encode() for e in array.reshape(-1)]
    lengths = bytearray()
    crc = 0
    for element in elements:
        table_format.put_varint(lengths, len(element))
        size = len(element)
        crc = table_format.crc32c(struct.pack("<I", size) if size <= 0xFFFFFFFF else struct.pack("<Q", size), crc)
    length_checksum = struct.pack("<I", table_format.mask_crc(crc))
    crc = table_format.crc32c(length_checksum, crc)
    body = b"".join(elements)
    crc = table_format.crc32c(body, crc)
    return bytes(lengths) + length_checksum + body, crc


def _dtype_enum(array):
    if array.dtype == object or array.dtype.kind in "SU":
        return DT_STRING
    return dtypes.as_dtype(array.dtype).as_datatype_enum


def write_bundle(prefix, tensors):
    """Writes `tensors` (name -> NumPy array; strings as object arrays of bytes) as the bundle
    `prefix`. Files are written under temporary names and renamed, so a reader never sees half
    a checkpoint."""
    from graphfn.checkpoint import checkpoint_protos as protos  # protobuf on first use, not at import

    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    entries = {}
    token = uuid.uuid4().hex
    data_tmp = data_path(prefix) + ".tempstate" + token
    offset = 0
    with open(data_tmp, "wb") as data_file:
        for name, value in tensors.items():
            array = numpy().asarray(value)
            shape = array.shape  # before ascontiguousarray, which makes a scalar 1-D
            enum = _dtype_enum(array)
            if enum == DT_STRING:
                payload, crc = _string_bytes(array)
            else:
                array = numpy().ascontiguousarray(array)
                if array.dtype.byteorder == ">":
                    array = array.astype(array.dtype.newbyteorder("<"))
                payload = array.reshape(-1).view(numpy().uint8) if array.size else b""  # float16 has no buffer format
                crc = table_format.crc32c(payload)
            entry = protos.BundleEntryProto(dtype=enum, offset=offset, size=len(payload),
                                            crc32c=table_format.mask_crc(crc))
            entry.shape.SetInParent()  # present even for a scalar, as TF writes it
            for size in shape:
                entry.shape.dim.add(size=size)
            data_file.write(payload)
            offset += len(payload)
            entries[name.encode()] = entry.SerializeToString()
    header = protos.BundleHeaderProto(num_shards=1)
    header.version.producer = _FORMAT_VERSION
    items = [(b"", header.SerializeToString())] + sorted(entries.items())
    index_tmp = index_path(prefix) + ".tempstate" + token
    with open(index_tmp, "wb") as index_file:
        index_file.write(table_format.build_table(items))
    os.replace(data_tmp, data_path(prefix))
    os.replace(index_tmp, index_path(prefix))


class BundleReader:
    """The entries of the bundle `prefix`; `tensor(name)` reads one as a NumPy array."""

    def __init__(self, prefix):
        from graphfn.checkpoint import checkpoint_protos as protos  # protobuf on first use, not at import

        self._prefix = prefix
        path = index_path(prefix)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            raise errors.NotFoundError(
                None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for "
                + prefix) from None
        items = table_format.read_table(data, path)
        if not items or items[0][0] != b"":
            raise errors.DataLossError(None, None, "Checkpoint index %s has no header entry" % path)
        header = parse_proto(protos.BundleHeaderProto, items[0][1], path)
        if header.endianness != 0:
            raise errors.UnimplementedError(None, None, "Reading a big-endian checkpoint is not supported: " + path)
        if header.version.min_consumer > _FORMAT_VERSION:
            raise errors.InvalidArgumentError(
                None, None, "Checkpoint %s needs a newer reader (min_consumer %d)" % (path, header.version.min_consumer))
        self._num_shards = max(header.num_shards, 1)
        self._entries = {}
        for key, value in items[1:]:
            entry = parse_proto(protos.BundleEntryProto, value, path)
            try:
                dtypes.as_dtype(entry.dtype)
            except (TypeError, ValueError, KeyError):
                raise errors.DataLossError(None, None, "Corrupted checkpoint %s: entry %r has unknown dtype %d"
                                           % (path, key, entry.dtype)) from None
            self._entries[key.decode("utf-8", "surrogateescape")] = entry

    def keys(self):
        return list(self._entries)

    def has(self, name):
        return name in self._entries

    def dtype(self, name):
        return dtypes.as_dtype(self._entries[name].dtype)

    def shape(self, name):
        return [d.size for d in self._entries[name].shape.dim]

    def tensor(self, name):
        entry = self._entries.get(name)
        if entry is None:
            raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % name)
        if entry.slices:
            raise errors.UnimplementedError(
                None, None, "graphfn does not read partitioned (sliced) checkpoint entries yet: " + name)
        path = data_path(self._prefix, entry.shard_id, self._num_shards)
        try:
            with open(path, "rb") as f:
                f.seek(entry.offset)
                payload = f.read(entry.size)
        except OSError as e:
            raise errors.NotFoundError(None, None, "Checkpoint data file %s: %s" % (path, e.strerror)) from None
        if len(payload) != entry.size:
            raise errors.DataLossError(None, None, "Checkpoint data file %s is truncated (key %s)" % (path, name))
        shape = tuple(d.size for d in entry.shape.dim)
        if entry.dtype == DT_STRING:
            array, crc = self._decode_strings(payload, shape, name)
        else:
            crc = table_format.crc32c(payload)
            np_type = dtypes.as_dtype(entry.dtype).as_numpy_dtype
            count = int(numpy().prod(shape)) if shape else 1
            if count * numpy().dtype(np_type).itemsize != len(payload):
                raise errors.DataLossError(None, None, "Checkpoint entry %s: size does not match its shape" % name)
            array = numpy().frombuffer(payload, dtype=np_type).reshape(shape).copy()
        if table_format.mask_crc(crc) != entry.crc32c:
            raise errors.DataLossError(
                None, None, "Checksum does not match: stored %d vs. calculated on the restored bytes %d (key %s)"
                % (entry.crc32c, table_format.mask_crc(crc), name))
        return array

    def _decode_strings(self, payload, shape, name):
        count = int(numpy().prod(shape)) if shape else 1
        pos, lengths, crc = 0, [], 0
        for _ in range(count):
            length, pos = table_format.get_varint(payload, pos, name)
            lengths.append(length)
            crc = table_format.crc32c(struct.pack("<I", length) if length <= 0xFFFFFFFF
                                      else struct.pack("<Q", length), crc)
        if pos + 4 + sum(lengths) != len(payload) or \
                struct.unpack("<I", payload[pos:pos + 4])[0] != table_format.mask_crc(crc):
            raise errors.DataLossError(None, None, "Checkpoint entry %s: corrupted string lengths" % name)
        crc = table_format.crc32c(payload[pos:pos + 4], crc)
        pos += 4
        values = numpy().empty(count, dtype=object)
        for i, length in enumerate(lengths):
            values[i] = payload[pos:pos + length]
            pos += length
        crc = table_format.crc32c(payload[pos - sum(lengths):pos], crc)
        return values.reshape(shape), crc
