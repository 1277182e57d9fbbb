"""SageMaker: the ``TF_CONFIG`` its TensorFlow toolkit sets on each host, known before launch.

SageMaker's TensorFlow containers start training with the toolkit of
``sagemaker-tensorflow-training`` 20.5.0 on ``sagemaker-training``'s
``Environment``: from ``resourceconfig.json`` and the ``sagemaker_*``
hyperparameters it writes a ``TF_CONFIG`` for the training process of each
host and, in parameter-server mode, starts a ps server in its own process.
This package gives exactly the same, without the toolkit:

- :func:`tf_config`: the training process's ``TF_CONFIG`` on one host (or None);
- :func:`ps_server`: the ``(cluster, job_name, task_index)`` of its ps server (or None);
- :func:`resource_configs`: each host's ``resourceconfig.json`` for a job of
  ``instance_count`` hosts or of instance groups, to check a job before launching it;
- :func:`check_hyperparameters`: a flag written as text (``"False"``), which
  turns its mode on, as a warning.

What users trip on: parameter-server mode writes a ``master`` job (never
``chief``), which ``tf.distribute``'s strategies refuse; a one-host job gets
no ``TF_CONFIG`` at all; the ps server's index comes from ``hosts`` and its
cluster from the distribution hosts, which can disagree.

Example:
    >>> from estconf import sagemaker
    >>> configs = sagemaker.resource_configs(2)
    >>> mwms = {"sagemaker_multi_worker_mirrored_strategy_enabled": "true"}
    >>> tasks = [sagemaker.tf_config(c, mwms)["task"] for c in configs]
    >>> tasks
    [{'index': 0, 'type': 'worker'}, {'index': 1, 'type': 'worker'}]
"""

from __future__ import annotations

from estconf.launchers.sagemaker.inputs import (
    Hyperparameters,
    InstanceGroup,
    InstanceGroupSpec,
    ResourceConfig,
)
from estconf.launchers.sagemaker.toolkit import (
    PSServer,
    check_hyperparameters,
    ps_server,
    resource_configs,
    tf_config,
)

__all__ = [
    "Hyperparameters",
    "InstanceGroup",
    "InstanceGroupSpec",
    "PSServer",
    "ResourceConfig",
    "check_hyperparameters",
    "ps_server",
    "resource_configs",
    "tf_config",
]
