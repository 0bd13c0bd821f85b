"""A Function's traces by key, with lookups that stay O(1) as traces accumulate.

A call's key finds its trace by equality, else (TF's rule) the most specific earlier trace whose
key it is a subtype of. Scanning every trace for supertypes made the 4 000th retrace of
`f(i)` (a new Python int each call) six times slower than the first. Two facts bound the scan:

- A key is a subtype of another only when both have the same *skeleton*: the key with each
  TensorSpec reduced to its dtype (shapes and names may generalize; everything else must be
  equal). Keys are indexed by skeleton, so a lookup reads one bucket.
- Only a key with a *generic* TensorSpec (an unknown dimension or rank, or a name) is a
  supertype of anything but itself; an exact match is the dict lookup. Only generic keys are
  indexed for the supertype search; reduce_retracing searches every key of the bucket."""

from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import trace_type as trace_types


class TraceCache:
    """key -> ConcreteFunction in tracing order (oldest first), as a dict reads."""

    def __init__(self):
        self._traces = {}
        self._by_skeleton = {}    # skeleton -> {key: None}, every key, in tracing order
        self._generic = {}        # skeleton -> {key: None}, keys that can be proper supertypes

    # dict-like reading --------------------------------------------------------------------------

    def get(self, key):
        return self._traces.get(key)

    def __len__(self):
        return len(self._traces)

    def __iter__(self):
        return iter(self._traces)

    def keys(self):
        return self._traces.keys()

    def items(self):
        return self._traces.items()

    def values(self):
        return self._traces.values()

    # writing ------------------------------------------------------------------------------------

    def __setitem__(self, key, concrete):
        if key not in self._traces:
            skeleton = _skeleton(key)
            self._by_skeleton.setdefault(skeleton, {})[key] = None
            if _is_generic(key):
                self._generic.setdefault(skeleton, {})[key] = None
        self._traces[key] = concrete

    def pop_oldest(self):
        key = next(iter(self._traces))
        del self._traces[key]
        skeleton = _skeleton(key)
        for index in (self._by_skeleton, self._generic):
            bucket = index.get(skeleton)
            if bucket is not None and key in bucket:
                del bucket[key]
                if not bucket:
                    del index[skeleton]

    def clear(self):
        self._traces.clear()
        self._by_skeleton.clear()
        self._generic.clear()

    # lookups ------------------------------------------------------------------------------------

    def most_specific_match(self, key):
        """The trace of the most specific key `key` is a subtype of (TF's rule), or None."""
        candidates = [k for k in self._generic.get(_skeleton(key), ()) if _key_is_subtype(key, k)]
        for k in candidates:
            if all(_key_is_subtype(k, other) for other in candidates):
                return self._traces[k]
        return None

    def same_skeleton(self, key):
        """The keys `key` could share a supertype with, oldest first (reduce_retracing)."""
        return list(self._by_skeleton.get(_skeleton(key), ()))


def _key_is_subtype(key, other):
    return len(key) == len(other) and all(
        n1 == n2 and trace_types.is_subtype(t1, t2) for (n1, t1), (n2, t2) in zip(key, other))


def _skeleton(key):
    return tuple((name, _type_skeleton(t)) for name, t in key)


def _type_skeleton(t):
    if trace_types.is_custom(t):
        return type(t)  # its own is_subtype_of decides within the class
    if isinstance(t, TensorSpec):
        return (TensorSpec, t.dtype)
    if isinstance(t, trace_types.Sequence):
        return (trace_types.Sequence, t.kind, tuple(_type_skeleton(e) for e in t.elements))
    if isinstance(t, trace_types.Mapping):
        return (trace_types.Mapping, tuple((k, _type_skeleton(v)) for k, v in t.sorted_items))
    return t


def _is_generic(key):
    return any(_type_is_generic(t) for _, t in key)


def _type_is_generic(t):
    if trace_types.is_custom(t):
        return True
    if isinstance(t, TensorSpec):
        return bool(t.name) or not t.shape.is_fully_defined()
    if isinstance(t, trace_types.Sequence):
        return any(_type_is_generic(e) for e in t.elements)
    if isinstance(t, trace_types.Mapping):
        return any(_type_is_generic(v) for _, v in t.sorted_items)
    return False
