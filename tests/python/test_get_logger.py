"""tf.get_logger: graphfn's warnings go through it, so its level silences them as TF's does."""

import logging

import graphfn as tf


def test_get_logger_is_a_logger_that_silences_graphfn_warnings(caplog):
    logger = tf.get_logger()
    assert isinstance(logger, logging.Logger)
    assert tf.get_logger() is logger
    x = tf.constant(1)  # an int target: TF warns "The dtype of the target tensor must be floating"
    with caplog.at_level(logging.WARNING):
        with tf.GradientTape() as tape:
            tape.watch(x)
        assert any("must be floating" in r.getMessage() for r in caplog.records)
    caplog.clear()
    old = logger.level
    logger.setLevel("ERROR")
    try:
        with caplog.at_level(logging.WARNING, logger="root"):
            with tf.GradientTape() as tape:
                tape.watch(tf.constant(2))
        assert not any("must be floating" in r.getMessage() for r in caplog.records)
    finally:
        logger.setLevel(old)
