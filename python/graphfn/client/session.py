"""tf.compat.v1.Session: runs parts of a tf.Graph, TF 1.x style.

`sess.run(fetches, feed_dict)` computes the fetched tensors (any nesting of lists, tuples and
dicts of tensors, operations and their names) from the fed values, running only the nodes the
fetches need, as TF prunes its graphs. Each distinct set of feeds and fetches is compiled once
(cpp/graphfn/runtime/session_plan.h) into the same execution plan a traced function runs on."""

import threading

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework import graph as graph_lib
from graphfn.framework.tensor import EagerTensor, SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.util import lazy_numpy
from graphfn.util import nest
from graphfn.util.tf_export import tf_export

_sessions = threading.local()  # this thread's default-session stack


def _session_stack():
    stack = getattr(_sessions, "stack", None)
    if stack is None:
        stack = _sessions.stack = []
    return stack


@tf_export("compat.v1.get_default_session")
def get_default_session():
    """The innermost session entered with `with sess:` or `sess.as_default()` on this thread."""
    stack = _session_stack()
    return stack[-1] if stack else None


@tf_export("compat.v1.Session")
class Session:
    """Runs operations of a graph (by default, the default graph when it is made)."""

    def __init__(self, target="", graph=None, config=None):
        if graph is None:
            graph = graph_lib.get_default_graph()
        elif not isinstance(graph, graph_lib.Graph):
            raise TypeError('Argument `graph` must be a tf.Graph, but got "%s"' % type(graph).__name__)
        self._graph = graph
        self._closed = False
        self._plans = {}  # (feeds, fetches, targets) -> compiled plan
        self._lock = threading.Lock()
        self._entered = []

    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return ""

    def close(self):
        self._closed = True
        self._plans = {}

    def as_default(self):
        """`with sess.as_default():` makes it the default session (the graph stays as it is)."""
        return _DefaultSession(self)

    def __enter__(self):
        # As TF: the session's graph becomes the default graph, and the session the default one.
        graph_scope = self._graph.as_default()
        graph_scope.__enter__()
        _session_stack().append(self)
        self._entered.append(graph_scope)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _session_stack().pop()
        self._entered.pop().__exit__(exc_type, exc_value, traceback)
        self.close()
        return False

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """The values of `fetches` (NumPy arrays, in the same structure; None for operations),
        computed with `feed_dict`'s values in place of the tensors it names."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if self._graph.num_nodes == 0:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
        leaves = [self._fetch(leaf) for leaf in nest.flatten(fetches)]
        fed, fed_values = self._feeds(feed_dict)
        fetched = [leaf for leaf in leaves if isinstance(leaf, SymbolicTensor)]
        targets = [leaf for leaf in leaves if not isinstance(leaf, SymbolicTensor)]
        values = self._run(fed, fed_values, fetched, targets)
        results = iter(values)
        flat = [next(results) if isinstance(leaf, SymbolicTensor) else None for leaf in leaves]
        if not nest.is_nested(fetches):
            return flat[0]
        return nest.pack_sequence_as(fetches, flat)

    # Fetches and feeds -----------------------------------------------------------------------

    def _fetch(self, fetch):
        """The tensor or operation of the graph a fetch names, with TF's errors."""
        if fetch is None:
            raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
        fetch = getattr(fetch, "_control_op", fetch)  # a variable write: run the write
        if not isinstance(fetch, (str, SymbolicTensor, graph_lib.Operation)):
            raise TypeError('Argument `fetch` = %s has invalid type "%s" must be a string or Tensor. (Can not '
                            'convert a %s into a Tensor or Operation.)'
                            % (fetch, type(fetch).__name__, type(fetch).__name__))
        try:
            return self._graph.as_graph_element(fetch)
        except (KeyError, ValueError) as e:
            raise ValueError("Argument `fetch` = %s cannot be interpreted as a Tensor. (%s)" % (fetch, e)) from None

    def _feeds(self, feed_dict):
        """([fed tensors], [their values as eager tensors]), with TF's checks of the values."""
        fed, values = [], []
        for key, value in (feed_dict or {}).items():
            try:
                tensor = self._graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
            except (KeyError, ValueError, TypeError) as e:
                raise TypeError("Cannot interpret feed_dict key as Tensor: " + e.args[0]) from None
            if isinstance(value, (EagerTensor, SymbolicTensor)):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values include "
                                "Python scalars, strings, lists, numpy ndarrays, or TensorHandles. For reference, "
                                "the tensor object was %s which was passed to the argument `feed_dict` with key %s."
                                % (value, key))
            np = lazy_numpy.numpy()
            dtype = tensor.dtype
            np_dtype = object if dtype == dtypes.string else dtype.as_numpy_dtype
            if isinstance(value, int) and not _fits(np_dtype, value):
                raise TypeError("Type of feed value %s with type %s is not compatible with Tensor type %s. Try "
                                "explicitly setting the type of the feed tensor to a larger type (e.g. int64)."
                                % (value, type(value), np_dtype))
            array = np.asarray(value, dtype=np_dtype)
            if np_dtype is object:
                for item in array.flat:
                    if not isinstance(item, (str, bytes)):  # what TF's string conversion takes
                        raise errors.InternalError(None, None, "Graph execution error:\n\nUnsupported object type "
                                                   + type(item).__name__)
            if not tensor.shape.is_compatible_with(TensorShape(array.shape)):
                raise ValueError("Cannot feed value of shape %s for Tensor %s, which has shape %s"
                                 % (array.shape, tensor.name, tensor.shape))
            fed.append(tensor)
            values.append(array)
        return fed, values

    # Running -----------------------------------------------------------------------------------

    def _run(self, fed, fed_values, fetched, targets):
        key = (tuple(t.name for t in fed), tuple(t.name for t in fetched), tuple(op.name for op in targets))
        with self._lock:
            plan = self._plans.get(key)
            if plan is None:
                plan = self._plans[key] = self._graph._session_plan(fed, fetched, targets)
        tensors = [_core.to_tensor(v, t._dtype_enum) for t, v in zip(fed, fed_values)]
        outputs = plan.run(tensors)
        fed_by_name = {t.name: v for t, v in zip(fed, fed_values)}
        # A fed tensor that is fetched gives back the fed array, as in TF.
        return [fed_by_name[t.name] if t.name in fed_by_name else out.numpy() for t, out in zip(fetched, outputs)]


def _fits(np_dtype, value):
    """Whether the Python int `value` converts to `np_dtype` unchanged (TF's check of int feeds)."""
    if np_dtype is object:
        return str(value) == value
    try:
        return np_dtype(value) == value
    except OverflowError:
        return False


class _DefaultSession:
    __slots__ = ("_session",)

    def __init__(self, session):
        self._session = session

    def __enter__(self):
        _session_stack().append(self._session)
        return self._session

    def __exit__(self, *exc_info):
        _session_stack().pop()
        return False
