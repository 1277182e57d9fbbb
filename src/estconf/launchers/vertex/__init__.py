"""Vertex AI: a CustomJob spec's worker pools, and each replica's TF_CONFIG and CLUSTER_SPEC.

The public names are :mod:`estconf.vertex`'s.
"""

from __future__ import annotations

from estconf.launchers.vertex.replicas import (
    DEFAULT_JOB_ID,
    check_profile,
    cluster_specs,
    replica_names,
    tf_configs,
)
from estconf.launchers.vertex.spec import CustomJobSpec, WorkerPoolSpec

__all__ = [
    "DEFAULT_JOB_ID",
    "CustomJobSpec",
    "WorkerPoolSpec",
    "check_profile",
    "cluster_specs",
    "replica_names",
    "tf_configs",
]
