"""OSError -> TF's exception: TF's file system reports "<path>; <strerror>" with the error class
its errno maps to (ENOENT NotFoundError, EACCES PermissionDeniedError, EISDIR
FailedPreconditionError, ...), the same mapping as the C++ kernels (kernels/record_io.cc)."""

import errno as _errno

from graphfn.framework import errors

_BY_ERRNO = {
    _errno.ENOENT: errors.NotFoundError, _errno.ENAMETOOLONG: errors.NotFoundError,
    _errno.EACCES: errors.PermissionDeniedError, _errno.EPERM: errors.PermissionDeniedError,
    _errno.EROFS: errors.PermissionDeniedError,
    _errno.EEXIST: errors.AlreadyExistsError,
    _errno.EISDIR: errors.FailedPreconditionError, _errno.ENOTDIR: errors.FailedPreconditionError,
    _errno.ENOTEMPTY: errors.FailedPreconditionError, _errno.EBUSY: errors.FailedPreconditionError,
    _errno.ENOSPC: errors.ResourceExhaustedError, _errno.EMFILE: errors.ResourceExhaustedError,
    _errno.EINVAL: errors.InvalidArgumentError,
}


def from_os_error(e, path=None):
    """The TF exception for `e` (an OSError) on `path`."""
    cls = _BY_ERRNO.get(e.errno, errors.UnknownError)
    where = path if path is not None else e.filename
    return cls(None, None, "%s; %s" % (where, e.strerror))
