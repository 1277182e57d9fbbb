"""The nodes of a job checked together, as ``estconf check-cluster`` checks them.

The nodes read (:func:`estconf.inputs.nodes.read_nodes`) are checked by
:func:`estconf.deployment.check_cluster` under a profile; what their keys
break joins the findings, one for the nodes that break a rule the same way;
and what the report says beside its findings (:class:`Said`)
is worked out: how to fix what was found, where the fix is plain, the notes,
the files passed over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from estconf.deployment import ClusterReport, CrossNode
    from estconf.finding import Finding, Loc
    from estconf.inputs.nodes import Nodes
    from estconf.io.errors import FileError

__all__ = ["NO_NODE", "Said", "check_nodes"]

NO_NODE: Final = "no TF_CONFIG was given: there is no node to check"
"""The note of a check of no node at all, when that is allowed."""

EPHEMERAL_PORTS: Final = 32768
"""The lowest port a system hands out when a program asks it for any free one.

Linux hands out 32768 to 60999 by default (``net.ipv4.ip_local_port_range``),
most other systems 49152 to 65535.
"""


@dataclass(frozen=True)
class Said:
    """What a cluster report says beside its findings."""

    hints: Sequence[str] = ()
    """How to fix what was found, where the fix is plain."""
    notes: Sequence[str] = ()
    """What the check did that the findings do not say (``--allow-empty``)."""
    passed_over: Sequence[tuple[str, str]] = ()
    """The files of a directory passed over, each with the reason."""


def check_nodes(
    read: Nodes, profile: str = "estimator", *, allow_empty: bool = False
) -> tuple[ClusterReport, Said]:
    """Check the nodes ``read`` together under ``profile``; what the report says beside it.

    Args:
        read: the nodes, and what was found reading them.
        profile: the reader each node is checked for.
        allow_empty: no node at all is a note, not a finding (a TFJob of one
            pod gets no TF_CONFIG).

    Returns:
        The report, and its hints, notes and files passed over.
    """
    from estconf.deployment import check_cluster
    from estconf.deployment.report import NO_NODES

    nodes = read.nodes
    report = check_cluster(nodes, profile=profile)
    if read.key_errors:
        findings = (*_findings_of(read.key_errors), *report.findings)
        report = report.model_copy(update={"findings": findings})
    notes = [str(warning) for warning in read.warnings]
    if allow_empty and not nodes:
        notes.append(f"{NO_NODE} (--allow-empty)")
        findings = tuple(f for f in report.findings if f.code != NO_NODES)
        report = report.model_copy(update={"findings": findings})
    hints = _hints(report, nodes)
    for warning in read.warnings:  # an env file's quoted value: how to write it for docker run
        if warning.hint is not None and warning.hint not in hints:
            hints.append(warning.hint)
    return report, Said(hints, notes, read.passed_over)


def _findings_of(errors: list[FileError]) -> list[Finding]:
    """One finding for the nodes whose keys break a rule the same way, as ``check_cluster``."""
    from estconf.deployment import CrossNode
    from estconf.finding import Finding

    nodes: dict[tuple[str, str, str], tuple[Loc, list[str]]] = {}
    for found in errors:
        key = (found.code, found.path, found.message)
        nodes.setdefault(key, (found.loc, []))[1].append(found.file)
    return [
        Finding.at(code, message, loc, nodes=tuple(names), cross_node=CrossNode())
        for (code, _, message), (loc, names) in nodes.items()
    ]


def _hints(report: ClusterReport, nodes: list[tuple[str, Any]]) -> list[str]:
    """How to fix what was found, where a fix is plain."""
    from estconf.deployment import check_cluster
    from estconf.deployment.report import NO_NODES
    from estconf.profiles.registry import accepted_instead, as_options

    hints = []
    if any(f.code == NO_NODES for f in report.findings):
        hints.append(
            "a TFJob of one pod in all gets no TF_CONFIG, and 'estconf tf-config --tfjob' "
            "writes nothing for it: pass --allow-empty where no input means that"
        )
    claimed_twice = [f for f in report.findings if f.code == "task_claimed_twice"]
    if len(report.nodes) > 1 and any(len(f.nodes) == len(report.nodes) for f in claimed_twice):
        task = f"{_facts(claimed_twice[0]).job}:{_facts(claimed_twice[0]).index}"
        hints.append(
            f"every node was given the same task, {task}: each node needs its own task.index "
            "(0, 1, 2, ... within each task.type)"
        )
    elif claimed_twice:
        hints.append(
            "each node needs its own task: no two nodes may share task.type and task.index"
        )
    hints.extend(_shared_address_hints(report, nodes))
    refused = {f.code for f in report.findings if _facts(f).profile == "estimator"}
    if report.profile == "estimator" and refused:
        readers = accepted_instead(
            refused,
            lambda other: (
                not any(_facts(f).profile for f in check_cluster(nodes, profile=other).findings)
            ),
        )
        if readers:
            hints.append(
                f"tf.estimator refuses these nodes, but {as_options(readers)} reads every one "
                "of them: pass it if that is the reader"
            )
    return hints


def _shared_address_hints(report: ClusterReport, nodes: list[tuple[str, Any]]) -> list[str]:
    """The fix of two tasks of a cluster at one ``host:port``, and its likely cause.

    A cluster of workers alone at ports the system picks is what Ray Train's
    ``TensorflowTrainer`` writes: each worker takes a free port on its node
    when it starts, and two workers of one node can be given the same.
    """
    found = [
        f
        for f in report.findings
        if f.code == "address" and f.nodes and len(f.loc) == 3 and f.loc[0] == "cluster"
    ]
    if not found:
        return []
    given = dict(nodes)
    shared: list[tuple[str, str, str, Mapping[Any, Any]]] = []
    for finding in found:
        raw = given.get(finding.nodes[0])
        cluster = raw.get("cluster") if isinstance(raw, Mapping) else None
        if isinstance(cluster, Mapping):
            shared.extend(_sharing(cluster, finding.loc[1], finding.loc[2]))
    if not shared:
        return []
    picked = [
        (first, second, address)
        for first, second, address, cluster in shared
        if list(cluster) == ["worker"] and _port(address) >= EPHEMERAL_PORTS
    ]
    if picked:
        first, second, address = picked[0]
        return [
            f"{first} and {second} both have {address}: Ray Train's TensorflowTrainer has each "
            "worker take a free port as it starts, and two on one node can draw the same one "
            "(ray-project/ray#34271); start the job again, or run one worker per node"
        ]
    first, second, address, _ = shared[0]
    return [f"{first} and {second} both have {address}: give each task its own host:port"]


def _sharing(
    cluster: Mapping[Any, Any], job: object, index: object
) -> Iterator[tuple[str, str, str, Mapping[Any, Any]]]:
    """``(first task, this task, address, cluster)`` for a task that has an earlier one's address.

    The task is at ``job``, ``index`` of ``cluster``.
    """
    from estconf._types import address_key

    def key(address: str) -> str:
        return address_key(address) if address[:1] == "[" else address.lower()

    tasks = cluster.get(job)
    own = tasks[index] if isinstance(tasks, list) and isinstance(index, int) else None
    if isinstance(tasks, Mapping):
        own = tasks.get(index, tasks.get(str(index)))
    if not isinstance(own, str):
        return
    for other_job, other_tasks in cluster.items():
        items: Iterable[tuple[Any, Any]] = ()
        if isinstance(other_tasks, list):
            items = enumerate(other_tasks)
        elif isinstance(other_tasks, Mapping):
            items = other_tasks.items()
        for other_index, address in items:
            if other_job == job and str(other_index) == str(index):
                return
            if isinstance(address, str) and key(address) == key(own):
                yield f"{other_job}:{other_index}", f"{job}:{index}", own, cluster
                return


def _port(address: str) -> int:
    """The port of a ``host:port`` address (0 when there is none)."""
    port = address.rpartition(":")[2]
    return int(port) if port.isascii() and port.isdigit() else 0


def _facts(finding: Finding) -> CrossNode:
    """What the whole-job check knows of a finding besides its nodes (none for a key's error)."""
    from estconf.deployment import CrossNode

    return finding.cross_node or CrossNode()
