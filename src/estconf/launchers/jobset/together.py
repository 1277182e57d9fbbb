"""The TF_CONFIGs of a JobSet's pods checked together, and the pods that get none.

:func:`together` runs :func:`estconf.deployment.check_cluster` over every
pod's TF_CONFIG, as ``estconf check-cluster`` does over a job's nodes, and
reports each of its findings at the TF_CONFIG entry that causes it, naming
the pods: clusters that differ, a task two pods claim (``task_claimed_twice``,
with its cause: an index from the completion index of a replicated job of
several Jobs, which each Job numbers from 0, or a fixed index), a task no
pod claims, values that differ.  The pods are compared once each of them
reads: when every pod's TF_CONFIG is known here, is JSON and is accepted by
the reader.

:func:`missing` reports ``tf_config_missing``: the pods of a replicated
job that get no TF_CONFIG although a cluster lists them (TensorFlow waits
for them, and the job never gets past its start), and a TF_CONFIG set only
in a container beside the one that runs TensorFlow: the container Trainer
runs a TrainJob in (``node``), or the one that declares the port of the
pod's own address while the other declares none of it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from estconf.launchers.jobset.addresses import read_address
from estconf.launchers.jobset.problems import INDEX_FIX, Problem
from estconf.launchers.jobset.tf_configs import TF_CONFIG, pods_named

if TYPE_CHECKING:
    from estconf.finding import Finding
    from estconf.launchers.jobset.addresses import Addresses
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.pods import Pod
    from estconf.launchers.jobset.tf_configs import PodTFConfig
    from estconf.launchers.kubernetes import Container

__all__ = ["JOB_INDEX_FIX", "missing", "together"]

JOB_INDEX_FIX: Final = (
    "give each pod its own index: one Job (replicas: 1) whose completions are the tasks, "
    "with TASK_INDEX from the completion index; or Jobs of one pod each, with TASK_INDEX from "
    "a fieldRef to metadata.labels['jobset.sigs.k8s.io/job-index']"
)
"""The fix of an index taken from the completion index in a replicated job of several Jobs."""

_CONTAINERS: Final = ("template", "spec", "template", "spec", "containers")


def together(
    found: Sequence[PodTFConfig], jobset: JobSet, read: Addresses, without: Collection[int] = ()
) -> list[Problem]:
    """What :func:`~estconf.deployment.check_cluster` finds across the pods of ``found``.

    ``found`` are the pods whose TF_CONFIG is known, JSON and accepted by
    the reader, every pod of ``jobset`` that gets one; ``read`` what their
    addresses say; ``without`` the positions of the replicated jobs whose
    pods get none (``tf_config_missing`` says so of a task they leave).
    """
    from estconf.codes import checked
    from estconf.deployment import CROSS_NODE_CODES, ReaderProfile, check_cluster

    nodes = [(each.pod.name, each.parsed) for each in found if isinstance(each.parsed, dict)]
    if len(nodes) < 2:
        return []
    by_name = {each.pod.name: each for each in found}
    report = check_cluster(nodes, profile=ReaderProfile("tf_config", _accept), each_node=False)
    said = []
    twice: dict[tuple[object, ...], tuple[list[str], list[Pod]]] = {}
    for finding in report.findings:
        facts = finding.cross_node
        if finding.code == "task_claimed_twice" and facts is not None:
            found_pods = [by_name[name].pod for name in finding.nodes]
            cause, hint = _claimed_twice(found_pods, jobset)
            second = by_name[finding.nodes[1]]
            key = (second.pod.position, second.container, second.entry, cause, hint)
            tasks, claiming = twice.setdefault(key, ([], []))
            tasks.append(f"{facts.job}:{facts.index}")
            claiming.extend(found_pods)
        elif finding.code in CROSS_NODE_CODES and not (twice and finding.code == "task_unclaimed"):
            problem = _placed(finding, by_name, jobset, (read, without))  # twice: said once
            if problem is not None:
                said.append(problem)
    code = checked("task_claimed_twice")
    claimed = []
    for (position, container, entry, why, fix), (tasks, claiming) in twice.items():
        assert isinstance(position, int) and isinstance(why, str) and isinstance(fix, str)
        assert container is None or isinstance(container, int)
        assert entry is None or isinstance(entry, int)
        pods = tuple(sorted(claiming, key=_order))
        shown = ", ".join(tasks[:3]) + (f" and {len(tasks) - 3:,} more" if len(tasks) > 3 else "")
        each = f"tasks {shown} are each" if len(tasks) > 1 else f"task {shown} is"
        message = f"TF_CONFIG of {pods_named(pods)}: {each} claimed by several pods: {why}"
        claimed.append(Problem(code, message, pods, position, container, entry, fix))
    return [*claimed, *said]


def _order(pod: Pod) -> tuple[int, int, int]:
    return pod.position, pod.job_index, pod.index


def _accept(tf_config: object) -> None:
    """Accept every TF_CONFIG: what one pod's reader refuses is reported before."""


def _placed(
    finding: Finding,
    by_name: Mapping[str, PodTFConfig],
    jobset: JobSet,
    read: tuple[Addresses, Collection[int]],
) -> Problem | None:
    """A finding of the whole-job check at the TF_CONFIG entry of its first pod."""
    facts = finding.cross_node
    names = finding.nodes or (facts.reference_nodes if facts is not None else ())
    if not names:
        return None
    pods = tuple(by_name[name].pod for name in names)
    first = by_name[names[1] if len(names) > 1 and finding.nodes else names[0]]
    place = (first.pod.position, first.container, first.entry)
    message = f"TF_CONFIG of {pods_named(pods)}: {finding.message}"
    if finding.code == "task_unclaimed" and facts is not None:
        address = _address(first.parsed, facts.job, facts.index)
        if address is not None and not _unexplained(address, jobset, read):
            return None
        hint = "list in the cluster only the JobSet's pods that run TensorFlow, each once"
        return Problem(finding.code, message, pods, *place, hint)
    hint = finding.hint or "give every pod of the job the same cluster and the same values"
    return Problem(finding.code, message, pods, *place, hint)


def _unexplained(address: str, jobset: JobSet, read: tuple[Addresses, Collection[int]]) -> bool:
    """Whether no other finding says why no pod claims the task at ``address``."""
    addresses, without = read
    if address in addresses.wrong:
        return False
    reading = read_address(address, jobset)
    if reading.by_hostname and not jobset.dns_hostnames:
        return False
    target = reading.target
    return target is None or target.position not in without


def _address(tf_config: object, job: str | None, index: int | None) -> str | None:
    cluster = tf_config.get("cluster") if isinstance(tf_config, Mapping) else None
    tasks = cluster.get(job) if isinstance(cluster, Mapping) else None
    if isinstance(tasks, list) and isinstance(index, int) and 0 <= index < len(tasks):
        address = tasks[index]
    elif isinstance(tasks, Mapping):
        address = tasks.get(str(index))
    else:
        return None
    return address if isinstance(address, str) else None


def _claimed_twice(pods: Sequence[Pod], jobset: JobSet) -> tuple[str, str]:
    """Why several pods claim one task, and the fix."""
    positions = {pod.position for pod in pods}
    if len(positions) > 1:
        jobs = " and ".join(
            repr(jobset.spec.replicated_jobs[position].name) for position in sorted(positions)
        )
        return (
            f"replicated jobs {jobs} give the same task",
            "give each replicated job its own task type, or list each pod once in the cluster",
        )
    job = jobset.spec.replicated_jobs[pods[0].position]
    if len({pod.index for pod in pods}) == 1 and len({pod.job_index for pod in pods}) > 1:
        return (
            f"their index is the completion index, which each of the {job.replicas:,} Jobs of "
            f"replicated job {job.name!r} numbers from 0",
            JOB_INDEX_FIX,
        )
    hint = INDEX_FIX if job.replicas == 1 else JOB_INDEX_FIX
    if pods[0].per_job == 1 and job.replicas > 1:
        hint = (
            "take the index from a variable defined before TF_CONFIG: TASK_INDEX from a "
            "fieldRef to metadata.labels['jobset.sigs.k8s.io/job-index']"
        )
    return f"the pods of replicated job {job.name!r} are given one index", hint


def missing(found: Iterable[PodTFConfig], jobset: JobSet, read: Addresses) -> list[Problem]:
    """``tf_config_missing``: pods a cluster lists that get no TF_CONFIG, or not where it runs.

    ``found`` holds a pod (or more) of each replicated job; ``read`` what the
    addresses of their TF_CONFIGs say.
    """
    from estconf.codes import checked

    declared = checked("tf_config_missing")
    said: list[Problem] = []
    by_position: dict[int, list[PodTFConfig]] = {}
    for each in found:
        by_position.setdefault(each.pod.position, []).append(each)
    for position, found_there in by_position.items():
        each = found_there[0]
        job = jobset.spec.replicated_jobs[position]
        listed = read.listed.get(position)
        if each.text is None and listed is not None and not each.may_be_set:
            _, by, path, address = listed
            count = job.replicas * each.pod.per_job
            message = (
                f"the {count:,} pod{'s' if count > 1 else ''} of replicated job {job.name!r} "
                f"get{'s' if count == 1 else ''} no {TF_CONFIG}, and the cluster of "
                f"{pods_named([by])} lists {'them' if count > 1 else 'it'} ({path}: {address!r}): "
                "TensorFlow waits for them, and the job never gets past its start"
            )
            task = path.removeprefix("cluster.").partition("[")[0]
            hint = (
                f"define TF_CONFIG in the container of replicated job {job.name!r} that runs "
                f'TensorFlow, with its task: {{"type": "{task}", "index": $(TASK_INDEX)}}'
            )
            at = ("replicatedJobs", position, *_CONTAINERS)
            said.append(Problem(declared, message, (), position, None, None, hint, at=at))
        elif each.text is not None and each.container is not None:
            problem = _beside(found_there, jobset)
            if problem is not None:
                said.append(problem)
    return said


def _beside(found: Sequence[PodTFConfig], jobset: JobSet) -> Problem | None:
    """A TF_CONFIG set only in a container beside the one that runs TensorFlow, if so.

    ``found`` are pods of one replicated job, which share their containers.
    """
    each = found[0]
    from estconf.codes import checked
    from estconf.launchers.jobset.trainer import ANCESTOR_LABEL, TRAINER, TRAINER_CONTAINER

    job = jobset.spec.replicated_jobs[each.pod.position]
    containers = job.template.spec.template.spec.containers
    assert each.container is not None
    given = containers[each.container]
    others = [
        container
        for container in containers
        if container is not given and all(v.name != TF_CONFIG for v in container.env)
    ]
    if not others:
        return None
    runs: tuple[Container, str] | None = None
    trainer = job.template.metadata.labels.get(ANCESTOR_LABEL) == TRAINER
    if trainer and given.name != TRAINER_CONTAINER:
        node = next((c for c in others if c.name == TRAINER_CONTAINER), None)
        if node is not None:
            runs = node, "which Trainer runs the TrainJob's trainer in"
    port = _own_port(each.parsed)
    if runs is None and port is not None and port not in _ports(given):
        serving = next((c for c in others if port in _ports(c)), None)
        if serving is not None:
            runs = serving, f"which serves port {port} of the pod's own address"
    if runs is None:
        return None
    container, why = runs
    pods = tuple(pod.pod for pod in found)
    message = (
        f"TF_CONFIG of {pods_named(pods)} is set in container {given.name!r} only, and container "
        f"{container.name!r}, {why}, gets none: TensorFlow there runs alone, without the cluster"
    )
    hint = f"define TF_CONFIG in container {container.name!r}"
    place = (each.pod.position, each.container, each.entry)
    return Problem(checked("tf_config_missing"), message, pods, *place, hint)


def _own_port(tf_config: object) -> int | None:
    """The port of a pod's own address in its cluster (its task's), if it has one."""
    task = tf_config.get("task") if isinstance(tf_config, Mapping) else None
    if not isinstance(task, Mapping):
        return None
    address = _address(tf_config, task.get("type"), task.get("index"))
    port = address.rpartition(":")[2] if address is not None else ""
    return int(port) if port.isdecimal() and port.isascii() else None


def _ports(container: Container) -> set[int]:
    """The ``containerPort`` of each port a container declares."""
    extra: dict[str, Any] = container.model_extra or {}
    ports = extra.get("ports")
    if not isinstance(ports, list):
        return set()
    return {
        port["containerPort"]
        for port in ports
        if isinstance(port, Mapping) and isinstance(port.get("containerPort"), int)
    }
