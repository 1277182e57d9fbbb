"""What the whole-job check knows of a finding besides its nodes: :class:`CrossNode`.

:func:`estconf.deployment.check_cluster` reports each thing wrong with the
TF_CONFIGs of a job as one :class:`~estconf.finding.Finding` that names its
nodes, with a :class:`CrossNode` record of the rest: the profile whose rule one
node breaks, the task it is about, the nodes of the cluster most nodes have,
each task whose address differs (:class:`TaskDifference`) and the nodes
grouped by the value they give a key (:class:`ValueGroup`).  It is data, not
text: the message of the finding says the same for people.

This module holds pydantic models: :mod:`estconf.finding`, which imports no
pydantic, names :class:`CrossNode` for the type checker alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

from estconf._path import format_nodes

__all__ = ["CrossNode", "TaskDifference", "ValueGroup"]


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
        reference, other = _address(self.reference), _address(self.other)
        return (
            f"{self.job}:{self.index}: {reference} ({format_nodes(reference_nodes)}) "
            f"vs {other} ({format_nodes(nodes)})"
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
        return f"{shown} ({format_nodes(self.nodes)})"


class CrossNode(BaseModel):
    """What the whole-job check knows of a finding besides the nodes it names.

    Every finding of :func:`~estconf.deployment.check_cluster` holds one, as
    its :attr:`~estconf.finding.Finding.cross_node`; a field that does not
    apply to its rule keeps its default.
    """

    model_config = ConfigDict(frozen=True)

    profile: str | None = Field(
        None, description="The reader whose rule a single node breaks; None for other rules."
    )
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
