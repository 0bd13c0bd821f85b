"""tf.saved_model.experimental.TrackableResource: a Trackable that owns a resource handle (a
lookup table, a custom stateful object) which functions capture.

A subclass says how to make the handle (`_create_resource`), optionally how to fill it
(`_initialize`, which the subclass calls) and how to release it (`_destroy_resource`, called when
the object is collected). The handle is made on first use of `resource_handle`."""

from graphfn.trackable.base import Trackable


class CapturableResource(Trackable):
    """Holds a resource handle that a function can capture."""

    def __init__(self, device=""):
        self._resource_handle_value = None
        self._resource_device = device

    def _create_resource(self):
        raise NotImplementedError("TrackableResource._create_resource not implemented.")

    def _initialize(self):
        pass

    def _destroy_resource(self):
        pass

    @property
    def _resource_handle(self):
        return getattr(self, "_resource_handle_value", None)

    @_resource_handle.setter
    def _resource_handle(self, value):
        self._resource_handle_value = value

    @property
    def resource_handle(self):
        if self._resource_handle is None:  # made where first asked for (eagerly, or in a trace), as in TF
            self._resource_handle = self._create_resource()
        return self._resource_handle

    def __del__(self):
        # Releasing is best effort, as in TF: at interpreter exit what it needs may be gone.
        try:
            if self._resource_handle is not None:
                self._destroy_resource()
        except Exception:  # noqa: BLE001
            pass


class TrackableResource(CapturableResource):
    """A resource a checkpoint or saved model finds by walking an object's attributes."""
