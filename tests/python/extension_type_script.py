"""The extension-type guide's patterns, run as a script with `tf` given (TensorFlow 2.21 when
recording extension_type_goldens.txt, graphfn under test): each line printed is compared."""

import typing
def show(label, f):
    try: print(label, "=>", repr(f()))
    except Exception as e: print(label, "=>", type(e).__name__, str(e)[:400].replace("\n","\\n"))
class MaskedTensor(tf.experimental.ExtensionType):
    """A tensor paired with a boolean mask."""
    values: tf.Tensor
    mask: tf.Tensor
    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)
        assert self.mask.dtype.is_bool, "mask.dtype must be bool"
class Pt(tf.experimental.ExtensionType):
    x: int
    y: float = 2.5
    name: str = "p"
    shape: tf.TensorShape = tf.TensorShape([2])
    dtype: tf.DType = tf.float32
    t: typing.Tuple[int, ...] = ()
    opt: typing.Optional[tf.Tensor] = None
m = MaskedTensor([1, 2, 3], [True, False, True])
show("m", lambda: m)
show("str m", lambda: str(m))
show("m.values", lambda: m.values)
show("spec", lambda: m._type_spec)
show("Spec cls", lambda: MaskedTensor.Spec)
show("m kw", lambda: MaskedTensor(values=[1.], mask=[False]))
show("bad mask", lambda: MaskedTensor([1, 2], [True]))
show("bad mask dtype", lambda: MaskedTensor([1, 2], [1, 2]))
show("missing", lambda: MaskedTensor([1]))
show("extra", lambda: MaskedTensor([1], [True], 3))
show("bad kw", lambda: MaskedTensor([1], mask=[True], foo=3))
show("setattr", lambda: setattr(m, "values", 3))
show("eq", lambda: m == MaskedTensor([1, 2, 3], [True, False, True]))
show("ne", lambda: m != MaskedTensor([1, 2, 3], [True, True, True]))
show("eq other shape", lambda: m == MaskedTensor([1, 2], [True, False]))
show("hash", lambda: hash(m))
show("pt", lambda: Pt(1))
show("pt spec", lambda: Pt(1)._type_spec)
show("pt bad", lambda: Pt("a"))
show("pt bad y", lambda: Pt(1, y="z"))
show("pt int y", lambda: Pt(1, y=3))
show("pt t", lambda: Pt(1, t=[1, 2]))
show("pt opt", lambda: Pt(1, opt=[1., 2.]))
show("pt shape", lambda: Pt(1, shape=[None, 3]))
show("pt dtype", lambda: Pt(1, dtype="int32"))
show("nest", lambda: tf.nest.flatten(m, expand_composites=True))
show("nest no", lambda: tf.nest.flatten(m))
show("map", lambda: tf.nest.map_structure(lambda t: t, m, expand_composites=True))
show("spec eq", lambda: m._type_spec == MaskedTensor.Spec(values=tf.TensorSpec([3], tf.int32), mask=tf.TensorSpec([3], tf.bool)))
show("spec compat", lambda: MaskedTensor.Spec(values=tf.TensorSpec([None], tf.int32), mask=tf.TensorSpec([None], tf.bool)).is_compatible_with(m))
show("value_type", lambda: m._type_spec.value_type)
n = [0]
@tf.function
def f(x):
    n[0] += 1
    print("traced", x)
    return MaskedTensor(x.values * 2, x.mask)
show("f", lambda: f(m))
show("f2", lambda: f(MaskedTensor([4, 5, 6], [True, True, False])))
print(n)
show("fsig", lambda: f.get_concrete_function(m).structured_input_signature)
g = tf.function(lambda x: x.values + 1, input_signature=[MaskedTensor.Spec(values=tf.TensorSpec([None], tf.int32), mask=tf.TensorSpec([None], tf.bool))])
show("g", lambda: g(m))
show("g bad", lambda: g(tf.constant([1])))
@tf.experimental.dispatch_for_api(tf.math.reduce_sum)
def masked_sum(input_tensor: MaskedTensor, axis=None, keepdims=False, name=None):
    return tf.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0), axis)
show("dispatch", lambda: tf.reduce_sum(m))
@tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
def masked_unary(api_func, x):
    return MaskedTensor(api_func(x.values), x.mask)
show("unary", lambda: tf.abs(MaskedTensor([-1, 2], [True, False])))
@tf.experimental.dispatch_for_binary_elementwise_apis(MaskedTensor, MaskedTensor)
def masked_binary(api_func, x, y):
    return MaskedTensor(api_func(x.values, y.values), x.mask & y.mask)
show("binary", lambda: tf.add(m, m))
tf.experimental.unregister_dispatch_for(masked_unary)
show("after unreg", lambda: tf.abs(MaskedTensor([-1, 2], [True, False])))
class Network(tf.experimental.ExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor
    def __init__(self, shape, shape_type=None):
        self.shape = tf.TensorShape(shape)
        self.work = tf.zeros(shape)
show("custom init", lambda: Network([2]))
class WithRagged(tf.experimental.ExtensionType):
    r: tf.RaggedTensor
    k: typing.Mapping[str, tf.Tensor]
show("ragged field", lambda: WithRagged(tf.ragged.constant([[1], [2, 3]]), {"a": tf.constant(1)}))
show("ragged field spec", lambda: WithRagged(tf.ragged.constant([[1], [2, 3]]), {"a": tf.constant(1)})._type_spec)
class B(tf.experimental.BatchableExtensionType):
    v: tf.Tensor
show("batchable", lambda: B([1, 2]))
show("batchable spec", lambda: B([1, 2])._type_spec)
class Sub(MaskedTensor):
    pass
show("sub", lambda: Sub([1], [True]))
class WithMethods(tf.experimental.ExtensionType):
    v: tf.Tensor
    @property
    def shape(self): return self.v.shape
    def double(self): return WithMethods(self.v * 2)
    class Spec:
        @property
        def shape(self): return self.v.shape
show("methods", lambda: WithMethods([1, 2]).double())
show("spec prop", lambda: WithMethods([1, 2])._type_spec.shape)
show("spec repr", lambda: WithMethods([1, 2])._type_spec)
show("positional spec", lambda: MaskedTensor.Spec(tf.TensorSpec([3], tf.int32), tf.TensorSpec([3], tf.bool)))
