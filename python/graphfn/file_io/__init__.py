"""Files: tf.io.gfile (gfile.py), TFRecord files (tf_record.py) and the tf.train.Example
protobuf messages (example_pb.py, imported on first use: train_names.py). The ops that read and
parse inside graphs (tf.io.read_file, decode_csv, parse_example, ...) are in graphfn/ops."""
