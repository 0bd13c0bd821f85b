"""Checkpoint values waiting for an object that does not exist yet.

`tf.train.Checkpoint.restore` matches the checkpoint's object graph to the live objects; a
dependency the program has not created yet (a Keras layer's kernel before the layer is built, a
module attribute assigned later) is restored as soon as it is added, as TensorFlow does. The
checkpoint code registers a callback per (parent object, local name); `Trackable._track_trackable`
and `Module.__setattr__` report each new dependency here. Nothing is imported or done while no
restoration is pending."""

import weakref

_PENDING = {}  # id(parent) -> (weak reference to parent, {local name: [callback]})


def defer(parent, name, callback):
    """Calls `callback(value)` when `parent` gains the dependency `name`; a callback returning
    False keeps waiting. Objects without weak references cannot wait (returns False)."""
    try:
        ref = weakref.ref(parent)
    except TypeError:
        return False
    entry = _PENDING.get(id(parent))
    if entry is None or entry[0]() is not parent:
        entry = _PENDING[id(parent)] = (ref, {})
    entry[1].setdefault(name, []).append(callback)
    return True


def dependency_added(parent, name, value):
    if not _PENDING:
        return
    entry = _PENDING.get(id(parent))
    if entry is None:
        return
    ref, waiting = entry
    if ref() is not parent:  # a dead object's id reused
        del _PENDING[id(parent)]
        return
    callbacks = waiting.pop(name, None)
    if not callbacks:
        return
    still_waiting = [cb for cb in callbacks if cb(value) is False]
    if still_waiting:
        waiting[name] = still_waiting
    if not waiting:
        _PENDING.pop(id(parent), None)


def pending_count():
    return sum(len(cbs) for ref, waiting in _PENDING.values() if ref() is not None for cbs in waiting.values())
