"""The addresses of a JobSet's TF_CONFIGs, read as names of its pods.

A pod of an Indexed Job of a JobSet has hostname ``<jobset>-<R>-<j>-<p>``
and, with DNS hostnames on (the default), a DNS name under the headless
Service of its subdomain.  From a pod of the same namespace, the search
domains of its ``resolv.conf`` (``<ns>.svc.<domain>``, ``svc.<domain>``,
``<domain>``) make each of these forms resolve to it::

    <hostname>.<subdomain>
    <hostname>.<subdomain>.<namespace>
    <hostname>.<subdomain>.<namespace>.svc
    <hostname>.<subdomain>.<namespace>.svc.<cluster domain>

The cluster domain is ``cluster.local`` unless the cluster says otherwise,
so any is taken.  Any other form of a pod's hostname names no pod:
a bare hostname (only the pod itself knows it), another subdomain, another
namespace, ``<hostname>.<subdomain>.svc.cluster.local`` (no namespace: that
names a Service of namespace ``<subdomain>``).  So does the hostname of a
pod the JobSet does not make (an index past its ``replicas`` or
``completions``, a replicated job it does not have, a pod of a NonIndexed
Job, which has no hostname) and the hostname made with another JobSet's
name, under that name's subdomain or this one's: ``address_not_a_pod``.

An IP address, or a name of another shape, is not read: a Service may front
a pod, and its name or address is known only where it is made.  With DNS
hostnames off, an address by a pod's hostname is ``dns_hostnames_off``.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, NamedTuple

from estconf._path import format_path
from estconf.launchers.jobset.pods import RANDOM_SUFFIX
from estconf.launchers.jobset.tf_configs import pods_named

if TYPE_CHECKING:
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.pods import Pod
    from estconf.launchers.jobset.problems import Problem
    from estconf.launchers.jobset.tf_configs import PodTFConfig

__all__ = ["Addresses", "Reading", "Target", "addresses", "cluster_addresses", "read_address"]

_HOSTNAME: Final = re.compile(r"(.+)-(0|[1-9][0-9]*)-(0|[1-9][0-9]*)")
"""A pod's hostname: ``<jobset>-<R>-<j>-<p>``, its indexes as decimals without leading zeros."""


@dataclass(frozen=True)
class Target:
    """A pod of the JobSet an address names: its replicated job's position, ``j`` and ``p``."""

    position: int
    job_index: int
    index: int


class Reading(NamedTuple):
    """What an address of a cluster says of the JobSet's pods.

    Attributes:
        target: the pod of the JobSet it names by its hostname; None when it
            names none, or is not read as a pod's name.
        by_hostname: whether it is written with the hostname of a pod of
            the JobSet (whatever follows it).
        wrong: why it is no pod of the JobSet (``address_not_a_pod``).
        fix: how to write it.
    """

    target: Target | None = None
    by_hostname: bool = False
    wrong: str | None = None
    fix: str | None = None


_NOT_READ: Final = Reading()


def _host(address: str) -> str | None:
    """The host of ``host:port`` (or of a bare host); None for an IP address or no host."""
    host = address.rpartition(":")[0] if address.count(":") == 1 else address
    if not host or host.startswith("["):
        return None
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host.lower().removesuffix(".")
    return None


def read_address(address: str, jobset: JobSet, others: Iterable[str] = ()) -> Reading:
    """Read ``address`` as the name of a pod of ``jobset`` (a JobSet with a name).

    ``others`` are the names of the other JobSets and TrainJobs read with it,
    whose pods are theirs.
    """
    host = _host(address)
    if host is None:
        return _NOT_READ
    first, *rest = host.split(".")
    match = _HOSTNAME.fullmatch(first)
    if match is None:
        return _NOT_READ
    prefix, job_index, index = match[1], int(match[2]), int(match[3])
    name = (jobset.name or "").lower()
    subdomain = (jobset.subdomain or "").lower()
    replicated = jobset.spec.replicated_jobs
    position = next(
        (at for at, job in enumerate(replicated) if prefix == f"{name}-{job.name.lower()}"), None
    )
    if position is None:
        return _foreign(prefix, rest, jobset, [other.lower() for other in others])
    job = replicated[position]
    right = f"{first}.{subdomain}"
    per_job = job.template.spec.pod_count or 0
    if not job.template.spec.indexed:
        why = (
            f"the Jobs of replicated job {job.name!r} are NonIndexed: their pods have random "
            "names and no hostname"
        )
        fix = f"drop completionMode: NonIndexed from replicated job {job.name!r}"
        return Reading(None, True, why, fix)
    if job_index >= job.replicas or index >= per_job:
        return Reading(None, True, _range(jobset, position), _range_fix(jobset, position))
    target = Target(position, job_index, index)
    if not jobset.dns_hostnames:
        return Reading(target, True)
    wrong = _form(rest, subdomain, jobset.namespace.lower())
    if wrong is None:
        return Reading(target, True)
    return Reading(None, True, wrong, f"write it {right}{_port(address)}")


def _form(rest: list[str], subdomain: str, namespace: str) -> str | None:
    """Why the labels after a pod's hostname name no pod of the JobSet; None if they do."""
    if not rest:
        return (
            "a bare hostname resolves only in its own pod: the others look a name up under "
            "their namespace, not under the subdomain"
        )
    if rest[0] != subdomain:
        return f"its subdomain is {rest[0]!r}, and the JobSet's pods are under {subdomain!r}"
    if len(rest) > 1 and rest[1] != namespace:
        if rest[1] == "svc":
            return (
                f"it names no namespace: {'.'.join(rest)} is the domain of the Services of "
                f"namespace {subdomain!r}"
            )
        return f"it is in namespace {rest[1]!r}, and the JobSet is in {namespace!r}"
    if len(rest) > 2 and rest[2] != "svc":
        return (
            f"after the namespace comes 'svc': <hostname>.{subdomain}.{namespace}.svc"
            ".<cluster domain>"
        )
    return None


def _port(address: str) -> str:
    head, colon, port = address.rpartition(":")
    return f":{port}" if colon and head else ""


def _foreign(prefix: str, rest: list[str], jobset: JobSet, others: list[str]) -> Reading:
    """An address like a pod's of the JobSet, of another name or replicated job, or not read."""
    name = (jobset.name or "").lower()
    subdomain = (jobset.subdomain or "").lower()
    if any(prefix.startswith(f"{other}-") for other in others if other != name):
        return _NOT_READ
    jobs = [job.name for job in jobset.spec.replicated_jobs]
    for job in jobs:
        owner = prefix.removesuffix(f"-{job.lower()}")
        if owner != prefix and owner and owner != name and rest[:1] in ([owner], [subdomain]):
            why = f"it is named after a JobSet {owner!r}, and this one is {name!r}"
            return Reading(None, True, why, _renamed_fix(jobset, job))
    if prefix.startswith(f"{name}-") and rest[:1] == [subdomain]:
        replicated = prefix[len(name) + 1 :]
        shown = ", ".join(repr(job) for job in jobs)
        why = f"the JobSet has no replicated job {replicated!r} (it has {shown})"
        return Reading(None, True, why, f"name a pod of replicated job {shown}")
    return _NOT_READ


def _renamed_fix(jobset: JobSet, job: str) -> str:
    """How to write the pods of a JobSet whose name is not the one its addresses have."""
    generated = jobset.metadata.generate_name
    if generated and jobset.name == f"{generated}{RANDOM_SUFFIX}":
        return (
            "its name is known only once it is created: read it before TF_CONFIG from a "
            "fieldRef to metadata.labels['jobset.sigs.k8s.io/jobset-name'] and write "
            f"$(JOBSET_NAME)-{job}-<j>-<p>"
        )
    return f"write the JobSet's pods {jobset.name}-{job}-<j>-<p>"


def _range(jobset: JobSet, position: int) -> str:
    job = jobset.spec.replicated_jobs[position]
    per_job = job.template.spec.pod_count or 0
    jobs = f"{job.replicas:,} Job{'s' if job.replicas != 1 else ''}"
    pods = f"{per_job:,} pod{'s' if per_job != 1 else ''}"
    return f"replicated job {job.name!r} has {jobs} of {pods}{_first_last(jobset, position)}"


def _first_last(jobset: JobSet, position: int) -> str:
    job = jobset.spec.replicated_jobs[position]
    per_job = job.template.spec.pod_count or 0
    if not (job.replicas and per_job):
        return ""
    first = f"{jobset.name}-{job.name}-0-0"
    last = f"{jobset.name}-{job.name}-{job.replicas - 1}-{per_job - 1}"
    return f" ({first})" if first == last else f" ({first} to {last})"


def _range_fix(jobset: JobSet, position: int) -> str:
    job = jobset.spec.replicated_jobs[position]
    return (
        f"list only the pods the JobSet makes, or raise replicas or completions of replicated "
        f"job {job.name!r}"
    )


def cluster_addresses(tf_config: object) -> Iterator[tuple[str, str]]:
    """Each address of a TF_CONFIG's cluster, with its path (``cluster.worker[2]``)."""
    cluster = tf_config.get("cluster") if isinstance(tf_config, Mapping) else None
    if not isinstance(cluster, Mapping):
        return
    for job, tasks in cluster.items():
        items: Iterable[tuple[object, object]] = (
            enumerate(tasks)
            if isinstance(tasks, list)
            else tasks.items()
            if isinstance(tasks, Mapping)
            else ()
        )
        for index, address in items:
            if isinstance(address, str):
                at = index if isinstance(index, int) else str(index)
                yield format_path(("cluster", str(job), at)), address


@dataclass
class Addresses:
    """What the addresses of a JobSet's TF_CONFIGs say.

    Attributes:
        problems: ``address_not_a_pod`` and ``dns_hostnames_off``, at the
            TF_CONFIG entries (and the ``network`` field) that cause them.
        listed: for each replicated job some cluster names a pod of, the
            first such pod, the pod whose TF_CONFIG names it, the path and
            the address.
        wrong: the addresses that name no pod of the JobSet.
    """

    problems: list[Problem] = field(default_factory=list)
    listed: dict[int, tuple[Target, Pod, str, str]] = field(default_factory=dict)
    wrong: set[str] = field(default_factory=set)


def addresses(
    found: Iterable[PodTFConfig], jobset: JobSet, others: Iterable[str] = ()
) -> Addresses:
    """Read every address of the TF_CONFIGs of ``found``, pods of ``jobset``.

    Only a TF_CONFIG whose whole text is known and JSON is read; the
    findings group the pods of one entry whose addresses are wrong alike.
    """
    from estconf.codes import checked
    from estconf.launchers.jobset.problems import Problem

    others = tuple(others)
    result = Addresses()
    readings: dict[str, list[tuple[str, str, Reading]]] = {}
    groups: dict[
        tuple[object, ...], tuple[list[Pod], list[tuple[str, str, Reading]], set[str]]
    ] = {}
    hostnames: tuple[list[Pod], list[str]] = ([], [])
    for each in found:
        if not (each.known and each.is_json):
            continue
        assert each.text is not None
        read = readings.get(each.text)
        if read is None:
            read = readings[each.text] = [
                (path, address, read_address(address, jobset, others))
                for path, address in cluster_addresses(each.parsed)
            ]
        key = (each.pod.position, each.container, each.entry)
        by_hostname = False
        for path, address, reading in read:
            by_hostname = by_hostname or reading.by_hostname
            if reading.target is not None:
                listed = (reading.target, each.pod, path, address)
                result.listed.setdefault(reading.target.position, listed)
            if reading.wrong is not None:
                result.wrong.add(address)
                pods, said, paths = groups.setdefault((*key, reading.wrong), ([], [], set()))
                if not pods or pods[-1] is not each.pod:
                    pods.append(each.pod)
                if not said:
                    said.append((path, address, reading))
                paths.add(path)
        if by_hostname and not jobset.dns_hostnames:
            hostnames[0].append(each.pod)
            if not hostnames[1]:
                hostnames[1].append(next(a for _, a, r in read if r.by_hostname))
    declared = checked("address_not_a_pod")
    for group, (pods, said, paths) in groups.items():
        position, container, entry = group[:3]
        assert isinstance(position, int)
        assert container is None or isinstance(container, int)
        assert entry is None or isinstance(entry, int)
        path, address, reading = said[0]
        more = len(paths) - 1
        alike = f" (and {more:,} more address{'es' if more > 1 else ''} alike)" if more else ""
        message = (
            f"TF_CONFIG of {pods_named(pods)}: {path}: {address!r} "
            f"is no pod of this JobSet{alike}: {reading.wrong}"
        )
        result.problems.append(
            Problem(declared, message, tuple(pods), position, container, entry, reading.fix)
        )
    if hostnames[0]:
        pods = hostnames[0]
        message = (
            f"network.enableDNSHostnames is false, and TF_CONFIG of {pods_named(pods)} "
            "addresses pods by hostname "
            f"({hostnames[1][0]!r}): without DNS hostnames no pod's name resolves"
        )
        hint = (
            "remove enableDNSHostnames: false (JobSet turns DNS hostnames on by default), or "
            "address the pods some other way"
        )
        at = ("network", "enableDNSHostnames")
        result.problems.append(
            Problem(
                checked("dns_hostnames_off"),
                message,
                tuple(pods),
                pods[0].position,
                None,
                None,
                hint,
                at=at,
            )
        )
    return result
