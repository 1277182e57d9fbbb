"""The nodes of a job checked together, as ``estconf check-cluster`` checks them.

The nodes read (:func:`estconf.inputs.nodes.read_nodes`) are checked by
:func:`estconf.deployment.check_cluster` under a profile; what their keys
break joins the findings, one for the nodes that break a rule the same way;
and what the report says beside its findings (:class:`Said`)
is worked out: how to fix what was found, where the fix is plain, the notes,
the files passed over.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def _facts(finding: Finding) -> CrossNode:
    """What the whole-job check knows of a finding besides its nodes (none for a key's error)."""
    from estconf.deployment import CrossNode

    return finding.cross_node or CrossNode()
