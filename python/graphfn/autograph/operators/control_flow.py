"""if_stmt / while_stmt / for_stmt / if_exp: run the construct as Python when its condition
(or iterable) is a Python value or an eager tensor, and stage graph control flow
(graphfn cond / while_loop) when it is a graph tensor.

Graph paths check what TensorFlow's AutoGraph checks, with its messages: variables defined in
one branch only, None values, branches or iterations that change dtype, shape or structure."""

from graphfn import _core
from graphfn import context
from graphfn.autograph.operators import py_builtins, structure
from graphfn.autograph.operators.variables import Undefined, UndefinedReturnValue
from graphfn.framework import dtypes
from graphfn.framework.tensor import SymbolicTensor, Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops, check_ops, control_flow_ops, math_ops
from graphfn.ops.tensor_array_ops import TensorArray
from graphfn.util import nest
from graphfn.util.lazy_numpy import numpy

_LIMITATIONS = ("See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/"
                "reference/limitations.md#consistency-of-control-flow-types for more info.")
PYTHON_MAX_ITERATIONS = 100000000
_RETURN_IN_LOOP = ("a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                   "statement depends on a static Python condition such as a hyperparameter")


# Conditions ---------------------------------------------------------------------------------------

def _verify_tf_condition(cond, tag):
    """A graph condition must be a bool scalar (or hold exactly one bool)."""
    extra = ""
    if cond.dtype != dtypes.bool:
        extra = "; to use as boolean Tensor, use `tf.cast`"
    dims = cond.shape.dims
    if dims is not None and dims and cond.dtype == dtypes.bool:
        if all(d == 1 for d in dims):
            return array_ops.reshape(cond, [])
        extra = ""
    elif not extra:
        return cond
    raise ValueError("condition of %s expected to be `tf.bool` scalar, got %s%s; to check for None, use "
                     "`is not None`" % (tag, cond, extra))


def _is_tensor_array(value):
    return isinstance(value, TensorArray)


def _to_tensor(value):
    if isinstance(value, Tensor) or _is_tensor_array(value):
        return value  # a TensorArray travels through cond / while_loop as its flow
    if hasattr(value, "__tf_tensor__"):
        return value.__tf_tensor__()
    return array_ops.convert_to_tensor(value)


# if ---------------------------------------------------------------------------------------------

def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    if isinstance(cond, SymbolicTensor):
        _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    elif cond:
        body()
    else:
        orelse()


class _BranchChecker:
    """Checks each branch's outputs, then compares the second traced branch with the first."""

    def __init__(self, names):
        self.names = names
        self.raw, self.seen = {}, {}

    def outputs(self, values, tag):
        for name, value in zip(self.names, values):
            if type(value) is UndefinedReturnValue:
                raise ValueError("the %s branch must also have a return statement." % tag)
            if type(value) is Undefined:
                raise ValueError("'%s' must also be initialized in the %s branch" % (name, tag))
            if value is None or any(leaf is None for leaf in nest.flatten(value)):
                raise ValueError("'%s' is None at the end of the %s branch." % (name, tag))
        self.raw[tag] = values
        if len(self.raw) == 2:
            self._compare_structure(self.raw["main"], self.raw["else"])
        out = tuple(nest.map_structure(_to_tensor, v) for v in values)
        self.seen[tag] = out
        if len(self.seen) == 2:
            self._compare_dtypes(self.seen["main"], self.seen["else"])
        return out

    def _compare_structure(self, main, other):
        for name, a, b in zip(self.names, main, other):
            diff = structure.mismatch(a, b)
            if diff is not None:
                raise TypeError("'%s' must have the same nested structure in the main and else branches:\n\n%s"
                                % (name, diff))

    def _compare_dtypes(self, main, other):
        for name, a, b in zip(self.names, main, other):
            for x, y in zip(nest.flatten(a), nest.flatten(b)):
                if x.dtype != y.dtype:
                    raise TypeError("'%s' has dtype %s in the main branch, but dtype %s in the else branch"
                                    % (name, x.dtype.name, y.dtype.name))


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    cond = _verify_tf_condition(cond, "if statement")
    init = get_state()
    checker = _BranchChecker(symbol_names[:nouts])

    def branch(fn, tag):
        def traced():
            set_state(init)
            fn()
            return checker.outputs(get_state()[:nouts], tag)
        return traced

    result = control_flow_ops.cond(cond, branch(body, "main"), branch(orelse, "else"))
    result = () if result is None else tuple(result) if isinstance(result, (list, tuple)) else (result,)
    set_state(tuple(result) + tuple(init[nouts:]))


def if_exp(cond, if_true, if_false, expr_repr):
    """`x if c else y`."""
    if isinstance(cond, SymbolicTensor):
        cond = _verify_tf_condition(cond, "expression")
        checker = _BranchChecker((expr_repr,))

        def branch(fn, tag):
            return lambda: checker.outputs((fn(),), tag)[0]
        return control_flow_ops.cond(cond, branch(if_true, "main"), branch(if_false, "else"))
    return if_true() if cond else if_false()


# while ------------------------------------------------------------------------------------------

def _first_test(test):
    """The loop test, evaluated once to pick the kind of loop. As in TensorFlow, a graph test is
    built in a throw-away graph, so its ops (a tf.print, say) never run: the loop traces the
    test again. (Python side effects of the test do happen once more, as in TensorFlow.)"""
    outer = _core.current_graph()
    if outer is None:
        return test()
    with context.graph_context(_core.subgraph(outer, "")):
        return test()


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    if isinstance(_first_test(test), SymbolicTensor):
        _tf_loop(test, None, body, get_state, set_state, symbol_names, opts, "while loop")
        return
    cond, iterations = test(), 0
    while True:
        if isinstance(cond, SymbolicTensor):
            raise NotImplementedError(
                "The condition of while loop started as non-Tensor, then changed to Tensor. This may happen "
                "either because variables changed type, or when a break or return statement inside the loop "
                "depends on a Tensor condition. In both cases, changing to a TF loop should remove the error.\n"
                + _LIMITATIONS)
        if not cond:
            return
        iterations += 1
        if iterations > PYTHON_MAX_ITERATIONS:
            raise ValueError("iteration limit exceeded")
        body()
        cond = test()


# for --------------------------------------------------------------------------------------------

def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    if isinstance(iter_, SymbolicTensor):
        _tf_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    # A tf.data dataset in a traced function: a graph loop over an iterator node (graphfn.data
    # gives datasets this method; AutoGraph sits below it and does not import it).
    graph_loop_source = getattr(iter_, "_graph_loop_source", None)
    if graph_loop_source is not None and not context.executing_eagerly():
        _tf_dataset_for(graph_loop_source(), extra_test, body, get_state, set_state, symbol_names, opts)
        return
    for target in iter_:
        if extra_test is not None:
            go = extra_test()
            if isinstance(go, SymbolicTensor):
                raise NotImplementedError(
                    "break and return statements which depend on a TF condition are not supported in Python "
                    "for loops. Did you intend to make it a TF loop?\n" + _LIMITATIONS)
            if not go:
                break
        body(target)


def _tf_for(iterable, extra_test, body, get_state, set_state, symbol_names, opts):
    info = py_builtins.range_info(iterable)
    dims = iterable.shape.dims
    if dims is not None and not dims:
        raise TypeError("Cannot iterate over a scalar tensor.")
    n = dims[0] if dims is not None and dims[0] is not None else None
    in_range = None
    if info is not None:
        # A tf.range is never computed (a loop to 10**8 keeps no 10**8 elements, as in TF): its
        # iterate is carried by the loop and stepped after the body, and the loop counts.
        element, (first_iterate, limit, delta) = None, info
        if n is None:
            n = _range_length(first_iterate, limit, delta)
        if first_iterate.dtype.is_floating:
            # As TF: a float iterate, stepped by additions that round, also stops at `limit`.
            def in_range(iterate):
                return _iterate_in_range(iterate, limit, delta)
    else:
        def element(i):
            return array_ops.gather(iterable, i)
        first_iterate = delta = None
        if n is None:
            n = array_ops.shape(iterable)[0]
    iterate_names = [s.strip() for s in opts.get("iterate_names", "").split(",")]

    def test(index, iterate):
        go = math_ops.less(index, n)
        if in_range is not None:
            go = math_ops.logical_and(go, in_range(iterate))
        if extra_test is not None:
            go = math_ops.logical_and(go, _to_tensor(extra_test()))
        return go

    _tf_loop(test, (element, iterate_names, first_iterate, delta), body, get_state, set_state, symbol_names,
             opts, "for loop")


def _tf_dataset_for(source, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for x in dataset` as a graph loop: the condition asks the iterator whether an element
    follows (and keeps it), the body takes it; no Python runs per element."""
    has_next, get_next = source

    def test(index, iterate):
        go = has_next()
        if extra_test is not None:
            go = math_ops.logical_and(go, _to_tensor(extra_test()))
        return go

    # No index loop variable: the iterator knows its position (one less op per element).
    _tf_loop(test, (lambda index: get_next(), [], None, None, False), body, get_state, set_state, symbol_names,
             opts, "for loop")


def _range_length(start, limit, delta):
    """How many elements tf.range(start, limit, delta) has, as an int32 loop bound: AutoGraph's
    ceil((limit - start) / delta), at least 0 (a range that runs the wrong way is empty, where
    the Range op would raise)."""
    distance = math_ops.subtract(limit, start)
    length = math_ops.floordiv(distance, delta)
    remainder = math_ops.floormod(distance, delta)
    length = math_ops.add(length, math_ops.cast(math_ops.not_equal(remainder, array_ops.zeros_like(remainder)),
                                                length.dtype))
    length = math_ops.maximum(length, array_ops.zeros_like(length))
    if length.dtype != dtypes.int32:
        length = math_ops.cast(math_ops.minimum(length, math_ops.cast(_INT32_MAX, length.dtype)), dtypes.int32)
    return length


_INT32_MAX = 2 ** 31 - 1


def _iterate_in_range(iterate, limit, delta):
    return math_ops.logical_or(
        math_ops.logical_and(math_ops.greater_equal(delta, array_ops.zeros_like(delta)), math_ops.less(iterate, limit)),
        math_ops.logical_and(math_ops.less(delta, array_ops.zeros_like(delta)), math_ops.greater(iterate, limit)))


# the graph loop shared by while and for -----------------------------------------------------------

def _tf_loop(test, for_info, body, get_state, set_state, symbol_names, opts, tag):
    """Stages `while test(): body()` as a graph while_loop. For a `for` loop, `for_info` is
    (element(index) -> iterate value, iterate names, the iterate's value for an empty range,
    the step of a tf.range iterate[, whether to count an index]) and an index loop variable is
    added in front unless told not to (`test` then takes the index and the iterate); a tf.range
    loop carries its iterate too (element is None)."""
    init = list(get_state())
    init_names = list(init)  # the values before the loop (undefined ones are replaced below)
    invariants = {id(v): TensorShape(s) if not isinstance(s, TensorShape) else s
                  for v, s in opts.get("shape_invariants", ())}
    undefined = [i for i, v in enumerate(init) if type(v) in (Undefined, UndefinedReturnValue) or v is None]
    if for_info is not None and for_info[2] is not None:
        for i in list(undefined):
            if symbol_names[i] in for_info[1]:
                init[i] = for_info[2]  # AutoGraph: an empty tf.range leaves the iterate at `start`
                undefined.remove(i)

    def run_body(index, iterate, state):
        set_state(tuple(state))
        if for_info is None:
            body()
        else:
            body(iterate if iterate is not None else for_info[0](index))
        return list(get_state())

    specs = {}
    if undefined:
        specs = _probe_undefined(run_body, init, undefined, symbol_names, for_info)
        for i in undefined:
            init[i] = nest.map_structure(_placeholder, specs[i])
    loop_init = [nest.map_structure(_to_tensor, v) if v is not None else None for v in init]
    carried = [i for i, v in enumerate(loop_init) if v is not None]
    shape_inv = []
    for i in carried:
        inv = invariants.get(id(init[i]))
        if i in specs:
            inv = nest.map_structure(lambda spec: spec.shape, specs[i])
        shape_inv.append(nest.map_structure(lambda t, inv=inv: inv if inv is not None else _shape(t), loop_init[i])
                         if not isinstance(inv, TensorShape) else inv)
    declared = {i: s for i, s in zip(carried, shape_inv)}

    counted = for_info is not None and (len(for_info) < 5 or for_info[4])
    index0 = array_ops.constant(0) if counted else None
    iterate0 = _to_tensor(for_info[2]) if for_info is not None and for_info[0] is None else None
    first0 = array_ops.constant(True) if undefined else None
    dummy = array_ops.constant(0) if not counted and not undefined and not carried else None
    extra = [v for v in (index0, iterate0, first0, dummy) if v is not None]
    loop_vars = tuple(extra) + tuple(loop_init[i] for i in carried)
    n_extra = len(extra)

    def unpack(vars_):
        state = list(init)
        for i, v in zip(carried, vars_[n_extra:]):
            state[i] = v
        return state

    def cond_fn(*vars_):
        set_state(tuple(unpack(vars_)))
        index = vars_[0] if counted else None
        go = test(index, vars_[1] if iterate0 is not None else None) if for_info is not None else test()
        go = _to_tensor(go)
        return _verify_tf_condition(go, tag) if go.dtype != dtypes.bool or go.shape.dims else go

    def body_fn(*vars_):
        iterate = vars_[1] if iterate0 is not None else None
        new = run_body(vars_[0] if counted else None, iterate, unpack(vars_))
        out = []
        for i in carried:
            out.append(_check_iteration(symbol_names[i], vars_[n_extra + carried.index(i)], new[i], declared[i],
                                        id(init[i]) in invariants or i in specs))
        head = []
        if iterate is not None:
            next_iterate = iterate + for_info[3]
        if index0 is not None:
            head.append(vars_[0] + 1)
        if iterate is not None:
            head.append(next_iterate)
        if first0 is not None:
            head.append(array_ops.constant(False))
        if dummy is not None:
            head.append(vars_[0])
        return tuple(head) + tuple(out)

    kwargs = {}
    if opts.get("maximum_iterations") is not None:
        kwargs["maximum_iterations"] = opts["maximum_iterations"]
    invariant_structure = tuple(v.shape for v in extra) + tuple(shape_inv)
    final = control_flow_ops.while_loop(cond_fn, body_fn, loop_vars, shape_invariants=invariant_structure, **kwargs)
    final = tuple(final) if isinstance(final, (list, tuple)) else (final,)
    if first0 is not None:
        names = ", ".join("the function return value" if type(init_names[i]) is UndefinedReturnValue
                          else symbol_names[i] for i in undefined)
        check_ops.Assert(math_ops.logical_not(final[extra.index(first0)]),
                         ["loop must iterate at least once to initialize %s" % names])
    state = unpack(final)
    set_state(tuple(state))


def _check_iteration(name, before, after, invariant, explicit):
    """TF's checks of one loop variable after one iteration; returns the value to carry."""
    if type(after) is Undefined or after is None:
        raise ValueError("'%s' is None after one iteration." % name if after is None else
                         "'%s' must be defined before the loop." % name)
    after = nest.map_structure(_to_tensor, after)
    diff = structure.mismatch(before, after)
    if diff is not None:
        raise TypeError("'%s' does not have the same nested structure after one iteration.\n\n%s" % (name, diff))
    inv_leaves = nest.flatten(invariant) if not isinstance(invariant, TensorShape) else [invariant] * len(
        nest.flatten(before))
    for b, a, inv in zip(nest.flatten(before), nest.flatten(after), inv_leaves):
        if _is_tensor_array(b):
            continue  # while_loop checks its flow
        if b.dtype != a.dtype:
            raise TypeError("'%s' has dtype %s before the loop, but dtype %s after one iteration"
                            % (name, b.dtype.name, a.dtype.name))
        if not _is_more_general(inv, a.shape):
            if explicit:
                raise ValueError("'%s' has shape %s after one iteration, which does not conform with the shape "
                                 "invariant %s." % (name, a.shape, inv))
            raise ValueError("'%s' has shape %s before the loop, but shape %s after one iteration. Use "
                             "tf.autograph.experimental.set_loop_options to set shape invariants."
                             % (name, b.shape, a.shape))
    return after


def _shape(value):
    return value.flow.shape if _is_tensor_array(value) else value.shape


def _is_more_general(general, shape):
    g, s = general.dims, shape.dims
    if g is None:
        return True
    if s is None or len(g) != len(s):
        return False
    return all(x is None or x == y for x, y in zip(g, s))


def _probe_undefined(run_body, init, undefined, symbol_names, for_info):
    """Dtype and shape of the variables a graph loop creates, found as TensorFlow does: by tracing
    the body once in a throw-away graph (nothing of it stays in the function)."""
    found = {}
    returns = [i for i in undefined if type(init[i]) is UndefinedReturnValue]
    with context.graph_context(_core.subgraph(_core.current_graph(), "")):
        range_iterate = for_info[2] if for_info is not None and for_info[0] is None else None
        try:
            new = run_body(array_ops.constant(0), range_iterate, list(init))
        except (UnboundLocalError, TypeError, ValueError, KeyError):
            if not returns:
                raise
            new = None  # as TF: the body could not be staged, so the return value stays undefined
        for i in undefined:
            value = new[i] if new is not None else None
            if i in returns and (value is None or type(value) in (Undefined, UndefinedReturnValue)):
                raise NotImplementedError(_RETURN_IN_LOOP)
            if type(value) is Undefined or value is None:
                raise ValueError("'%s' must be defined before the loop." % symbol_names[i])
            found[i] = nest.map_structure(lambda v: _Spec(_to_tensor(v)), value)
    return found


class _Spec:
    __slots__ = ("dtype", "shape")

    def __init__(self, tensor):
        self.dtype, self.shape = tensor.dtype, tensor.shape


def _placeholder(spec):
    """A zero of the spec's dtype and shape; unknown dimensions become 0."""
    dtype, shape = spec.dtype, spec.shape
    dims = [0 if d is None else d for d in (shape.dims or [])]
    np = numpy()
    if dtype == dtypes.string:
        value = np.full(dims, b"", dtype=object)
    else:
        value = np.zeros(dims, dtype=dtype.as_numpy_dtype)
    return _core.to_tensor(value, dtype.as_datatype_enum)
