"""tf.config's devices as TensorFlow describes a CPU-only machine.

graphfn has one physical device, the CPU. As in TF, the CPU can be split into logical CPUs
(set_logical_device_configuration) before the runtime is initialized; graphfn runs all of them
on the same CPU, but their names (/device:CPU:1 ...) are listed, placed on and printed as TF does.
The runtime counts as initialized from the first eager op or tensor (a flag the C++ eager path
sets, device_hook.h) or the first list_logical_devices / tf.device; device settings are fixed
from then on, with TF's RuntimeError.

The state is process-wide, as TF's context is. Nothing here runs at import."""

import collections

from graphfn import _core
from graphfn.framework import errors
from graphfn.util.tf_export import tf_export

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
tf_export("config.PhysicalDevice")(PhysicalDevice)
PhysicalDevice.__doc__ = "A device of the machine: tf.config.list_physical_devices() lists them."

LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
tf_export("config.LogicalDevice")(LogicalDevice)
LogicalDevice.__doc__ = "A device ops are placed on (tf.device): tf.config.list_logical_devices() lists them."


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device to make of a physical one (set_logical_device_configuration)."""

    __slots__ = ()

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


tf_export("config.LogicalDeviceConfiguration", "config.experimental.VirtualDeviceConfiguration")(
    LogicalDeviceConfiguration)

CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_PHYSICAL_DEVICES = (CPU,)
LOCAL_PREFIX = "/job:localhost/replica:0/task:0"


class _Settings:
    """What tf.config sets: fixed once the runtime is initialized."""

    visible = [CPU]
    logical_configuration = {}     # physical device -> list of LogicalDeviceConfiguration
    initialized = False            # by list_logical_devices or tf.device (the C++ flag covers ops)
    soft_placement = True
    log_placement = False


def settings_changed():
    """Called after a setting that placement depends on changed. device_placement (which imports
    this module) replaces it with its update of the eager hook."""


def is_initialized():
    return _Settings.initialized or _core._eager_context_initialized()


def ensure_initialized():
    """Initializes the runtime, as TF's first op does: fails when the CPU was hidden."""
    if CPU not in _Settings.visible:
        raise errors.NotFoundError(None, None, "No CPU devices are available in this process")
    _Settings.initialized = True
    _core._mark_eager_context_initialized()


def num_logical_cpus():
    return max(1, len(_Settings.logical_configuration.get(CPU) or ()))


def logical_cpu_names():
    """The full names of the logical CPUs: '/job:localhost/replica:0/task:0/device:CPU:<i>'."""
    return ["%s/device:CPU:%d" % (LOCAL_PREFIX, i) for i in range(num_logical_cpus())]


def _check_physical(device):
    if device not in _PHYSICAL_DEVICES:
        raise ValueError("Unrecognized device: %r" % (device,))


@tf_export("config.list_physical_devices", "config.experimental.list_physical_devices")
def list_physical_devices(device_type=None):
    """The machine's devices, here the CPU: [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]."""
    return [d for d in _PHYSICAL_DEVICES if device_type is None or d.device_type == device_type]


@tf_export("config.list_logical_devices", "config.experimental.list_logical_devices")
def list_logical_devices(device_type=None):
    """The devices ops can be placed on: one per logical CPU ('/device:CPU:0', ...). Initializes
    the runtime, as in TF."""
    ensure_initialized()
    devices = [LogicalDevice(name="/device:CPU:%d" % i, device_type="CPU") for i in range(num_logical_cpus())]
    return [d for d in devices if device_type is None or d.device_type == device_type]


@tf_export("config.get_visible_devices", "config.experimental.get_visible_devices")
def get_visible_devices(device_type=None):
    return [d for d in _Settings.visible if device_type is None or d.device_type == device_type]


@tf_export("config.set_visible_devices", "config.experimental.set_visible_devices")
def set_visible_devices(devices, device_type=None):
    """Which physical devices the runtime may use (of `device_type`, when given). Hiding the CPU
    is accepted, as in TF; the runtime then fails to initialize (NotFoundError)."""
    if not isinstance(devices, list):
        devices = [devices]
    for device in devices:
        _check_physical(device)
        if device_type is not None and device.device_type != device_type:
            raise ValueError("Unrecognized device: %r" % (device,))
    visible = [] if device_type is None else [d for d in _Settings.visible if d.device_type != device_type]
    visible += devices
    if visible == _Settings.visible:
        return
    if is_initialized():
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    _Settings.visible = visible
    settings_changed()


@tf_export("config.get_logical_device_configuration", "config.experimental.get_virtual_device_configuration")
def get_logical_device_configuration(device):
    _check_physical(device)
    return _Settings.logical_configuration.get(device)


@tf_export("config.set_logical_device_configuration", "config.experimental.set_virtual_device_configuration")
def set_logical_device_configuration(device, logical_devices):
    """Splits the CPU into len(logical_devices) logical CPUs (before the runtime is initialized)."""
    _check_physical(device)
    for config in logical_devices:
        if config.memory_limit is not None:
            raise ValueError("Setting memory limit on CPU virtual devices is currently not supported")
        if config.experimental_priority is not None:
            raise ValueError("Setting experimental_priority on CPU virtual  devices is currently not supported")
        if config.experimental_device_ordinal is not None:
            raise ValueError("Setting experimental_device_ordinal on CPU virtual  devices is currently not supported")
    if _Settings.logical_configuration.get(device) == logical_devices:
        return
    if is_initialized():
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _Settings.logical_configuration[device] = logical_devices


@tf_export("config.experimental.get_memory_growth")
def get_memory_growth(device):
    _check_physical(device)
    # TF keeps memory growth for GPUs only, and looks a CPU up in that table: a KeyError.
    raise KeyError(device)


@tf_export("config.experimental.set_memory_growth")
def set_memory_growth(device, enable):
    _check_physical(device)
    if device in _Settings.logical_configuration:
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


@tf_export("config.experimental.get_device_details")
def get_device_details(device):
    """TF's details of a physical device: a CPU has none ({})."""
    if not isinstance(device, PhysicalDevice):
        raise ValueError("device must be a tf.config.PhysicalDevice, but got: %s" % (device,))
    if device not in _PHYSICAL_DEVICES:
        raise ValueError("The PhysicalDevice must be one obtained from calling "
                         "`tf.config.list_physical_devices`, but got: %s" % (device,))
    return {}


@tf_export("config.get_soft_device_placement")
def get_soft_device_placement():
    """True (the default): an op asked for a device that does not exist (a GPU here) runs on the CPU."""
    return _Settings.soft_placement


@tf_export("config.set_soft_device_placement")
def set_soft_device_placement(enabled):
    _Settings.soft_placement = bool(enabled)
    settings_changed()


@tf_export("debugging.get_log_device_placement")
def get_log_device_placement():
    return _Settings.log_placement


@tf_export("debugging.set_log_device_placement")
def set_log_device_placement(enabled):
    """Prints a line per executed eager op, "Executing op AddV2 in device /job:localhost/...", to
    stderr in TF's log format."""
    _Settings.log_placement = bool(enabled)
    settings_changed()


# tf.test's device questions: graphfn is built without CUDA/ROCm and has no GPU.

@tf_export("test.is_built_with_cuda")
def is_built_with_cuda():
    return False


@tf_export("test.is_built_with_rocm")
def is_built_with_rocm():
    return False


@tf_export("test.is_built_with_gpu_support")
def is_built_with_gpu_support():
    return False


@tf_export("test.is_gpu_available")
def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """False: no GPU. Deprecated in TF, which logs so on every call."""
    import sys  # lazily: only this call needs it
    from graphfn.util import tf_logging  # lazily: its logger loads `logging`
    caller = sys._getframe(1)
    tf_logging.get_logger().warning(
        "From %s:%d: is_gpu_available (from tensorflow.python.framework.test_util) is deprecated and will be "
        "removed in a future version.\nInstructions for updating:\nUse `tf.config.list_physical_devices('GPU')` "
        "instead.", caller.f_code.co_filename, caller.f_lineno)
    return False
