"""tf.io.gfile: TF's file API on the local file system, with TF's exceptions and texts
("<path>; No such file or directory" as tf.errors.NotFoundError, ...). Paths are local paths
(no gs:// or other schemes)."""

import os

from graphfn.file_io.errors_os import from_os_error
from graphfn.framework import errors
from graphfn.util.tf_export import tf_export

_MODES = ("r", "w", "a", "r+", "w+", "a+")


def _text(data, binary):
    if binary:
        return data
    return data.decode("utf-8")


@tf_export("io.gfile.GFile", "compat.v1.gfile.GFile")
class GFile:
    """A file, opened on first use (as TF's GFile): read/write/readline/readlines, iteration over
    lines, seek/tell/size/flush/close, and `with`. Reads give str unless the mode has "b"."""

    def __init__(self, name, mode="r"):
        self.__name = os.fspath(name)
        self.__mode = mode
        if mode.replace("b", "") not in _MODES:
            raise errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._binary = "b" in mode
        self._file = None

    @property
    def name(self):
        return self.__name

    @property
    def mode(self):
        return self.__mode

    def _opened(self):
        if self._file is None:
            mode = self.__mode.replace("b", "") + "b"
            try:
                self._file = open(self.__name, mode)  # noqa: SIM115 (closed by close/__exit__)
            except OSError as e:
                raise from_os_error(e, self.__name) from None
        return self._file

    def _readable(self):
        if self.__mode.replace("b", "") in ("w", "a"):
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        return self._opened()

    def _writable(self):
        if self.__mode.replace("b", "") == "r":
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        return self._opened()

    def size(self):
        """The file's size in bytes."""
        return stat(self.__name).length

    def write(self, file_content):
        f = self._writable()
        f.write(file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content))

    def read(self, n=-1):
        f = self._readable()
        return _text(f.read(-1 if n is None or n < 0 else n), self._binary)

    def readline(self):
        return _text(self._readable().readline(), self._binary)

    def readlines(self):
        return [_text(line, self._binary) for line in self._readable().readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def seek(self, offset=None, whence=0, position=None):
        if position is not None:
            offset = position
        self._opened().seek(offset, whence)

    def tell(self):
        return self._opened().tell()

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __del__(self):  # a GFile dropped unclosed closes its file, as TF's does
        if getattr(self, "_file", None) is not None:
            self._file.close()

    def seekable(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FileStatistics:
    """What stat() tells: length (bytes), mtime_nsec, is_directory."""

    def __init__(self, length=None, mtime_nsec=None, is_directory=None):
        self.length = length
        self.mtime_nsec = mtime_nsec
        self.is_directory = is_directory


def _call(fn, path, *args):
    try:
        return fn(path, *args)
    except OSError as e:
        raise from_os_error(e, path) from None


@tf_export("io.gfile.exists", "compat.v1.gfile.Exists")
def exists(path):
    return os.path.exists(os.fspath(path))


@tf_export("io.gfile.isdir", "compat.v1.gfile.IsDirectory")
def isdir(path):
    return os.path.isdir(os.fspath(path))


@tf_export("io.gfile.glob", "compat.v1.gfile.Glob")
def glob(pattern):
    """The paths matching `pattern` (or any pattern of a list of them)."""
    import glob as glob_module  # lazily: `import graphfn` loads neither glob nor shutil (bz2, lzma)

    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    found = []
    for p in patterns:
        p = os.fsdecode(os.fspath(p))
        found.extend(glob_module.glob(p))
    return found


@tf_export("io.gfile.listdir", "compat.v1.gfile.ListDirectory")
def listdir(path):
    """The entries of a folder, without "." and "..". NotFoundError if it is not a folder."""
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise errors.NotFoundError(None, None, "Could not find directory %s" % path)
    return _call(os.listdir, path)


@tf_export("io.gfile.makedirs", "compat.v1.gfile.MakeDirs")
def makedirs(path):
    """The folder and its missing parents; no error if it exists."""
    path = os.fspath(path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise from_os_error(e) from None


@tf_export("io.gfile.mkdir", "compat.v1.gfile.MkDir")
def mkdir(path):
    """One folder (its parent must exist); no error if it exists, as TF."""
    path = os.fspath(path)
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise errors.AlreadyExistsError(None, None, "%s; File exists" % path) from None
    except OSError as e:
        raise from_os_error(e, path) from None


@tf_export("io.gfile.remove", "compat.v1.gfile.Remove")
def remove(path):
    path = os.fspath(path)
    if os.path.isdir(path):
        raise errors.FailedPreconditionError(None, None, "%s; Is a directory" % path)
    _call(os.remove, path)


@tf_export("io.gfile.rmtree", "compat.v1.gfile.DeleteRecursively")
def rmtree(path):
    import shutil  # lazily: `import graphfn` loads neither glob nor shutil (bz2, lzma)

    path = os.fspath(path)
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, "%s not found" % path)
    try:
        shutil.rmtree(path)
    except OSError as e:
        raise from_os_error(e) from None


@tf_export("io.gfile.rename", "compat.v1.gfile.Rename")
def rename(src, dst, overwrite=False):
    src, dst = os.fspath(src), os.fspath(dst)
    if not os.path.exists(src):
        raise errors.NotFoundError(None, None, "%s; No such file or directory" % src)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")
    try:
        os.replace(src, dst)
    except OSError as e:
        raise from_os_error(e) from None


@tf_export("io.gfile.copy", "compat.v1.gfile.Copy")
def copy(src, dst, overwrite=False):
    import shutil  # lazily: `import graphfn` loads neither glob nor shutil (bz2, lzma)

    src, dst = os.fspath(src), os.fspath(dst)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")
    try:
        shutil.copyfile(src, dst)
    except OSError as e:
        raise from_os_error(e) from None


@tf_export("io.gfile.stat", "compat.v1.gfile.Stat")
def stat(path):
    path = os.fspath(path)
    st = _call(os.stat, path)
    return FileStatistics(length=st.st_size, mtime_nsec=st.st_mtime_ns, is_directory=os.path.isdir(path))


@tf_export("io.gfile.walk", "compat.v1.gfile.Walk")
def walk(top, topdown=True, onerror=None):
    """(folder, subfolders, files) for `top` and every folder below it."""
    top = os.fspath(top)
    for entry in os.walk(top, topdown=topdown, onerror=onerror):
        yield entry


@tf_export("io.gfile.join")
def join(path, *paths):
    return os.path.join(path, *paths)
