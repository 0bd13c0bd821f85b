"""Trackable objects: the dependency graph a checkpoint follows (tf.__internal__.tracking)."""

from graphfn.util.tf_export import tf_export_lazy

tf_export_lazy("saved_model.experimental.TrackableResource", "graphfn.trackable.resource", "TrackableResource")
