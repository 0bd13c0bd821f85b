"""The sorted string table (SSTable) that a TensorFlow checkpoint's `.index` file is: LevelDB's
table layout, as TensorFlow's lib/io/table writes it without compression.

A file is a run of blocks, then a 48-byte footer:
  data blocks   prefix-compressed (key, value) entries in key order, with restart points
  metaindex     an empty block
  index block   one entry per data block: a key >= the block's last key -> the block's handle
  footer        metaindex handle, index handle (varint64 offset + size each), zero padding to
                40 bytes, then the magic number 0xdb4775248b80fb57 (little-endian)
Each block is followed by a 5-byte trailer: the compression type (0: none) and the masked
CRC-32C of the block contents and that type byte."""

import struct

from graphfn import _core
from graphfn.framework import errors

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48
BLOCK_SIZE = 256 * 1024   # TensorFlow's table options: a data block ends past 256 KiB
RESTART_INTERVAL = 16      # a full key every 16 entries


def crc32c(data, crc=0):
    return _core.crc32c_extend(crc, data)


def mask_crc(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def unmask_crc(masked):
    rotated = (masked - 0xA282EAD8) & 0xFFFFFFFF
    return ((rotated >> 17) | (rotated << 15)) & 0xFFFFFFFF


def put_varint(out, value):
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def get_varint(data, pos, what):
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise errors.DataLossError(None, None, "corrupted checkpoint index: bad varint in %s" % what)
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


class _BlockBuilder:
    def __init__(self, restart_interval=RESTART_INTERVAL):
        self.restart_interval = restart_interval
        self.buffer = bytearray()
        self.restarts = [0]
        self.count = 0
        self.last_key = b""

    def add(self, key, value):
        shared = 0
        if self.count < self.restart_interval:
            limit = min(len(key), len(self.last_key))
            while shared < limit and key[shared] == self.last_key[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buffer))
            self.count = 0
        put_varint(self.buffer, shared)
        put_varint(self.buffer, len(key) - shared)
        put_varint(self.buffer, len(value))
        self.buffer += key[shared:]
        self.buffer += value
        self.last_key = key
        self.count += 1

    def size_estimate(self):
        return len(self.buffer) + 4 * len(self.restarts) + 4

    def finish(self):
        for restart in self.restarts:
            self.buffer += struct.pack("<I", restart)
        self.buffer += struct.pack("<I", len(self.restarts))
        return bytes(self.buffer)

    def empty(self):
        return not self.buffer


def _shortest_separator(start, limit):
    """A short key k with start <= k < limit (LevelDB's bytewise comparator)."""
    common = 0
    while common < min(len(start), len(limit)) and start[common] == limit[common]:
        common += 1
    if common < min(len(start), len(limit)):
        byte = start[common]
        if byte < 0xFF and byte + 1 < limit[common]:
            return start[:common] + bytes([byte + 1])
    return start


def _short_successor(key):
    """A short key >= key."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def _handle(offset, size):
    out = bytearray()
    put_varint(out, offset)
    put_varint(out, size)
    return bytes(out)


def build_table(items):
    """The bytes of a table holding `items`, (key bytes, value bytes) pairs in increasing key order."""
    out = bytearray()
    index = _BlockBuilder(restart_interval=1)  # every index entry a full key, as LevelDB's
    block = _BlockBuilder()
    pending_handle = None  # the last finished data block, indexed once the next key is known

    def write_block(contents):
        offset = len(out)
        out.extend(contents)
        trailer_type = b"\x00"
        out.extend(trailer_type)
        out.extend(struct.pack("<I", mask_crc(crc32c(trailer_type, crc32c(contents)))))
        return offset, len(contents)

    for key, value in items:
        if pending_handle is not None:
            index.add(_shortest_separator(block_last, key), _handle(*pending_handle))
            pending_handle = None
        block.add(key, value)
        if block.size_estimate() >= BLOCK_SIZE:
            block_last = block.last_key
            pending_handle = write_block(block.finish())
            block = _BlockBuilder()
    if not block.empty():
        block_last = block.last_key
        pending_handle = write_block(block.finish())
    if pending_handle is not None:
        index.add(_short_successor(block_last), _handle(*pending_handle))
    metaindex_handle = write_block(_BlockBuilder().finish())
    index_handle = write_block(index.finish())
    footer = _handle(*metaindex_handle) + _handle(*index_handle)
    out.extend(footer + b"\x00" * (40 - len(footer)) + struct.pack("<Q", MAGIC))
    return bytes(out)


def _corrupt(path, what):
    return errors.DataLossError(None, None, "Unable to read checkpoint index %s: %s" % (path, what))


def _read_block(data, offset, size, path):
    if offset + size + 5 > len(data):
        raise _corrupt(path, "block runs past the end of the file")
    contents = data[offset:offset + size]
    trailer = data[offset + size:offset + size + 5]
    if trailer[0] != 0:
        raise _corrupt(path, "compressed blocks are not supported")
    if unmask_crc(struct.unpack("<I", trailer[1:])[0]) != crc32c(trailer[:1], crc32c(contents)):
        raise _corrupt(path, "block checksum mismatch")
    return contents


def _block_entries(block, path):
    if len(block) < 4:
        raise _corrupt(path, "block too short")
    num_restarts = struct.unpack("<I", block[-4:])[0]
    end = len(block) - 4 - 4 * num_restarts
    if end < 0:
        raise _corrupt(path, "bad restart array")
    pos, key = 0, b""
    while pos < end:
        shared, pos = get_varint(block, pos, path)
        non_shared, pos = get_varint(block, pos, path)
        value_len, pos = get_varint(block, pos, path)
        if shared > len(key) or pos + non_shared + value_len > end:
            raise _corrupt(path, "bad block entry")
        key = key[:shared] + bytes(block[pos:pos + non_shared])
        pos += non_shared
        yield key, bytes(block[pos:pos + value_len])
        pos += value_len


def read_table(data, path):
    """All (key, value) pairs of the table `data` (the bytes of a file), in key order."""
    if len(data) < FOOTER_SIZE or struct.unpack("<Q", data[-8:])[0] != MAGIC:
        raise _corrupt(path, "not an sstable (bad magic number)")
    footer = data[-FOOTER_SIZE:]
    _, pos = get_varint(footer, 0, path)
    _, pos = get_varint(footer, pos, path)
    index_offset, pos = get_varint(footer, pos, path)
    index_size, pos = get_varint(footer, pos, path)
    items = []
    for _, handle in _block_entries(_read_block(data, index_offset, index_size, path), path):
        offset, p = get_varint(handle, 0, path)
        size, _ = get_varint(handle, p, path)
        items.extend(_block_entries(_read_block(data, offset, size, path), path))
    return items
