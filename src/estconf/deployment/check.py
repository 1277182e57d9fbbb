"""Checking the TF_CONFIGs of every node of one job together: :func:`check_cluster`.

TensorFlow reads one node's TF_CONFIG at a time, once the job has started.
The mistakes that only show across nodes (every worker given index 0, two
nodes given different clusters, a node left out, one node with another
``model_dir``) are found here before anything starts, and each node is
checked by itself under a profile (see :mod:`estconf.deployment.profile`).

The check takes one pass over the nodes and keeps little of each: a large
job (1,000 nodes sharing a 1,000-task cluster) is checked in about the time
it takes to parse its JSON.  Each distinct ``cluster`` value is validated,
canonicalized and checked by the profile once; nodes are then grouped by
their cluster's canonical form with a dict lookup, so that clusters are
never compared pairwise, and each node pays only for its own task.

A node takes part in the comparisons of clusters and tasks when its cluster
can be read as jobs of tasks (even if the cluster is invalid: a malformed
address still differs from the other nodes' address); it claims a task when
its cluster is not empty and its task has a type and an integer index.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from pydantic import ValidationError

from estconf._addresses import address_findings
from estconf._json import type_name
from estconf._path import format_path
from estconf.cluster import ClusterSpec
from estconf.deployment._canonical import (
    Canonical,
    canonical,
    canonical_of_spec,
    claim,
    frozen,
    hashable_key,
    raw_key,
    value_key,
)
from estconf.deployment.profile import NodeReader, Problem, problems_of
from estconf.deployment.readers import profile_named
from estconf.deployment.report import (
    CLUSTER_MISMATCH,
    MISMATCH_CODES,
    NO_NODES,
    TASK_CLAIMED_TWICE,
    TASK_NOT_IN_CLUSTER,
    TASK_UNCLAIMED,
    ClusterReport,
    CrossNode,
    TaskDifference,
    ValueGroup,
    differences_text,
    names,
)
from estconf.finding import Finding, Loc, Severity
from estconf.tf_config import TaskType, TFConfig, parse_json

__all__ = ["NodeConfig", "check_cluster"]

NodeConfig: TypeAlias = Mapping[str, Any] | str | bytes | TFConfig
"""A node's TF_CONFIG: parsed JSON, JSON text, or a validated :class:`~estconf.TFConfig`."""

_ABSENT = object()
_NONE_YET = object()
_VALUES_SHOWN = 5


def check_cluster(
    nodes: Iterable[tuple[str, NodeConfig]],
    *,
    profile: str | NodeReader = "estimator",
    each_node: bool = True,
) -> ClusterReport:
    """Check the TF_CONFIGs of all nodes of one job, together and one by one.

    Args:
        nodes: ``(name, TF_CONFIG)`` for each node, read once and in order;
            a generator (such as :func:`~estconf.deployment.read_json_lines`)
            is never held in memory whole.  The name says where the
            TF_CONFIG came from (a file name, ``FILE:LINE``) in findings.
        profile: the reader each node is checked for, by name (``estimator``)
            or as a :class:`~estconf.deployment.NodeReader`.
        each_node: False to apply only the rules across nodes (the codes of
            :data:`~estconf.deployment.CROSS_NODE_CODES`) and skip what each
            node breaks on its own, for a caller that checks every node by
            itself already: no node's TF_CONFIG is then validated.

    A node given the very same ``cluster`` object as the node before it has
    that node's cluster, without comparing the two: such a shared object
    must not change while the nodes are taken.

    Returns:
        The findings: what differs between nodes (clusters, claimed tasks,
        ``model_dir``, ``service``, ``rpc_layer``, ``session_master``), then
        what each node breaks on its own.  A TF_CONFIG that cannot be parsed
        is a finding at its node, not an exception.

    Raises:
        ValueError: ``profile`` names no known profile.

    Examples:
        >>> cluster = {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"]}
        >>> report = check_cluster(
        ...     [
        ...         ("chief.json", {"cluster": cluster, "task": {"type": "chief", "index": 0}}),
        ...         ("w0.json", {"cluster": cluster, "task": {"type": "worker", "index": 0}}),
        ...         ("w1.json", {"cluster": cluster, "task": {"type": "worker", "index": 0}}),
        ...     ]
        ... )
        >>> [(finding.code, finding.nodes) for finding in report.findings]
        [('task_claimed_twice', ('w0.json', 'w1.json')), ('task_unclaimed', ())]
    """
    checker = _Checker(
        profile_named(profile) if isinstance(profile, str) else profile, each_node=each_node
    )
    for name, tf_config in nodes:
        checker.add(name, tf_config)
    return checker.report()


Said: TypeAlias = tuple[Finding, str | None]
"""A finding, and the profile whose rule it is (``None``: TF_CONFIG's own rules)."""


@dataclass
class _Cluster:
    """One distinct ``cluster`` value, as given, checked once."""

    number: int
    spec: ClusterSpec | None
    """The validated cluster, shared by every node given this value; ``None`` if invalid."""
    problems: list[Said]
    group: int | None
    """The group of nodes whose clusters list the same tasks; ``None`` if unreadable."""
    nodes: list[int] = field(default_factory=list)
    """The nodes given this value, whose own checks ran (``each_node``)."""
    names: tuple[str, ...] | None = None
    """The names of ``nodes``, once the report needs them."""


@dataclass
class _Nodes:
    """The nodes that break one rule the same way: some by themselves, some by their cluster.

    A cluster's problems are every one of its nodes' problems; they are kept
    once, with the cluster, so that a cluster with a problem at each of its
    tasks given to a node per task costs its size, not its size squared.
    """

    loc: Loc
    """Where in the TF_CONFIG, as the finding's ``loc``."""
    severity: Severity = "error"
    hint: str | None = None
    own: list[int] = field(default_factory=list)
    clusters: list[_Cluster] = field(default_factory=list)

    def names(self, names: list[str]) -> tuple[str, ...]:
        """The name of every node, in the order the nodes were taken."""
        if not self.own and len(self.clusters) == 1:  # shared by the cluster's problems
            cluster = self.clusters[0]
            if cluster.names is None:
                cluster.names = tuple(names[node] for node in cluster.nodes)
            return cluster.names
        nodes = heapq.merge(self.own, *(cluster.nodes for cluster in self.clusters))
        return tuple(names[node] for node in nodes)


@dataclass
class _Group:
    """Nodes whose clusters list the same tasks."""

    tasks: Canonical
    members: list[int] = field(default_factory=list)


class _Checker:
    """Takes nodes one at a time, keeping only what the whole-job rules need."""

    def __init__(self, profile: NodeReader, *, each_node: bool = True) -> None:
        self.profile = profile
        self.each_node = each_node
        self.names: list[str] = []
        self.clusters: dict[Hashable, _Cluster] = {}
        self.last_value: Any = _NONE_YET
        self.last_key: Hashable = None
        self.last_cluster = _Cluster(-1, None, [], None)
        self.groups: list[_Group] = []
        self.group_of: dict[Hashable, int] = {}
        self.claims: dict[tuple[str, int], list[int]] = {}
        self.outside: list[tuple[int, str, int, _Group]] = []
        self.values: dict[str, dict[str, tuple[Any, list[int]]]] = {
            key: {} for key in MISMATCH_CODES
        }
        self.problems: dict[tuple[str, str, str, str | None, str | None], _Nodes] = {}
        self.node_checks: dict[tuple[int, str], list[Said]] = {}

    # -- taking nodes ------------------------------------------------------------------

    def add(self, name: str, tf_config: NodeConfig) -> None:
        """Take one node's TF_CONFIG."""
        node = len(self.names)
        self.names.append(name)
        raw: Any = tf_config
        if isinstance(tf_config, TFConfig):
            raw = tf_config.model_dump(mode="json")
        elif isinstance(tf_config, (str, bytes)):
            try:
                raw = parse_json(tf_config)
            except ValidationError as error:
                self._record(node, [(problem, None) for problem in problems_of(error)])
                return
        if not isinstance(raw, Mapping):
            message = f"TF_CONFIG must be a JSON object, got {type_name(raw)}"
            self._record(node, [(Problem("tf_config_type", message), None)])
            return
        cluster = self._cluster(raw.get("cluster", _ABSENT))
        self._note_claim(node, cluster, claim(raw.get("task")))
        for key, values in self.values.items():
            value = raw.get(key)
            values.setdefault(value_key(value), (value, []))[1].append(node)
        if self.each_node:
            cluster.nodes.append(node)
            self._record(node, self._node_problems(raw, cluster))

    def _cluster(self, value: Any) -> _Cluster:
        """The checked cluster for a ``cluster`` value; each distinct value is checked once."""
        if value is self.last_value:  # the nodes share one object (not a fresh parse each)
            return self.last_cluster
        key = ("absent",) if value is _ABSENT else raw_key(value)
        if key == self.last_key:  # most nodes have the cluster of the node before
            self.last_value = value
            return self.last_cluster
        key = hashable_key(key, value)
        found = self.clusters.get(key)
        if found is None:
            found = self._new_cluster(value)
            self.clusters[key] = found
        self.last_value, self.last_key, self.last_cluster = value, key, found
        return found

    def _new_cluster(self, value: Any) -> _Cluster:
        """Validate, canonicalize and check a cluster value seen for the first time."""
        problems: list[Said] = []
        tasks: Canonical | None
        spec: ClusterSpec | None
        try:
            spec = (
                ClusterSpec()
                if value is _ABSENT
                else ClusterSpec.model_validate(value, strict=True)
            )
        except ValidationError as error:
            spec = None
            problems = [
                (Problem(p.code, p.message, ("cluster", *p.loc), p.hint), None)
                for p in problems_of(error)
            ]
            tasks = canonical(value)
        else:
            tasks = canonical_of_spec(spec)
            problems = [
                (problem, self.profile.name) for problem in self.profile.check_cluster(spec)
            ]
            problems.extend((found, None) for found in address_findings(spec.root))
        group = None if tasks is None else self._group(tasks)
        found = _Cluster(len(self.clusters), spec, problems, group)
        if self.each_node:
            for problem, profile in problems:
                self._nodes(problem, profile).clusters.append(found)
        return found

    def _group(self, tasks: Canonical) -> int:
        key = frozen(tasks)
        group = self.group_of.get(key)
        if group is None:
            group = self.group_of[key] = len(self.groups)
            self.groups.append(_Group(tasks))
        return group

    def _note_claim(self, node: int, cluster: _Cluster, task: tuple[str, int] | None) -> None:
        if cluster.group is None:
            return
        group = self.groups[cluster.group]
        group.members.append(node)
        if task is None or not group.tasks:
            return
        self.claims.setdefault(task, []).append(node)
        task_type, index = task
        job = group.tasks.get(task_type)
        if job is None and task_type == TaskType.EVALUATOR:
            return  # the estimator runs an evaluator beside the training cluster
        if job is None or index not in job:
            self.outside.append((node, task_type, index, group))

    def _node_problems(self, raw: Mapping[str, Any], cluster: _Cluster) -> list[Said]:
        """Validate a node's TF_CONFIG against its checked cluster, then run the profile.

        The cluster's own problems are not among them: they are its nodes' already.
        """
        rest = {key: value for key, value in raw.items() if key != "cluster"}
        # JSON values (str, int, float, bool, None, list, dict) have an exact repr
        rest_key = repr(rest)
        cached = self.node_checks.get((cluster.number, rest_key))
        if cached is not None:
            return cached
        problems: list[Said] = []
        if cluster.spec is not None and "cluster" in raw:
            rest["cluster"] = cluster.spec
        try:
            tf_config = TFConfig.model_validate(rest, strict=True)
        except ValidationError as error:
            problems.extend((problem, None) for problem in problems_of(error))
        else:
            if cluster.spec is not None:
                name = self.profile.name
                problems.extend((problem, name) for problem in self.profile.check_node(tf_config))
                written = getattr(self.profile, "check_written", None)  # optional
                if written is not None:
                    problems.extend((problem, name) for problem in written(raw))
        self.node_checks[(cluster.number, rest_key)] = problems
        return problems

    def _record(self, node: int, problems: list[Said]) -> None:
        if not self.each_node:
            return
        for problem, profile in problems:
            self._nodes(problem, profile).own.append(node)

    def _nodes(self, problem: Finding, profile: str | None) -> _Nodes:
        loc = tuple(step for step in problem.loc if step != "[key]")
        key = (problem.code, format_path(loc), problem.message, profile, problem.hint)
        found = self.problems.get(key)
        if found is None:
            found = self.problems[key] = _Nodes(loc, problem.severity, problem.hint)
        return found

    # -- reporting ---------------------------------------------------------------------

    def report(self) -> ClusterReport:
        """Return the findings about every node taken."""
        findings: list[Finding] = []
        if not self.names:
            findings.append(_finding(NO_NODES, "no TF_CONFIG was given: there is no node to check"))
        reference = self._reference()
        if reference is not None:
            findings.extend(self._cluster_mismatches(reference))
        findings.extend(self._claimed_twice())
        if reference is not None:
            findings.extend(self._unclaimed(reference))
        findings.extend(self._not_in_cluster())
        findings.extend(self._value_mismatches())
        findings.extend(  # a warning's or a note's message begins with its severity
            _finding(
                code,
                message if nodes.severity == "error" else f"{nodes.severity}: {message}",
                nodes.names(self.names),
                nodes.loc,
                severity=nodes.severity,
                hint=nodes.hint,
                profile=profile,
            )
            for (code, _, message, profile, _), nodes in self.problems.items()
        )
        return ClusterReport(
            profile=self.profile.name,
            nodes=tuple(self.names),
            clusters=len(self.groups),
            findings=tuple(findings),
        )

    def _names(self, nodes: Iterable[int]) -> tuple[str, ...]:
        return tuple(self.names[node] for node in nodes)

    def _reference(self) -> _Group | None:
        """The cluster most nodes have (the first seen among equals)."""
        if not self.groups:
            return None
        return max(self.groups, key=lambda group: len(group.members))

    def _cluster_mismatches(self, reference: _Group) -> Iterable[Finding]:
        reference_nodes = self._names(reference.members)
        for group in self.groups:
            if group is reference:
                continue
            nodes = self._names(group.members)
            differences = _differences(reference.tasks, group.tasks)
            if not group.tasks:
                detail = "this node has no cluster (local mode)"
            elif not reference.tasks:
                detail = "they have no cluster (local mode), this node has one"
            else:
                detail = differences_text(differences, reference_nodes, nodes)
            yield _finding(
                CLUSTER_MISMATCH,
                f"the cluster differs from the one most nodes have "
                f"({names(reference_nodes)}): {detail}",
                nodes,
                reference_nodes=reference_nodes,
                differences=tuple(differences),
            )

    def _claimed_twice(self) -> Iterable[Finding]:
        for (task_type, index), nodes in self.claims.items():
            if len(nodes) > 1:
                yield _finding(
                    TASK_CLAIMED_TWICE,
                    f"task {task_type}:{index} is claimed by {len(nodes)} nodes; "
                    "each task of the cluster runs on exactly one node",
                    self._names(nodes),
                    job=task_type,
                    index=index,
                )

    def _unclaimed(self, reference: _Group) -> Iterable[Finding]:
        reference_nodes = self._names(reference.members)
        for job in sorted(reference.tasks):
            for index, address in reference.tasks[job].items():
                if (job, index) not in self.claims:
                    yield _finding(
                        TASK_UNCLAIMED,
                        f"task {job}:{index} ({address}) of the cluster is claimed by no node",
                        reference_nodes=reference_nodes,
                        job=job,
                        index=index,
                    )

    def _not_in_cluster(self) -> Iterable[Finding]:
        for node, task_type, index, group in self.outside:
            job = group.tasks.get(task_type)
            if job is None:
                detail = f"it has no job {task_type!r} (its jobs are {sorted(group.tasks)})"
            else:
                detail = f"job {task_type!r} has the tasks {_indices(list(job))}"
            yield _finding(
                TASK_NOT_IN_CLUSTER,
                f"the node is task {task_type}:{index}, which its cluster does not list: {detail}",
                (self.names[node],),
                ("task",),
                job=task_type,
                index=index,
            )

    def _value_mismatches(self) -> Iterable[Finding]:
        for key, values in self.values.items():
            if len(values) < 2:
                continue
            ordered = sorted(values.values(), key=lambda value: -len(value[1]))
            groups = tuple(
                ValueGroup(value=value, nodes=self._names(nodes)) for value, nodes in ordered
            )
            shown = " vs ".join(group.describe() for group in groups[:_VALUES_SHOWN])
            if len(groups) > _VALUES_SHOWN:
                shown += f" and {len(groups) - _VALUES_SHOWN} more values"
            yield _finding(
                MISMATCH_CODES[key],
                f"{key} differs between nodes: {shown}",
                tuple(name for group in groups[1:] for name in group.nodes),
                (key,),
                reference_nodes=groups[0].nodes,
                values=groups,
            )


def _finding(
    code: str,
    message: str,
    nodes: tuple[str, ...] = (),
    loc: Loc = (),
    *,
    severity: Severity = "error",
    hint: str | None = None,
    **facts: Any,
) -> Finding:
    """A finding at ``nodes`` and ``loc``, its fix, and the cross-node ``facts`` (``CrossNode``).

    The facts are of their fields' types already and are not validated again:
    validation would copy their tuples of node names, a cluster's size for each
    of its findings, where a cluster with a problem at every task has as many
    findings as tasks.
    """
    return Finding.at(
        code,
        message,
        loc,
        nodes=nodes,
        severity=severity,
        hint=hint,
        cross_node=CrossNode.model_construct(**facts),
    )


def _differences(reference: Canonical, other: Canonical) -> list[TaskDifference]:
    """Each task on which two clusters disagree, jobs by name and tasks by index."""
    differences = []
    for job in sorted(reference.keys() | other.keys()):
        ours, theirs = reference.get(job, {}), other.get(job, {})
        for index in sorted(ours.keys() | theirs.keys()):
            mine, yours = ours.get(index), theirs.get(index)
            if mine != yours:
                differences.append(
                    TaskDifference(job=job, index=index, reference=mine, other=yours)
                )
    return differences


def _indices(indices: list[int]) -> str:
    if indices == list(range(len(indices))):
        return f"0 to {len(indices) - 1}" if len(indices) > 1 else "0"
    shown = ", ".join(map(str, indices[:10]))
    return shown + (f" and {len(indices) - 10} more" if len(indices) > 10 else "")
