"""Fix hints the estimator's errors end with, for the TF_CONFIG mistakes seen most.

TensorFlow's sentence always comes first and whole; a hint adds, after
``Fix:``, what to change in the TF_CONFIG.
"""

from __future__ import annotations

from estconf.cluster import ClusterSpec
from estconf.tf_config import TaskType, TFConfig

__all__ = ["missing_chief_hint", "sparse_cluster_hint"]


def sparse_cluster_hint(tf_config: TFConfig) -> str:
    """A hint for jobs written under ``sparseCluster``, a key TensorFlow never reads."""
    extra = tf_config.model_extra or {}
    if isinstance(extra.get("sparseCluster"), dict):
        return (
            ' Fix: TensorFlow does not read "sparseCluster"; put the jobs under "cluster", '
            'where a job may map task indices to addresses: {"worker": {"1": "host:port"}}.'
        )
    return ""


def missing_chief_hint(cluster: ClusterSpec) -> str:
    """How to fix a cluster without a chief: give it one.

    Which other reader takes the cluster as it is (``--profile mwms`` for
    workers alone, ``ps`` or ``server`` for ``ps`` and ``worker`` jobs) is
    found by running those readers (:func:`estconf.profiles.other_readers`).
    """
    jobs = sorted(cluster.jobs, key=lambda job: job != TaskType.WORKER)
    tasks = [f"{job}:{index}" for job in jobs for index in cluster.task_indices(job)[:1]]
    if not tasks:
        return ""
    return f' Fix: move task {tasks[0]} into a job "chief" of its own.'
