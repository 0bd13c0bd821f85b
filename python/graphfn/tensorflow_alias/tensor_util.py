"""tensorflow.python.framework.tensor_util as Keras 3 reaches it: `is_tf_type`, which is
`tf.is_tensor` under its internal name (Keras's SavedModel export patches it around its walk
of a model's objects). Its other names are not in graphfn yet and say so."""

from graphfn.framework.tensor import is_tensor as is_tf_type  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError("module 'tensorflow.python.framework.tensor_util' has no attribute '%s': graphfn does "
                         "not have tensorflow.python.framework.tensor_util.%s yet" % (name, name))
