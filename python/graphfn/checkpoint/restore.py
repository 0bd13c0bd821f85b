"""Restoring a checkpoint: its object graph is matched to the live objects from the root, by
local names, and each matched object takes its saved tensors. Dependencies the program has not
created yet wait (trackable/deferred_restoration.py) and are restored when they appear."""

import os

from graphfn.checkpoint import object_graph
from graphfn.checkpoint.tensor_bundle import BundleReader, parse_proto, tf_type_name as _type_name
from graphfn.framework import dtypes, errors
from graphfn.ops.array_ops import constant
from graphfn.trackable import deferred_restoration
from graphfn.variables import Variable


def open_checkpoint(save_path):
    """The BundleReader of `save_path` and its object graph; TF's errors for a bad path."""
    from graphfn.checkpoint import checkpoint_protos as protos  # protobuf on first use, not at import

    save_path = os.fspath(save_path)
    if os.path.isdir(save_path) and not os.path.exists(save_path + ".index"):
        raise errors.DataLossError(
            None, None, "Unable to open table file %s: FAILED_PRECONDITION: %s; Is a directory: perhaps your file "
            "is in a different file format and you need to use a different restore operator?" % (save_path, save_path))
    try:
        reader = BundleReader(save_path)
    except errors.NotFoundError as e:
        raise errors.NotFoundError(
            None, None, "Error when restoring from checkpoint or SavedModel at %s: %s\nPlease double-check that the "
            "path is correct. You may be missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1')."
            % (save_path, e.message)) from None
    if not reader.has(object_graph.OBJECT_GRAPH_KEY):
        raise errors.UnimplementedError(
            None, None, "The checkpoint %s has no object graph (%s): it is a name-based (TF1 tf.compat.v1.train.Saver) "
            "checkpoint, which graphfn does not restore." % (save_path, object_graph.OBJECT_GRAPH_KEY))
    proto = parse_proto(protos.TrackableObjectGraph, reader.tensor(object_graph.OBJECT_GRAPH_KEY).item(), save_path)
    _check_object_graph(proto, save_path)
    return reader, proto


def _check_object_graph(proto, save_path):
    count = len(proto.nodes)
    if count == 0 or any(not 0 <= ref.node_id < count for node in proto.nodes for ref in node.children):
        raise errors.DataLossError(None, None, "Corrupted checkpoint %s: its object graph refers to a node it does "
                                   "not have" % save_path)


class Restoration:
    """One restore: matches checkpoint node ids to live objects and writes their values."""

    def __init__(self, reader, proto):
        self.reader = reader
        self.proto = proto
        self.matched = {}        # node id -> live object
        self.restored_nodes = set()

    def node_names(self):
        """Readable node names as TF prints them: (root).model.w."""
        names = {0: "(root)"}
        queue = [0]
        for node in queue:
            for ref in self.proto.nodes[node].children:
                if ref.node_id not in names:
                    names[ref.node_id] = names[node] + "." + ref.local_name
                    queue.append(ref.node_id)
        return names

    def restore(self, node_id, obj, extra_children=()):
        if node_id in self.matched:
            return
        self.matched[node_id] = obj
        node = self.proto.nodes[node_id]
        if node.attributes:
            self._restore_values(node, obj)
            self.restored_nodes.add(node_id)
        live = dict(object_graph.children(obj))
        for name, child in extra_children:
            live.setdefault(name, child)
        for ref in node.children:
            child = live.get(ref.local_name)
            if child is not None:
                self.restore(ref.node_id, child)
            elif ref.node_id not in self.matched and self._has_values(ref.node_id):
                deferred_restoration.defer(obj, ref.local_name, self._waiter(ref.node_id))

    def _waiter(self, node_id):
        def restore_later(value):
            if not object_graph.is_checkpointable(value):
                return False
            self.restore(node_id, value)
            return True
        return restore_later

    def _has_values(self, node_id):
        node = self.proto.nodes[node_id]
        if node.HasField("has_checkpoint_values"):
            return node.has_checkpoint_values.value
        return True

    def _restore_values(self, node, obj):
        live = object_graph.serialize(obj)
        restored = {}
        for attribute in node.attributes:
            current = live.get(attribute.name)
            if current is None:
                continue
            array = self.reader.tensor(attribute.checkpoint_key)
            saved_dtype = self.reader.dtype(attribute.checkpoint_key)
            if saved_dtype != current.dtype:
                raise errors.InvalidArgumentError(
                    None, None, "tensor_name = %s; expected dtype %s does not equal original dtype %s"
                    % (attribute.checkpoint_key, _type_name(dtypes.as_dtype(current.dtype)), _type_name(saved_dtype)))
            if tuple(array.shape) != tuple(current.shape):
                variable = obj if isinstance(obj, Variable) else getattr(obj, "value", obj)
                raise ValueError("Received incompatible tensor with shape %s when attempting to restore variable "
                                 "with shape %s and name %s." % (tuple(array.shape), tuple(current.shape),
                                                                 getattr(variable, "name", attribute.full_name)))
            restored[attribute.name] = array
        if not restored:
            return
        if isinstance(obj, Variable):
            obj.assign(restored[object_graph.VARIABLE_VALUE])
        else:
            obj._restore_from_tensors({name: constant(value) for name, value in restored.items()})
