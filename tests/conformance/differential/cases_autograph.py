"""Differential cases: AutoGraph (if/while/for/break/continue/return on tensors) and tf.cond,
tf.while_loop, tf.switch_case."""

from run_differential import case

CASES = [
    case("autograph/if_tensor_both_branches", '''
@tf.function
def f(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y

(f(tf.constant(3)), f(tf.constant(-4)))
'''),
    case("autograph/if_python_bool_not_converted", '''
@tf.function
def f(x, flag):
    print("tracing", flag)
    if flag:
        return x + 1
    return x - 1

(f(tf.constant(1), True), f(tf.constant(1), False))
'''),
    case("autograph/if_traces_both_branches", '''
@tf.function
def f(x):
    if x > 0:
        print("true branch")
        y = x
    else:
        print("false branch")
        y = -x
    return y

f(tf.constant(1))
'''),
    case("autograph/if_without_else", '''
@tf.function
def f(x):
    y = x
    if x < 0:
        y = -x
    return y

(f(tf.constant(-5.0)), f(tf.constant(2.0)))
'''),
    case("autograph/if_undefined_in_one_branch", '''
@tf.function
def f(x):
    if x > 0:
        y = x
    return y

f(tf.constant(1))
''', message=False),
    case("autograph/if_branch_dtype_mismatch", '''
@tf.function
def f(x):
    if x > 0:
        y = tf.constant(1)
    else:
        y = tf.constant(1.0)
    return y

f(tf.constant(1))
''', message=False),
    case("autograph/if_elif_chain", '''
@tf.function
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0

[sign(tf.constant(v)).numpy().item() for v in (5, -3, 0)]
'''),
    case("autograph/early_return_in_if", '''
@tf.function
def f(x):
    if x > 10:
        return x - 10
    x = x * 2
    return x

(f(tf.constant(15)), f(tf.constant(3)))
'''),
    case("autograph/boolean_ops", '''
@tf.function
def f(x, y):
    if x > 0 and y > 0:
        return 1
    if x > 0 or y > 0:
        return 2
    if not x > -5:
        return 3
    return 4

[f(tf.constant(a), tf.constant(b)).numpy().item() for a, b in ((1, 1), (1, -1), (-10, -1), (-1, -1))]
'''),
    case("autograph/while_tensor_condition", '''
@tf.function
def f(n):
    i = tf.constant(0)
    total = tf.constant(0)
    while i < n:
        total += i
        i += 1
    return total

f(tf.constant(10))
'''),
    case("autograph/while_python_condition_unrolled", '''
@tf.function
def f(x):
    i = 0
    while i < 3:
        x = x * 2
        i += 1
    return x

print(f(tf.constant(1)))
print([op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()].count("Mul"))
'''),
    case("autograph/while_break", '''
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        if i * i > 50:
            break
        i += 1
    return i

f(tf.constant(100))
'''),
    case("autograph/while_continue", '''
@tf.function
def f(n):
    i = tf.constant(0)
    odd_sum = tf.constant(0)
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        odd_sum += i
    return odd_sum

f(tf.constant(10))
'''),
    case("autograph/for_range_tensor", '''
@tf.function
def f(n):
    acc = tf.constant(1)
    for i in tf.range(1, n + 1):
        acc *= i
    return acc

f(tf.constant(6))
'''),
    case("autograph/for_over_tensor_rows", '''
@tf.function
def f(m):
    total = tf.zeros([3])
    for row in m:
        total += row
    return total

f(tf.reshape(tf.range(12.0), [4, 3]))
'''),
    case("autograph/for_python_range_unrolled", '''
@tf.function
def f(x):
    for i in range(4):
        x = x + i
    return x

f(tf.constant(10))
'''),
    case("autograph/for_break", '''
@tf.function
def f(xs):
    found = tf.constant(-1)
    for i in tf.range(tf.size(xs)):
        if xs[i] > 5:
            found = i
            break
    return found

f(tf.constant([1, 3, 7, 9]))
'''),
    case("autograph/fizzbuzz", '''
@tf.function
def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            tf.print("FizzBuzz")
        elif i % 3 == 0:
            tf.print("Fizz")
        elif i % 5 == 0:
            tf.print("Buzz")
        else:
            tf.print(i)

fizzbuzz(tf.constant(15))
'''),
    case("autograph/tensorarray_in_loop", '''
@tf.function
def f(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack()

f(tf.constant(5))
'''),
    case("autograph/for_break_and_return_python_range", '''
@tf.function
def g(n):
    for i in range(n):
        if i == 2:
            break
        if i == 5:
            return i
    return -1

g(10)
'''),
    case("autograph/for_break_and_return_tensor_range", '''
@tf.function
def f(x):
    for i in tf.range(10):
        if i > x:
            break
        if i * i > 20:
            return i
    return -1

f(tf.constant(3))
'''),
    case("autograph/tensorarray_versions_are_values", '''
@tf.function
def branching():
    ta0 = tf.TensorArray(tf.float32, size=2)
    ta1 = ta0.write(0, 1.0)
    ta2 = ta0.write(0, 2.0)
    ta3 = ta1.write(1, 3.0)
    return ta1.read(0), ta2.read(0), ta3.stack(), ta1.size()

branching()
'''),
    case("autograph/tensorarray_old_version_in_loop", '''
@tf.function
def f(n):
    ta = tf.TensorArray(tf.int32, size=n)
    snap = tf.TensorArray(tf.int32, size=n)
    for i in tf.range(n):
        old = ta
        ta = ta.write(i, i * 10)
        snap = snap.write(i, old.stack()[i] + ta.read(i))
    return ta.stack(), snap.stack()

f(tf.constant(4))
'''),
    case("autograph/loop_variable_shape_change_error", '''
@tf.function
def f(n):
    x = tf.constant([1])
    for i in tf.range(n):
        x = tf.concat([x, [i]], 0)
    return x

f(tf.constant(3))
''', message=False),
    case("autograph/loop_shape_invariants", '''
@tf.function
def f(n):
    x = tf.constant([1])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, [i]], 0)
    return x

f(tf.constant(3))
'''),
    case("autograph/loop_var_dtype_change_error", '''
@tf.function
def f(n):
    x = tf.constant(0)
    for i in tf.range(n):
        x = tf.cast(x, tf.float32) + 1.0
    return x

f(tf.constant(3))
''', message=False),
    case("autograph/nested_loops", '''
@tf.function
def f(n):
    total = tf.constant(0)
    for i in tf.range(n):
        for j in tf.range(i):
            total += j
    return total

f(tf.constant(5))
'''),
    case("autograph/tf_cond_explicit", '''
x = tf.constant(4)
(tf.cond(x > 3, lambda: x * 10, lambda: x), tf.cond(x > 5, lambda: x * 10, lambda: x))
'''),
    case("autograph/tf_cond_in_function_multiple_outputs", '''
@tf.function
def f(x):
    return tf.cond(x > 0, lambda: (x, x + 1), lambda: (-x, x - 1))

f(tf.constant(2.0))
'''),
    case("autograph/tf_while_loop_explicit", '''
i0 = tf.constant(0)
s0 = tf.constant(1)
tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 2), [i0, s0])
'''),
    case("autograph/tf_while_loop_in_function", '''
@tf.function
def f(n):
    return tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc + i), (0, 0))

f(tf.constant(6))
'''),
    case("autograph/switch_case", '''
@tf.function
def f(i):
    return tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)])

[f(tf.constant(k)).numpy().item() for k in (0, 1, 2, 7)]
'''),
    case("autograph/cond_graph_ops", '''
@tf.function
def f(x):
    if x > 0:
        x = x + 1
    return x

print(sorted({op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()}))
'''),
    case("autograph/while_graph_ops", '''
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        i += 1
    return i

print(sorted({op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()}))
'''),
    case("autograph/print_in_loop_body_traced_once", '''
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        print("tracing body")
        tf.print("running body", i)
        i += 1
    return i

f(tf.constant(3))
'''),
    case("autograph/do_not_convert", '''
@tf.autograph.experimental.do_not_convert
def helper(x):
    if x > 0:
        return x
    return -x

@tf.function
def f(x):
    return helper(x)

f(tf.constant(1))
''', message=False),
    case("autograph/converted_helper_function", '''
def helper(x):
    if x > 0:
        return x
    return -x

@tf.function
def f(x):
    return helper(x) + 1

(f(tf.constant(-3)), f(tf.constant(3)))
'''),
    case("autograph/for_over_python_list_of_tensors", '''
@tf.function
def f(xs):
    total = tf.constant(0.0)
    for x in xs:
        total += x
    return total

f([tf.constant(1.0), tf.constant(2.5), tf.constant(3.0)])
'''),
    case("autograph/return_in_loop", '''
@tf.function
def f(xs):
    for x in xs:
        if x < 0:
            return x
    return tf.constant(0)

(f(tf.constant([3, 2, -4, -1])), f(tf.constant([1, 2])))
'''),
    case("autograph/return_in_python_loop_in_tensor_loop", '''
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        for j in range(3):
            if j == 1:
                return i
        i += 1
    return i

f(tf.constant(3))
'''),
    case("autograph/return_in_cond_in_tensor_loop", '''
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        if i > 1:
            return i
        i += 1
    return i

f(tf.constant(3))
'''),
    case("autograph/return_in_loop_first_iteration", '''
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        i += 1
        return i
    return i

print(f(tf.constant(3)))
f(tf.constant(0))
''', message=False),  # TF's message adds the Python frames where the Assert was made
    case("autograph/while_with_else_python", '''
@tf.function
def f(x):
    n = 0
    while n < 2:
        n += 1
    else:
        x = x + 100
    return x

f(tf.constant(1))
''',
         deliberate="warnings go through Python's logging under graphfn's own loggers with no handler of graphfn's, so they print without TF's `WARNING:tensorflow:` prefix, and the hint names `graphfn.autograph`"),
    case("autograph/if_on_none_check", '''
@tf.function
def f(x, y=None):
    if y is None:
        return x
    return x + y

(f(tf.constant(1)), f(tf.constant(1), tf.constant(2)))
'''),
    case("autograph/assert_in_function", '''
@tf.function
def f(x):
    tf.debugging.assert_positive(x, message="need positive")
    return x

f(tf.constant(-1))
''', message=False),
]
