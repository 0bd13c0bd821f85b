"""Trackable and AutoTrackable: objects that name the trackable objects they depend on.

TensorFlow's checkpoints walk this graph of named dependencies; Keras 3's TensorFlow backend
subclasses these classes (tf.__internal__.tracking.Trackable / AutoTrackable) for its layers and
variables. graphfn keeps the dependency bookkeeping Keras relies on: `_track_trackable`,
`_trackable_children`, `_lookup_dependency` and the switch that turns automatic tracking off."""

import functools

from graphfn.trackable import deferred_restoration
from graphfn.util.tf_export import tf_export


@tf_export("__internal__.tracking.Trackable")
class Trackable:
    """An object with named dependencies on other Trackable objects."""

    def _maybe_initialize_trackable(self):
        # Subclasses need not call __init__: the bookkeeping is made on first use.
        if "_self_dependencies" in vars(self):
            return
        object.__setattr__(self, "_self_dependencies", {})  # name -> trackable, in tracking order

    @property
    def _setattr_tracking(self):
        return getattr(self, "_self_setattr_tracking", True)

    @_setattr_tracking.setter
    def _setattr_tracking(self, value):
        object.__setattr__(self, "_self_setattr_tracking", value)

    def _track_trackable(self, trackable, name, overwrite=False):
        """Records `trackable` as the dependency called `name`; returns it."""
        self._maybe_initialize_trackable()
        if not isinstance(trackable, Trackable):
            raise TypeError("Trackable._track_trackable() can only be used to track objects of type Trackable. "
                            "Got type %s." % type(trackable))
        current = self._self_dependencies.get(name)
        if current is not None and current is not trackable and not overwrite:
            raise ValueError("Called Trackable._track_trackable() with name='%s', but a Trackable with this name "
                             "is already declared as a dependency. Names must be unique (or overwrite=True)."
                             % name)
        self._self_dependencies[name] = trackable
        deferred_restoration.dependency_added(self, name, trackable)
        return trackable

    def _lookup_dependency(self, name, cached_dependencies=None):
        self._maybe_initialize_trackable()
        return _resolve(self, name, self._self_dependencies.get(name))

    def _trackable_children(self, save_type="checkpoint", **kwargs):
        """The named dependencies, in the order they were tracked."""
        self._maybe_initialize_trackable()
        children = {}
        for name, value in self._self_dependencies.items():
            value = _resolve(self, name, value)
            if value is not None:
                children[name] = value
        return children


# Marks an attribute that held a list, tuple or dict when assigned: TF wraps such values in a
# ListWrapper / _DictWrapper and tracks them. graphfn leaves the attribute's value as it is and
# lists the container itself as the dependency (checkpoints name its elements by index or key),
# read when the dependencies are listed, so later mutations are seen too.
_CONTAINER_ATTRIBUTE = object()


def _resolve(owner, name, value):
    if value is not _CONTAINER_ATTRIBUTE:
        return value
    current = vars(owner).get(name)
    return current if isinstance(current, (list, tuple, dict)) else None


@tf_export("__internal__.tracking.AutoTrackable")
class AutoTrackable(Trackable):
    """A Trackable that tracks every Trackable assigned to one of its attributes."""

    def __setattr__(self, name, value):
        if getattr(self, "_self_setattr_tracking", True):
            if isinstance(value, Trackable):
                self._track_trackable(value, name=name, overwrite=True)
            elif isinstance(value, (list, tuple, dict)) and not name.startswith("_self_"):
                self._maybe_initialize_trackable()
                self._self_dependencies[name] = _CONTAINER_ATTRIBUTE
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._maybe_initialize_trackable()
        self._self_dependencies.pop(name, None)
        super().__delattr__(name)


@tf_export("__internal__.tracking.no_automatic_dependency_tracking")
def no_automatic_dependency_tracking(method):
    """Decorates a method: attributes it assigns are not tracked as dependencies."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        previous = getattr(self, "_self_setattr_tracking", True)
        object.__setattr__(self, "_self_setattr_tracking", False)
        try:
            return method(self, *args, **kwargs)
        finally:
            object.__setattr__(self, "_self_setattr_tracking", previous)
    return wrapper
