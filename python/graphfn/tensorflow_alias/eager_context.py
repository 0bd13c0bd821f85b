"""tensorflow.python.eager.context, as far as libraries built on TF use it: the eager context
object (its kernel cache), async_wait and the eager/graph mode queries."""

from graphfn import context as _context

executing_eagerly = _context.executing_eagerly


class _Context:
    """The process's eager context. graphfn keeps no kernel cache to clear and runs ops
    synchronously, so its methods have nothing to do."""

    def executing_eagerly(self):
        return _context.executing_eagerly()

    def clear_kernel_cache(self):
        pass

    def async_wait(self):
        pass


_CONTEXT = _Context()


def context():
    return _CONTEXT


def async_wait():
    """Waits for pending eager ops: graphfn's have all finished when they return."""


def eager_mode():
    return _context.init_scope()
