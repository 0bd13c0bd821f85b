"""graphfn: TensorFlow's tf.function, reimplemented with a small C++ core.

`import graphfn as tf` gives the TensorFlow-shaped API. This module only re-exports: every op
wrapper declares its public names with @tf_export next to its definition."""

import importlib as _importlib
import sys as _sys

from graphfn.util import cpu_check as _cpu_check

_cpu_check.check()  # a clear ImportError, not SIGILL, on a CPU without the build's AVX
from graphfn import _core  # noqa: F401  (loads the extension first)
from graphfn.util import openblas as _openblas

_openblas.locate()
from graphfn.framework import dtypes as _dtypes
from graphfn.framework import errors
from graphfn.framework.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64, half,
    int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64)
from graphfn.framework.tensor import Tensor  # noqa: F401
from graphfn.framework.tensor_shape import TensorShape  # noqa: F401
from graphfn import context as _context  # noqa: F401
from graphfn.framework.tensor_spec import TensorSpec  # noqa: F401
from graphfn.function import polymorphic_function as _polymorphic_function  # noqa: F401
from graphfn.ops import array_ops as _array_ops  # noqa: F401
from graphfn.ops import check_ops as _check_ops  # noqa: F401
from graphfn.ops import control_flow_ops as _control_flow_ops  # noqa: F401
from graphfn.ops import control_dependency_ops as _control_dependency_ops  # noqa: F401
from graphfn.ops import tensor_array_ops as _tensor_array_ops  # noqa: F401
from graphfn.ops import logging_ops as _logging_ops  # noqa: F401
from graphfn.ops import math_ops as _math_ops  # noqa: F401
from graphfn import variables as _variables  # noqa: F401
from graphfn.framework import name_scope as _name_scope  # noqa: F401
from graphfn.module import module as _module  # noqa: F401
from graphfn.ops import random_ops as _random_ops  # noqa: F401
from graphfn.ops import slicing as _slicing  # noqa: F401
from graphfn.ops import clip_ops as _clip_ops  # noqa: F401
from graphfn.ops import linalg_ops as _linalg_ops  # noqa: F401
from graphfn.ops import reduction_ops as _reduction_ops  # noqa: F401
from graphfn.ops import gradient_ops as _gradient_ops  # noqa: F401
from graphfn.ops import nn_ops as _nn_ops  # noqa: F401
from graphfn.ops import nn_conv as _nn_conv  # noqa: F401
from graphfn.ops import nn_misc as _nn_misc  # noqa: F401
from graphfn.ops import scan_ops as _scan_ops  # noqa: F401
from graphfn.ops import functional_ops as _functional_ops  # noqa: F401
from graphfn.ops import script_ops as _script_ops  # noqa: F401
from graphfn.ops import init_ops as _init_ops  # noqa: F401
from graphfn.ops import math_cwise as _math_cwise  # noqa: F401
from graphfn.ops import math_reductions as _math_reductions  # noqa: F401
from graphfn.ops import segment_ops as _segment_ops  # noqa: F401
from graphfn.ops import sparse_segment as _sparse_segment  # noqa: F401
from graphfn.ops import bincount as _bincount  # noqa: F401
from graphfn.ops import top_k as _top_k  # noqa: F401
from graphfn.ops import shape_index as _shape_index  # noqa: F401
from graphfn.ops import sort_ops as _sort_ops  # noqa: F401
from graphfn.ops import linalg as _linalg  # noqa: F401
from graphfn.ops import stateless_random_ops as _stateless_random_ops  # noqa: F401
from graphfn.ops import image_ops as _image_ops  # noqa: F401
from graphfn.ops import random_sampling as _random_sampling  # noqa: F401
from graphfn import random_generator as _random_generator  # noqa: F401
from graphfn.ops import tensor_operators as _tensor_operators  # noqa: F401  (installs ==, /, t[...], ...)
from graphfn.eager import backprop as _backprop  # noqa: F401
from graphfn.eager import gradients as _gradients  # noqa: F401
from graphfn.eager import custom_gradient as _custom_gradient  # noqa: F401
from graphfn.util import tf_logging as _tf_logging  # noqa: F401
from graphfn.ops import debugging as _debugging  # noqa: F401
from graphfn.ops import test_util as _test_util  # noqa: F401
from graphfn.ops import lookup_ops as _lookup_ops  # noqa: F401
from graphfn.framework import graph as _graph  # noqa: F401
from graphfn.framework import importer as _importer  # noqa: F401
from graphfn.util import lazy_exports as _lazy_exports  # noqa: F401  (tf.saved_model, tf.vectorized_map, ...: loaded on first use)
from graphfn.ops import io_ops as _io_ops  # noqa: F401
from graphfn.ops import parsing_ops as _parsing_ops  # noqa: F401
from graphfn.ops import image_codecs as _image_codecs  # noqa: F401
from graphfn.ops import strings as _strings_ops  # noqa: F401
from graphfn.ops import strings_ragged as _strings_ragged  # noqa: F401
from graphfn.file_io import gfile as _gfile, tf_record as _tf_record, train_names as _train_names  # noqa: F401
from graphfn.framework import type_spec as _type_spec  # noqa: F401  (tf.TypeSpec: the composite-tensor base)
from graphfn.ops import sparse_ops as _sparse_ops  # noqa: F401  (tf.sparse, tf.SparseTensor)
from graphfn.ops import ragged_names as _ragged_names  # noqa: F401  (tf.RaggedTensor, tf.ragged.*: loaded on first use)
from graphfn.framework import dispatch as _dispatch  # noqa: F401  (tf.experimental.dispatch_for_*)
from graphfn.ops import extension_type as _extension_type  # noqa: F401  (tf.experimental.ExtensionType)
from graphfn.ops import complex_ops as _complex_ops  # noqa: F401
from graphfn.ops import bitwise_ops as _bitwise_ops  # noqa: F401
from graphfn.ops import signal as _signal  # noqa: F401  (tf.signal)
from graphfn.ops import cwise_extra as _cwise_extra  # noqa: F401  (tf.math.xlog1py, nextafter)
from graphfn.framework import config_threading as _config_threading, determinism as _determinism  # noqa: F401
from graphfn.util import tf_export as _tf_export
from graphfn.framework import device_config as _device_config, device_placement as _device_placement  # noqa: F401  (tf.config devices, tf.device)
from graphfn.framework import device_spec as _device_spec  # noqa: F401  (tf.DeviceSpec)
from graphfn.trackable import base as _trackable_base  # noqa: F401  (tf.__internal__.tracking)
from graphfn.distribute import default_strategy as _default_strategy  # noqa: F401  (tf.distribute)
from graphfn import internal_api as _internal_api  # noqa: F401  (tf.__internal__: the TF internals libraries such as Keras use)
from graphfn.framework import variable_enums as _variable_enums  # noqa: F401
from graphfn.framework import tensor_attributes as _tensor_attributes  # noqa: F401  (t._keras_logits = ...)
from graphfn.ops import bitcast as _bitcast  # noqa: F401  (tf.bitcast)
from graphfn import checkpoint as _checkpoint  # noqa: F401  (tf.train.Checkpoint & co.: loaded on first use)
from graphfn.summaries import names as _summary_names  # noqa: F401  (tf.summary: loaded on first use)
from graphfn.ops import keras_backend_ops as _keras_backend_ops  # noqa: F401  (tf.math.log_sigmoid, tf.nn.conv_transpose, ...: Python compositions Keras calls)

__version__ = "0.1.0"
_is_graphfn = True  # tells graphfn.install_as_tensorflow() that sys.modules["tensorflow"] is this package


def install_as_tensorflow():
    """Registers graphfn as `tensorflow` in sys.modules (with the TF internals Keras 3 imports),
    so that `import keras` with KERAS_BACKEND=tensorflow runs on graphfn; see docs/keras.md."""
    # By name, as graphfn.keras is reached: the alias package sits above the public namespace.
    return _importlib.import_module("graphfn.tensorflow_alias").install_as_tensorflow()
_tf_export.tf_export("version.VERSION")(__version__)

dtypes = _dtypes  # before install: tf.dtypes.cast & co. go onto the dtypes module itself
_tf_export.install(_sys.modules[__name__])
_tf_export.install_lazy(_sys.modules[__name__])  # tf.train.Example & co.: protobuf on first use


_LAZY = ("autograph", "data", "keras", "raw_ops")
_KERAS_ALIASES = ("losses", "metrics", "optimizers", "initializers")  # tf.losses is tf.keras.losses, as in TF 2.21


def __getattr__(name):
    """graphfn.keras (the real Keras 3, docs/keras.md), graphfn.autograph and graphfn.data are
    imported on first use (as TF loads tf.keras lazily), so that `import graphfn` stays fast;
    tracing imports the converter when it needs it."""
    if name in _LAZY:
        return _importlib.import_module("graphfn." + name)
    if name in _KERAS_ALIASES:
        return getattr(_importlib.import_module("graphfn.keras"), name)
    from graphfn.util import missing_names  # lazily: only a missing name needs it
    raise missing_names.missing_attribute("graphfn", name)


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_KERAS_ALIASES) | _tf_export.lazy_names())


_tf_export.install_lazy(_sys.modules[__name__], only_top_level=True)  # after __getattr__: tf.RaggedTensor & co. on first use
