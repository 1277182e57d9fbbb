"""Kubeflow's training operator: TFJobs, the TF_CONFIG it writes into each pod, what fails.

The public names are :mod:`estconf.kubeflow`'s.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_SOURCES = {
    "ClusterCheck": "estconf.launchers.kubeflow.checks",
    "Finding": "estconf.finding",
    "Location": "estconf.finding",
    "NodeCheck": "estconf.launchers.kubeflow.checks",
    "Operator": "estconf.launchers.kubeflow.operator",
    "PredictedPod": "estconf.launchers.kubeflow.operator",
    "Prediction": "estconf.launchers.kubeflow.operator",
    "Release": "estconf.launchers.kubeflow.operator",
    "ReplicaSpec": "estconf.launchers.kubeflow.manifest",
    "Severity": "estconf.finding",
    "TFJob": "estconf.launchers.kubeflow.manifest",
    "check": "estconf.launchers.kubeflow.checks",
    "predict": "estconf.launchers.kubeflow.operator",
    "predict_replicas": "estconf.launchers.kubeflow.operator",
    "read_tfjobs": "estconf.launchers.kubeflow.manifest",
    "run_config_check": "estconf.launchers.kubeflow.checks",
    "tfjob_for_replicas": "estconf.launchers.kubeflow.operator",
}
"""The module of each public name, imported on first use: reading one module of the
package (``estconf validate`` asks whether a file is a TFJob) imports no other."""


_RENAMED = {"Location": "Loc"}
"""Public names that their module names otherwise: ``Location`` is ``estconf.finding.Loc``."""


def __getattr__(name: str) -> Any:
    module = _SOURCES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), _RENAMED.get(name, name))


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
