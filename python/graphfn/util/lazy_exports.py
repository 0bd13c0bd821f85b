"""Public names whose modules `import graphfn` leaves for their first use: saving and loading
(tf.saved_model), tf.compat.v1.Session, tf.vectorized_map, tf.experimental.Optional and tf.OptionalSpec (tf.data,
itself imported on first use of `graphfn.data`). Each module still declares its names with
@tf_export; this table only says where they are until then. tests/python/test_import_laziness.py
checks that it lists every name those modules export."""

from graphfn.util.tf_export import tf_export_lazy

_NAMES = {
    "saved_model.save": ("graphfn.saved.save", "save"),
    "saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY": ("graphfn.saved.save", "DEFAULT_SIGNATURE_KEY"),
    "saved_model.load": ("graphfn.saved.load", "load"),
    "saved_model.SaveOptions": ("graphfn.saved.save_options", "SaveOptions"),
    "saved_model.LoadOptions": ("graphfn.saved.load_options", "LoadOptions"),
    "compat.v1.Session": ("graphfn.client.session", "Session"),
    "compat.v1.get_default_session": ("graphfn.client.session", "get_default_session"),
    "vectorized_map": ("graphfn.parallel_for.vectorized_map", "vectorized_map"),
    "experimental.Optional": ("graphfn.data.optional", "Optional"),
    "OptionalSpec": ("graphfn.data.optional", "OptionalSpec"),
}

# The modules behind them, for the laziness test.
MODULES = sorted({module for module, _ in _NAMES.values()})

for _name, (_module, _attribute) in _NAMES.items():
    tf_export_lazy(_name, _module, _attribute)
