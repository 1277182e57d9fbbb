"""A JobSet manifest (``jobset.x-k8s.io/v1alpha2``), as far as its pods' environment goes.

The model holds what decides each pod's name, labels and environment: the
JobSet's name and namespace, its replicated jobs (``name``, ``replicas``,
the Job template's ``parallelism``, ``completions`` and ``completionMode``,
and its pod template, of :mod:`estconf.launchers.kubernetes`) and its
``network``.  Every other key (success and failure policies, resources,
``status``) is kept as given and not read.

The defaults are read here, where the fields are: those of JobSet's API
(``replicas`` 1, ``groupName`` ``default``), of its webhook
(``completionMode: Indexed``, ``network.enableDNSHostnames: true``), of its
controller (the subdomain is the JobSet's name) and of Kubernetes' Job API
(``parallelism`` 1; with neither ``completions`` nor ``parallelism``, one
completion).
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field, StrictBool, StrictStr

from estconf.launchers.kubernetes import Count, Object, ObjectMeta, PodTemplateSpec

__all__ = [
    "API_VERSION",
    "INDEXED",
    "Coordinator",
    "JobSet",
    "JobSetSpec",
    "JobSpec",
    "JobTemplateSpec",
    "Network",
    "ReplicatedJob",
]

API_VERSION: Final = "jobset.x-k8s.io/v1alpha2"
"""The one API version of JobSet that is served (since v0.2)."""

INDEXED: Final = "Indexed"
"""The ``completionMode`` JobSet's webhook gives a Job that names none."""


class JobSpec(Object):
    """A Job template's ``spec``: how many pods, indexed or not, from which pod template."""

    parallelism: Count | None = None
    completions: Count | None = None
    completion_mode: StrictStr | None = Field(None, alias="completionMode")
    template: PodTemplateSpec = PodTemplateSpec()

    @property
    def indexed(self) -> bool:
        """Whether the Job is Indexed: JobSet's webhook makes it so unless told ``NonIndexed``."""
        return self.completion_mode in (None, INDEXED)

    @property
    def pod_count(self) -> int | None:
        """How many pods the Job makes, as Kubernetes' Job API defaults it.

        An Indexed Job makes a pod per completion index (``completions``; one
        when neither it nor ``parallelism`` is given), none when its
        ``parallelism`` is 0; a NonIndexed Job runs ``parallelism`` pods at a
        time, at most ``completions``.  None: an Indexed Job with
        ``parallelism`` and no ``completions``, which the API server refuses.
        """
        parallelism = 1 if self.parallelism is None else self.parallelism
        completions = self.completions
        if completions is None and self.parallelism is None:
            completions = 1
        if self.indexed:
            if completions is None:
                return None
            return completions if parallelism else 0
        return parallelism if completions is None else min(parallelism, completions)


class JobTemplateSpec(Object):
    """A replicated job's ``template``: the Job it makes ``replicas`` of."""

    metadata: ObjectMeta = ObjectMeta()
    spec: JobSpec = JobSpec()


class ReplicatedJob(Object):
    """An entry of ``spec.replicatedJobs``: ``replicas`` Jobs of one template."""

    name: StrictStr
    group_name: StrictStr = Field("default", alias="groupName")
    replicas: Count = 1
    template: JobTemplateSpec = JobTemplateSpec()


class Network(Object):
    """A JobSet's ``network``: whether its pods have DNS names, under which subdomain."""

    enable_dns_hostnames: StrictBool | None = Field(None, alias="enableDNSHostnames")
    subdomain: StrictStr | None = None
    publish_not_ready_addresses: StrictBool | None = Field(None, alias="publishNotReadyAddresses")


class Coordinator(Object):
    """A JobSet's ``coordinator``: the pod whose DNS name every pod is given as a label."""

    replicated_job: StrictStr = Field(alias="replicatedJob")
    job_index: Count = Field(0, alias="jobIndex")
    pod_index: Count = Field(0, alias="podIndex")


class JobSetSpec(Object):
    """A JobSet's ``spec``: its replicated jobs, in order, its network and its coordinator."""

    replicated_jobs: tuple[ReplicatedJob, ...] = Field((), alias="replicatedJobs")
    network: Network | None = None
    coordinator: Coordinator | None = None


class JobSet(Object):
    """A ``jobset.x-k8s.io/v1alpha2`` JobSet manifest.

    Example:
        >>> job = JobSet.model_validate({
        ...     "apiVersion": "jobset.x-k8s.io/v1alpha2",
        ...     "kind": "JobSet",
        ...     "metadata": {"name": "mnist"},
        ...     "spec": {"replicatedJobs": [{"name": "worker"}]},
        ... })
        >>> job.subdomain, job.dns_hostnames, job.namespace
        ('mnist', True, 'default')
    """

    api_version: Literal["jobset.x-k8s.io/v1alpha2"] = Field(alias="apiVersion")
    kind: Literal["JobSet"]
    metadata: ObjectMeta = ObjectMeta()
    spec: JobSetSpec = JobSetSpec()

    @property
    def name(self) -> str | None:
        """Its name; None for a JobSet with only ``generateName``, named when created."""
        return self.metadata.name or None

    @property
    def namespace(self) -> str:
        """Its namespace: ``default`` unless the manifest names one."""
        return self.metadata.namespace or "default"

    @property
    def dns_hostnames(self) -> bool:
        """Whether its pods have DNS names: JobSet's webhook turns them on unless told not to."""
        network = self.spec.network
        return network is None or network.enable_dns_hostnames is not False

    @property
    def subdomain(self) -> str | None:
        """The subdomain of its pods' DNS names: ``network.subdomain``, else the JobSet's name."""
        network = self.spec.network
        return (network.subdomain if network is not None else None) or self.name
