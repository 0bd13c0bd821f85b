"""tf.DeviceSpec: a (possibly partial) device name, "/job:ps/replica:0/task:1/device:GPU:0".

graphfn runs everything on one CPU, but programs build, merge and print device names, and
tf.device scopes merge as DeviceSpecs do; so parsing, printing and merging follow TF's rules
(TF's error texts for malformed names)."""

from graphfn.util.tf_export import tf_export

# The device types a bare "TYPE:index" component may name (others need "/device:TYPE:index").
_BARE_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})
_parsed_strings = {}  # spec string -> components: scopes re-parse the same few strings


def _upper_cpu_gpu(device_type):
    # TF accepts "cpu"/"gpu" for backward compatibility and stores them upper case.
    if device_type in ("cpu", "gpu"):
        return device_type.upper()
    return None if device_type is None else str(device_type)


def _int_or_none(value):
    return None if value is None else int(value)


def _parse(spec):
    """(job, replica, task, device_type, device_index) of a device string, as TF parses it."""
    cached = _parsed_strings.get(spec)
    if cached is not None:
        return cached
    job = replica = task = device_type = device_index = None
    for part in (spec or "").split("/"):
        fields = part.split(":")
        key, count = fields[0], len(fields)
        if count == 2 and key == "job":
            job = fields[1]
        elif count == 2 and key == "replica":
            replica = fields[1]
        elif count == 2 and key == "task":
            task = fields[1]
        elif count in (1, 2) and key.upper() in _BARE_DEVICE_TYPES:
            if device_type is not None:
                raise ValueError("Multiple device types are not allowed while parsing the device spec: %s." % spec)
            device_type = key.upper()
            if count == 2 and fields[1] != "*":
                device_index = int(fields[1])
        elif count == 3 and key == "device":
            if device_type is not None:
                raise ValueError("Multiple device types are not allowed while parsing the device spec: %s." % spec)
            device_type = fields[1]
            if fields[2] != "*":
                device_index = int(fields[2])
        elif key:
            raise ValueError("Unknown attribute '%s' is encountered while parsing the device spec: '%s'." % (key, spec))
    components = (job, replica, task, device_type, device_index)
    _parsed_strings[spec] = components
    return components


@tf_export("DeviceSpec")
class DeviceSpec:
    """A device name's parts: job, replica, task, device type and index (each may be None)."""

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index", "_string")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self._job = None if job is None else str(job)
        self._replica = _int_or_none(replica)
        self._task = _int_or_none(task)
        self._device_type = _upper_cpu_gpu(device_type)
        self._device_index = _int_or_none(device_index)
        self._string = self._make_string()

    def _make_string(self):
        parts = []
        if self._job is not None:
            parts.append("/job:" + self._job)
        if self._replica is not None:
            parts.append("/replica:%d" % self._replica)
        if self._task is not None:
            parts.append("/task:%d" % self._task)
        if self._device_type is not None:
            index = "*" if self._device_index is None else str(self._device_index)
            parts.append("/device:%s:%s" % (self._device_type, index))
        return "".join(parts)

    @classmethod
    def from_string(cls, spec):
        """Parses "/job:<name>/replica:<id>/task:<id>/device:<type>:<id>" (any part optional;
        "CPU:0" and "gpu:1" stand for their /device: forms)."""
        return cls(*_parse(spec))

    def parse_from_string(self, spec):
        """A new DeviceSpec with the parts `spec` names replacing this one's (TF's v2 spelling:
        the spec itself is immutable)."""
        return DeviceSpec(*_parse(spec))

    def make_merged_spec(self, dev):
        """This spec with every part `dev` sets replaced by dev's."""
        return DeviceSpec(*(mine if theirs is None else theirs
                            for mine, theirs in zip(self._parts(), dev._parts())))

    def replace(self, **kwargs):
        """A copy with the given parts (job=, replica=, task=, device_type=, device_index=) replaced."""
        parts = dict(job=self._job, replica=self._replica, task=self._task, device_type=self._device_type,
                     device_index=self._device_index)
        parts.update(kwargs)
        return DeviceSpec(**parts)

    def _parts(self):
        return (self._job, self._replica, self._task, self._device_type, self._device_index)

    def to_string(self):
        """The canonical string: "/job:a/replica:1/task:2/device:CPU:3" with absent parts left out."""
        return self._string

    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self._string == other._string

    def __hash__(self):
        return hash(self._string)

    def __repr__(self):
        return "<DeviceSpec(job=%s, replica=%s, task=%s, device_type=%s, device_index=%s)>" % self._parts()
