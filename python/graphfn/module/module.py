"""graphfn.Module: a named container of variables and other modules, as tf.Module.

A module finds its variables by walking its attributes (sorted by name, through lists,
tuples and dicts, into nested modules breadth-first), so users never register anything."""

import collections
import functools
import re

from graphfn.framework.name_scope import name_scope
from graphfn.trackable import deferred_restoration
from graphfn.util import nest
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable

_VALID_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _camel_to_snake(name):
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


@tf_export("Module")
class Module:
    """Base class for objects that own variables and submodules: `variables`,
    `trainable_variables`, `non_trainable_variables`, `submodules`, and a `name_scope`."""

    # Attributes that hold bookkeeping, not state.
    _TF_MODULE_IGNORED_PROPERTIES = frozenset(("_name", "_scope_name"))

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not _VALID_NAME.match(name):
            raise ValueError("%r is not a valid module name. Module names must be valid Python identifiers "
                             "(e.g. a valid class name)." % name)
        self._name = name
        with name_scope(name) as scope_name:
            self._scope_name = scope_name

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        # A checkpoint restored before this attribute existed may be waiting for it.
        deferred_restoration.dependency_added(self, name, value)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """The module's scope; `with self.name_scope:` names what is created inside it."""
        return name_scope(self._scope_name)

    @property
    def variables(self):
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and v.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and not v.trainable))

    @property
    def submodules(self):
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Module)))

    def _flatten(self, recursive=True, predicate=None):
        """Matching leaves of this module's attributes, then of its submodules, breadth-first,
        each object once."""
        predicate = predicate or (lambda v: True)
        seen = {id(self)}
        queue = collections.deque([self])
        while queue:
            module = queue.popleft()
            nested = []
            for key in sorted(vars(module)):
                if key in module._TF_MODULE_IGNORED_PROPERTIES:
                    continue
                for leaf in nest.flatten(vars(module)[key]):
                    if id(leaf) in seen:
                        continue
                    if predicate(leaf):
                        seen.add(id(leaf))
                        yield leaf
                    if recursive and isinstance(leaf, Module):
                        seen.add(id(leaf))
                        nested.append(leaf)
            queue.extend(nested)

    @classmethod
    def with_name_scope(cls, method):
        """Decorates a method so that it runs inside the module's name scope."""
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope


def _is_variable(value):
    return isinstance(value, Variable)
