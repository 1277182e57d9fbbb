"""Launchers: what each one writes into its tasks' TF_CONFIG, and what it refuses.

One subpackage per launcher, each with its inputs, its prediction of every
task's TF_CONFIG and its checks: :mod:`~estconf.launchers.cluster` (a cluster
written by hand), :mod:`~estconf.launchers.kubeflow`,
:mod:`~estconf.launchers.jobset` (JobSet and Kubeflow Trainer v2),
:mod:`~estconf.launchers.slurm`, :mod:`~estconf.launchers.sagemaker`,
:mod:`~estconf.launchers.vertex` and :mod:`~estconf.launchers.volcano`.
:data:`LAUNCHERS` lists what ``estconf tf-config`` offers, in the order its
help lists them; each is a
:class:`~estconf.launchers.base.Launcher`, imported only when it is used.

The kinds of config file a launcher reads (Vertex AI's CustomJob spec,
which ``estconf validate`` checks) are declared in
:data:`estconf._launchers.DOCUMENT_KINDS`, below the documents layer that
tells a file's kind, so that it knows them without importing a launcher.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from estconf.launchers.base import Launcher

__all__ = ["LAUNCHERS", "Entry", "launcher", "named"]


class Entry(NamedTuple):
    """One launcher of ``estconf tf-config``: its name, its line in help, where it is."""

    name: str
    """The word after ``tf-config``: ``slurm``."""
    summary: str
    """What it gives, in one line."""
    path: str
    """The ``module:attribute`` of its :class:`~estconf.launchers.base.Launcher`."""
    example: str
    """A command line of it, for its help."""


LAUNCHERS: Final = (
    Entry(
        "cluster",
        "a cluster file: the TF_CONFIG of each of its tasks",
        "estconf.launchers.cluster.command:CLUSTER",
        "estconf tf-config cluster cluster.yaml --task worker:1 --format shell",
    ),
    Entry(
        "job",
        "replica counts: the TF_CONFIGs Kubeflow's training operator writes for a TFJob",
        "estconf.launchers.kubeflow.command:JOB",
        "estconf tf-config job mnist --namespace ml --chief 1 --worker 4 --ps 2",
    ),
    Entry(
        "tfjob",
        "a TFJob manifest: every TF_CONFIG the training operator would write",
        "estconf.launchers.kubeflow.command:TFJOB",
        "estconf tf-config tfjob tfjob.yaml | estconf check-cluster --allow-empty -",
    ),
    Entry(
        "jobset",
        "a JobSet manifest: the TF_CONFIG each pod reads, its env expanded as Kubernetes does",
        "estconf.launchers.jobset.command:JOBSET",
        "estconf tf-config jobset jobset.yaml --format shell",
    ),
    Entry(
        "trainjob",
        "a TrainJob and its runtime (Kubeflow Trainer v2): the TF_CONFIG each pod reads",
        "estconf.launchers.jobset.command:TRAINJOB",
        "estconf tf-config trainjob trainjob.yaml runtime.yaml | estconf check-cluster -",
    ),
    Entry(
        "slurm",
        "a SLURM step: what SlurmClusterResolver gives each rank, or a TF_CONFIG per rank",
        "estconf.launchers.slurm.command:SLURM",
        "estconf tf-config slurm --nodelist 'node[1-4]' --tasks-per-node 2 --write",
    ),
    Entry(
        "sagemaker",
        "a SageMaker job: the TF_CONFIG its TensorFlow toolkit gives each host",
        "estconf.launchers.sagemaker.command:SAGEMAKER",
        "estconf tf-config sagemaker --instance-count 4 --distribution multi_worker_mirrored",
    ),
    Entry(
        "vertex",
        "a Vertex AI CustomJob spec: each replica's TF_CONFIG or CLUSTER_SPEC",
        "estconf.launchers.vertex.command:VERTEX",
        "estconf tf-config vertex custom_job.yaml --profile mwms",
    ),
    Entry(
        "volcano",
        "a Volcano Job: the TF_CONFIG its tensorflow plugin writes into each pod",
        "estconf.launchers.volcano.command:VOLCANO",
        "estconf tf-config volcano job.yaml --profile server --format pods",
    ),
)
"""The launchers of ``estconf tf-config``, in the order its help lists them."""


def named(name: str) -> Entry:
    """The entry of the launcher ``name``.

    Raises:
        KeyError: no launcher is called ``name``.
    """
    for entry in LAUNCHERS:
        if entry.name == name:
            return entry
    raise KeyError(name)


def launcher(entry: Entry) -> Launcher:
    """The launcher of ``entry``, imported now."""
    module, _, attribute = entry.path.partition(":")
    found: Launcher = getattr(importlib.import_module(module), attribute)
    return found
