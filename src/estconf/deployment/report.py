"""What checking the TF_CONFIGs of a whole job found: :class:`ClusterReport`.

A report lists :class:`~estconf.finding.Finding` objects, the finding every
check of estconf reports.  Each has a stable ``code`` and names the nodes it
is about (``nodes``); its ``cross_node`` record (:class:`CrossNode`) holds
the rest of what the check knows of it.  The codes of the whole-job rules are:

- ``cluster_mismatch``: a node's cluster differs from the cluster most nodes
  have (the *reference*); ``differences`` lists each task whose address
  differs, and ``reference_nodes`` the nodes that have the reference cluster;
- ``task_claimed_twice``: two or more nodes claim the same task;
- ``task_unclaimed``: a task of the reference cluster that no node claims;
- ``task_not_in_cluster``: a node claims a task its own cluster does not
  list (an evaluator outside the cluster is not one: the estimator runs it
  beside the training cluster);
- ``model_dir_mismatch``, ``service_mismatch``, ``rpc_layer_mismatch``,
  ``session_master_mismatch``: nodes disagree on that key; ``values`` groups
  the nodes by value, the most common value first;
- ``no_nodes``: there was no TF_CONFIG to check.

The ``job`` and ``index`` of the ``cross_node`` of the three ``task_`` rules
name the task.

Every other code is about one node's TF_CONFIG on its own, with the code the
single-file check gives (``json_invalid``, ``address``, ``missing_chief``, ...);
its ``cross_node.profile`` names the reader whose rule it is, or is ``None``
for the rules of TF_CONFIG itself.  Each is an ``error`` but the warnings and
notes of a cluster's addresses (``port_zero``, ``loopback_address``: see
:mod:`estconf._addresses`), whose message begins with the severity; a
report is ``valid`` when no finding is an error.  Nodes that fail the same way share one
finding.  The report's dump writes each finding as ``check-cluster --format
json`` does: the fields of its ``cross_node`` beside its code, message, nodes
and path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    WithJsonSchema,
    computed_field,
    field_serializer,
)

from estconf._cross_node import CrossNode, TaskDifference, ValueGroup
from estconf._path import format_nodes as names
from estconf.codes import checked
from estconf.finding import SEVERITIES, Finding, Severity

__all__ = [
    "CLUSTER_MISMATCH",
    "CROSS_NODE_CODES",
    "MISMATCH_CODES",
    "MODEL_DIR_MISMATCH",
    "NO_NODES",
    "RPC_LAYER_MISMATCH",
    "SERVICE_MISMATCH",
    "SESSION_MASTER_MISMATCH",
    "TASK_CLAIMED_TWICE",
    "TASK_NOT_IN_CLUSTER",
    "TASK_UNCLAIMED",
    "ClusterReport",
    "CrossNode",
    "Finding",
    "TaskDifference",
    "ValueGroup",
    "names",
]

CLUSTER_MISMATCH: Final = checked("cluster_mismatch")
TASK_CLAIMED_TWICE: Final = checked("task_claimed_twice")
TASK_UNCLAIMED: Final = checked("task_unclaimed")
TASK_NOT_IN_CLUSTER: Final = checked("task_not_in_cluster")
MODEL_DIR_MISMATCH: Final = checked("model_dir_mismatch")
SERVICE_MISMATCH: Final = checked("service_mismatch")
RPC_LAYER_MISMATCH: Final = checked("rpc_layer_mismatch")
SESSION_MASTER_MISMATCH: Final = checked("session_master_mismatch")
NO_NODES: Final = checked("no_nodes")

MISMATCH_CODES: Final = {
    "model_dir": MODEL_DIR_MISMATCH,
    "service": SERVICE_MISMATCH,
    "rpc_layer": RPC_LAYER_MISMATCH,
    "session_master": SESSION_MASTER_MISMATCH,
}
"""The TF_CONFIG keys every node must agree on, and the code of a disagreement."""

CROSS_NODE_CODES: Final = (
    CLUSTER_MISMATCH,
    TASK_CLAIMED_TWICE,
    TASK_UNCLAIMED,
    TASK_NOT_IN_CLUSTER,
    *MISMATCH_CODES.values(),
    NO_NODES,
)
"""The codes of the rules that look at several nodes at once."""

_DIFFERENCES_SHOWN = 5
_NO_FACTS: Final = CrossNode()
_FINDING_JSON: Final = WithJsonSchema(
    {
        "type": "object",
        "description": "A finding: its code, severity, message, nodes and path, and beside them "
        "the fields of its CrossNode (profile, job, index, reference_nodes, differences, values); "
        "its hint (the fix) when it has one.",
    }
)


class ClusterReport(BaseModel):
    """The result of checking the TF_CONFIGs of every node of one job."""

    model_config = ConfigDict(frozen=True)

    profile: str = Field(description="The reader each node was checked for (`estimator`, ...).")
    nodes: tuple[str, ...] = Field(description="The nodes checked, in the order given.")
    clusters: int = Field(description="How many distinct clusters the nodes were given.")
    findings: tuple[Finding, ...] = Field(description="Everything found wrong.")

    @field_serializer("findings")
    def _dump_findings(
        self, findings: tuple[Finding, ...], info: SerializationInfo
    ) -> tuple[Annotated[dict[str, Any], _FINDING_JSON], ...]:
        """Each finding as its code, severity, message, hint, nodes and path, and its facts."""
        return tuple(_dumped(finding, info.mode) for finding in findings)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        """Whether no error was found: warnings and notes (a task at port 0, say) pass."""
        return all(finding.severity != "error" for finding in self.findings)

    def count(self, severity: Severity) -> int:
        """How many findings are of ``severity``."""
        return sum(finding.severity == severity for finding in self.findings)

    def summary(self) -> str:
        """One line: how many nodes and clusters were checked, and what was found.

        Findings that are all errors are counted as findings; else each
        severity is counted too (``2 findings (1 warning, 1 note)``).
        """
        checked = f"{_plural(len(self.nodes), 'node')}, {_plural(self.clusters, 'cluster')}"
        if not self.findings:
            return f"{checked}: valid"
        found = f"{checked}: {_plural(len(self.findings), 'finding')}"
        if self.count("error") == len(self.findings):
            return found
        counts = ((self.count(severity), severity) for severity in SEVERITIES)
        return found + f" ({', '.join(_plural(n, severity) for n, severity in counts if n)})"

    def to_text(self) -> str:
        """One line per finding (and a ``hint:`` line after one with a fix), then the summary."""
        lines = [
            f"{finding}\n" + (f"hint: {finding.hint}\n" if finding.hint else "")
            for finding in self.findings
        ]
        return "".join(lines) + self.summary() + "\n"

    def located(self) -> list[Finding]:
        """Each finding placed at the first node it names, with its line of text as message.

        A node read from a line of a file (``FILE:LINE``) is at that line; a
        finding that names no node is at the first node checked, or at
        ``<no input>`` when there was none.
        """
        found = []
        for finding in self.findings:
            reference = (finding.cross_node or _NO_FACTS).reference_nodes
            nodes = finding.nodes or reference or self.nodes or ("<no input>",)
            file, _, line = nodes[0].rpartition(":")
            if not (file and line.isdigit()):
                file, line = nodes[0], ""
            number = int(line) if line else None
            column = None if number is None else 1
            found.append(
                Finding.at(
                    finding.code,
                    str(finding),
                    file=file,
                    line=number,
                    column=column,
                    severity=finding.severity,
                    hint=finding.hint,
                )
            )
        return found


def _dumped(finding: Finding, mode: str) -> dict[str, Any]:
    """A finding of the report as its dump has it: the fields of :class:`CrossNode` at the top.

    Its ``hint`` is the last key, where the finding has a fix.
    """
    facts = (finding.cross_node or _NO_FACTS).model_dump(mode=mode)
    hint = {} if finding.hint is None else {"hint": finding.hint}
    return {
        "code": finding.code,
        "severity": finding.severity,
        "message": finding.message,
        "nodes": list(finding.nodes) if mode == "json" else finding.nodes,
        "profile": facts["profile"],
        "path": finding.path,
        "job": facts["job"],
        "index": facts["index"],
        "reference_nodes": facts["reference_nodes"],
        "differences": facts["differences"],
        "values": facts["values"],
        **hint,
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def differences_text(
    differences: Sequence[TaskDifference], reference_nodes: Sequence[str], nodes: Sequence[str]
) -> str:
    """The first few differences, ``; ``-separated, and how many more there are."""
    shown = [d.describe(reference_nodes, nodes) for d in differences[:_DIFFERENCES_SHOWN]]
    rest = len(differences) - len(shown)
    return "; ".join(shown) + (f"; and {rest} more" if rest else "")
