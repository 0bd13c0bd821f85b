"""tf.device, and where ops run: the placement TF does on a CPU-only machine.

Every op runs on the one CPU. What is TF's is the naming and the checks:
- eagerly, a scope's name is merged onto '/job:localhost/replica:0/task:0/device:CPU:0' (TF's
  DeviceSpec merge) and placed: a logical CPU that exists (set_logical_device_configuration)
  keeps its name, so tensors made in '/CPU:1' report '.../device:CPU:1'; a device that does not
  exist ('/GPU:0') is soft-placed on CPU:0, or with soft placement off raises TF's
  InvalidArgumentError when an op runs; another job/replica/task is TF's "unknown device".
- in a graph (tf.function, tf.Graph), a scope records the merged name on the ops made inside it
  (op.device, tensor.device), as TF's graph does; graphfn does not check graph placements.

Cost: the eager path reads one flag per op (bindings/device_hook.h). The Python hook below is set
only while it has work: a scope other than CPU:0 (after soft placement) is open in some thread,
device placement logging is on, or the CPU is hidden."""

import collections
import sys
import threading
import time
import weakref

from graphfn import _core
from graphfn.framework import device_config
from graphfn.framework import errors
from graphfn.framework.device_spec import DeviceSpec
from graphfn.util.tf_export import tf_export

DEFAULT_DEVICE = device_config.LOCAL_PREFIX + "/device:CPU:0"

_thread = threading.local()                 # .device: the eager scope's merged name ('' outside)
_open_scopes = collections.Counter()        # merged name -> open eager scopes, over all threads
_placed_tensors = {}                        # id(tensor) -> (weak reference, device) off CPU:0
_lock = threading.Lock()


def current_eager_device():
    """The merged name of this thread's innermost eager scope ('' outside any scope)."""
    return getattr(_thread, "device", "")


# Placement -----------------------------------------------------------------------------------

def _placement(name):
    """(device, error) for a merged eager scope name: where its ops run, or TF's error for them."""
    job, replica, task, device_type, device_index = DeviceSpec.from_string(name)._parts()
    if job != "localhost" or replica not in (None, 0) or task not in (None, 0):
        return None, _UnknownDevice("%s unknown device." % name)
    cpus = device_config.logical_cpu_names()
    if device_type == "CPU" and (device_index is None or 0 <= device_index < len(cpus)):
        return cpus[device_index or 0], None
    if device_config.get_soft_device_placement():
        return DEFAULT_DEVICE, None
    return None, _Unsatisfiable("Could not satisfy device specification '%s'. enable_soft_placement=0. Supported "
                                "device types [CPU]. All available devices [%s]." % (name, ", ".join(cpus)))


class _UnknownDevice(str):
    """TF's error text for another job, replica or task: raised as it is."""


class _Unsatisfiable(str):
    """TF's error text for a missing device under hard placement: an op's error names the op."""


def _place(op_type):
    """Where this thread's next eager op runs (its full device name); raises TF's errors."""
    if device_config.CPU not in device_config.get_visible_devices():
        raise errors.NotFoundError(None, None, "No CPU devices are available in this process")
    name = current_eager_device()
    if not name:
        return DEFAULT_DEVICE
    device, error = _placement(name)
    if error is not None:
        if isinstance(error, _Unsatisfiable) and op_type not in ("_EagerConst", "VarHandleOp"):
            error += " [Op:%s] name: " % op_type
        raise errors.InvalidArgumentError(None, None, str(error))
    return device


def _log(op_type, device):
    # TF's eager executor logs through absl to stderr: "I<mmdd> <time> <thread> <file:line>] ...".
    now = time.time()
    sys.stderr.write("I0000 00:00:%d.%06d %7d execute.cc:1775] Executing op %s in device %s\n" % (
        int(now), int(now * 1e6) % 1000000, threading.get_native_id(), op_type, device))


def _hook(op_type, outputs):
    """Called by the eager path while set (update_hook): before an op runs (outputs None),
    then with its outputs when it ran off CPU:0; with outputs False for an op only to log (the
    _EagerConst that makes a Python input: TF caches those for scalars, so placement errors are
    the consuming op's)."""
    if outputs is False:
        if device_config.get_log_device_placement():
            device, error = _placement(current_eager_device()) if current_eager_device() else (DEFAULT_DEVICE, None)
            if error is None:
                _log(op_type, device)
        return False
    if outputs is None:
        device = _place(op_type)
        if device_config.get_log_device_placement():
            _log(op_type, device)
        return device != DEFAULT_DEVICE
    device = _place(op_type)
    for tensor in (outputs if isinstance(outputs, tuple) else (outputs,)):
        note_tensor_device(tensor, device)
    return False


def note_tensor_device(tensor, device):
    """Records that `tensor` was made on `device` (a logical CPU other than CPU:0)."""
    key = id(tensor)

    def forget(_, key=key):
        _placed_tensors.pop(key, None)

    _placed_tensors[key] = (weakref.ref(tensor, forget), device)


def eager_tensor_device(tensor):
    """tensor.device for an eager tensor: CPU:0 unless it was made on another logical CPU."""
    if _placed_tensors:
        entry = _placed_tensors.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            return entry[1]
    return DEFAULT_DEVICE


def place_new_variable(handle):
    """A variable made eagerly inside a device scope: TF's placement of its VarHandleOp."""
    if not _hook_is_set:
        return
    device = _place("VarHandleOp")
    if device_config.get_log_device_placement():
        _log("VarHandleOp", device)
        _log("AssignVariableOp", device)
    if device != DEFAULT_DEVICE:
        note_tensor_device(handle, device)


_hook_is_set = False


def update_hook():
    """Sets the eager hook exactly when it has work (see the module's docstring)."""
    global _hook_is_set
    with _lock:
        needed = (device_config.get_log_device_placement()
                  or device_config.CPU not in device_config.get_visible_devices()
                  or any(_placement(name) != (DEFAULT_DEVICE, None) for name in _open_scopes))
        if needed != _hook_is_set:
            _core._set_device_hook(_hook if needed else None)
            _hook_is_set = needed


device_config.settings_changed = update_hook


# Graph scopes --------------------------------------------------------------------------------

class _GraphDevices:
    """The device scopes of one graph: the open ones (first node id, device) and the devices of
    the nodes made in closed ones."""

    __slots__ = ("open", "closed", "__weakref__")

    def __init__(self):
        self.open = []
        self.closed = {}

    def device_of(self, op):
        node = op._node_id
        device = self.closed.get(node)
        if device is None:
            device = ""
            for start, scope_device in reversed(self.open):
                if start <= node:
                    device = scope_device
                    break
        return device(op) if callable(device) else device


_graph_devices = weakref.WeakKeyDictionary()  # graph -> _GraphDevices


def operation_device(op):
    """op.device in a graph: the merged name of the device scope it was made in ('' if none)."""
    devices = _graph_devices.get(op.graph)
    if devices is None:
        return ""
    return devices.device_of(op) or ""


class _GraphScope:
    __slots__ = ("_graph", "_device", "_devices")

    def __init__(self, graph, device):
        self._graph, self._device = graph, device

    def __enter__(self):
        devices = _graph_devices.get(self._graph)
        if devices is None:
            devices = _graph_devices[self._graph] = _GraphDevices()
        device = self._device
        if device is None:
            merged = ""
        elif callable(device):
            merged = device
        else:
            outer = devices.open[-1][1] if devices.open else ""
            outer_spec = DeviceSpec() if callable(outer) else DeviceSpec.from_string(outer)
            merged = outer_spec.make_merged_spec(DeviceSpec.from_string(device)).to_string()
        devices.open.append((self._graph.num_nodes, merged))
        self._devices = devices
        return None

    def __exit__(self, *exc_info):
        start, merged = self._devices.open.pop()
        closed = self._devices.closed
        for node in range(start, self._graph.num_nodes):
            closed.setdefault(node, merged)
        return False


def graph_device_scope(graph, device_name_or_function):
    """Graph.device(...) and tf.device inside a graph."""
    if isinstance(device_name_or_function, DeviceSpec):
        device_name_or_function = device_name_or_function.to_string()
    return _GraphScope(graph, device_name_or_function)


# Eager scopes --------------------------------------------------------------------------------

class _EagerScope:
    __slots__ = ("_name", "_stack")

    def __init__(self, name):
        self._name = name
        self._stack = []

    def __enter__(self):
        name = self._name
        if name is not None and not isinstance(name, str):
            raise ValueError("Expecting a string device name. Got %s(%s)" % (type(name), name))
        old = current_eager_device()
        if name is None:
            merged = ""
        else:
            spec = DeviceSpec.from_string(name)
            merged = DeviceSpec.from_string(old or DEFAULT_DEVICE).make_merged_spec(spec).to_string()
        _thread.device = merged
        self._stack.append((old, merged))
        if merged:
            with _lock:
                _open_scopes[merged] += 1
            if merged != DEFAULT_DEVICE:
                update_hook()
        return None

    def __exit__(self, *exc_info):
        old, merged = self._stack.pop()
        _thread.device = old
        if merged:
            with _lock:
                _open_scopes[merged] -= 1
                if not _open_scopes[merged]:
                    del _open_scopes[merged]
            if merged != DEFAULT_DEVICE:
                update_hook()
        return False


@tf_export("device")
def device(device_name):
    """Places the ops made in the block on `device_name` ('/CPU:0', '/GPU:0', '/job:localhost/
    replica:0/task:0/device:CPU:1', a tf.DeviceSpec or None). graphfn runs them on the CPU; see
    docs/devices.md."""
    if isinstance(device_name, DeviceSpec):
        device_name = device_name.to_string()
    graph = _core.current_graph()
    if graph is not None:
        return graph_device_scope(graph, device_name)
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions.")
    device_config.ensure_initialized()  # as TF's eager tf.device
    return _EagerScope(device_name)
