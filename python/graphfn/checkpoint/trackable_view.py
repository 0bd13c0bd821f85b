"""tf.train.TrackableView: the graph of an object's named dependencies, seen from its root.

`children(obj)` lists what `obj` names directly; `descendants()` walks them breadth-first from the
root, each object once. Keras's SavedModel export subclasses it to collect the resources its
endpoints need."""

import collections
import weakref

from graphfn.checkpoint import object_graph
from graphfn.trackable.base import Trackable


class TrackableView:
    """A view of `root`'s dependencies; it holds `root` by weak reference, as TF's does."""

    def __init__(self, root):
        self._root_ref = root if isinstance(root, weakref.ref) else weakref.ref(root)

    @classmethod
    def children(cls, obj, save_type="checkpoint", **kwargs):
        """{name: child} of the objects `obj` depends on directly."""
        if isinstance(obj, Trackable):
            obj._maybe_initialize_trackable()
            return dict(obj._trackable_children(save_type, **kwargs))
        # A tf.Module, a variable or a list/dict: what a checkpoint of it would name.
        return dict(object_graph.children(obj))

    @property
    def root(self):
        root = self._root_ref()
        if root is None:
            raise ValueError("The root of this TrackableView was deleted.")
        return root

    def descendants(self):
        """The root and every object reachable from it, breadth-first."""
        root = self.root
        ordered, seen = [], {id(root)}
        to_visit = collections.deque([root])
        while to_visit:
            current = to_visit.popleft()
            ordered.append(current)
            for child in self.children(current).values():
                if id(child) not in seen:
                    seen.add(id(child))
                    to_visit.append(child)
        return ordered
