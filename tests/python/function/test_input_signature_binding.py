"""Calls to a function with an input_signature: arguments are cast to the specs (nested lists,
tuples and dicts of specs too), and a mismatch raises TF's TypeError, whose text ends with the
signature as TF prints it ("for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32,
name=None))."). Every expected text and value was printed by TensorFlow 2.21 for the same call."""

import numpy as np
import pytest

import graphfn as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def f(x):
    return x


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32, name="a"), tf.TensorSpec([], tf.int64)])
def g(a, b):
    return a


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def h(*args):
    return args[0]


@tf.function(input_signature=[[tf.TensorSpec([], tf.float32), tf.TensorSpec([2], tf.int32)]])
def n(pair):
    return pair[0] + tf.cast(pair[1][0], tf.float32)


@tf.function(input_signature=[{"a": tf.TensorSpec([None, 2], tf.float32), "b": tf.TensorSpec([], tf.string)}])
def d(x):
    return x["a"]


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def u(x):
    return x


@tf.function(input_signature=[])
def e():
    return 1


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.bool)])
def k(x, flag=True):
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def k1(x, flag=True):
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def kw(x, *, scale=2):
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def ff(x):
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def a2(x, *rest):
    return x


class M(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def m(self, x):
        return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def defaults(x, training=None, mode="a", rate=0.5, *, flag=False):
    return x


@tf.function(input_signature=[(tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32))])
def t(pair):
    return pair[0]


@tf.function(input_signature=[{"a": tf.TensorSpec([], tf.float32)}])
def d1(x):
    return x["a"]


@tf.function(input_signature=[[[tf.TensorSpec([], tf.float32)], {"b": tf.TensorSpec([None], tf.int32)}]])
def deep(x):
    return x[0][0]


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def scalar(x):
    return x


c = tf.constant
CALLS = {
    "wrong dtype": lambda: f(c([1.0])),
    "wrong rank": lambda: f(c([[1]])),
    "too many": lambda: f(c([1]), c([2])),
    "python list float": lambda: f([1.5]),
    "no args": lambda: f(),
    "kwarg": lambda: f(y=c([1])),
    "2 params wrong shape": lambda: g(tf.ones([3, 2]), c(1, tf.int64)),
    "2 params wrong dtype 2nd": lambda: g(tf.ones([2, 3]), c(1)),
    "*args wrong dtype": lambda: h(c([1])),
    "*args too many": lambda: h(c([1.0]), c([2.0])),
    "nested wrong dtype": lambda: n([c(1), c([1, 2])]),
    "nested wrong structure": lambda: n([c(1.0)]),
    "dict wrong shape": lambda: d({"a": tf.ones([2]), "b": c("s")}),
    "unknown rank wrong dtype": lambda: u(c(1)),
    "empty sig with arg": lambda: e(c(1)),
    "default param": lambda: k(c([1.0])),
    "nested ok": lambda: n([c(1.0), c([1, 2])]),
    "nested ok python": lambda: n([1.0, [3, 4]]),
    "nested tuple": lambda: n((c(1.0), c([1, 2]))),
    "nested too long": lambda: n([c(1.0), c([1, 2]), c(3)]),
    "nested not seq": lambda: n(c(1.0)),
    "dict ok": lambda: d({"a": tf.ones([1, 2]), "b": c("s")}),
    "dict missing key": lambda: d({"a": tf.ones([1, 2])}),
    "dict extra key": lambda: d({"a": tf.ones([1, 2]), "b": "s", "c": 1}),
    "uncovered default wrong dtype": lambda: k1(c([1.0])),
    "uncovered default, passing flag": lambda: k1(c([1]), False),
    "kwonly wrong dtype": lambda: kw(c([1.0])),
    "kw call wrong dtype": lambda: f(x=c([1.0])),
    "numpy wrong dtype": lambda: f(np.array([1.0], np.float32)),
    "python int list ok": lambda: f([1, 2]),
    "python bool": lambda: f([True]),
    "numpy int64": lambda: f(np.array([1, 2])),
    "float sig int list": lambda: ff([1, 2]),
    "float sig numpy f64": lambda: ff(np.array([1.5])),
    "float sig scalar": lambda: ff(1.0),
    "x, *rest wrong": lambda: a2(c([1.0]), c([1])),
    "x, *rest too many": lambda: a2(c([1.0]), c([1.0]), c([1.0])),
    "method": lambda: M().m(c([1.0])),
    "defaults": lambda: defaults(c([1.0])),
    "default same value": lambda: defaults(c([1]), None, "a"),
    "default other value": lambda: defaults(c([1]), None, "b"),
    "default other value kw": lambda: defaults(c([1]), flag=True),
    "default 1 for 0.5": lambda: defaults(c([1]), rate=0.5),
    "tuple spec list value": lambda: t([c(1.0), c(1)]),
    "tuple spec wrong dtype": lambda: t((c(1), c(1))),
    "tuple spec short": lambda: t((c(1.0),)),
    "tuple spec not seq": lambda: t(c(1.0)),
    "list spec short": lambda: n([c(1.0)]),
    "list spec nested python wrong": lambda: n([1.5, [1.5, 2]]),
    "list spec dict value": lambda: n({"a": 1}),
    "dict spec list value": lambda: d1([1.0]),
    "dict spec wrong dtype": lambda: d1({"a": c(1)}),
    "deep ok": lambda: deep([[1.0], {"b": [1, 2]}]),
    "deep wrong": lambda: deep([[1.0], {"b": [1.5]}]),
    "python list bool": lambda: f([True, False]),
    "python scalar in list float": lambda: f([1, 2.0]),
    "string list": lambda: f(["a"]),
    "None": lambda: f(None),
    "int scalar": lambda: scalar(3),
    "bool scalar": lambda: scalar(True),
    "np int": lambda: scalar(np.int64(3)),
    "variable arg": lambda: scalar(tf.Variable(1.0)),
    "variable wrong dtype": lambda: scalar(tf.Variable(1)),
}

# TF 2.21: the TypeError's text, or str() of the result when the call succeeds.
EXPECTED = {
    'wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).',
    'wrong rank':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1, 1), dtype=tf.int32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1, 1), dtype=int32, numpy=array([[1]], dtype=int32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).',
    'too many':
        'Binding inputs to tf.function failed due to `too many positional arguments`. Received args: (<tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>, <tf.Tensor: shape=(1,), dtype=int32, numpy=array([2], dtype=int32)>) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).',
    'python list float':
        'Binding inputs to tf.function failed due to `Cannot convert [1.5] to EagerTensor of dtype int32`. Received args: ([1.5],) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).',
    'no args':
        "Binding inputs to tf.function failed due to `missing a required argument: 'x'`. Received args: () and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).",
    'kwarg':
        "Binding inputs to tf.function failed due to `missing a required argument: 'x'`. Received args: () and kwargs: {'y': <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).",
    '2 params wrong shape':
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(3, 2), dtype=tf.float32, name='a') to TensorSpec(shape=(2, 3), dtype=tf.float32, name='a')`. Received args: (<tf.Tensor: shape=(3, 2), dtype=float32, numpy=\narray([[1., 1.],\n       [1., 1.],\n       [1., 1.]], dtype=float32)>, <tf.Tensor: shape=(), dtype=int64, numpy=1>) and kwargs: {} for signature: (a: TensorSpec(shape=(2, 3), dtype=tf.float32, name='a'), b: TensorSpec(shape=(), dtype=tf.int64, name=None)).",
    '2 params wrong dtype 2nd':
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(), dtype=tf.int32, name=None) to TensorSpec(shape=(), dtype=tf.int64, name=None)`. Received args: (<tf.Tensor: shape=(2, 3), dtype=float32, numpy=\narray([[1., 1., 1.],\n       [1., 1., 1.]], dtype=float32)>, <tf.Tensor: shape=(), dtype=int32, numpy=1>) and kwargs: {} for signature: (a: TensorSpec(shape=(2, 3), dtype=tf.float32, name='a'), b: TensorSpec(shape=(), dtype=tf.int64, name=None)).",
    '*args wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.int32, name=None) to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>,) and kwargs: {} for signature: (args_0: TensorSpec(shape=(None,), dtype=tf.float32, name=None), /).',
    '*args too many':
        'Binding inputs to tf.function failed due to `too many positional arguments`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>, <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.], dtype=float32)>) and kwargs: {} for signature: (args_0: TensorSpec(shape=(None,), dtype=tf.float32, name=None), /).',
    'nested wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(), dtype=tf.int32, name=None) to TensorSpec(shape=(), dtype=tf.float32, name=None)`. Received args: ([<tf.Tensor: shape=(), dtype=int32, numpy=1>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>],) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).',
    'nested wrong structure':
        "Binding inputs to tf.function failed due to `object of type 'Tuple' has no len()`. Received args: ([<tf.Tensor: shape=(), dtype=float32, numpy=1.0>],) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).",
    'dict wrong shape':
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(2,), dtype=tf.float32, name=None) to TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)`. Received args: ({'a': <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>, 'b': <tf.Tensor: shape=(), dtype=string, numpy=b's'>},) and kwargs: {} for signature: (x: Dict[['a', TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)], ['b', TensorSpec(shape=(), dtype=tf.string, name=None)]]).",
    'unknown rank wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(), dtype=tf.int32, name=None) to TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)`. Received args: (<tf.Tensor: shape=(), dtype=int32, numpy=1>,) and kwargs: {} for signature: (x: TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)).',
    'empty sig with arg':
        'Binding inputs to tf.function failed due to `too many positional arguments`. Received args: (<tf.Tensor: shape=(), dtype=int32, numpy=1>,) and kwargs: {} for signature: ().',
    'default param':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), flag: TensorSpec(shape=(), dtype=tf.bool, name=None) = <captured_default_value>).',
    'nested ok':
        'tf.Tensor(2.0, shape=(), dtype=float32)',
    'nested ok python':
        'tf.Tensor(4.0, shape=(), dtype=float32)',
    'nested tuple':
        'Binding inputs to tf.function failed due to `Can not cast (<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>) to list type.`. Received args: ((<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>),) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).',
    'nested too long':
        "Binding inputs to tf.function failed due to `object of type 'Tuple' has no len()`. Received args: ([<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>, <tf.Tensor: shape=(), dtype=int32, numpy=3>],) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).",
    'nested not seq':
        'Binding inputs to tf.function failed due to `Can not cast <tf.Tensor: shape=(), dtype=float32, numpy=1.0> to list type.`. Received args: (<tf.Tensor: shape=(), dtype=float32, numpy=1.0>,) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).',
    'dict ok':
        'tf.Tensor([[1. 1.]], shape=(1, 2), dtype=float32)',
    'dict missing key':
        "Binding inputs to tf.function failed due to `{'a': <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 1.]], dtype=float32)>} has different keys with the TraceType Dict[['a', TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)], ['b', TensorSpec(shape=(), dtype=tf.string, name=None)]].`. Received args: ({'a': <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 1.]], dtype=float32)>},) and kwargs: {} for signature: (x: Dict[['a', TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)], ['b', TensorSpec(shape=(), dtype=tf.string, name=None)]]).",
    'dict extra key':
        "Binding inputs to tf.function failed due to `{'a': <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 1.]], dtype=float32)>, 'b': 's', 'c': 1} has different keys with the TraceType Dict[['a', TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)], ['b', TensorSpec(shape=(), dtype=tf.string, name=None)]].`. Received args: ({'a': <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 1.]], dtype=float32)>, 'b': 's', 'c': 1},) and kwargs: {} for signature: (x: Dict[['a', TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)], ['b', TensorSpec(shape=(), dtype=tf.string, name=None)]]).",
    'uncovered default wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), flag: Literal[True] = <captured_default_value>).',
    'uncovered default, passing flag':
        'Binding inputs to tf.function failed due to `Can not cast False to Literal[True]`. Received args: (<tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>, False) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), flag: Literal[True] = <captured_default_value>).',
    'kwonly wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), *, scale: Literal[2] = <captured_default_value>).',
    'kw call wrong dtype':
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: () and kwargs: {'x': <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).",
    'numpy wrong dtype':
        'tf.Tensor([1], shape=(1,), dtype=int32)',
    'python int list ok':
        'tf.Tensor([1 2], shape=(2,), dtype=int32)',
    'python bool':
        'tf.Tensor([1], shape=(1,), dtype=int32)',
    'numpy int64':
        'tf.Tensor([1 2], shape=(2,), dtype=int32)',
    'float sig int list':
        'tf.Tensor([1. 2.], shape=(2,), dtype=float32)',
    'float sig numpy f64':
        'tf.Tensor([1.5], shape=(1,), dtype=float32)',
    'float sig scalar':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`. Received args: (1.0,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.float32, name=None)).',
    'x, *rest wrong':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.int32, name=None) to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>, <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.float32, name=None), rest_0: TensorSpec(shape=(None,), dtype=tf.float32, name=None), /).',
    'x, *rest too many':
        'Binding inputs to tf.function failed due to `too many positional arguments`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>, <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>, <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.float32, name=None), rest_0: TensorSpec(shape=(None,), dtype=tf.float32, name=None), /).',
    'method':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).',
    'defaults':
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), training: Literal[None] = <captured_default_value>, mode: Literal['a'] = <captured_default_value>, rate: Literal[0.5] = <captured_default_value>, *, flag: Literal[False] = <captured_default_value>).",
    'default same value':
        'tf.Tensor([1], shape=(1,), dtype=int32)',
    'default other value':
        "Binding inputs to tf.function failed due to `Can not cast 'b' to Literal['a']`. Received args: (<tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>, None, 'b') and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), training: Literal[None] = <captured_default_value>, mode: Literal['a'] = <captured_default_value>, rate: Literal[0.5] = <captured_default_value>, *, flag: Literal[False] = <captured_default_value>).",
    'default other value kw':
        "Binding inputs to tf.function failed due to `Can not cast True to Literal[False]`. Received args: (<tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>,) and kwargs: {'flag': True} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), training: Literal[None] = <captured_default_value>, mode: Literal['a'] = <captured_default_value>, rate: Literal[0.5] = <captured_default_value>, *, flag: Literal[False] = <captured_default_value>).",
    'default 1 for 0.5':
        'tf.Tensor([1], shape=(1,), dtype=int32)',
    'tuple spec list value':
        'Binding inputs to tf.function failed due to `Can not cast [<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(), dtype=int32, numpy=1>] to tuple type.`. Received args: ([<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(), dtype=int32, numpy=1>],) and kwargs: {} for signature: (pair: Tuple[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None)]).',
    'tuple spec wrong dtype':
        'Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(), dtype=tf.int32, name=None) to TensorSpec(shape=(), dtype=tf.float32, name=None)`. Received args: ((<tf.Tensor: shape=(), dtype=int32, numpy=1>, <tf.Tensor: shape=(), dtype=int32, numpy=1>),) and kwargs: {} for signature: (pair: Tuple[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None)]).',
    'tuple spec short':
        'Binding inputs to tf.function failed due to `Expected (<tf.Tensor: shape=(), dtype=float32, numpy=1.0>,) to have length of 2`. Received args: ((<tf.Tensor: shape=(), dtype=float32, numpy=1.0>,),) and kwargs: {} for signature: (pair: Tuple[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None)]).',
    'tuple spec not seq':
        'Binding inputs to tf.function failed due to `Can not cast <tf.Tensor: shape=(), dtype=float32, numpy=1.0> to tuple type.`. Received args: (<tf.Tensor: shape=(), dtype=float32, numpy=1.0>,) and kwargs: {} for signature: (pair: Tuple[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None)]).',
    'list spec short':
        "Binding inputs to tf.function failed due to `object of type 'Tuple' has no len()`. Received args: ([<tf.Tensor: shape=(), dtype=float32, numpy=1.0>],) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).",
    'list spec nested python wrong':
        'Binding inputs to tf.function failed due to `Cannot convert [1.5, 2] to EagerTensor of dtype int32`. Received args: ([1.5, [1.5, 2]],) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).',
    'list spec dict value':
        "Binding inputs to tf.function failed due to `Can not cast {'a': 1} to list type.`. Received args: ({'a': 1},) and kwargs: {} for signature: (pair: List[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int32, name=None)]).",
    'dict spec list value':
        "Binding inputs to tf.function failed due to `Can not cast [1.0] to a Dict type.`. Received args: ([1.0],) and kwargs: {} for signature: (x: Dict[['a', TensorSpec(shape=(), dtype=tf.float32, name=None)]]).",
    'dict spec wrong dtype':
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(), dtype=tf.int32, name=None) to TensorSpec(shape=(), dtype=tf.float32, name=None)`. Received args: ({'a': <tf.Tensor: shape=(), dtype=int32, numpy=1>},) and kwargs: {} for signature: (x: Dict[['a', TensorSpec(shape=(), dtype=tf.float32, name=None)]]).",
    'deep ok':
        'tf.Tensor(1.0, shape=(), dtype=float32)',
    'deep wrong':
        "Binding inputs to tf.function failed due to `Cannot convert [1.5] to EagerTensor of dtype int32`. Received args: ([[1.0], {'b': [1.5]}],) and kwargs: {} for signature: (x: List[List[TensorSpec(shape=(), dtype=tf.float32, name=None)], Dict[['b', TensorSpec(shape=(None,), dtype=tf.int32, name=None)]]]).",
    'python list bool':
        'tf.Tensor([1 0], shape=(2,), dtype=int32)',
    'python scalar in list float':
        'Binding inputs to tf.function failed due to `Cannot convert [1, 2.0] to EagerTensor of dtype int32`. Received args: ([1, 2.0],) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).',
    'string list':
        "Binding inputs to tf.function failed due to `Cannot convert ['a'] to EagerTensor of dtype int32`. Received args: (['a'],) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).",
    'None':
        "Binding inputs to tf.function failed due to `Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.`. Received args: (None,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).",
    'int scalar':
        'tf.Tensor(3.0, shape=(), dtype=float32)',
    'bool scalar':
        'tf.Tensor(1.0, shape=(), dtype=float32)',
    'np int':
        'tf.Tensor(3.0, shape=(), dtype=float32)',
    'variable arg':
        'tf.Tensor(1.0, shape=(), dtype=float32)',
    'variable wrong dtype':
        "Binding inputs to tf.function failed due to `Incompatible type conversion requested to type float32 for `tf.Variable of type int32. (Variable: <tf.Variable 'Variable:0' shape=() dtype=int32, numpy=1>)`. Received args: (<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=1>,) and kwargs: {} for signature: (x: TensorSpec(shape=(), dtype=tf.float32, name=None)).",
}


@pytest.mark.parametrize("name", list(CALLS))
def test_call_matches_tf(name):
    expected = EXPECTED[name]
    if not expected.startswith("Binding inputs"):
        assert str(CALLS[name]()) == expected
        return
    with pytest.raises(TypeError) as error:
        CALLS[name]()
    assert str(error.value) == expected


def test_a_mismatch_after_a_matching_call_still_raises():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def identity(x):
        return x

    assert identity(tf.constant([1, 2])).numpy().tolist() == [1, 2]
    with pytest.raises(TypeError, match=r"for signature: \(x: TensorSpec\(shape=\(None,\), dtype=tf.int32, "
                                        r"name=None\)\)\.$"):
        identity(tf.constant([1.0]))


def test_nested_signature_traces_once_for_matching_calls():
    n.get_concrete_function()
    assert float(n([1.0, [3, 4]])) == 4.0
    assert float(n([tf.constant(2.0), tf.constant([1, 2])])) == 3.0
    assert n.experimental_get_tracing_count() == 1
