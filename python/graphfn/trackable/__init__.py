"""Trackable objects: the dependency graph a checkpoint follows (tf.__internal__.tracking)."""
