"""tf.lookup: KeyValueTensorInitializer, StaticHashTable and StaticVocabularyTable.

A table is a HashTableV2 resource (cpp/graphfn/kernels/lookup_kernels.cc), created and filled
(LookupTableImportV2) eagerly when the Python object is made, also inside a function (as TF
creates resources under init_scope); lookups are LookupTableFindV2 nodes, so a table used in a
function is captured by its handle, as variables are. StaticVocabularyTable gives a key missing
from the vocabulary the bucket vocab_size + Fingerprint64(key as a string) % num_oov_buckets, as
TF does (StringToHashBucketFast)."""

from graphfn import context
from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.ops import array_ops
from graphfn.ops._op_table import node, ops
from graphfn.ops.string_hash import as_string, string_to_hash_bucket_fast
from graphfn.util.tf_export import tf_export


@tf_export("lookup.KeyValueTensorInitializer")
class KeyValueTensorInitializer:
    """Fills a table from a keys tensor and a values tensor of the same shape."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        with context.init_scope():
            self._keys = array_ops.convert_to_tensor(keys, dtype=key_dtype, name="keys")
            self._values = array_ops.convert_to_tensor(values, dtype=value_dtype, name="values")
        self._name = name if name is not None else "key_value_init"

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype

    def initialize(self, table):
        """Fills `table` (LookupTableImportV2)."""
        _check_table_dtypes(table, self._keys.dtype, self._values.dtype)
        with name_scope(self._name):
            return ops.LookupTableImportV2(table.resource_handle, self._keys, self._values)


def _check_table_dtypes(table, key_dtype, value_dtype):
    if key_dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype for table, expected {table.key_dtype} but got {key_dtype}.")
    if value_dtype.base_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype for table, expected {table.value_dtype} but got {value_dtype}.")


@tf_export("lookup.StaticHashTable")
class StaticHashTable:
    """An immutable hash table, filled once by its initializer; missing keys get `default_value`."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._initializer = initializer
        self._name = name or "hash_table"
        self._key_dtype = initializer.key_dtype
        self._value_dtype = initializer.value_dtype
        with context.init_scope():
            self._default_value = array_ops.convert_to_tensor(default_value, dtype=self._value_dtype)
            if self._default_value.shape.rank != 0:  # TF merges the shape with the table's value shape, []
                raise ValueError("Shapes %s and () are not compatible" % (self._default_value.shape,))
            self._resource_handle = node("HashTableV2", self._name)(key_dtype=self._key_dtype,
                                                                    value_dtype=self._value_dtype)
            initializer.initialize(self)

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def default_value(self):
        return self._default_value

    @property
    def name(self):
        return self._name

    @property
    def resource_handle(self):
        return self._resource_handle

    def size(self, name=None):
        """The number of entries (int64)."""
        with name_scope(name or "%s_Size" % self._name):
            return ops.LookupTableSizeV2(self._resource_handle)

    def lookup(self, keys, name=None):
        """The value of each key, `default_value` where the table has none."""
        keys = array_ops.convert_to_tensor(keys)
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        with name_scope(name or "%s_Lookup" % self._name):
            return ops.LookupTableFindV2(self._resource_handle, keys, self._default_value)

    def __getitem__(self, keys):
        return self.lookup(keys)

    def export(self, name=None):
        """The table's keys and values, as two 1-D tensors."""
        with name_scope(name or "%s_Export" % self._name):
            return ops.LookupTableExportV2(self._resource_handle, Tkeys=self._key_dtype, Tvalues=self._value_dtype)


@tf_export("lookup.StaticVocabularyTable")
class StaticVocabularyTable:
    """Keys to int64 ids: the vocabulary's id for known keys, else one of `num_oov_buckets`
    out-of-vocabulary buckets after the vocabulary, chosen by the key's Fingerprint64."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if name:
            name = name.rstrip("/")
        if initializer:
            if lookup_key_dtype is None:
                lookup_key_dtype = initializer.key_dtype
            supported = (dtypes.int64, dtypes.string)
            if initializer.key_dtype not in supported:
                raise TypeError("Invalid `key_dtype`, expected one of %s, but got %s." % (supported, initializer.key_dtype))
            if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
                raise TypeError("Invalid `key_dtype`, expected %s but got %s." % (
                    "integer" if lookup_key_dtype.is_integer else "non-integer", initializer.key_dtype))
            if initializer.value_dtype != dtypes.int64:
                raise TypeError("Invalid `value_dtype`, expected %s but got %s." % (dtypes.int64,
                                                                                      initializer.value_dtype))
            self._table = StaticHashTable(initializer, default_value=-1)
            name = name or self._table.name
        else:
            lookup_key_dtype = dtypes.string
            self._table = None
            name = name or "hash_bucket"
        if not lookup_key_dtype.is_integer and lookup_key_dtype != dtypes.string:
            raise TypeError("Invalid `key_dtype`, expected integer or string, got %s" % lookup_key_dtype)
        self._num_oov_buckets = num_oov_buckets
        self._key_dtype = lookup_key_dtype
        self._name = name

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return dtypes.int64

    @property
    def name(self):
        return self._name

    @property
    def resource_handle(self):
        return self._table.resource_handle if self._table is not None else None

    def size(self, name=None):
        """The vocabulary's size plus the number of out-of-vocabulary buckets."""
        with name_scope(name or "%s_Size" % self._name):
            if self._table is None:
                return array_ops.constant(self._num_oov_buckets, dtypes.int64)
            return self._table.size() + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """The id of each key."""
        keys = array_ops.convert_to_tensor(keys)
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        values = keys
        if self._table is not None and self._table.key_dtype == dtypes.int64:
            values = ops.Cast(values, DstT=dtypes.int64)
        with name_scope(name or "%s_Lookup" % self._name):
            text = values if values.dtype == dtypes.string else as_string(values)
            buckets = string_to_hash_bucket_fast(text, num_buckets=self._num_oov_buckets, name="hash_bucket")
            if self._table is None:
                return buckets
            ids = self._table.lookup(values)
            buckets = buckets + self._table.size()
            return array_ops.where(ids != self._table.default_value, ids, buckets)

    def __getitem__(self, keys):
        return self.lookup(keys)
