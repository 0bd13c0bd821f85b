"""Records the golden tables of tests/python/test_dtypes_{core,cast,ops}.py from TensorFlow 2.21:
each expression's repr, or its error type and message.

    ~/tf/bin/python tools/record_dtype_goldens.py tests/python
"""
import os
import sys

import re, sys
import numpy as np
import tensorflow as tf
import ml_dtypes

def record(exprs, out_path, doc):
    results, errors = [], []
    ns = {"tf": tf, "np": np, "ml_dtypes": ml_dtypes}
    for e in exprs:
        try:
            results.append((e, repr(eval(e, ns))))
        except Exception as ex:
            name = type(ex).__name__
            cls = "tf.errors." + name if name.endswith("Error") and hasattr(tf.errors, name) and name not in ("TypeError", "ValueError") else name
            msg = str(ex)
            msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", msg)
            msg = msg.split(" [Op:")[0].split("\n")[0]
            if msg.startswith("Could not find device for node"):  # the NodeDef's other attrs vary
                msg = msg.split(",")[0].rstrip("]")
            errors.append((e, cls, msg))
    with open(out_path, "w") as f:
        f.write('"""%s\n\nExpected values recorded from TensorFlow 2.21 (tools/record_dtype_goldens.py)."""\n\n' % doc)
        f.write("import ml_dtypes\nimport numpy as np  # noqa: F401\n\nimport graphfn as tf  # noqa: F401\nfrom tf_goldens import NAMESPACE, golden_tests\n\nNAMESPACE.setdefault(\"ml_dtypes\", ml_dtypes)\n\n")
        f.write("RESULTS = [\n")
        for e, r in results:
            f.write("    (%r,\n     %r),\n" % (e, r))
        f.write("]\n\nERRORS = [\n")
        for e, c, m in errors:
            f.write("    (%r, %s,\n     %r),\n" % (e, c, m))
        f.write("]\n\ntest_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)\n")
    print(len(results), "results", len(errors), "errors ->", out_path)


def _core_table():
    D = ["tf.float16", "tf.bfloat16", "tf.complex64", "tf.complex128", "tf.uint16", "tf.uint32", "tf.uint64"]
    exprs = []
    for d in D:
        exprs += [d, "str(%s)" % d, "%s.name" % d, "%s.as_datatype_enum" % d, "%s.size" % d, "%s.is_floating" % d,
                  "%s.is_complex" % d, "%s.is_unsigned" % d, "%s.is_integer" % d, "%s.real_dtype" % d, "%s.as_numpy_dtype" % d,
                  "%s.min" % d, "%s.max" % d, "%s.is_quantized" % d, "%s.is_numpy_compatible" % d]
    exprs += ["tf.half", "tf.float16 is tf.half", "tf.dtypes.float16", "tf.dtypes.half", "tf.dtypes.bfloat16", "tf.dtypes.complex64",
              "tf.as_dtype('half')", "tf.as_dtype('float16')", "tf.as_dtype(np.float16)", "tf.as_dtype(np.dtype('complex64'))", "tf.as_dtype(np.complex128)",
              "tf.as_dtype(np.uint16)", "tf.as_dtype(np.uint32)", "tf.as_dtype('uint64')", "tf.as_dtype(ml_dtypes.bfloat16)", "tf.as_dtype('bfloat16')",
              "tf.as_dtype(8)", "tf.as_dtype(14)", "tf.as_dtype(19)", "tf.as_dtype(23)", "tf.as_dtype('complex')", "tf.as_dtype(complex)",
              "tf.float16 == np.float16", "tf.bfloat16 == 'bfloat16'", "tf.uint8.limits", "tf.uint32.limits", "tf.float16.limits",
              "tf.int8.min", "tf.float32.max",
              # conversion
              "tf.constant([1.5, 2.25, 65504, 70000], tf.float16)", "tf.constant([1.5, 2.25, 3.0e38, 1/3], tf.bfloat16)",
              "tf.constant([1+2j, 3.5-1j])", "tf.constant([1+2j, 3.5-1j], tf.complex64)", "tf.constant(1+2j)", "tf.constant(1+2j).numpy()",
              "tf.constant([1, 2**16-1], tf.uint16)", "tf.constant([1, 2**32-1], tf.uint32)", "tf.constant([1, 2**63], tf.uint64)",
              "tf.constant(2**64-1, tf.uint64)", "tf.constant(-1, tf.uint32)", "tf.constant(300, tf.uint16)", "tf.constant(70000, tf.uint16)",
              "tf.constant([1.5], tf.complex64)", "tf.constant(1.5, tf.complex64)", "tf.constant(3, tf.complex128)", "tf.constant(True, tf.float16)",
              "tf.constant([1, 2], tf.float16)", "tf.constant(70000, tf.float16)", "tf.constant(0.1, tf.bfloat16)", "tf.constant(1e-8, tf.float16)",
              "tf.constant(2.0**-24, tf.float16).numpy()", "tf.constant(1/3, tf.float16).numpy()", "type(tf.constant(1.0, tf.bfloat16).numpy())",
              "tf.constant(np.array([1+1j], np.complex64))", "tf.constant(np.array([1.5], np.float32), tf.float16)", "tf.constant(np.float16(2.5))",
              "tf.constant(np.array([1, 2], np.uint16))", "tf.constant(np.array([1, 2], np.uint32))", "tf.constant(np.array([1, 2], np.uint64))",
              "tf.constant(np.array([1.5, -2], ml_dtypes.bfloat16))", "tf.constant(np.array([[1.5, -2]], np.float16))",
              "tf.convert_to_tensor(1+2j, tf.complex64)", "tf.convert_to_tensor([1.5, 2], tf.bfloat16)",
              "tf.constant([[1, 2], [3, 4]], tf.uint16)", "tf.constant(np.array(1.0, dtype=np.complex64)).numpy()",
              "tf.constant([1.5, 2.5], tf.float16).numpy()", "tf.constant([1.5, 2.5], tf.bfloat16).numpy()", "tf.constant([1.5, 2.5], tf.bfloat16).numpy().dtype",
              "str(tf.constant([[1+2j]], tf.complex64))", "str(tf.constant([1.5, 2.1], tf.float16))", "str(tf.constant([1.5, 2.1], tf.bfloat16))", "str(tf.constant([7], tf.uint64))",
              "tf.zeros([2], tf.complex64)", "tf.ones([2], tf.bfloat16)", "tf.zeros([2], tf.uint32)", "tf.ones([2], tf.uint64)", "tf.ones([2], tf.float16)",
              "tf.fill([2], tf.constant(1.5, tf.float16))", "tf.zeros_like(tf.constant([1+1j]))", "tf.ones_like(tf.constant([3], tf.uint16))",
              "tf.Variable(1+2j)", "tf.Variable([1.5], dtype=tf.float16)", "tf.Variable([4], dtype=tf.uint32)",
              "tf.constant([1+2j], tf.float32)", "tf.constant(1+2j, tf.float64)", "tf.constant(1.5, tf.uint16)", "tf.constant([1.5, 1j])",
    "tf.constant('a', tf.complex64)",
              "tf.constant([1, 2], tf.uint32).dtype", "tf.constant([1.5], tf.float16).dtype.is_floating",
              "tf.reshape(tf.constant([1+2j, 3, 4, 5j]), [2, 2])", "tf.transpose(tf.constant([[1, 2], [3, 4]], tf.float16))",
              "tf.concat([tf.constant([1+2j]), tf.constant([3j])], 0)", "tf.stack([tf.constant([1], tf.uint64), tf.constant([2], tf.uint64)])",
              "tf.gather(tf.constant([1.5, 2.5, 3.5], tf.bfloat16), [2, 0])", "tf.constant([1+2j, 3, 4, 5j])[1:3]", "tf.tile(tf.constant([1, 2], tf.uint32), [2])",
              "tf.reverse(tf.constant([1.5, 2.5], tf.float16), [0])", "tf.pad(tf.constant([1+1j]), [[1, 1]])", "tf.expand_dims(tf.constant([1], tf.uint16), 0)",
              "tf.where(tf.constant([True, False]), tf.constant([1+1j, 2]), tf.constant([3j, 4]))", "tf.identity(tf.constant([1.5], tf.bfloat16))",
              "tf.broadcast_to(tf.constant([1.5], tf.float16), [2, 2])", "tf.one_hot([0, 1], 2, dtype=tf.float16)", "tf.one_hot([0, 2], 3, dtype=tf.complex64)",
              "tf.squeeze(tf.constant([[1+0j]]))", "tf.shape(tf.constant([[1, 2]], tf.uint64))", "tf.size(tf.constant([1.5], tf.bfloat16))",
              ]
    return exprs, ("float16, bfloat16, complex64/128 and uint16/32/64: dtype objects, conversion, printing and dtype-generic array ops.")


def _cast_table():
    vals = "[300.7, -1.2, 65.5, -7.9, 0.0, 1e4]"
    exprs = []
    for src in ["tf.float32", "tf.float64", "tf.float16", "tf.bfloat16"]:
        for dst in ["tf.int8", "tf.int16", "tf.int32", "tf.int64", "tf.uint8", "tf.uint16", "tf.uint32", "tf.uint64", "tf.bool", "tf.float16", "tf.bfloat16", "tf.complex64", "tf.complex128", "tf.float32", "tf.float64"]:
            if src != dst:
                exprs.append("tf.cast(tf.cast(tf.constant(%s, tf.float64), %s), %s)" % (vals, src, dst))
    exprs += [
     "tf.cast([300.7, -1.2], tf.uint8)", "tf.cast(tf.constant([1 + 2**-11 + 2**-40, 1 + 2**-8 + 2**-40, 65519.99, 65520.0], tf.float64), tf.float16)",
     "tf.cast(tf.constant([1 + 2**-11 + 2**-40, 1 + 2**-8 + 2**-40, 65519.99, 65520.0], tf.float64), tf.bfloat16)",
     "tf.cast(tf.constant([2**24+1, 2**53+1, -7, 2**62+2**38], tf.int64), tf.float16)", "tf.cast(tf.constant([2**24+1, 2**53+1, -7, 2**62+2**38], tf.int64), tf.bfloat16)",
     "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.float32)", "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.int32)",
     "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.uint8)", "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.bool)",
     "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.float16)", "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.bfloat16)",
     "tf.cast(tf.constant([1.7+2j, -3.5-1j, 0j, 1j, 300.5+4j], tf.complex64), tf.complex128)", "tf.cast(tf.constant([1.7+2j, 1e300j]), tf.complex64)",
     "tf.cast(tf.constant([True, False]), tf.float16)", "tf.cast(tf.constant([True, False]), tf.bfloat16)", "tf.cast(tf.constant([True, False]), tf.complex64)", "tf.cast(tf.constant([True, False]), tf.uint64)",
     "tf.cast(tf.constant([2**64-1, 2**63], tf.uint64), tf.float32)", "tf.cast(tf.constant([2**64-1, 2**63], tf.uint64), tf.float64)", "tf.cast(tf.constant([2**64-1, 2**63], tf.uint64), tf.int64)",
     "tf.cast(tf.constant([2**64-1, 2**63], tf.uint64), tf.int32)", "tf.cast(tf.constant([2**64-1, 2**63], tf.uint64), tf.float16)", "tf.cast(tf.constant([2**64-1, 2**63], tf.uint64), tf.complex64)",
     "tf.cast(tf.constant([-1, 70000, 5], tf.int32), tf.uint16)", "tf.cast(tf.constant([-1, 5], tf.int64), tf.uint32)", "tf.cast(tf.constant([-1, 5], tf.int8), tf.uint64)",
     "tf.cast(tf.constant([65535, 7], tf.uint16), tf.int16)", "tf.cast(tf.constant([4294967295, 7], tf.uint32), tf.int32)", "tf.cast(tf.constant([4294967295, 7], tf.uint32), tf.float32)",
     "tf.cast(tf.constant([1.5, -2.0]), tf.complex64)", "tf.cast(tf.constant([1.5, -2.0], tf.float16), tf.complex128)", "tf.cast(tf.constant([0.1], tf.float16), tf.bfloat16)",
     "tf.cast(tf.constant([float('nan'), float('inf')], tf.float16), tf.float32)", "tf.cast(tf.constant([float('nan'), float('inf'), -float('inf')], tf.float32), tf.bfloat16)",
     "tf.cast(tf.constant([1e-8, 6e-8, 3e-5]), tf.float16)", "tf.cast(tf.constant([1e-40, 1e-39]), tf.bfloat16)",
     "tf.cast(tf.constant(['1']), tf.float16)", "tf.cast(tf.constant(['1']), tf.complex64)", "tf.cast(tf.constant([1j]), tf.string)",
     "tf.saturate_cast(tf.constant([300.7, -1.2, 1e10]), tf.uint8)", "tf.saturate_cast(tf.constant([300.7, -1.2, 1e10]), tf.float16)",
     "tf.saturate_cast(tf.constant([1e30, -1e30, 3.0]), tf.bfloat16)", "tf.saturate_cast(tf.constant([-5, 70000], tf.int32), tf.uint16)",
     "tf.saturate_cast(tf.constant([1e10, -1.0], tf.float64), tf.uint32)", "tf.saturate_cast(tf.constant([1.5+2j]), tf.complex64)",
     "tf.saturate_cast(tf.constant([1e300+1e300j]), tf.complex64)",
     "tf.saturate_cast(tf.constant([1.5, -3.0]), tf.complex64)", "tf.saturate_cast(tf.constant([1+2j, 300+1j]), tf.uint8)",
     "tf.saturate_cast(tf.constant([70000.0, -70000.0], tf.float32), tf.float16)", "tf.saturate_cast(tf.constant([5, 300], tf.uint16), tf.uint8)",
     "tf.dtypes.cast(tf.constant([1.5]), tf.float16)",
    ]
    return exprs, ("tf.cast between the new dtypes and every other, and tf.saturate_cast. Out-of-range float -> integer casts wrap as TF's compiled casts do on x86.")


def _ops_table():
    H = "tf.constant([0.1, 1.5, -2.25, 3.3, 65000.0], {d})"
    C = "tf.constant([1+2j, -0.5+0.25j, 3-4j], {d})"
    U = "tf.constant([0, 7, 65535, 3], {d})"
    exprs = []
    for d in ["tf.float16", "tf.bfloat16"]:
        h = H.format(d=d)
        h2 = "tf.constant([0.3, -1.5, 2.0, 0.7, 2.0], %s)" % d
        exprs += ["%s + %s" % (h, h2), "%s - %s" % (h, h2), "%s * %s" % (h, h2), "%s / %s" % (h, h2), "%s // %s" % (h, h2), "%s %% %s" % (h, h2),
                  "%s ** tf.constant([2.0, 0.5, 3.0, -1.0, 0.1], %s)" % (h2, d), "tf.maximum(%s, %s)" % (h, h2), "tf.minimum(%s, %s)" % (h, h2),
                  "%s < %s" % (h, h2), "%s >= %s" % (h, h2), "tf.equal(%s, %s)" % (h, h2), "tf.not_equal(%s, %s)" % (h, h2), "%s * 3" % h, "%s + 0.1" % h, "-%s" % h,
                  "tf.abs(%s)" % h, "tf.sign(%s)" % h, "tf.square(%s)" % h, "tf.sqrt(tf.abs(%s))" % h,
                  "tf.exp(%s)" % h2, "tf.math.expm1(%s)" % h2, "tf.math.log(tf.abs(%s))" % h, "tf.math.log1p(tf.abs(%s))" % h, "tf.math.reciprocal(%s)" % h,
                  "tf.tanh(%s)" % h2, "tf.nn.relu(%s)" % h, "tf.sin(%s)" % h2, "tf.cos(%s)" % h2, "tf.tan(%s)" % h2, "tf.atan(%s)" % h2,
                  "tf.math.sinh(%s)" % h2, "tf.math.asinh(%s)" % h2, "tf.floor(%s)" % h, "tf.math.ceil(%s)" % h, "tf.round(%s)" % h, "tf.math.erf(%s)" % h2,
                  "tf.math.is_nan(%s / %s)" % (h, h), "tf.math.is_inf(%s * 1000)" % h, "tf.math.is_finite(%s * 1000)" % h,
                  "tf.reduce_sum(%s)" % h, "tf.reduce_mean(%s)" % h, "tf.reduce_max(%s)" % h, "tf.reduce_min(%s)" % h, "tf.reduce_prod(%s)" % h2,
                  "tf.reduce_sum(tf.ones([10000], %s))" % d, "tf.reduce_sum(tf.ones([3, 3000], %s), 1)" % d, "tf.reduce_mean(tf.ones([10000], %s) * 3)" % d,
                  "tf.math.atan2(%s, %s)" % (h, h2),
                  "tf.math.divide_no_nan(%s, %s * 0)" % (h, h2), "tf.math.divide_no_nan(%s, %s)" % (h, h2),
                  "tf.math.multiply_no_nan(%s, %s)" % (h, h2),
                  "tf.reduce_sum(tf.reshape(%s, [5, 1]), 0)" % h, "tf.reduce_max(tf.constant([[1.5, float('nan')], [0.5, 2.0]], %s), 1)" % d,
                  "tf.matmul(tf.ones([1, 4096], %s), tf.ones([4096, 1], %s))" % (d, d)]
        if d == "tf.float16":  # bfloat16's products round by the CPU in TF: test_matmul_bfloat16.py
            exprs += ["tf.matmul(tf.reshape(%s[:4], [2, 2]), tf.reshape(%s[:4], [2, 2]))" % (h, h2),
                      "tf.matmul(tf.reshape(%s[:4], [2, 2]), tf.reshape(%s[:4], [2, 2]), transpose_a=True, transpose_b=True)" % (h, h2),
                      "tf.matmul(tf.cast(tf.reshape(tf.range(12.0) / 7, [2, 2, 3]), %s), tf.cast(tf.reshape(tf.range(6.0) / 3, [3, 2]), %s))" % (d, d)]
    for d in ["tf.complex64", "tf.complex128"]:
        c = C.format(d=d)
        c2 = "tf.constant([0.5-1j, 2+0j, 1j], %s)" % d
        exprs += ["%s + %s" % (c, c2), "%s - %s" % (c, c2), "%s * %s" % (c, c2), "%s / %s" % (c, c2), "%s ** %s" % (c, c2), "-%s" % c,
                  "tf.equal(%s, %s)" % (c, c2), "tf.not_equal(%s, %s)" % (c, c), "%s < %s" % (c, c2), "tf.maximum(%s, %s)" % (c, c2), "%s // %s" % (c, c2),
                  "tf.abs(%s)" % c, "tf.math.real(%s)" % c, "tf.math.imag(%s)" % c, "tf.math.angle(%s)" % c, "tf.math.conj(%s)" % c,
                  "tf.square(%s)" % c, "tf.sqrt(%s)" % c, "tf.exp(%s)" % c, "tf.math.log(%s)" % c, "tf.tanh(%s)" % c, "tf.sin(%s)" % c,
                  
                  "tf.reduce_sum(%s)" % c, "tf.reduce_mean(%s)" % c, "tf.reduce_prod(%s)" % c, "tf.reduce_max(%s)" % c,
                  "tf.matmul(tf.reshape(tf.concat([%s, %s[:1]], 0), [2, 2]), tf.reshape(tf.concat([%s, %s[:1]], 0), [2, 2]))" % (c, c, c2, c2),
                  "tf.matmul(tf.reshape(tf.concat([%s, %s[:1]], 0), [2, 2]), tf.reshape(tf.concat([%s, %s[:1]], 0), [2, 2]), adjoint_a=True)" % (c, c, c2, c2),
                  "tf.matmul(tf.reshape(tf.concat([%s, %s[:1]], 0), [1, 2, 2]), tf.reshape(tf.concat([%s, %s[:1]], 0), [2, 2]), adjoint_b=True)" % (c, c, c2, c2),
                  ]
    for d in ["tf.uint16", "tf.uint32", "tf.uint64"]:
        u = U.format(d=d)
        u2 = "tf.constant([5, 2, 3, 7], %s)" % d
        exprs += ["%s + %s" % (u, u2), "%s - %s" % (u, u2), "%s * %s" % (u, u2), "%s / %s" % (u, u2), "%s // %s" % (u, u2), "%s %% %s" % (u, u2),
                  "tf.maximum(%s, %s)" % (u, u2), "tf.minimum(%s, %s)" % (u, u2), "%s < %s" % (u, u2), "%s > %s" % (u, u2), "tf.equal(%s, %s)" % (u, u2),
                  "tf.bitwise.bitwise_and(%s, %s)" % (u, u2), "tf.bitwise.bitwise_or(%s, %s)" % (u, u2), "tf.bitwise.bitwise_xor(%s, %s)" % (u, u2), "tf.bitwise.invert(%s)" % u,
                  "tf.square(%s)" % u, "tf.nn.relu(%s)" % u, "-%s" % u, "tf.abs(%s)" % u, "%s ** %s" % (u, u2), "%s // (%s * 0)" % (u, u2),
                  "tf.reduce_sum(%s)" % u, "tf.reduce_mean(%s)" % u, "tf.reduce_max(%s)" % u, "tf.reduce_min(%s)" % u, "tf.reduce_prod(%s)" % u2,
                  "tf.matmul(tf.reshape(%s, [2, 2]), tf.reshape(%s, [2, 2]))" % (u, u2), "tf.exp(%s)" % u,
                  ]
    exprs += ["tf.reduce_mean(tf.constant([2**32-1, 5], tf.uint32))", "tf.reduce_mean(tf.constant([2**64-1, 5], tf.uint64))", "tf.reduce_sum(tf.constant([65535, 65535, 3], tf.uint16))",
              "tf.reduce_mean(tf.constant([65535, 65535, 3], tf.uint16))", "tf.constant([3], tf.uint32) - tf.constant([5], tf.uint32)",
              "tf.complex(1.0, 2.0)", "tf.complex(tf.constant([1.0, 2.0], tf.float64), tf.constant(3.0, tf.float64))", "tf.complex([1.0, 2.0], [[3.0], [4.0]])",
              "tf.complex(tf.constant([1.0, 2.0], tf.float64), 3.0)", "tf.complex(1, 2)", "tf.complex(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))",
              "tf.math.real(tf.constant([1.5]))", "tf.math.imag(tf.constant([1.5]))", "tf.math.angle(tf.constant([-1.5, 2.0]))", "tf.math.angle(tf.constant([-1.5, 2.0], tf.float16))",
              "tf.math.conj(tf.constant([1.5]))", "tf.math.conj(tf.constant([1]))", "tf.math.real(tf.constant(['a']))", "tf.math.conj(tf.constant(['a']))",
              "tf.math.real(tf.constant([1]))", "tf.math.imag(tf.constant([1]))", "tf.math.angle(tf.constant([1]))", "tf.dtypes.complex(1.0, 2.0)",
              "tf.abs(tf.constant([3e38+4e38j], tf.complex64))", "tf.math.angle(tf.constant([0j, -0.0+0j, -1-0j]))",
              ]
    return exprs, ("Element-wise math, comparisons, reductions and matmul on float16, bfloat16, complex and uint16/32/64, and the complex ops (tf.complex, real, imag, angle, conj, abs).")


if __name__ == "__main__":
    folder = sys.argv[1]
    for name, table in (("core", _core_table), ("cast", _cast_table), ("ops", _ops_table)):
        exprs, doc = table()
        record(exprs, os.path.join(folder, "test_dtypes_%s.py" % name), doc[0] if isinstance(doc, tuple) else doc)
