"""Whole-job checks: the TF_CONFIGs of every node of a job, checked together.

:func:`check_cluster` takes each node's TF_CONFIG and returns a
:class:`ClusterReport` of what no single node shows (clusters that differ, a
task claimed twice or by no node, a node outside its cluster, ``model_dir``,
``service``, ``rpc_layer`` or ``session_master`` that differ) and of what each
node breaks on its own under a profile (a :class:`NodeReader`).  :func:`read_json_lines`
reads one TF_CONFIG per line, as ``estconf tf-config --format jsonl`` writes,
and :func:`read_env_lines` the TF_CONFIGs an env file or shell script sets
(what ``--format env`` and ``--format shell`` write, or a start script).

Each finding of a report is an :class:`estconf.finding.Finding`, the finding
every check reports (:class:`Finding` here is that class): it names its
nodes, and its :class:`CrossNode` record holds the rest of what the check
knows of it.

Example:
    >>> from estconf.deployment import check_cluster, read_json_lines
    >>> lines = '''
    ... {"cluster": {"chief": ["h0:1"], "worker": ["h1:1"]}, "task": {"type": "chief", "index": 0}}
    ... {"cluster": {"chief": ["h0:1"], "worker": ["h2:1"]}, "task": {"type": "worker", "index": 0}}
    ... '''
    >>> report = check_cluster(read_json_lines(lines, "nodes.jsonl"))
    >>> print(report.findings[0])
    nodes.jsonl:3: the cluster differs ... worker:0: h1:1 (nodes.jsonl:2) vs h2:1 (nodes.jsonl:3)
"""

from __future__ import annotations

from estconf.deployment._lines import read_env_lines, read_json_lines
from estconf.deployment.check import NodeConfig, check_cluster
from estconf.deployment.profile import NodeReader, Problem, Profile, ReaderProfile
from estconf.deployment.readers import ESTIMATOR, MWMS, PROFILES, PS, profile_named
from estconf.deployment.report import (
    CROSS_NODE_CODES,
    ClusterReport,
    CrossNode,
    Finding,
    TaskDifference,
    ValueGroup,
)

__all__ = [
    "CROSS_NODE_CODES",
    "ESTIMATOR",
    "MWMS",
    "PROFILES",
    "PS",
    "ClusterReport",
    "CrossNode",
    "Finding",
    "NodeConfig",
    "NodeReader",
    "Problem",
    "Profile",
    "ReaderProfile",
    "TaskDifference",
    "ValueGroup",
    "check_cluster",
    "profile_named",
    "read_env_lines",
    "read_json_lines",
]
