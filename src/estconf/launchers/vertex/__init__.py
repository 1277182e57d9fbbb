"""Vertex AI: a CustomJob spec's worker pools, and each replica's TF_CONFIG and CLUSTER_SPEC.

The public names are :mod:`estconf.vertex`'s.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_SOURCES = {
    "DEFAULT_JOB_ID": "estconf.launchers.vertex.replicas",
    "CustomJobSpec": "estconf.launchers.vertex.spec",
    "WorkerPoolSpec": "estconf.launchers.vertex.spec",
    "check_profile": "estconf.launchers.vertex.replicas",
    "cluster_specs": "estconf.launchers.vertex.replicas",
    "replica_names": "estconf.launchers.vertex.replicas",
    "tf_configs": "estconf.launchers.vertex.replicas",
}
"""The module of each public name, imported on first use: reading one module of the
package (``estconf validate`` asks whether a file is a TFJob) imports no other."""


def __getattr__(name: str) -> Any:
    module = _SOURCES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
