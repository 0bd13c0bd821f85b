"""graphfn.errors: TensorFlow's exception classes, one per canonical error code."""

from graphfn import _core

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """An error raised while running an op: has `message`, `op`, `node_def` and `error_code`."""

    def __init__(self, node_def, op, message, error_code=UNKNOWN):
        super().__init__()
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    @property
    def error_code(self):
        return self._error_code

    def __str__(self):
        return self._message

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)


def _error_class(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


CancelledError = _error_class("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _error_class("UnknownError", UNKNOWN, "An unknown error.")
InvalidArgumentError = _error_class(
    "InvalidArgumentError", INVALID_ARGUMENT, "An op received an invalid argument.")
DeadlineExceededError = _error_class("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _error_class("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _error_class("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _error_class("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
ResourceExhaustedError = _error_class(
    "ResourceExhaustedError", RESOURCE_EXHAUSTED, "A resource (e.g. memory) was exhausted.")
FailedPreconditionError = _error_class(
    "FailedPreconditionError", FAILED_PRECONDITION, "The system is not in a state to run the op.")
AbortedError = _error_class("AbortedError", ABORTED, "An operation was aborted.")
OutOfRangeError = _error_class("OutOfRangeError", OUT_OF_RANGE, "An index or iteration is out of range.")
UnimplementedError = _error_class("UnimplementedError", UNIMPLEMENTED, "The op is not implemented.")
InternalError = _error_class("InternalError", INTERNAL, "An internal invariant was broken.")
UnavailableError = _error_class("UnavailableError", UNAVAILABLE, "The runtime is unavailable.")
DataLossError = _error_class("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")
UnauthenticatedError = _error_class("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")

class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (bool(), iteration) was applied to a symbolic tensor while tracing."""


class InaccessibleTensorError(ValueError):
    """A tensor of a branch or loop body used outside it (TF keeps it out of tf.errors too)."""


_BY_CODE = {
    CANCELLED: CancelledError, UNKNOWN: UnknownError, INVALID_ARGUMENT: InvalidArgumentError,
    DEADLINE_EXCEEDED: DeadlineExceededError, NOT_FOUND: NotFoundError,
    ALREADY_EXISTS: AlreadyExistsError, PERMISSION_DENIED: PermissionDeniedError,
    RESOURCE_EXHAUSTED: ResourceExhaustedError, FAILED_PRECONDITION: FailedPreconditionError,
    ABORTED: AbortedError, OUT_OF_RANGE: OutOfRangeError, UNIMPLEMENTED: UnimplementedError,
    INTERNAL: InternalError, UNAVAILABLE: UnavailableError, DATA_LOSS: DataLossError,
    UNAUTHENTICATED: UnauthenticatedError,
}


def exception_for_code(code, message):
    """The exception instance the C++ core raises for a non-OK Status."""
    return _BY_CODE.get(code, UnknownError)(None, None, message)


_core._set_error_factory(exception_for_code)

__all__ = [name for name in dir() if name.endswith("Error") or name.isupper()] + [
    "exception_for_code"]
