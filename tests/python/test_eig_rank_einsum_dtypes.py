"""tf.linalg.eig / eigvals (the Eig op: complex results, gradients), tf.linalg.matrix_rank, and
Einsum on float16, bfloat16, complex64 and complex128 (values and gradients). Expected values and
errors were recorded from TensorFlow 2.21. graphfn's eigensolver takes the steps of TF's kernel
(Eigen's ComplexEigenSolver without sorting), but TF's Eigen version reduces to Schur form with
other choices: for some matrices the eigenvalues come in another order, and an eigenvector is unique
only up to a unit-modulus factor, so each eigenpair is matched with TF's and eigenvector columns
are compared after aligning their phase with TF's."""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

RESULTS = [
    ('tf.raw_ops.Eig(input=tf.zeros([2, 0, 0]), Tout=tf.complex64)',
     'Eig(e=<tf.Tensor: shape=(2, 0), dtype=complex64, numpy=array([], shape=(2, 0), dtype=complex64)>, v=<tf.Tensor: shape=(2, 0, 0), dtype=complex64, numpy=array([], shape=(2, 0, 0), dtype=complex64)>)'),
    ('tf.linalg.matrix_rank(tf.constant([[1., 2.], [2., 4.]]))',
     '<tf.Tensor: shape=(), dtype=int32, numpy=1>'),
    ('tf.linalg.matrix_rank(tf.constant([[[1., 2.], [2., 4.]], [[1., 0.], [0., 1.]]]))',
     '<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>'),
    ('tf.linalg.matrix_rank(tf.constant([[1., 0.], [0., 1e-3]]), tol=1e-2)',
     '<tf.Tensor: shape=(), dtype=int32, numpy=1>'),
    ('tf.linalg.matrix_rank(tf.constant([[1., 0.], [0., 1e-10]], tf.float64))',
     '<tf.Tensor: shape=(), dtype=int32, numpy=2>'),
    ('tf.linalg.matrix_rank(tf.constant([[1., 0.], [0., 1e-7]]))',
     '<tf.Tensor: shape=(), dtype=int32, numpy=1>'),
    ('tf.linalg.matrix_rank(tf.constant([[1., 2., 3.], [2., 4., 6.]]))',
     '<tf.Tensor: shape=(), dtype=int32, numpy=1>'),
    ('tf.linalg.matrix_rank([[1., 2.], [3., 4.]])',
     '<tf.Tensor: shape=(), dtype=int32, numpy=2>'),
    ('tf.linalg.matrix_rank(tf.zeros([3, 3]))',
     '<tf.Tensor: shape=(), dtype=int32, numpy=0>'),
    ('tf.linalg.matrix_rank(tf.zeros([2, 0, 3]))',
     '<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 0], dtype=int32)>'),
    ("tf.einsum('ij,jk->ik', tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2]], tf.complex64), tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2]], tf.complex64))",
     '<tf.Tensor: shape=(2, 2), dtype=complex64, numpy=\narray([[-2.5+5.5j, 11. +3.j ],\n       [-1. +1.5j,  4.5+1.5j]], dtype=complex64)>'),
    ("tf.einsum('ij->j', tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2]], tf.complex128))",
     '<tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+2.5j, 5.-1.j ])>'),
    ("tf.einsum('ii->', tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2]], tf.complex64))",
     '<tf.Tensor: shape=(), dtype=complex64, numpy=(3+2j)>'),
    ("tf.einsum('ij,ij->i', tf.constant([[1 + 2j, 3 - 1j]], tf.complex64), tf.constant([[2 - 1j, 1j]], tf.complex64))",
     '<tf.Tensor: shape=(1,), dtype=complex64, numpy=array([5.+6.j], dtype=complex64)>'),
    ("tf.einsum('ij,jk->ik', tf.constant([[0.1, 1.5], [-2.25, 3.3]], tf.bfloat16), tf.constant([[0.3, -1.5], [2, 0.7]], tf.bfloat16))",
     '<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[3.03125, 0.898438],\n       [5.90625, 5.6875]], dtype=bfloat16)>'),
    ("tf.einsum('ij,k->ik', tf.constant([[0.1, 1.5], [-2.25, 3.3]], tf.bfloat16), tf.constant([0.3, -1.7, 2.9], tf.bfloat16))",
     '<tf.Tensor: shape=(2, 3), dtype=bfloat16, numpy=\narray([[0.482422, -2.73438, 4.65625],\n       [0.314453, -1.78125, 3.04688]], dtype=bfloat16)>'),
    ("tf.einsum('ij->i', tf.constant([[0.1, 1.5, 0.7], [-2.25, 3.3, 0.01]], tf.bfloat16))",
     '<tf.Tensor: shape=(2,), dtype=bfloat16, numpy=array([2.29688, 1.05469], dtype=bfloat16)>'),
    ("tf.einsum('ij,jk->ik', tf.constant([[0.1, 1.5], [-2.25, 3.3]], tf.float16), tf.constant([[0.3, -1.5], [2, 0.7]], tf.float16))",
     '<tf.Tensor: shape=(2, 2), dtype=float16, numpy=\narray([[3.03  , 0.9004],\n       [5.926 , 5.688 ]], dtype=float16)>'),
    ("tf.einsum('bij,bjk->bik', tf.reshape(tf.cast(tf.range(12), tf.float16) * tf.constant(0.3, tf.float16), [2, 2, 3]), tf.reshape(tf.cast(tf.range(12), tf.float16) * tf.constant(-0.7, tf.float16), [2, 3, 2]))",
     '<tf.Tensor: shape=(2, 2, 2), dtype=float16, numpy=\narray([[[ -2.102,  -2.73 ],\n        [ -5.883,  -8.41 ]],\n\n       [[-36.12 , -40.56 ],\n        [-51.25 , -57.56 ]]], dtype=float16)>'),
    ("tf.einsum('ij->ji', tf.constant([[1, 2, 3], [4, 5, 6]], tf.float16))",
     '<tf.Tensor: shape=(3, 2), dtype=float16, numpy=\narray([[1., 4.],\n       [2., 5.],\n       [3., 6.]], dtype=float16)>'),
    ("tf.einsum('ii->i', tf.constant([[1.5, 2], [3, 4.25]], tf.bfloat16))",
     '<tf.Tensor: shape=(2,), dtype=bfloat16, numpy=array([1.5, 4.25], dtype=bfloat16)>'),
]

ERRORS = [
    ('tf.linalg.eig(tf.constant([[1, 2], [3, 4]]))', UnboundLocalError,
     "cannot access local variable 'out_dtype' where it is not associated with a value"),
    ('tf.linalg.eigvals(tf.zeros([2, 2], tf.float16))', UnboundLocalError,
     "cannot access local variable 'out_dtype' where it is not associated with a value"),
    ('tf.linalg.eig(tf.zeros([2, 3]))', tf.errors.InvalidArgumentError,
     'Input matrix must be square.'),
    ('tf.linalg.eig(tf.zeros([2]))', tf.errors.InvalidArgumentError,
     'Input tensor 0 must have rank >= 2, got 1'),
    ('tf.linalg.eig(tf.constant([[np.nan, 1.], [0., 1.]]))', tf.errors.InvalidArgumentError,
     'Eigen decomposition was not successful. The input might not be valid.'),
    ('tf.linalg.eig(tf.constant([[np.inf, 1.], [0., 1.]]))', tf.errors.InvalidArgumentError,
     'Eigen decomposition was not successful. The input might not be valid.'),
    ('tf.raw_ops.Eig(input=tf.eye(3), Tout=tf.complex128)', tf.errors.InvalidArgumentError,
     'Invalid output dtype 18 vs 8'),
    ('tf.linalg.eig([[1., 2.], [3., 4.]])', AttributeError,
     "'list' object has no attribute 'dtype'"),
    ('tf.linalg.matrix_rank(tf.constant([[1, 2], [3, 4]]))', TypeError,
     'Input `a` must have `float`-like `dtype` (saw int32).'),
    ('tf.linalg.matrix_rank(tf.zeros([3]))', ValueError,
     'Input `a` must have at least 2 dimensions (saw: 1).'),
    ('tf.linalg.matrix_rank(tf.zeros([2, 2], tf.complex64))', TypeError,
     'Input `a` must have `float`-like `dtype` (saw complex64).'),
    ("tf.einsum('ij,jk->ik', tf.constant([[1, 2]], tf.int8), tf.constant([[1], [2]], tf.int8))", tf.errors.NotFoundError,
     # TF's text lists every attr of the node, graphfn's the type attrs: compared up to there.
     'Could not find device for node: {{node Einsum}} = Einsum['),
]


EIG_TF = {
    'sym3': ([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], 'float32',
         [(1.2679493427276611+0j), (2.9999992847442627+0j), (4.732050895690918+0j)],
         [[(-0.78867506980896+0j), (0.5773503184318542+0j), (-0.21132482588291168+0j)], [(0.5773503184318542+0j), (0.5773504376411438+0j), (-0.5773502588272095+0j)], [(-0.21132494509220123+0j), (-0.5773501396179199+0j), (-0.7886751890182495+0j)]]),
    'rot': ([[0.0, -1.0], [1.0, 0.0]], 'float64',
         [1j, -1j],
         [[(-0.7071067811865475+0j), (-0.7071067811865475-0j)], [0.7071067811865475j, -0.7071067811865475j]]),
    'c2': ([[(1+1j), 2], [3j, (4-1j)]], 'complex64',
         [(1.0000001192092896-1j), (3.999999761581421+0.9999998807907104j)],
         [[(-0.7071068286895752+0j), (0.3076923191547394+0.4615384638309479j)], [(-2.8097900894863415e-08+0.7071068286895752j), (0.4615384638309479+0.6923076510429382j)]]),
    'gen2': ([[4.0, 1.0], [2.0, 3.0]], 'float32',
         [(4.999999523162842+0j), (1.999999761581421+0j)],
         [[(0.7071068286895752+0j), (-0.44721361994743347+0j)], [(0.7071068286895752+0j), (0.8944271802902222+0j)]]),
    'gen3': ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], 'float64',
         [(16.70749331612474+0j), (-0.9057401795217613+0j), (0.19824686339700892+0j)],
         [[(0.2235133577278518+0j), (0.8658457814289259+0j), (0.27829648598057183+0j)], [(0.5039456275263903+0j), (-0.08565120135087248+0j), (-0.8318468022052949+0j)], [(0.8343144391740167+0j), (-0.49292489741225776+0j), (0.4801895079566922+0j)]]),
    'cplx_eigs': ([[1.0, 2.0, 0.0], [-1.0, 1.0, 0.5], [0.0, 0.3, 2.0]], 'float64',
         [(0.9746118227848347+1.3793875572359127j), (0.9746118227848347-1.3793875572359127j), (2.0507763544303317+0j)],
         [[(-0.6901197167048477+0.441276159853909j), (-0.6901197167048477-0.441276159853909j), (0.30272936791389093+0j)], [(-0.29558498126997274-0.48157287378651886j), (-0.29558498126997274+0.48157287378651886j), (0.15905043079777836+0j)], [(-0.03667944562951834+0.09155234409201507j), (-0.03667944562951834-0.09155234409201507j), (0.9397115995163076+0j)]]),
    'batch': ([[[2.0, 1.0], [1.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]], 'float32',
         [[(1.3819661140441895+0j), (3.6180343627929688+0j)], [(-0.3722812235355377+0j), (5.372281074523926+0j)]],
         [[[(-0.8506508469581604+0j), (-0.5257311463356018+0j)], [(0.5257311463356018+0j), (-0.8506508469581604+0j)]], [[(-0.8245648145675659+0j), (-0.41597357392311096+0j)], [(0.5657674670219421+0j), (-0.9093767404556274+0j)]]]),
    'c128': ([[(1+2j), 0.5, (-0-1j)], [2, (3-1j), 1], [0.25j, 1, (-2+0.5j)]], 'complex128',
         [(0.8399461025412855+1.902907166493322j), (-2.2721366270183685+0.38838678779684693j), (3.4321905244770816-0.7912939542901698j)],
         [[(-0.686388030465374-0.5542473839682229j), (0.2627856177546156+0.08341200308641698j), (0.14795857891499883-0.02713904990672478j)], [(-0.01726903344860361+0.4600275117917121j), (-0.23906820051502922+0.020326734463054188j), (0.722436221009536-0.6528663021979285j)], [(0.07466094317249537+0.06468014719615763j), (0.7066076112138674-0.605908458420612j), (0.15257007573828377-0.07710772278243329j)]]),
}
GRAD_TF = {
    'eigvals_real': [[7.999999046325684, 3.9999992847442627], [2.000000238418579, 6.0]],
    'eigvals_cplx': [[1.7625285824218946, 1.928589917377502, -0.4219094700101662], [-3.8571798347550077, 1.9734833174269735, -0.1566675052030844], [1.4063649000338878, -0.2611125086718076, 4.263988100151135]],
    'eig_v': [[1.7770247214619743, 1.8085224870151473, -0.4515747688736775], [-3.7943871395224242, 2.0988454407419868, 0.41559884439027783], [1.377602605125835, 0.26106296971387455, 4.124129837796042]],
    'eig_v_real': [[0.8799999356269836, -0.7599999308586121], [0.4399999976158142, 1.1200000047683716]],
    'eig_complex_in': [[(1.0341373682022095+1.0227582454681396j), (2.55120587348938+0.034137316048145294j)], [(-0.022758187726140022+2.3181612491607666j), (-1.0341373682022095+3.9772417545318604j)]],
}

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)

TOL = {"float32": 2e-6, "complex64": 2e-6, "float64": 1e-12, "complex128": 1e-12}


def _phase_aligned(v, reference):
    """v's columns times the unit factors that best align them with reference's columns."""
    inner = np.sum(np.conj(v) * reference, axis=-2, keepdims=True)
    return v * inner / np.abs(inner)


@pytest.mark.parametrize("name", sorted(EIG_TF))
def test_eig_matches_tensorflow(name):
    matrix, dtype, e_tf, v_tf = EIG_TF[name]
    e, v = tf.linalg.eig(tf.constant(matrix, getattr(tf, dtype)))
    assert e.dtype == (tf.complex64 if dtype in ("float32", "complex64") else tf.complex128)
    e_tf, v_tf = np.array(e_tf), np.array(v_tf)
    # TF's i-th eigenvalue is graphfn's order[i]-th (the nearest one).
    order = np.argmin(np.abs(e_tf[..., :, None] - e.numpy()[..., None, :]), axis=-1)
    e_got = np.take_along_axis(e.numpy(), order, axis=-1)
    v_got = np.take_along_axis(v.numpy(), order[..., None, :], axis=-1)
    np.testing.assert_allclose(e_got, e_tf, rtol=0, atol=4 * TOL[dtype] * np.abs(e_tf).max())
    np.testing.assert_allclose(np.linalg.norm(v_got, axis=-2), 1, rtol=10 * TOL[dtype])
    np.testing.assert_allclose(_phase_aligned(v_got, v_tf), v_tf, rtol=0, atol=20 * TOL[dtype])
    np.testing.assert_allclose(tf.linalg.eigvals(tf.constant(matrix, getattr(tf, dtype))).numpy(), e.numpy())


def test_eig_in_function_and_static_shapes():
    f = tf.function(lambda m: tf.linalg.eig(m), input_signature=[tf.TensorSpec([None, 3, 3])])
    e, v = f.get_concrete_function().structured_outputs
    assert e.shape.as_list() == [None, 3] and v.shape.as_list() == [None, 3, 3] and e.dtype == tf.complex64
    no_v = tf.function(lambda m: tf.raw_ops.Eig(input=m, Tout=tf.complex64, compute_v=False),
                       input_signature=[tf.TensorSpec([2, 3, 3])]).get_concrete_function().structured_outputs
    assert no_v[0].shape.as_list() == [2, 3] and no_v[1].shape.as_list() == [0]
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.function(lambda m: tf.linalg.eig(m), input_signature=[tf.TensorSpec([3, 4])]).get_concrete_function()
    m = tf.constant(EIG_TF["gen3"][0], tf.float64)
    got = tf.function(tf.linalg.eigvals)(m)
    np.testing.assert_allclose(got.numpy(), np.array(EIG_TF["gen3"][2]), atol=1e-12)


LOSSES = {
    "eigvals_real": ([[4., 1.], [2., 3.]], "float32",
                     lambda x: tf.reduce_sum(tf.math.real(tf.linalg.eigvals(x)) ** 2 + tf.math.imag(tf.linalg.eigvals(x)))),
    "eigvals_cplx": ([[1., 2., 0.], [-1., 1., 0.5], [0., 0.3, 2.]], "float64",
                     lambda x: tf.reduce_sum(tf.abs(tf.linalg.eigvals(x)) ** 2)),
    "eig_v": ([[1., 2., 0.], [-1., 1., 0.5], [0., 0.3, 2.]], "float64",
              lambda x: tf.reduce_sum(tf.abs(tf.linalg.eig(x)[0]) ** 2) + tf.reduce_sum(tf.abs(tf.linalg.eig(x)[1]))),
    "eig_v_real": ([[4., 1.], [2., 3.]], "float32",
                   lambda x: tf.reduce_sum(tf.abs(tf.linalg.eig(x)[1]) ** 2 * tf.constant([[1., 2.], [3., 4.]]))
                   + tf.reduce_sum(tf.math.real(tf.linalg.eig(x)[0]))),
    "eig_complex_in": ([[1 + 1j, 2], [3j, 4 - 1j]], "complex64",
                       lambda x: tf.reduce_sum(tf.abs(tf.linalg.eig(x)[1]) ** 2 * tf.constant([[1., 2.], [3., 4.]]))
                       + tf.reduce_sum(tf.math.real(tf.linalg.eig(x)[0]) * tf.math.imag(tf.linalg.eig(x)[0]))),
}


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_eig_gradients_match_tensorflow(name, traced):
    matrix, dtype, loss = LOSSES[name]

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = loss(x)
        return tape.gradient(value, x)

    run = tf.function(grad) if traced else grad
    got = run(tf.constant(matrix, getattr(tf, dtype)))
    assert got.dtype == getattr(tf, dtype)
    tol = 2e-5 if dtype in ("float32", "complex64") else 1e-10
    np.testing.assert_allclose(got.numpy(), np.array(GRAD_TF[name]), rtol=tol, atol=tol)


# TF 2.21's gradients of sum(2 re(y) + 3 im(y)) for y = einsum('ij,jk->ik', a, b) (the other
# operand conjugated) and of sum(|einsum('ij->j', a)|).
EINSUM_GRAD_TF = ([[4 + 6j, 7 + 4j], [4 + 6j, 7 + 4j]], [[9.5 - 2j, 9.5 - 2j], [7 + 17j, 7 + 17j]])
EINSUM_REDUCE_GRAD_TF = [[0.3713906705379486 + 0.9284766912460327j, 0.9805806875228882 - 0.1961161345243454j]] * 2


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_complex_einsum_gradients_match_tensorflow(dtype):
    a = tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2]], dtype)
    b = tf.constant([[2 - 1j, 1j], [1, 1 + 1j]], dtype)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = tf.einsum('ij,jk->ik', a, b)
        loss = tf.reduce_sum(tf.math.real(y) * 2 + tf.math.imag(y) * 3)
        reduced = tf.reduce_sum(tf.abs(tf.einsum('ij->j', a)))
    ga, gb = tape.gradient(loss, [a, b])
    np.testing.assert_allclose(ga.numpy(), EINSUM_GRAD_TF[0], rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), EINSUM_GRAD_TF[1], rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(reduced, a).numpy(), EINSUM_REDUCE_GRAD_TF, rtol=1e-6)


def test_bfloat16_einsum_matches_tensorflow_on_long_sums():
    # TF's bfloat16 Einsum: each operand summed over its own labels (rounded), products
    # accumulated in float, rounded once. Values recorded from TF 2.21.
    a = tf.cast(tf.reshape(tf.range(600, dtype=tf.float32) % 17 * 0.13, [4, 150]), tf.bfloat16)
    b = tf.cast(tf.reshape(tf.range(300, dtype=tf.float32) % 7 * 0.31, [150, 2]), tf.bfloat16)
    got = {eq: tf.einsum(eq, *ops).numpy().astype(np.float32).tolist()
           for eq, ops in [('ij,jk->ik', (a, b)), ('ij->i', (a,)), ('ij,k->ik', (a, b[:3, 0]))]}
    assert got == BF16_LONG_TF


def test_float16_einsum_is_close_to_tensorflow():
    # TF accumulates float16 contractions in float16 (Eigen's order); graphfn sums in float and
    # rounds once, so the two agree to float16's rounding of a sum of 150 terms.
    a = tf.cast(tf.reshape(tf.range(600, dtype=tf.float32) % 17 * 0.13, [4, 150]), tf.float16)
    b = tf.cast(tf.reshape(tf.range(300, dtype=tf.float32) % 7 * 0.31, [150, 2]), tf.float16)
    got = tf.einsum('ij,jk->ik', a, b)
    assert got.dtype == tf.float16
    np.testing.assert_allclose(got.numpy().astype(np.float32), F16_LONG_TF, rtol=4e-3)


def test_reduced_and_complex_einsum_in_function():
    f = tf.function(lambda x, y: tf.einsum('bij,bjk->bik', x, y))
    for dtype in (tf.float16, tf.bfloat16, tf.complex64, tf.complex128):
        x = tf.cast(tf.reshape(tf.range(12), [2, 2, 3]), dtype)
        y = tf.cast(tf.reshape(tf.range(12), [2, 3, 2]), dtype)
        got = f(x, y)
        assert got.dtype == dtype
        want = np.einsum('bij,bjk->bik', np.arange(12.).reshape(2, 2, 3), np.arange(12.).reshape(2, 3, 2))
        np.testing.assert_array_equal(got.numpy().astype(np.complex128), want)
BF16_LONG_TF = {'ij,jk->ik': [[141.0, 145.0], [142.0, 144.0], [142.0, 144.0], [144.0, 144.0]], 'ij->i': [153.0, 154.0, 156.0, 157.0], 'ij,k->ik': [[0.0, 95.0, 190.0], [0.0, 95.5, 191.0], [0.0, 97.0, 194.0], [0.0, 97.5, 195.0]]}
F16_LONG_TF = [[141.625, 145.0], [141.625, 144.25], [142.375, 143.75], [143.75, 144.25]]
