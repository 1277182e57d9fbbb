"""Profiles: which TensorFlow reader a ``TF_CONFIG`` is written for, and whole-cluster checks.

The same ``TF_CONFIG`` means different things to different readers: a cluster
of workers alone is refused by the Estimator and is the usual case for
``MultiWorkerMirroredStrategy``.  A :class:`Profile` names the reader, and
:mod:`~estconf.profiles.registry` holds what each one is (its TensorFlow
class, its model, its check of a node); :func:`check_profile` checks one
node's ``TF_CONFIG`` under it, and also every task of its cluster, since
every node of a job receives the same cluster (a ``ps`` job in a ``mwms``
cluster is valid on a worker, but its own tasks could not start).
:func:`explain` shows what each reader makes of a ``TF_CONFIG``.

The checks (:mod:`~estconf.profiles.check`) are imported on first use, so
that naming the profiles imports no model.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from estconf.profiles.registry import READERS, Profile

if TYPE_CHECKING:
    from estconf.profiles.check import (
        ESTIMATOR_VALUES,
        ReaderView,
        check_cluster,
        check_profile,
        check_tf_config_file,
        explain,
        other_readers,
    )

__all__ = [
    "ESTIMATOR_VALUES",
    "READERS",
    "Profile",
    "ReaderView",
    "check_cluster",
    "check_profile",
    "check_tf_config_file",
    "explain",
    "other_readers",
]

_CHECKS = frozenset(
    {
        "ESTIMATOR_VALUES",
        "ReaderView",
        "check_cluster",
        "check_profile",
        "check_tf_config_file",
        "explain",
        "other_readers",
    }
)
"""The public names of :mod:`estconf.profiles.check`, imported on first use."""


def __getattr__(name: str) -> Any:
    if name in _CHECKS:
        return getattr(importlib.import_module("estconf.profiles.check"), name)
    raise AttributeError(f"module 'estconf.profiles' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
