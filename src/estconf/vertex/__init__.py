"""Vertex AI: the ``TF_CONFIG`` and ``CLUSTER_SPEC`` each replica of a CustomJob is given.

Vertex AI writes no public code for it; what it sets is documented
(https://cloud.google.com/vertex-ai/docs/training/distributed-training and
https://cloud.google.com/ai-platform/training/docs/distributed-training-details):

- :class:`CustomJobSpec`: the worker pools of a CustomJob spec file (YAML or
  JSON, camelCase or snake_case, ``replicaCount`` a number or a string);
- :func:`tf_configs`: each replica's ``TF_CONFIG`` by replica name (``workerpool1-0``):
  ``chief``, ``worker`` and ``ps`` in the cluster, the evaluator never; with
  ``trial=N``, each task's ``"trial": "N"`` of a hyperparameter-tuning job;
- :func:`cluster_specs`: each replica's ``CLUSTER_SPEC``, the pools as ``workerpool0`` ... ``3``;
- :func:`check_profile`: what a reader (``--profile``) refuses in those, at the pool that causes it;
- :func:`is_reduction_server_image`: whether a pool 2 runs Vertex AI's
  Reduction Server (no TensorFlow: no ``TF_CONFIG`` predicted for it, and
  left out of the others' cluster, since Vertex AI does not document it).

Example:
    >>> from estconf import vertex
    >>> spec = {"workerPoolSpecs": [{"replicaCount": 1}, {"replicaCount": 2}]}
    >>> configs = vertex.tf_configs(spec, job_id="ab")
    >>> list(configs)
    ['workerpool0-0', 'workerpool1-0', 'workerpool1-1']
    >>> configs["workerpool1-1"]["cluster"]["worker"]
    ['cmle-training-workerpool1-ab-0:2222', 'cmle-training-workerpool1-ab-1:2222']
"""

from __future__ import annotations

from estconf.launchers.vertex.replicas import (
    DEFAULT_JOB_ID,
    MAX_TRIAL,
    check_profile,
    cluster_specs,
    replica_names,
    tf_configs,
)
from estconf.launchers.vertex.spec import (
    CustomJobSpec,
    WorkerPoolSpec,
    is_reduction_server_image,
)

__all__ = [
    "DEFAULT_JOB_ID",
    "MAX_TRIAL",
    "CustomJobSpec",
    "WorkerPoolSpec",
    "check_profile",
    "cluster_specs",
    "is_reduction_server_image",
    "replica_names",
    "tf_configs",
]
