"""What checking the TF_CONFIGs of a whole job found: :class:`ClusterReport`.

A report lists :class:`Finding` objects.  Each has a stable ``code`` and names
the nodes it is about.  The codes of the whole-job rules are:

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

Every other code is about one node's TF_CONFIG on its own, with the code the
single-file check gives (``json_invalid``, ``address``, ``missing_chief``, ...);
``profile`` names the reader whose rule it is, or is ``None`` for the rules of
TF_CONFIG itself.  Nodes that fail the same way share one finding.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, computed_field
from pydantic_core import to_jsonable_python

from estconf import finding as located
from estconf.codes import checked

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

_NAMES_SHOWN = 5
_DIFFERENCES_SHOWN = 5


class TaskDifference(BaseModel):
    """One task on which two clusters disagree.

    ``reference`` is the address in the reference cluster and ``other`` the
    address in the differing one; ``None`` where that cluster has no such task.
    """

    model_config = ConfigDict(frozen=True)

    job: str
    index: int
    reference: str | None
    other: str | None

    def describe(self, reference_nodes: Sequence[str], nodes: Sequence[str]) -> str:
        """``worker:2: host-a:2222 (node-1, node-3) vs host-b:2222 (node-2)``."""
        return (
            f"{self.job}:{self.index}: {_address(self.reference)} ({names(reference_nodes)}) "
            f"vs {_address(self.other)} ({names(nodes)})"
        )


def _address(address: str | None) -> str:
    return "no such task" if address is None else address


class ValueGroup(BaseModel):
    """The nodes that give a TF_CONFIG key one value (``None``: the key is not set)."""

    model_config = ConfigDict(frozen=True)

    value: Any
    nodes: tuple[str, ...]

    def describe(self) -> str:
        """``'gs://a' (node-1, node-2)``."""
        if self.value is None:
            shown = "not set"
        else:  # a node given from Python may hold what JSON has not: shown as a JSON dump has it
            value = to_jsonable_python(self.value, inf_nan_mode="null")
            shown = json.dumps(value, sort_keys=True)
        return f"{shown} ({names(self.nodes)})"


class Finding(BaseModel):
    """One thing wrong with the TF_CONFIGs of a job, and the nodes it concerns."""

    model_config = ConfigDict(frozen=True)

    code: str = Field(description="A stable code naming the rule.")
    message: str = Field(description="What is wrong, on one line.")
    nodes: tuple[str, ...] = Field(
        (), description="The nodes this is about (a file name, or FILE:LINE for JSON lines)."
    )
    profile: str | None = Field(
        None, description="The reader whose rule a single node breaks; None for other rules."
    )
    path: str = Field("", description="Where in a node's TF_CONFIG (`task.index`), if anywhere.")
    job: str | None = Field(None, description="The job of the task this is about.")
    index: int | None = Field(None, description="The index of the task this is about.")
    reference_nodes: tuple[str, ...] = Field(
        (), description="For a cluster_mismatch: the nodes that have the reference cluster."
    )
    differences: tuple[TaskDifference, ...] = Field(
        (), description="For a cluster_mismatch: each task whose address differs."
    )
    values: tuple[ValueGroup, ...] = Field(
        (), description="For a key mismatch: the nodes grouped by value, most common first."
    )

    def __str__(self) -> str:
        """``nodes: path: message`` on one line (``cluster:`` when no node is at fault)."""
        where = names(self.nodes) or "cluster"
        message = " ".join(self.message.split())
        return f"{where}: {self.path}: {message}" if self.path else f"{where}: {message}"


class ClusterReport(BaseModel):
    """The result of checking the TF_CONFIGs of every node of one job."""

    model_config = ConfigDict(frozen=True)

    profile: str = Field(description="The reader each node was checked for (`estimator`, ...).")
    nodes: tuple[str, ...] = Field(description="The nodes checked, in the order given.")
    clusters: int = Field(description="How many distinct clusters the nodes were given.")
    findings: tuple[Finding, ...] = Field(description="Everything found wrong.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        """Whether nothing was found wrong."""
        return not self.findings

    def summary(self) -> str:
        """One line: how many nodes and clusters were checked, and what was found."""
        checked = f"{_plural(len(self.nodes), 'node')}, {_plural(self.clusters, 'cluster')}"
        if self.valid:
            return f"{checked}: valid"
        return f"{checked}: {_plural(len(self.findings), 'finding')}"

    def to_text(self) -> str:
        """One line per finding, then the summary line."""
        return "".join(f"{finding}\n" for finding in self.findings) + self.summary() + "\n"

    def located(self) -> list[located.Finding]:
        """Each finding placed at the first node it names, with its line of text as message.

        A node read from a line of a file (``FILE:LINE``) is at that line; a
        finding that names no node is at the first node checked, or at
        ``<no input>`` when there was none.
        """
        found = []
        for finding in self.findings:
            nodes = finding.nodes or finding.reference_nodes or self.nodes or ("<no input>",)
            file, _, line = nodes[0].rpartition(":")
            if not (file and line.isdigit()):
                file, line = nodes[0], ""
            number = int(line) if line else None
            column = None if number is None else 1
            found.append(
                located.Finding.at(
                    finding.code, str(finding), file=file, line=number, column=column
                )
            )
        return found


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def names(nodes: Sequence[str], shown: int = _NAMES_SHOWN) -> str:
    """Name a few nodes, and say how many more there are: ``a, b, c and 997 more``."""
    if len(nodes) <= shown + 1:
        return ", ".join(nodes)
    return f"{', '.join(nodes[:shown])} and {len(nodes) - shown} more"


def differences_text(
    differences: Sequence[TaskDifference], reference_nodes: Sequence[str], nodes: Sequence[str]
) -> str:
    """The first few differences, ``; ``-separated, and how many more there are."""
    shown = [d.describe(reference_nodes, nodes) for d in differences[:_DIFFERENCES_SHOWN]]
    rest = len(differences) - len(shown)
    return "; ".join(shown) + (f"; and {rest} more" if rest else "")
