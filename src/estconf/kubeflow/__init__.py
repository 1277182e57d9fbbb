"""Kubeflow TFJob manifests: what the training operator writes into each pod, and what fails.

Read a manifest with :meth:`TFJob.from_yaml` (or :func:`read_tfjobs` for a
stream), see each pod's ``TF_CONFIG`` with :func:`predict`, and find what the
operator refuses or what would fail once the pods start with :func:`check`.
"""

from __future__ import annotations

from estconf.finding import Finding, Severity
from estconf.finding import Loc as Location
from estconf.launchers.kubeflow.checks import ClusterCheck, NodeCheck, check, run_config_check
from estconf.launchers.kubeflow.manifest import ReplicaSpec, TFJob, read_tfjobs
from estconf.launchers.kubeflow.operator import (
    Operator,
    PredictedPod,
    Prediction,
    Release,
    predict,
    predict_replicas,
    tfjob_for_replicas,
)

__all__ = [
    "ClusterCheck",
    "Finding",
    "Location",
    "NodeCheck",
    "Operator",
    "PredictedPod",
    "Prediction",
    "Release",
    "ReplicaSpec",
    "Severity",
    "TFJob",
    "check",
    "predict",
    "predict_replicas",
    "read_tfjobs",
    "run_config_check",
    "tfjob_for_replicas",
]
