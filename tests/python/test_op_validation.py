"""Op calls that break an op's definition are rejected before any shape function or kernel runs
(ir/op_validation.h), with TF 2.21's exception types and, where graphfn words them alike, its
messages. Recorded from tf.raw_ops.X(...) in TF 2.21, eagerly and inside tf.function; graphfn's
raw handles (`_core.op`) take the inputs positionally and the attrs as keywords."""

import re

import pytest

import graphfn as tf
from graphfn import _core

OpError = tf.errors.InvalidArgumentError


def op(name):
    return _core.op(name)


def traced(fn):
    return tf.function(fn, autograph=False)


def starts(text):
    return "^" + re.escape(text)


# --- list lengths and int attrs under the OpDef's minimums ("N: int >= 2") ---

def test_list_shorter_than_minimum_eagerly():
    with pytest.raises(OpError, match=starts(
            "Value for attr 'N' of 1 must be at least minimum 2\n\t; NodeDef: {{node ConcatOffset}}; "
            "Op<name=ConcatOffset; signature=concat_dim:int32, shape:N*shape_type -> offset:N*shape_type; "
            "attr=N:int,min=2; attr=shape_type:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> "
            "[Op:ConcatOffset]")):
        op("ConcatOffset")(0, [[1, 2]])
    with pytest.raises(OpError, match=starts("Value for attr 'N' of 0 must be at least minimum 2\n")):
        op("ConcatOffset")(0, [])
    with pytest.raises(OpError, match=starts(
            "Value for attr 'N' of 1 must be at least minimum 2\n\t; NodeDef: {{node ConcatV2}}; "
            "Op<name=ConcatV2; signature=values:N*T, axis:Tidx -> output:T; attr=N:int,min=2; attr=T:type; "
            "attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> [Op:ConcatV2]")):
        op("ConcatV2")([[1]], 0)
    with pytest.raises(OpError, match=starts(
            "Length for attr 'T' of 0 must be at least minimum 1\n\t; NodeDef: {{node Assert}}; ")):
        op("Assert")(True, [])


def test_int_attr_under_minimum_eagerly():
    with pytest.raises(OpError, match=starts(
            "Value for attr 'num' of -1 must be at least minimum 0\n\t; NodeDef: {{node Unpack}}; "
            "Op<name=Unpack; signature=value:T -> output:num*T; attr=num:int,min=0; attr=T:type; "
            "attr=axis:int,default=0> [Op:Unpack]")):
        op("Unpack")([1, 2], num=-1)


@pytest.mark.parametrize("name, inputs, message", [
    ("AddN", ([],), "List argument 'inputs' to 'AddN' Op with length 0 shorter than minimum length 1."),
    ("ConcatOffset", (0, [[1, 2]]),
     "List argument 'shape' to 'ConcatOffset' Op with length 1 shorter than minimum length 2."),
    ("ConcatV2", ([[1]], 0), "List argument 'values' to 'ConcatV2' Op with length 1 shorter than minimum length 2."),
    ("Pack", ([],), "List argument 'values' to 'Pack' Op with length 0 shorter than minimum length 1."),
    ("Assert", (True, []), "Attr 'T' of 'Assert' Op passed list of length 0 less than minimum 1."),
])
def test_list_shorter_than_minimum_while_tracing(name, inputs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        traced(lambda: op(name)(*inputs))()


def test_int_attr_under_minimum_while_tracing():
    with pytest.raises(ValueError, match=re.escape("Attr 'num' of 'Unpack' Op passed -1 less than minimum 0.")):
        traced(lambda: op("Unpack")([1, 2], num=-1))()


def test_while_without_loop_variables_is_an_error():
    """TF: StatelessWhile(input=[], cond=None, body=None) raises InvalidArgumentError; graphfn's
    While needs a loop variable, so no output can dangle."""
    for name in ("While", "StatelessWhile"):
        with pytest.raises(OpError):
            op(name)([])
        with pytest.raises(OpError):
            traced(lambda: op(name)([]))()


# --- dtype codes: never an index past a kernel table ---

# TF's summary goes on with "; is_stateful=true> [Op:ReadVariableOp] name: " (graphfn's ReadVariableOp
# is not stateful: reads are ordered by automatic control dependencies instead).
READ_SUMMARY = ("\n\t; NodeDef: {{node ReadVariableOp}}; Op<name=ReadVariableOp; signature=resource:resource -> "
                "value:dtype; attr=dtype:type")


@pytest.mark.parametrize("code", [-1, 40, 99, 300])
def test_dtype_number_naming_no_datatype_eagerly(code):
    v = tf.Variable(1.0)
    message = "AttrValue has invalid DataType enum: %d\n\t for attr 'dtype'" % code + READ_SUMMARY
    with pytest.raises(OpError, match=starts(message)):
        op("ReadVariableOp")(v.handle, dtype=code)


@pytest.mark.parametrize("code", [0, 2**40])
def test_dtype_number_without_enum_eagerly(code):
    v = tf.Variable(1.0)
    message = "AttrValue has invalid DataType\n\t for attr 'dtype'" + READ_SUMMARY
    with pytest.raises(OpError, match=starts(message)):
        op("ReadVariableOp")(v.handle, dtype=code)


@pytest.mark.parametrize("code", [21])
def test_dtype_graphfn_has_no_tensors_for(code):
    """TF reads this (variant) and fails with InvalidArgumentError ("Trying to read variable with
    wrong dtype"); graphfn has no such tensors and says so, with the same type."""
    v = tf.Variable(1.0)
    with pytest.raises(OpError, match="graphfn has no"):
        op("ReadVariableOp")(v.handle, dtype=code)


@pytest.mark.parametrize("code", [22, 23])
def test_dtype_of_another_variable_is_wrong_dtype(code):
    """uint32 and uint64 are dtypes: reading a float variable as one is TF's wrong-dtype error."""
    v = tf.Variable(1.0)
    with pytest.raises(OpError, match="variable with wrong dtype"):
        op("ReadVariableOp")(v.handle, dtype=code)


@pytest.mark.parametrize("code", [0, 99, -1])
def test_dtype_number_naming_no_datatype_while_tracing(code):
    with pytest.raises(TypeError, match=re.escape("Expected DataType for argument 'DstT' not %d." % code)):
        traced(lambda: op("Cast")(1, DstT=code))()


def test_dtype_number_in_cast_eagerly():
    with pytest.raises(OpError, match=starts(
            "AttrValue has invalid DataType enum: 99\n\t for attr 'DstT'\n\t; NodeDef: {{node Cast}}; "
            "Op<name=Cast; signature=x:SrcT -> y:DstT; attr=SrcT:type; attr=DstT:type; "
            "attr=Truncate:bool,default=false> [Op:Cast] name: ")):
        op("Cast")(1, DstT=99)


# --- shape-function and kernel preconditions ---

SPEC_TEXT = "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [0], [0], and [] instead."


def test_strided_slice_grad_with_mismatched_spec():
    with pytest.raises(OpError, match=re.escape(SPEC_TEXT)):
        op("StridedSliceGrad")([2, 3], [], [], 1, [[1.0]])
    # TF's shape function leaves this to the kernel: an InvalidArgumentError when the graph runs.
    with pytest.raises(OpError, match=re.escape(SPEC_TEXT)):
        traced(lambda: op("StridedSliceGrad")([2, 3], [], [], 1, [[1.0]]))()


def test_strided_slice_with_mismatched_spec():
    empty = tf.zeros([0], tf.int32)
    with pytest.raises(OpError, match=re.escape(SPEC_TEXT)):
        op("StridedSlice")([1, 2, 3], empty, empty, 1)


# --- attr values of the wrong kind: TF's TypeError, never pybind11's RuntimeError ---

@pytest.mark.parametrize("name, inputs, attrs, message", [
    ("MatMul", ([[1.0]], [[1.0]]), {"transpose_a": "yes"}, "Expected bool for argument 'transpose_a' not 'yes'."),
    ("MatMul", ([[1.0]], [[1.0]]), {"transpose_a": 2}, "Expected bool for argument 'transpose_a' not 2."),
    ("Pack", ([1, 2],), {"axis": "a"}, "Expected int for argument 'axis' not 'a'."),
    ("Pack", ([1, 2],), {"axis": [1]}, "Expected int for argument 'axis' not [1]."),
    ("Cast", (1,), {"DstT": "abc"}, "Expected DataType for argument 'DstT' not 'abc'."),
    ("Cast", (1,), {"DstT": 1.5}, "Expected DataType for argument 'DstT' not 1.5."),
    ("PrintV2", ("x",), {"output_stream": 5}, "Expected string for argument 'output_stream' not 5."),
])
def test_attr_of_the_wrong_kind(name, inputs, attrs, message):
    with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
        op(name)(*inputs, **attrs)
    with pytest.raises(TypeError, match=re.escape(message)):
        traced(lambda: op(name)(*inputs, **attrs))()


def test_list_attr_that_is_not_a_list():
    with pytest.raises(TypeError, match="^" + re.escape("Expected list for 'squeeze_dims' argument to 'squeeze' Op, "
                                                        "not 'ab'.") + "$"):
        op("Squeeze")([[1]], squeeze_dims="ab")


def test_int_attr_too_big():
    with pytest.raises(OverflowError, match="^int too big to convert$"):
        op("Pack")([1, 2], axis=2**70)
    with pytest.raises(ValueError, match=re.escape("Value out of range: 1180591620717411303424")):
        traced(lambda: op("Pack")([1, 2], axis=2**70))()


def test_int_attrs_take_what_int_takes():
    """As TF's _MakeInt: Pack(axis=1.5) runs with axis 1, which Pack then rejects."""
    with pytest.raises(OpError, match=re.escape("axis = 1 not in [-1, 1)")):
        op("Pack")([1, 2], axis=1.5)


# --- strings that are not Unicode, names that are not strings ---

def test_lone_surrogate_is_a_value_error():
    text = "Error converting unicode string while converting Python sequence to Tensor."
    with pytest.raises(ValueError, match="^" + re.escape(text) + "$"):
        tf.constant("\ud800")
    with pytest.raises(ValueError, match="^" + re.escape(text) + "$"):
        tf.constant(["a", "\ud800"])
    # TF raises UnicodeEncodeError, a ValueError, while tracing.
    with pytest.raises(ValueError):
        traced(lambda: tf.constant("\ud800"))()


def test_eager_ops_take_any_name():
    assert tf.constant(1, name=3).numpy() == 1
    assert tf.constant(1, name=[1]).numpy() == 1
    assert tf.add(1, 2, name=object()).numpy() == 3
    assert tf.add(1, 2, name=b"x").numpy() == 3


def test_graph_building_takes_str_and_bytes_names():
    assert traced(lambda: tf.add(1, 2, name=b"x"))().numpy() == 3
    with pytest.raises(TypeError, match=re.escape("expected string or bytes-like object, got 'int'")):
        traced(lambda: tf.add(1, 2, name=3))()


# --- found by the op fuzzer under UBSan: integer overflow is never undefined behaviour ---

def test_addn_of_int32_wraps_around():
    # TF 2.21: tf.raw_ops.AddN(inputs=[[2**31-1, -2**31], [1, -1]]) -> [-2147483648, 2147483647]
    out = op("AddN")([tf.constant([2**31 - 1, -2**31]), tf.constant([1, -1])])
    assert out.numpy().tolist() == [-2147483648, 2147483647]


def test_gather_axis_at_the_int64_limits_is_a_value_error_while_tracing():
    # TF 2.21 raises ValueError ("Subshape start out of bounds: ...") for axis 2**63-1 while tracing.
    for axis in (2**63 - 1, -2**63):
        fn = tf.function(lambda x, axis=axis: op("GatherV2")(x, tf.constant([0]), tf.constant(axis, tf.int64)),
                         input_signature=[tf.TensorSpec([None], tf.float32)], autograph=False)
        with pytest.raises(ValueError):
            fn.get_concrete_function()


def test_string_format_with_summarize_zero_shows_only_the_ellipsis():
    # TF 2.21: tf.strings.format("{}", tf.reshape(tf.range(4.), [2, 2]), summarize=0) -> b"[\n ...]"
    #          and b"[ ...]" for [1., 2., 3.]
    string_format = op("StringFormat")
    assert string_format([tf.reshape(tf.range(4.), [2, 2])], template="{}", summarize=0).numpy() == b"[\n ...]"
    assert string_format([tf.constant([1., 2., 3.])], template="{}", summarize=0).numpy() == b"[ ...]"


def test_broadcast_to_a_shape_past_int64_elements_is_an_error_not_an_overflow():
    # TF 2.21 raises InvalidArgumentError ("Shape [...] would have more than 2**63 - 1 elements");
    # graphfn raises ResourceExhaustedError from its element-count check (a known difference, in
    # the issue notes): what this test holds is that the count never overflows.
    fn = tf.function(lambda x: op("BroadcastTo")(x, tf.constant([2**40, 1, 2**63 - 1, 7], tf.int64)),
                     input_signature=[tf.TensorSpec([1], tf.int16)], autograph=False)
    with pytest.raises((tf.errors.InvalidArgumentError, tf.errors.ResourceExhaustedError)):
        fn(tf.constant([0], tf.int16))
