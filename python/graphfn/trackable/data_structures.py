"""ListWrapper and _DictWrapper: a list and a dict that are Trackable
(tensorflow.python.trackable.data_structures, which Keras 3 imports to teach its tree
utilities these containers).

TensorFlow wraps the plain lists and dicts assigned to an AutoTrackable's attributes in them;
graphfn does not wrap assignments yet, but the classes behave as TF's: a ListWrapper is a
list, a _DictWrapper a dict, and both name their Trackable elements as dependencies."""

from graphfn.trackable.base import Trackable


class ListWrapper(list, Trackable):
    """A list whose Trackable elements are dependencies named by their index."""

    def __init__(self, wrapped_list=()):
        super().__init__(wrapped_list)

    def _trackable_children(self, save_type="checkpoint", **kwargs):
        return {str(i): value for i, value in enumerate(self) if isinstance(value, Trackable)}

    def __repr__(self):
        return "ListWrapper(%s)" % list.__repr__(self)


class _DictWrapper(dict, Trackable):
    """A dict whose Trackable values are dependencies named by their key."""

    def __init__(self, wrapped_dict=None):
        super().__init__(wrapped_dict or {})

    def _trackable_children(self, save_type="checkpoint", **kwargs):
        return {str(key): value for key, value in self.items() if isinstance(value, Trackable)}

    def __repr__(self):
        return "DictWrapper(%s)" % dict.__repr__(self)
