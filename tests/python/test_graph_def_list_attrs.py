"""A node's list input decides attrs TF records in the GraphDef: IdentityN's `T` (list(type)).
Expected text recorded from TensorFlow 2.21."""

import graphfn as tf

IDENTITY_N_NODE = '''node {
  name: "IdentityN"
  op: "IdentityN"
  input: "x"
  input: "y"
  attr {
    key: "T"
    value {
      list {
        type: DT_FLOAT
        type: DT_INT32
      }
    }
  }
}
'''


def test_identity_n_records_its_input_dtypes():
    @tf.function
    def f(x, y):
        return tf.identity_n([x, y])

    graph_def = f.get_concrete_function(tf.TensorSpec([], tf.float32), tf.TensorSpec([2], tf.int32)).graph.as_graph_def()
    text = str(graph_def)
    start = text.index('node {\n  name: "IdentityN"')
    assert text[start:start + len(IDENTITY_N_NODE)] == IDENTITY_N_NODE
