"""tf.strings.to_hash_bucket_fast and tf.strings.as_string: the StringToHashBucketFast (TF's
Fingerprint64 buckets) and AsString ops, which the lookup tables hash keys with."""

from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("strings.to_hash_bucket_fast")
def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 (TF's name)
    """The bucket of each string: Fingerprint64(s) % num_buckets, as TF computes it."""
    return node("StringToHashBucketFast", name)(array_ops.convert_to_tensor(input, dtypes.string),
                                                num_buckets=num_buckets)


@tf_export("strings.as_string", "as_string")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Each element as a string (printf-style for numbers, true/false for bools)."""
    return node("AsString", name)(input, precision=precision, scientific=scientific, shortest=shortest,
                                  width=width, fill=fill)
