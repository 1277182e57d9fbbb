"""The estimator's reading of ``TF_CONFIG`` and of its arguments, shared by its models.

``tf.estimator.RunConfig`` reads ``TF_CONFIG`` in local, chief or master mode
and derives its distributed properties from it; ``tpu.RunConfig`` and
``tf.contrib.learn``'s ``RunConfig`` read it as it does.  The rules are here,
once, for :mod:`estconf.run_config`, :mod:`estconf.tpu`, :mod:`estconf.contrib`,
the profiles and the file checker:

- :mod:`estconf.estimator.reading`: the rules of each mode and the settings
  they derive (``derive_distributed``);
- :mod:`estconf.estimator.lenient`: an invalid ``TF_CONFIG`` read as TensorFlow
  reads it, for the estimator's complaints about it;
- :mod:`estconf.estimator.hints`: the fix hints the estimator's errors end with;
- :mod:`estconf.estimator.strategies`: the Python-only distribution arguments
  and how they change the reading;
- :mod:`estconf.estimator.rules`: the rules ``tf.contrib.learn`` shares,
  ``replace`` and ``model_dir``;
- :mod:`estconf.estimator.session_config_field`: the ``session_config`` field,
  its ``ConfigProto`` models built on first use, and the estimator's defaults.

The package sits below the models that use it; :mod:`estconf.run_config` is
its public face.
"""

__all__: list[str] = []
