"""tf.summary: TensorBoard event files (docs/summary.md). names.py publishes the API lazily;
the other modules load on first use."""
