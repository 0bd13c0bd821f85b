"""`import graphfn` leaves the heavy parts for their first use (docs/performance.md, "Import and
memory"): NumPy, protobuf, Keras, AutoGraph, tf.data, saving, the TF 1 Session, vectorized_map and
Python's inspect are not imported, and every public name still resolves to what the module exports. Each check
runs in a fresh interpreter, as the test process has imported all of them."""

import fresh_interpreter


# Imported on first use only: a module here that `import graphfn` loads is a regression.
UNLOADED = ["numpy", "google.protobuf", "keras", "logging", "graphfn.keras", "graphfn.autograph",
            "graphfn.tensorflow_alias", "graphfn.raw_ops", "graphfn.data", "graphfn.saved.save",
            "graphfn.saved.load", "graphfn.client.session", "graphfn.parallel_for.vectorized_map",
            "graphfn.checkpoint.checkpoint", "graphfn.ops.ragged", "graphfn.file_io.example_pb",
            # Python's own: inspect (with ast, dis, tokenize) waits for the first tf.function,
            # traceback for a py_function error, shutil (bz2, lzma) and glob for tf.io.gfile.
            "inspect", "ast", "dis", "tokenize", "traceback", "shutil", "bz2", "lzma", "glob"]


def run_python(code):
    result = fresh_interpreter.run_code(code, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_graphfn_loads_none_of_the_heavy_modules():
    # Only what `import graphfn` adds counts: the interpreter's site hooks may load some already.
    out = run_python("""
        import sys
        before = set(sys.modules)
        import graphfn
        added = set(sys.modules) - before
        print(" ".join(m for m in %r if m in added or any(n.startswith(m + ".") for n in added)) or "none")
    """ % (UNLOADED,))
    assert out.split() == ["none"]


def test_every_exported_name_of_a_lazy_module_is_published_before_it_loads():
    # The names a user can reach right after `import graphfn` (eager exports, lazy declarations,
    # tf.data's namespace) must cover every name the lazy modules export once loaded, each
    # resolving to the exported object.
    out = run_python("""
        import importlib
        import graphfn as tf
        from graphfn.util import lazy_exports, tf_export

        eager = {name for name, _ in tf_export._EXPORTS}
        declared = set(tf_export._LAZY_EXPORTS)
        count = len(tf_export._EXPORTS)
        for module in lazy_exports.MODULES + ["graphfn.data"]:
            importlib.import_module(module)
        missing, wrong = [], []
        for name, obj in tf_export._EXPORTS[count:]:
            if name in eager:
                continue
            if name not in declared and not name.startswith("data."):
                missing.append(name)
            target = tf
            for part in name.split("."):
                target = getattr(target, part)
            if target is not obj:
                wrong.append(name)
        print("missing", missing, "wrong", wrong, "count", len(tf_export._EXPORTS) - count)
    """)
    words = out.split()
    assert words[:4] == ["missing", "[]", "wrong", "[]"], out
    assert int(words[-1]) >= 40  # tf.data's names, tf.saved_model's, ...


def test_lazy_names_resolve_and_are_listed_before_first_use():
    out = run_python("""
        import sys
        import graphfn as tf
        listed = ["data" in dir(tf), "vectorized_map" in dir(tf), "save" in dir(tf.saved_model),
                  "LoadOptions" in dir(tf.saved_model), "Session" in dir(tf.compat.v1),
                  "Optional" in dir(tf.experimental)]
        assert "graphfn.saved.save" not in sys.modules  # dir() lists without loading
        print(all(listed))
        print(tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY)
        print(tf.vectorized_map(lambda x: x * 2, tf.constant([1, 2])).shape)
        with tf.compat.v1.Session() as session:
            print(session is tf.compat.v1.get_default_session())
        print(tf.experimental.Optional.from_value(tf.constant(3)).has_value().shape)
    """)
    assert out.split("\n")[:5] == ["True", "serving_default", "(2,)", "True", "()"]


def test_a_direct_import_of_a_data_module_loads_all_of_tf_data():
    # A Dataset's methods come from several modules (transformations, ragged batching, the
    # sources): importing any one module of graphfn.data, as the checkpoint code does, loads them
    # all and publishes tf.data.
    out = run_python("""
        import graphfn as tf
        from graphfn.data.iterator import OwnedIterator
        dataset = tf.data.Dataset.range(6).shuffle(6).ragged_batch(4)
        print([int(row.shape[0]) for row in dataset], "Counter" in dir(tf.data.experimental))
    """)
    assert out.split("\n")[0] == "[4, 2] True"


def test_a_pickle_naming_a_lazy_module_loads_in_a_process_that_never_used_it():
    blob = run_python("""
        import pickle
        import graphfn as tf
        print(pickle.dumps(tf.saved_model.SaveOptions(experimental_custom_gradients=False)).hex())
    """).strip()
    out = run_python("""
        import pickle, sys
        import graphfn
        assert "graphfn.saved.save_options" not in sys.modules
        options = pickle.loads(bytes.fromhex(%r))
        print(type(options) is graphfn.saved_model.SaveOptions, options.experimental_custom_gradients)
    """ % blob)
    assert out.split() == ["True", "False"]


def test_install_as_tensorflow_registers_tf_data_although_graphfn_has_not_loaded_it():
    out = run_python("""
        import sys
        import graphfn
        assert "graphfn.data" not in sys.modules
        graphfn.install_as_tensorflow()
        from tensorflow.data import Dataset
        print(sys.modules["tensorflow.data"] is graphfn.data, Dataset is graphfn.data.Dataset)
    """)
    assert out.split() == ["True", "True"]
