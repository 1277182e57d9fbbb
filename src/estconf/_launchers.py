"""The kinds of config file each launcher reads, declared where lower layers read them.

``estconf validate`` checks a launcher's spec file as it checks a TF_CONFIG
file, so the documents layer (:mod:`estconf.io.kinds`) must know the kind
without importing the launcher.  Each launcher declares here the kinds it
reads (:class:`DocumentKind`): its models and checks are named as
``"module:name"`` strings, imported only when a file of the kind is read.
The Kubernetes objects a launcher reads (a JobSet, a TrainJob) are declared
the same way (:class:`ManifestKind`), told by their ``apiVersion`` and
``kind``.  This module imports nothing of estconf.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["DOCUMENT_KINDS", "MANIFEST_KINDS", "DocumentKind", "ManifestKind"]


class DocumentKind(NamedTuple):
    """A kind of config file a launcher reads, as :class:`estconf.io.kinds.Kind` declares it."""

    launcher: str
    """The subpackage of :mod:`estconf.launchers` that reads it: ``vertex``."""
    name: str
    """The kind's name, as ``--kind`` takes it: ``vertex_custom_job``."""
    title: str
    """What a file of it is called in messages."""
    model_path: str
    """The ``module:Name`` of its model."""
    markers: frozenset[str]
    """The top-level keys that mark a file of it."""
    description: str
    """What a file of it holds, in its JSON Schema."""
    profile_check: str | None = None
    """The ``module:function`` that checks a file of it for a reader (``--profile``)."""


DOCUMENT_KINDS: Final = (
    DocumentKind(
        launcher="vertex",
        name="vertex_custom_job",
        title="Vertex AI CustomJob",
        model_path="estconf.launchers.vertex.spec:CustomJobSpec",
        profile_check="estconf.launchers.vertex.replicas:check_profile",
        markers=frozenset({"workerPoolSpecs", "worker_pool_specs", "jobSpec", "job_spec"}),
        description="A Vertex AI CustomJob spec (gcloud ai custom-jobs create --config), or a "
        "whole CustomJob: its worker pools, from which each replica's TF_CONFIG is written.",
    ),
)
"""The kinds the launchers read, in the order :func:`estconf.io.kinds.detect` tries them,
after the kinds of TensorFlow's own configs."""


class ManifestKind(NamedTuple):
    """A Kubernetes object a launcher reads, told by its ``apiVersion`` group and ``kind``."""

    launcher: str
    """The subpackage of :mod:`estconf.launchers` that reads it: ``jobset``."""
    api_group: str
    """The group of its ``apiVersion``: ``jobset.x-k8s.io``."""
    kind: str
    """Its ``kind``: ``JobSet``."""
    versions: tuple[str, ...]
    """The versions of the group the launcher reads: ``("v1alpha2",)``."""


MANIFEST_KINDS: Final = (
    ManifestKind("jobset", "jobset.x-k8s.io", "JobSet", ("v1alpha2",)),
    ManifestKind("jobset", "trainer.kubeflow.org", "TrainJob", ("v1alpha1",)),
    ManifestKind("jobset", "trainer.kubeflow.org", "TrainingRuntime", ("v1alpha1",)),
    ManifestKind("jobset", "trainer.kubeflow.org", "ClusterTrainingRuntime", ("v1alpha1",)),
)
"""The Kubernetes objects the launchers read (JobSet, Kubeflow Trainer's TrainJob and its
runtimes), which :func:`estconf.io.kinds.launcher_manifest` tells."""
