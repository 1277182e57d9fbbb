"""Kubeflow's training operator: TFJobs, the TF_CONFIG it writes into each pod, what fails.

The public names are :mod:`estconf.kubeflow`'s.
"""

from __future__ import annotations

from estconf.launchers.kubeflow.checks import ClusterCheck, NodeCheck, check, run_config_check
from estconf.launchers.kubeflow.finding import Finding, Location, Severity
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
