"""The pods of a JobSet, in pod order, and the variables each container's program reads.

Replicated job ``R`` of JobSet ``S`` makes the Jobs ``S-R-j`` (``j`` below
its ``replicas``); an Indexed Job ``S-R-j`` makes a pod per completion index
``p``, whose hostname Kubernetes' Job controller sets to ``S-R-j-p`` and whose
name is that, ``-`` and five random characters.  With DNS hostnames on (the
default) the pod is reachable as ``S-R-j-p.SUBDOMAIN``.  Pods come in the order
of the replicated jobs as written, then ``j``, then ``p`` (:func:`pods`).

Each pod carries the labels and annotations JobSet's controller gives it
(``jobset.sigs.k8s.io/jobset-name``, ``replicatedjob-name``, ``job-index``,
``job-global-index``, ...) and the Job controller's
``batch.kubernetes.io/job-completion-index`` (an annotation, and a label
under the ``PodIndexLabel`` feature gate, on by default since Kubernetes
1.28).  The Job controller appends ``JOB_COMPLETION_INDEX`` to each
container's ``env``, last, unless the container defines it
(``addCompletionIndexEnvVariable``).  :func:`variables` gives a container's
variables as the kubelet makes them (:mod:`estconf._container_env`), with
the downward API's values for that pod.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from estconf._container_env import (
    EnvVar as Entry,
)
from estconf._container_env import (
    PodFields,
    Variable,
    container_env,
    field_value,
    placeholder,
)
from estconf.launchers.jobset.model import JobSet, ReplicatedJob
from estconf.launchers.kubernetes import Container, EnvVar

__all__ = [
    "COMPLETION_INDEX",
    "JOB_COMPLETION_INDEX",
    "KUBERNETES_SERVICE_VARIABLES",
    "RANDOM_SUFFIX",
    "Configs",
    "NotKnown",
    "Pod",
    "job_name",
    "pod_count",
    "pods",
    "service_variable",
    "variables",
]

JOB_COMPLETION_INDEX: Final = "JOB_COMPLETION_INDEX"
"""The variable Kubernetes' Job controller appends to each container of an Indexed Job's pods."""

COMPLETION_INDEX: Final = "batch.kubernetes.io/job-completion-index"
"""The annotation (and label) holding a pod's completion index."""

RANDOM_SUFFIX: Final = "xxxxx"
"""Stands for the five random characters that end a pod's name."""

_GENERATED_NAME: Final = 58
"""The most characters of a ``generateName`` the API server keeps (63 less the five it adds)."""

_JOBSET: Final = "jobset.sigs.k8s.io/"

KUBERNETES_SERVICE_VARIABLES: Final = (
    "KUBERNETES_SERVICE_HOST",
    "KUBERNETES_SERVICE_PORT",
    "KUBERNETES_SERVICE_PORT_HTTPS",
    "KUBERNETES_PORT",
    "KUBERNETES_PORT_443_TCP",
    "KUBERNETES_PORT_443_TCP_PROTO",
    "KUBERNETES_PORT_443_TCP_PORT",
    "KUBERNETES_PORT_443_TCP_ADDR",
)
"""The variables of the API server's Service, which the kubelet gives every container."""

# the names of a Service's variables (envvars.FromServices): FOO_SERVICE_HOST, FOO_PORT_80_TCP...
_SERVICE_VARIABLE: Final = re.compile(
    r"[A-Z0-9_]+_(?:SERVICE_HOST|SERVICE_PORT(?:_[A-Z0-9_]+)?"
    r"|PORT(?:_[0-9]+_(?:TCP|UDP|SCTP)(?:_(?:PROTO|PORT|ADDR))?)?)"
)


def service_variable(name: str) -> bool:
    """Whether ``name`` has the shape of a Service's variable, which the kubelet may define."""
    return _SERVICE_VARIABLE.fullmatch(name) is not None


def job_name(jobset: str, replicated_job: str, job_index: int) -> str:
    """The name of Job ``job_index`` of a replicated job: ``<jobset>-<replicated job>-<j>``."""
    return f"{jobset}-{replicated_job}-{job_index}"


@dataclass(frozen=True)
class Pod:
    """One pod of a JobSet.

    Attributes:
        jobset: the JobSet's name.
        namespace: its namespace.
        replicated_job: the name of its replicated job.
        position: the position of that replicated job in ``spec.replicatedJobs``.
        job_index: the index of its Job in the replicated job (``j``).
        index: its completion index (``p``); for a NonIndexed Job, its
            position among the Job's pods, which Kubernetes does not give it.
        indexed: whether its Job is Indexed.
        per_job: how many pods its Job makes.
        subdomain: the subdomain of its DNS name; None when DNS hostnames are off.
        labels: its labels, as far as they are known before it runs (None
            for the value of one known only then, such as the JobSet's uid).
        annotations: its annotations, likewise.
    """

    jobset: str
    namespace: str
    replicated_job: str
    position: int
    job_index: int
    index: int
    indexed: bool
    per_job: int
    subdomain: str | None
    labels: Mapping[str, str | None] = field(default_factory=dict)
    annotations: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def job(self) -> str:
        """The name of its Job."""
        return job_name(self.jobset, self.replicated_job, self.job_index)

    @property
    def hostname(self) -> str | None:
        """Its hostname, ``<job>-<p>``, which the Job controller sets; None for a NonIndexed Job."""
        return f"{self.job}-{self.index}" if self.indexed else None

    @property
    def name(self) -> str:
        """Its base name: its hostname, or ``<job>-xxxxx`` for a pod of a NonIndexed Job.

        Its name is its hostname, ``-`` and five random characters.
        """
        return self.hostname or f"{self.job}-{RANDOM_SUFFIX}"

    @property
    def dns_name(self) -> str | None:
        """``<hostname>.<subdomain>``, the name it is reachable as; None when it has none."""
        if self.hostname is None or self.subdomain is None:
            return None
        return f"{self.hostname}.{self.subdomain}"

    @property
    def pod_name(self) -> str:
        """Its name as the downward API reads it, the five random characters as ``xxxxx``.

        The Job controller names it from ``<job>-<p>-``, its Job's name cut
        so that the prefix holds at most 58 characters.
        """
        suffix = f"-{self.index}-" if self.indexed else "-"
        prefix = self.job + suffix
        if len(prefix) > _GENERATED_NAME:
            prefix = prefix[: _GENERATED_NAME - len(suffix)] + suffix
        return prefix + RANDOM_SUFFIX


def pod_count(replicated_job: ReplicatedJob) -> int:
    """How many pods a replicated job makes: its ``replicas`` times its Job's pods.

    A Job the API server refuses (Indexed, ``parallelism`` and no
    ``completions``) makes none.
    """
    per_job = replicated_job.template.spec.pod_count
    return replicated_job.replicas * (per_job or 0)


def pods(
    jobset: JobSet,
    name: str | None = None,
    positions: Collection[int] | None = None,
    *,
    ends: bool = False,
) -> Iterator[Pod]:
    """The pods of ``jobset`` in pod order; ``name`` names a JobSet with only ``generateName``.

    ``positions``: only the pods of the replicated jobs at these positions.
    ``ends``: only the first and last pods of the first and last Jobs of each.

    Raises:
        ValueError: the JobSet has no name, and ``name`` gives none.
    """
    jobset_name = jobset.name or name
    if jobset_name is None:
        raise ValueError("the JobSet has no name (only generateName): its pods have none yet")
    named = jobset if jobset.name else _renamed(jobset, jobset_name)
    subdomain = named.subdomain if named.dns_hostnames else None
    for position, replicated in enumerate(named.spec.replicated_jobs):
        if positions is not None and position not in positions:
            continue
        per_job = replicated.template.spec.pod_count or 0
        indexed = replicated.template.spec.indexed
        for job_index in _indexes(replicated.replicas, ends):
            common = _jobset_metadata(named, position, job_index)
            job = job_name(jobset_name, replicated.name, job_index)
            for index in _indexes(per_job, ends):
                labels, annotations = _pod_metadata(replicated, job, common, index, indexed)
                yield Pod(
                    jobset_name,
                    named.namespace,
                    replicated.name,
                    position,
                    job_index,
                    index,
                    indexed,
                    per_job,
                    subdomain,
                    labels,
                    annotations,
                )


def _indexes(count: int, ends: bool) -> Iterable[int]:
    """``range(count)``, or with ``ends`` its first and last."""
    return sorted({0, count - 1}) if ends and count else range(count)


def _renamed(jobset: JobSet, name: str) -> JobSet:
    metadata = jobset.metadata.model_copy(update={"name": name})
    return jobset.model_copy(update={"metadata": metadata})


def _jobset_metadata(jobset: JobSet, position: int, job_index: int) -> dict[str, str | None]:
    """The labels JobSet's controller gives each pod of a Job (the same as its annotations)."""
    name = jobset.name or ""
    replicated = jobset.spec.replicated_jobs
    this = replicated[position]
    group = [job for job in replicated if job.group_name == this.group_name]
    job = job_name(name, this.name, job_index)
    found: dict[str, str | None] = {
        f"{_JOBSET}jobset-name": name,
        f"{_JOBSET}jobset-uid": None,
        f"{_JOBSET}replicatedjob-name": this.name,
        f"{_JOBSET}restart-attempt": "0",
        f"{_JOBSET}replicatedjob-replicas": str(this.replicas),
        f"{_JOBSET}global-replicas": str(sum(job.replicas for job in replicated)),
        f"{_JOBSET}job-index": str(job_index),
        f"{_JOBSET}job-key": hashlib.sha1(f"{jobset.namespace}/{job}".encode()).hexdigest(),
        f"{_JOBSET}job-global-index": str(
            sum(job.replicas for job in replicated[:position]) + job_index
        ),
        f"{_JOBSET}group-name": this.group_name,
        f"{_JOBSET}group-replicas": str(sum(job.replicas for job in group)),
        f"{_JOBSET}job-group-index": str(
            sum(job.replicas for job in group[: group.index(this)]) + job_index
        ),
    }
    coordinator = jobset.spec.coordinator
    if coordinator is not None:
        found[f"{_JOBSET}coordinator"] = (
            f"{job_name(name, coordinator.replicated_job, coordinator.job_index)}-"
            f"{coordinator.pod_index}.{jobset.subdomain}"
        )
    return found


def _pod_metadata(
    replicated: ReplicatedJob,
    job: str,
    common: Mapping[str, str | None],
    index: int,
    indexed: bool,
) -> tuple[dict[str, str | None], dict[str, str | None]]:
    """A pod's labels and annotations: its template's, JobSet's, the Job controller's."""
    template = replicated.template.spec.template.metadata
    labels: dict[str, str | None] = {**template.labels, **common}
    annotations: dict[str, str | None] = {**template.annotations, **common}
    labels.update(
        {
            "batch.kubernetes.io/job-name": job,
            "job-name": job,
            "batch.kubernetes.io/controller-uid": None,
            "controller-uid": None,
        }
    )
    if indexed:
        labels[COMPLETION_INDEX] = annotations[COMPLETION_INDEX] = str(index)
    return labels, annotations


@dataclass(frozen=True)
class Configs:
    """The ConfigMaps and Secrets a pod's variables may read, by namespace and name.

    Each maps its keys to their text (a Secret's ``data`` decoded); one that
    is not here is not known, and a variable it gives is known only once
    the pod runs.
    """

    config_maps: Mapping[tuple[str, str], Mapping[str, str]] = field(default_factory=dict)
    secrets: Mapping[tuple[str, str], Mapping[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class NotKnown:
    """What may define a container's variables beyond what a prediction knows.

    Attributes:
        env_from: the ``envFrom`` ConfigMaps and Secrets not given
            (``ConfigMap 'tf'``), which may define any name.
        services: the namespace whose Services' variables the kubelet adds
            (``enableServiceLinks``, true by default); None when it adds none.
    """

    env_from: tuple[str, ...] = ()
    services: str | None = None

    def may_define(self, name: str) -> bool:
        """Whether a source not known here may define the variable ``name``."""
        return bool(self.env_from) or (self.services is not None and service_variable(name))


_ENV_NAME: Final = re.compile(r"[-._a-zA-Z][-._a-zA-Z0-9]*")
"""A name the kubelet takes from ``envFrom`` (``IsEnvVarName``); it passes over the others."""


def variables(
    pod: Pod,
    container: Container,
    service_account: str | None = None,
    configs: Configs | None = None,
    *,
    service_links: bool = True,
    most: int | None = None,
) -> tuple[dict[str, Variable], NotKnown]:
    """The variables of ``container`` in ``pod``, and what may define others.

    What may are the ``envFrom`` ConfigMaps and Secrets not in ``configs``,
    and, with ``service_links`` (``enableServiceLinks``, true by default),
    the namespace's Services: a name either defines is known only once the
    pod runs.

    Raises:
        estconf._container_env.TooLong: a variable expands to more than ``most`` characters.
    """
    configs = configs or Configs()
    fields = PodFields(
        pod.pod_name,
        pod.namespace,
        {key: value for key, value in pod.labels.items() if value is not None},
        {key: value for key, value in pod.annotations.items() if value is not None},
        service_account or "default",
    )
    later = frozenset(
        f"metadata.{kind}['{key}']"
        for kind, found in (("labels", pod.labels), ("annotations", pod.annotations))
        for key, value in found.items()
        if value is None
    )
    env_from, unknown_sources = _env_from(container, pod.namespace, configs)
    entries = [_entry(each, fields, later, pod.namespace, configs) for each in container.env]
    if pod.indexed and all(variable.name != JOB_COMPLETION_INDEX for variable in container.env):
        path = f"metadata.labels['{COMPLETION_INDEX}']"
        entries.append(Entry(JOB_COMPLETION_INDEX, "", path, str(pod.index)))
    services = {
        name: Variable(name, placeholder(name), (name,)) for name in KUBERNETES_SERVICE_VARIABLES
    }
    given = [entry for entry in entries if entry is not None]
    found = container_env(given, env_from=env_from, services=services, most=most)
    return found, NotKnown(unknown_sources, pod.namespace if service_links else None)


def _env_from(
    container: Container, namespace: str, configs: Configs
) -> tuple[dict[str, Variable], tuple[str, ...]]:
    found: dict[str, Variable] = {}
    unknown: list[str] = []
    for source in container.env_from:
        ref, data, kind = (
            (source.config_map_ref, configs.config_maps, "ConfigMap")
            if source.config_map_ref is not None
            else (source.secret_ref, configs.secrets, "Secret")
        )
        if ref is None:
            continue
        keys = data.get((namespace, ref.name))
        if keys is None:
            unknown.append(f"{kind} {ref.name!r}")
            continue
        for key, value in keys.items():
            name = source.prefix + key
            if _ENV_NAME.fullmatch(name):
                found[name] = Variable(name, value)
    return found, tuple(unknown)


def _entry(
    variable: EnvVar,
    fields: PodFields,
    later: frozenset[str],
    namespace: str,
    configs: Configs,
) -> Entry | None:
    """An ``env`` entry with its ``valueFrom`` read; None for an optional key that is not there."""
    if variable.value or variable.value_from is None:
        return Entry(variable.name, variable.value or "")
    source = variable.value_from
    if source.field_ref is not None:
        path = source.field_ref.field_path
        try:
            value = None if path in later else field_value(path, fields)
        except ValueError:  # refused: the pod is never created
            value = None
        return Entry(variable.name, "", path, value)
    for ref, data, kind in (
        (source.config_map_key_ref, configs.config_maps, "configMap"),
        (source.secret_key_ref, configs.secrets, "secret"),
    ):
        if ref is None:
            continue
        keys = data.get((namespace, ref.name))
        described = f"{kind} {ref.name}/{ref.key}"
        if keys is None:
            return Entry(variable.name, "", described, None)
        if ref.key not in keys:
            return None if ref.optional else Entry(variable.name, "", described, None)
        return Entry(variable.name, "", described, keys[ref.key])
    if source.resource_field_ref is not None:
        return Entry(variable.name, "", f"resource {source.resource_field_ref.get('resource')}")
    # A source this reader does not know (``fileKeyRef``) gives its value only once the pod runs.
    return Entry(variable.name, "", next(iter(source.model_extra or {}), "valueFrom"))
