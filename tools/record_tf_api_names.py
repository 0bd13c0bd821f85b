"""Records the public names of TensorFlow's Python API into python/graphfn/util/tf_api_names.txt,
so that graphfn can say "graphfn does not have tf.X yet" for a name TF has and graphfn lacks.

    ~/tf/bin/python tools/record_tf_api_names.py

One dotted path per line, relative to `tf` ("nn.conv2d", "data.Dataset"), sorted. tf.raw_ops is
left out (graphfn.raw_ops lists what it has) and so is tf.compat (its v1 API alone holds
thousands of names); Keras is left out (it is its own package, loaded lazily).
"""

import os
import types

import tensorflow as tf

SKIP = {"raw_ops", "compat", "keras"}
OUT = os.path.join(os.path.dirname(__file__), os.pardir, "python", "graphfn", "util", "tf_api_names.txt")


def walk(module, prefix, names, seen):
    for name in dir(module):
        if name.startswith("_") or (not prefix and name in SKIP):
            continue
        path = prefix + name
        names.add(path)
        try:
            value = getattr(module, name)
        except Exception:  # noqa: BLE001 (a lazily loaded name that fails to load is still a name)
            continue
        # Only TF's API namespaces (tensorflow._api.v2.*): tf.dtensor also exposes the internal
        # `python` package.
        if (isinstance(value, types.ModuleType) and id(value) not in seen
                and (value.__name__.startswith("tensorflow._api.") or value.__name__ == "tensorflow.experimental")):
            seen.add(id(value))
            walk(value, path + ".", names, seen)


def main():
    names = set()
    walk(tf, "", names, set())
    with open(OUT, "w") as f:
        f.write("# TensorFlow %s public API names (tools/record_tf_api_names.py)\n" % tf.__version__)
        f.writelines(n + "\n" for n in sorted(names))
    print("%d names -> %s" % (len(names), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
