"""TPU configuration: ``estconf.tpu.TPUConfig``, ``estconf.tpu.RunConfig`` and their values.

:class:`TPUConfig` holds the arguments of ``tf.estimator.tpu.TPUConfig``;
:class:`RunConfig` is ``tf.estimator.tpu.RunConfig``, the estimator's
configuration with TPU settings; :class:`InputPipelineConfig` names how
``TPUEstimator`` calls ``input_fn``.

Example:
    >>> from estconf.tpu import RunConfig
    >>> config = RunConfig(
    ...     tf_config={"service": {"tpu_worker_job_name": "tpu_worker"}},
    ...     tpu_config={"iterations_per_loop": "1h"},
    ... )
    >>> config.tpu_config.tpu_job_name, config.tpu_config.iterations_per_loop_counter.value
    ('tpu_worker', 3600)
"""

from estconf.tpu._values import InputPipelineConfig, IterationsPerLoopCounter
from estconf.tpu.config import TPUConfig
from estconf.tpu.run_config import RunConfig

__all__ = ["InputPipelineConfig", "IterationsPerLoopCounter", "RunConfig", "TPUConfig"]
