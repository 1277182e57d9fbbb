"""Kubeflow TFJob manifests: what the training operator writes into each pod, and what fails.

Read a manifest with :meth:`TFJob.from_yaml` (or :func:`read_tfjobs` for a
stream) and see each pod's ``TF_CONFIG`` with :func:`predict`.
"""

from __future__ import annotations

from estconf.kubeflow.manifest import ReplicaSpec, TFJob, read_tfjobs
from estconf.kubeflow.operator import (
    Operator,
    PredictedPod,
    Prediction,
    Release,
    predict,
    predict_replicas,
    tfjob_for_replicas,
)

__all__ = [
    "Operator",
    "PredictedPod",
    "Prediction",
    "Release",
    "ReplicaSpec",
    "TFJob",
    "predict",
    "predict_replicas",
    "read_tfjobs",
    "tfjob_for_replicas",
]
