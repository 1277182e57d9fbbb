"""estconf.deployment: the TF_CONFIGs of every node of a job, checked together."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
import math
import re
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import JsonSchemaMode

from estconf import ClusterSpec, TFConfig
from estconf._addresses import address_findings
from estconf.deployment import (
    CROSS_NODE_CODES,
    MWMS,
    ClusterReport,
    CrossNode,
    Finding,
    Problem,
    ReaderProfile,
    ValueGroup,
    check_cluster,
    profile_named,
    read_env_lines,
    read_json_lines,
)
from estconf.deployment.profile import problems_of
from estconf.deployment.report import TaskDifference
from estconf.estimator.reading import derive_distributed
from estconf.finding import NO_VALUE
from values import is_a_value

from complexity import BOUND, SMALL_TO_LARGE, growth
from strategies import deployments, tf_config_documents

CLUSTER = {
    "chief": ["chief-0:2222"],
    "ps": ["ps-0:2222"],
    "worker": ["worker-0:2222", "worker-1:2222", "worker-2:2222"],
}
TASKS = [("chief", 0), ("ps", 0), ("worker", 0), ("worker", 1), ("worker", 2)]


def node(task_type: str | None, index: int | str | None, cluster: Any = None, **keys: Any) -> Any:
    task = {} if task_type is None else {"type": task_type, "index": index}
    return {"cluster": copy.deepcopy(CLUSTER if cluster is None else cluster), "task": task, **keys}


def job(**keys: Any) -> list[tuple[str, Any]]:
    """A node per task of CLUSTER, named after its task."""
    return [(f"{t}-{i}", node(t, i, **keys)) for t, i in TASKS]


def codes(report: ClusterReport) -> list[str]:
    return [finding.code for finding in report.findings]


def only(report: ClusterReport, code: str) -> Finding:
    found = [finding for finding in report.findings if finding.code == code]
    assert len(found) == 1, report.to_text()
    return found[0]


def about(finding: Finding) -> CrossNode:
    """What the whole-job check knows of a finding besides its nodes: every finding has it."""
    assert finding.cross_node is not None, finding
    return finding.cross_node


class TestAJobThatIsRight:
    def test_one_node_per_task_is_valid(self) -> None:
        report = check_cluster(job())
        assert report.valid, report.to_text()
        assert report.findings == ()
        assert report.nodes == tuple(f"{t}-{i}" for t, i in TASKS)
        assert report.clusters == 1
        assert report.profile == "estimator"

    def test_the_same_cluster_in_any_form_is_one_cluster(self) -> None:
        sparse = {"worker": {"2": "worker-2:2222", "0": "worker-0:2222", "1": "worker-1:2222"}}
        reordered = {**sparse, "ps": ["ps-0:2222"], "chief": ["chief-0:2222"]}
        nodes = job()
        nodes[3] = ("worker-1", node("worker", 1, cluster=reordered))
        report = check_cluster(nodes)
        assert report.valid, report.to_text()
        assert report.clusters == 1

    def test_an_evaluator_outside_the_cluster_is_beside_it(self) -> None:
        report = check_cluster([*job(), ("evaluator", node("evaluator", 0))])
        assert report.valid, report.to_text()

    def test_an_evaluator_given_as_json_text_is_beside_the_cluster(self) -> None:
        """Read from text, the task type is a string equal to "evaluator", not the same object."""
        nodes = [*job(), ("evaluator", node("evaluator", 0))]
        report = check_cluster([(name, json.dumps(value)) for name, value in nodes])
        assert report.valid, report.to_text()
        assert report.findings == ()

    def test_an_evaluator_job_of_the_cluster_is_a_task_like_any(self) -> None:
        cluster = {**CLUSTER, "evaluator": ["eval-0:2222"]}
        nodes = [(f"{t}-{i}", node(t, i, cluster=cluster)) for t, i in TASKS]
        assert codes(check_cluster([*nodes, ("eval", node("evaluator", 0, cluster=cluster))])) == []
        unclaimed = only(check_cluster(nodes), "task_unclaimed")
        assert (about(unclaimed).job, about(unclaimed).index) == ("evaluator", 0)
        assert "task evaluator:0 (eval-0:2222) of the cluster is claimed by no node" in str(
            unclaimed
        )

    def test_a_sparse_cluster_is_claimed_task_by_task(self) -> None:
        cluster = {"chief": ["c:1"], "worker": {"1": "w1:1", "4": "w4:1"}}
        nodes = [
            ("c", node("chief", 0, cluster=cluster)),
            ("w1", node("worker", 1, cluster=cluster)),
            ("w4", node("worker", "4", cluster=cluster)),
        ]
        assert check_cluster(nodes).valid


class TestClusterMismatch:
    def test_the_diff_names_the_task_both_addresses_and_their_nodes(self) -> None:
        other = {**CLUSTER, "worker": ["worker-0:2222", "worker-1:2222", "host-b:2222"]}
        nodes = job()
        nodes[1] = ("node-2", node("ps", 0, cluster=other))
        finding = only(check_cluster(nodes), "cluster_mismatch")
        assert finding.nodes == ("node-2",)
        assert about(finding).reference_nodes == ("chief-0", "worker-0", "worker-1", "worker-2")
        [difference] = about(finding).differences
        assert (difference.job, difference.index) == ("worker", 2)
        assert (difference.reference, difference.other) == ("worker-2:2222", "host-b:2222")
        assert finding.message.endswith(
            "worker:2: worker-2:2222 (chief-0, worker-0, worker-1, worker-2) "
            "vs host-b:2222 (node-2)"
        )

    def test_the_example_of_the_docs(self) -> None:
        a = {"chief": ["c:1"], "worker": ["w0:1", "w1:1", "host-a:2222"]}
        b = {"chief": ["c:1"], "worker": ["w0:1", "w1:1", "host-b:2222"]}
        nodes = [
            ("node-1", node("worker", 0, cluster=a)),
            ("node-2", node("worker", 1, cluster=b)),
            ("node-3", node("worker", 2, cluster=a)),
            ("node-0", node("chief", 0, cluster=a)),
        ]
        finding = only(check_cluster(nodes), "cluster_mismatch")
        difference = about(finding).differences[0]
        assert (
            difference.describe(["node-1", "node-3"], ["node-2"])
            == "worker:2: host-a:2222 (node-1, node-3) vs host-b:2222 (node-2)"
        )

    def test_a_task_only_one_cluster_has(self) -> None:
        bigger = {**CLUSTER, "worker": [*CLUSTER["worker"], "worker-3:2222"]}
        nodes = [*job(), ("worker-3", node("worker", 3, cluster=bigger))]
        finding = only(check_cluster(nodes), "cluster_mismatch")
        assert [(d.job, d.index, d.reference, d.other) for d in about(finding).differences] == [
            ("worker", 3, None, "worker-3:2222")
        ]
        assert "worker:3: no such task (" in finding.message
        assert "task_not_in_cluster" not in codes(check_cluster(nodes))

    def test_each_differing_cluster_is_reported_against_the_most_common(self) -> None:
        nodes = job()
        for position, host in ((0, "x:1"), (4, "y:1")):
            name, data = nodes[position]
            data["cluster"]["ps"] = [host]
            nodes[position] = (name, data)
        report = check_cluster(nodes)
        mismatches = [f for f in report.findings if f.code == "cluster_mismatch"]
        assert [f.nodes for f in mismatches] == [("chief-0",), ("worker-2",)]
        assert all(about(f).reference_nodes == ("ps-0", "worker-0", "worker-1") for f in mismatches)
        assert report.clusters == 3

    def test_a_node_without_a_cluster(self) -> None:
        nodes = [*job()[:-1], ("worker-2", {"task": {"type": "worker", "index": 0}})]
        report = check_cluster(nodes)
        finding = only(report, "cluster_mismatch")
        assert finding.nodes == ("worker-2",)
        assert "this node has no cluster (local mode)" in finding.message
        assert len(about(finding).differences) == len(TASKS)
        assert (
            about(only(report, "task_unclaimed")).job,
            about(only(report, "task_unclaimed")).index,
        ) == (
            "worker",
            2,
        )

    def test_five_differences_are_shown_one_after_another_and_the_rest_counted(self) -> None:
        a = {"worker": [f"a{i}:1" for i in range(7)]}
        b = {"worker": [f"b{i}:1" for i in range(7)]}
        nodes = [
            ("n0", node("worker", 0, cluster=a)),
            ("n1", node("worker", 1, cluster=a)),
            ("odd", node("worker", 2, cluster=b)),
        ]
        finding = only(check_cluster(nodes), "cluster_mismatch")
        assert len(about(finding).differences) == 7
        assert finding.message.endswith(
            "(n0, n1): worker:0: a0:1 (n0, n1) vs b0:1 (odd); "
            "worker:1: a1:1 (n0, n1) vs b1:1 (odd); worker:2: a2:1 (n0, n1) vs b2:1 (odd); "
            "worker:3: a3:1 (n0, n1) vs b3:1 (odd); worker:4: a4:1 (n0, n1) vs b4:1 (odd); "
            "and 2 more"
        )

    def test_long_lists_of_nodes_are_cut_in_messages_but_kept_whole(self) -> None:
        workers = [f"w{i}:1" for i in range(40)]
        cluster = {"chief": ["c:1"], "worker": workers}
        nodes = [("chief", node("chief", 0, cluster=cluster))] + [
            (f"n{i}", node("worker", i, cluster=cluster)) for i in range(39)
        ]
        odd = {"chief": ["c:1"], "worker": [*workers[:39], "elsewhere:1"]}
        finding = only(
            check_cluster([*nodes, ("n39", node("worker", 39, cluster=odd))]), "cluster_mismatch"
        )
        assert len(about(finding).reference_nodes) == 40
        assert "(chief, n0, n1, n2, n3 and 35 more)" in finding.message


class TestClaims:
    def test_every_worker_given_index_0(self) -> None:
        nodes = [
            ("chief", node("chief", 0)),
            ("ps", node("ps", 0)),
            *[(f"worker-{i}", node("worker", 0)) for i in range(3)],
        ]
        report = check_cluster(nodes)
        assert codes(report) == ["task_claimed_twice", "task_unclaimed", "task_unclaimed"]
        twice = report.findings[0]
        assert twice.nodes == ("worker-0", "worker-1", "worker-2")
        assert (about(twice).job, about(twice).index) == ("worker", 0)
        assert str(twice) == (
            "worker-0, worker-1, worker-2: task worker:0 is claimed by 3 nodes; "
            "each task of the cluster runs on exactly one node"
        )
        assert [(about(f).job, about(f).index) for f in report.findings[1:]] == [
            ("worker", 1),
            ("worker", 2),
        ]

    def test_an_index_as_text_claims_the_same_task(self) -> None:
        report = check_cluster([*job(), ("again", node("worker", "1"))])
        assert only(report, "task_claimed_twice").nodes == ("worker-1", "again")

    def test_a_node_left_out(self) -> None:
        report = check_cluster(job()[:-1])
        finding = only(report, "task_unclaimed")
        assert codes(report) == ["task_unclaimed"]
        assert (about(finding).job, about(finding).index, finding.nodes) == ("worker", 2, ())
        assert (
            str(finding)
            == "cluster: task worker:2 (worker-2:2222) of the cluster is claimed by no node"
        )

    def test_a_task_outside_its_cluster(self) -> None:
        report = check_cluster([*job(), ("stray", node("worker", 7))])
        finding = only(report, "task_not_in_cluster")
        assert finding.nodes == ("stray",)
        assert (about(finding).job, about(finding).index, finding.path) == ("worker", 7, "task")
        assert "job 'worker' has the tasks 0 to 2" in finding.message
        # the estimator's own sentence for the same node comes after the whole-job findings
        assert codes(report) == ["task_not_in_cluster", "task_index_out_of_range"]

    def test_a_job_the_cluster_does_not_have(self) -> None:
        finding = only(
            check_cluster([*job(), ("stray", node("trainer", 0))]), "task_not_in_cluster"
        )
        assert "it has no job 'trainer' (its jobs are ['chief', 'ps', 'worker'])" in finding.message

    def test_an_evaluator_beside_the_cluster_given_as_json_text(self) -> None:
        nodes = [*job(), ("evaluator", node("evaluator", 0))]
        report = check_cluster((name, json.dumps(data)) for name, data in nodes)
        assert report.valid, report.to_text()

    def test_a_hole_of_a_sparse_job(self) -> None:
        cluster = {"chief": ["c:1"], "worker": {"1": "w1:1"}}
        report = check_cluster(
            [("c", node("chief", 0, cluster=cluster)), ("w", node("worker", 0, cluster=cluster))]
        )
        assert "job 'worker' has the tasks 1" in only(report, "task_not_in_cluster").message
        assert "task_unclaimed" in codes(report)

    def test_a_job_is_listed_by_its_first_ten_tasks_and_how_many_more(self) -> None:
        cluster = {"chief": ["c:1"], "worker": {str(i): f"w{i}:1" for i in range(1, 12)}}
        report = check_cluster([("w", node("worker", 0, cluster=cluster))], each_node=False)
        assert only(report, "task_not_in_cluster").message.endswith(
            "job 'worker' has the tasks 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 1 more"
        )

    def test_a_task_with_an_empty_type_claims_none(self) -> None:
        blank = [(f"blank-{i}", node("", 0)) for i in range(2)]
        assert check_cluster([*job(), *blank], each_node=False).valid

    def test_a_node_with_no_task_claims_none(self) -> None:
        report = check_cluster([*job()[:-1], ("idle", node(None, None))])
        assert (
            about(only(report, "task_unclaimed")).job,
            about(only(report, "task_unclaimed")).index,
        ) == (
            "worker",
            2,
        )
        missing = [f for f in report.findings if about(f).profile == "estimator"]
        assert [(f.code, f.nodes) for f in missing] == [
            ("missing_task_type", ("idle",)),
            ("missing_task_index", ("idle",)),
        ]


class TestKeysThatMustAgree:
    @pytest.mark.parametrize(
        ("key", "value", "other"),
        [
            ("model_dir", "gs://bucket/model", "gs://bucket/other"),
            ("service", {"tpu_worker_job_name": "tpu"}, {"tpu_worker_job_name": "tpu2"}),
            ("rpc_layer", "grpc", "grpc+verbs"),
            ("session_master", "grpc://master:1", "grpc://elsewhere:1"),
        ],
    )
    def test_one_node_with_another_value(self, key: str, value: Any, other: Any) -> None:
        nodes = job(**{key: value})
        nodes[2] = (nodes[2][0], {**nodes[2][1], key: other})
        report = check_cluster(nodes)
        finding = only(report, f"{key}_mismatch")
        assert codes(report) == [f"{key}_mismatch"]
        assert finding.nodes == ("worker-0",)
        assert finding.path == key
        assert [(group.value, group.nodes) for group in about(finding).values] == [
            (value, ("chief-0", "ps-0", "worker-1", "worker-2")),
            (other, ("worker-0",)),
        ]

    def test_a_key_left_out_on_one_node(self) -> None:
        nodes = job(model_dir="/m")
        del nodes[0][1]["model_dir"]
        finding = only(check_cluster(nodes), "model_dir_mismatch")
        assert finding.message == (
            'model_dir differs between nodes: "/m" (ps-0, worker-0, worker-1, worker-2) '
            "vs not set (chief-0)"
        )

    @pytest.mark.parametrize(
        ("value", "shown"),
        [
            ({"x": datetime.date(2020, 1, 2)}, '{"x": "2020-01-02"}'),
            ({"x": math.inf}, '{"x": null}'),
        ],
    )
    def test_a_python_value_is_shown_as_its_json_value(self, value: Any, shown: str) -> None:
        """A node given from Python may hold what JSON has not: shown as the JSON report has it."""
        nodes = job(service={"x": 1})
        nodes[2] = (nodes[2][0], {**nodes[2][1], "service": value})
        finding = only(check_cluster(nodes), "service_mismatch")
        assert finding.message.endswith(f" vs {shown} (worker-0)")

    def test_null_and_absent_are_the_same_service(self) -> None:
        nodes = job()
        nodes[0][1]["service"] = None
        assert check_cluster(nodes).valid


class TestEachNode:
    def test_a_rule_broken_by_every_node_is_one_finding(self) -> None:
        cluster = {"worker": ["w0:1", "w1:1"]}
        report = check_cluster([(f"w{i}", node("worker", i, cluster=cluster)) for i in range(2)])
        finding = only(report, "missing_chief")
        assert finding.nodes == ("w0", "w1")
        assert about(finding).profile == "estimator"
        assert finding.path == "cluster"
        assert 'it must have one "chief" node' in finding.message

    def test_a_bad_address_is_reported_once_with_every_node_that_has_it(self) -> None:
        cluster = {**CLUSTER, "ps": ["no port"]}
        report = check_cluster([(f"{t}-{i}", node(t, i, cluster=cluster)) for t, i in TASKS])
        finding = only(report, "address")
        assert finding.nodes == tuple(f"{t}-{i}" for t, i in TASKS)
        assert (finding.path, about(finding).profile) == ("cluster.ps[0]", None)
        assert codes(report) == ["address"]

    def test_the_rest_of_a_node_is_checked_with_a_bad_cluster(self) -> None:
        bad = node("worker", 0, cluster={"worker": "w0:1"}, service=5)
        report = check_cluster([("w", bad)])
        assert [(f.code, f.path) for f in report.findings] == [
            ("job_tasks_type", "cluster.worker"),
            ("service_type", "service"),
        ]

    def test_a_cluster_that_cannot_be_read_takes_no_part_in_the_comparisons(self) -> None:
        report = check_cluster(
            [*job(), ("odd", {"cluster": 5, "task": {"type": "ps", "index": 0}})]
        )
        assert [(f.code, f.nodes, f.path) for f in report.findings] == [
            ("cluster_type", ("odd",), "cluster")
        ]
        assert report.clusters == 1

    def test_an_evaluator_beside_a_master_is_the_estimators_error(self) -> None:
        cluster = {"master": ["m:1"], "worker": ["w:1"]}
        report = check_cluster(
            [
                ("m", node("master", 0, cluster=cluster)),
                ("w", node("worker", 0, cluster=cluster)),
                ("e", node("evaluator", 0, cluster=cluster)),
            ]
        )
        assert [(f.code, f.nodes, about(f).profile) for f in report.findings] == [
            ("evaluator_with_master", ("e",), "estimator")
        ]

    def test_findings_of_one_node_are_those_of_the_single_file_check(self) -> None:
        data = node("worker", 9, cluster={"worker": ["a:1", "a:1"]})
        with pytest.raises(ValidationError) as info:
            TFConfig.model_validate(data, strict=True)
        [finding] = [f for f in check_cluster([("n", data)]).findings if f.code == "address"]
        assert finding.message == info.value.errors()[0]["msg"]

    @given(tf_config_documents())
    def test_a_node_on_its_own_breaks_the_rules_the_single_file_check_names(
        self, data: dict[str, Any]
    ) -> None:
        try:
            derive_distributed(TFConfig.model_validate(data, strict=True))
        except ValidationError as error:
            expected = [(e["type"], e["msg"]) for e in error.errors()]
        else:
            expected = []
        try:  # a valid cluster's warnings and notes, which validate says of the file too
            cluster = ClusterSpec.model_validate(data.get("cluster", {}), strict=True)
        except ValidationError:
            pass
        else:
            said = address_findings(cluster.root)
            expected = [(f.code, f"{f.severity}: {f.message}") for f in said] + expected
        report = check_cluster([("n", data)])
        found = [(f.code, f.message) for f in report.findings if f.code not in CROSS_NODE_CODES]
        assert found == expected

    def test_an_unknown_profile(self) -> None:
        with pytest.raises(
            ValueError, match="unknown profile 'nope'; the profiles are estimator, mwms, ps"
        ):
            check_cluster(job(), profile="nope")
        assert [profile_named(name).name for name in ("estimator", "mwms", "ps")] == [
            "estimator",
            "mwms",
            "ps",
        ]


WORKERS = {"worker": ["worker-0:2222", "worker-1:2222"]}


class TestAddresses:
    """A task at port 0 and loopback hosts: a warning and a note once per cluster, not errors."""

    AT_ZERO = {**CLUSTER, "worker": ["worker-0:0", "worker-1:2222", "worker-2:2222"]}

    def test_a_task_at_port_0_is_a_warning_for_every_node_given_the_cluster(self) -> None:
        report = check_cluster([(f"{t}-{i}", node(t, i, cluster=self.AT_ZERO)) for t, i in TASKS])
        [warning] = report.findings
        assert (warning.code, warning.severity, warning.path) == (
            "port_zero",
            "warning",
            "cluster.worker[0]",
        )
        assert warning.nodes == tuple(f"{t}-{i}" for t, i in TASKS)
        assert warning.message.startswith("warning: 'worker-0:0' has port 0, any free port")
        assert warning.hint == "give the task a fixed port, e.g. 'worker-0:2222'"
        assert about(warning).profile is None  # a rule of TF_CONFIG itself, whatever the reader
        assert report.valid
        assert report.count("warning") == 1 and report.count("error") == 0
        assert report.summary() == "5 nodes, 1 cluster: 1 finding (1 warning)"

    def test_beside_an_error_the_summary_counts_each_severity(self) -> None:
        local = {"chief": ["localhost:1"], "worker": ["localhost:2"]}
        nodes = [("c", node("chief", 0, cluster=local)), ("w", node("worker", 5, cluster=local))]
        report = check_cluster(nodes)
        assert [(f.code, f.severity) for f in report.findings] == [
            ("task_unclaimed", "error"),
            ("task_not_in_cluster", "error"),
            ("loopback_address", "note"),
            ("task_index_out_of_range", "error"),
        ]
        assert not report.valid
        assert report.summary() == "2 nodes, 1 cluster: 4 findings (3 errors, 1 note)"

    def test_clusters_written_differently_share_one_finding(self) -> None:
        """The same task at port 0 in a dense and in a sparse job: one warning, every node."""
        sparse = {**self.AT_ZERO, "worker": {"0": "worker-0:0", "1": "worker-1:2222"}}
        dense = {**self.AT_ZERO, "worker": ["worker-0:0", "worker-1:2222"]}
        nodes = [("a", node("worker", 0, cluster=dense)), ("b", node("worker", 1, cluster=sparse))]
        report = check_cluster(nodes)
        [warning] = [f for f in report.findings if f.code == "port_zero"]
        assert (warning.nodes, warning.path) == (("a", "b"), "cluster.worker[0]")

    def test_none_across_nodes_alone(self) -> None:
        """``each_node=False`` (the TFJob check, which checks each pod itself) adds none."""
        nodes = [(f"{t}-{i}", node(t, i, cluster=self.AT_ZERO)) for t, i in TASKS]
        assert check_cluster(nodes, each_node=False).findings == ()

    def test_none_of_a_cluster_of_one_task(self) -> None:
        one = {"chief": ["localhost:0"]}
        assert check_cluster([("c", node("chief", 0, cluster=one))]).findings == ()


class TestDistributeProfiles:
    """The tf.distribute readers as profiles: their rules, located in the node's TF_CONFIG."""

    def test_a_cluster_of_workers_is_valid_for_mwms_only(self) -> None:
        nodes = [(f"w{i}", node("worker", i, cluster=WORKERS)) for i in range(2)]
        assert check_cluster(nodes, profile="mwms").valid
        estimator = only(check_cluster(nodes), "missing_chief")
        assert (about(estimator).profile, estimator.nodes) == ("estimator", ("w0", "w1"))
        ps = only(check_cluster(nodes, profile="ps"), "missing_ps")
        assert (about(ps).profile, ps.path, ps.message) == (
            "ps",
            "cluster",
            "There must be at least one ps.",
        )

    def test_mwms_refuses_the_tasks_of_a_ps_job(self) -> None:
        report = check_cluster(job(), profile="mwms")
        finding = only(report, "no_id_for_task_type")
        assert (finding.nodes, finding.path, about(finding).profile) == (
            ("ps-0",),
            "task.type",
            "mwms",
        )
        assert finding.message == "There is no id for task_type 'ps'"
        assert codes(report) == ["no_id_for_task_type"]

    def test_a_refusal_keeps_its_readers_fix(self) -> None:
        """The hint a reader gives is the finding's, in its dump and where it is placed."""
        report = check_cluster(job(), profile="mwms")
        fix = (
            "MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job under the "
            "ps profile (--profile ps)"
        )
        assert only(report, "no_id_for_task_type").hint == fix
        [dumped] = report.model_dump(mode="json")["findings"]
        assert dumped["hint"] == fix
        [placed] = report.located()
        assert (placed.file, placed.hint) == ("ps-0", fix)
        assert report.to_text().splitlines()[1] == f"hint: {fix}"

    def test_the_same_sentence_with_another_fix_is_another_finding(self) -> None:
        """A cluster of two workers and one of three refuse index 5 alike, but the fixes differ."""
        nodes = [
            ("a", node("worker", 5, cluster={"worker": ["w0:1", "w1:1"], "ps": ["p:1"]})),
            ("b", node("worker", 5, cluster={"worker": ["w0:1", "w1:1", "w2:1"], "ps": ["p:1"]})),
        ]
        found = check_cluster(nodes, profile="ps").findings
        refused = [f for f in found if f.code == "task_id_out_of_range"]
        assert [(f.nodes, f.hint) for f in refused] == [
            (
                ("a",),
                "set task.index to this node's index in job 'worker' (0 to 1), or add "
                "task 5's address to the job",
            ),
            (
                ("b",),
                "set task.index to this node's index in job 'worker' (0 to 2), or add "
                "task 5's address to the job",
            ),
        ]

    def test_a_finding_without_a_fix_dumps_no_hint(self) -> None:
        report = check_cluster([("a", node("worker", 0)), ("b", node("worker", 0))])
        assert all("hint" not in f for f in report.model_dump(mode="json")["findings"])

    def test_ps_reads_a_chief_ps_and_workers(self) -> None:
        assert check_cluster(job(), profile="ps").valid
        out_of_range = [("w", node("worker", 5))]
        finding = only(check_cluster(out_of_range, profile="ps"), "task_id_out_of_range")
        assert (finding.path, about(finding).profile) == ("task.index", "ps")


class CountingProfile:
    """A profile that counts how often it is asked, and refuses parameter servers."""

    name = "counting"

    def __init__(self) -> None:
        self.clusters: list[ClusterSpec] = []
        self.nodes: list[TFConfig] = []

    def check_cluster(self, cluster: ClusterSpec) -> Sequence[Problem]:
        self.clusters.append(cluster)
        if "ps" in cluster.root:
            return [Problem("ps_refused", "no ps here", ("cluster", "ps"))]
        return []

    def check_node(self, tf_config: TFConfig) -> Sequence[Problem]:
        self.nodes.append(tf_config)
        return []


class TestProfiles:
    def test_a_cluster_is_checked_once_and_each_distinct_node_once(self) -> None:
        profile = CountingProfile()
        nodes = [*job(), ("copy", node("worker", 1))]
        report = check_cluster(nodes, profile=profile)
        assert len(profile.clusters) == 1
        assert len(profile.nodes) == len(TASKS)  # the copy of worker-1 is not checked again
        assert all(tf_config.cluster is profile.clusters[0] for tf_config in profile.nodes)
        finding = only(report, "ps_refused")
        assert (about(finding).profile, finding.path) == ("counting", "cluster.ps")
        assert finding.nodes == (*(f"{t}-{i}" for t, i in TASKS), "copy")
        assert report.profile == "counting"

    def test_a_reader_that_raises_is_a_profile(self) -> None:
        def refuse_workers(tf_config: TFConfig) -> None:
            if tf_config.task.type == "worker":
                ClusterSpec.model_validate({"worker": "not a list"})

        profile = ReaderProfile("picky", refuse_workers)
        report = check_cluster(job(), profile=profile)
        finding = only(report, "job_tasks_type")
        assert finding.nodes == ("worker-0", "worker-1", "worker-2")
        assert about(finding).profile == "picky"

    def test_an_invalid_cluster_is_not_given_to_the_profile(self) -> None:
        profile = CountingProfile()
        check_cluster([("n", node("worker", 0, cluster={"worker": ["bad"]}))], profile=profile)
        assert profile.clusters == profile.nodes == []


class TestReaderProfiles:
    """A reader that raises on what it refuses, made a profile."""

    def test_a_cluster_reader_checks_each_distinct_cluster(self) -> None:
        def refuse_ps(cluster: ClusterSpec) -> None:
            if "ps" in cluster.root:
                ClusterSpec.model_validate({"ps": "not a list"})

        profile = ReaderProfile("no-ps", lambda tf_config: None, cluster_reader=refuse_ps)
        report = check_cluster(job(), profile=profile)
        finding = only(report, "job_tasks_type")
        assert (finding.nodes, about(finding).profile) == (
            tuple(f"{t}-{i}" for t, i in TASKS),
            "no-ps",
        )
        assert (finding.path, codes(report)) == ("ps", ["job_tasks_type"])
        workers = [(f"w{i}", node("worker", i, cluster=WORKERS)) for i in range(2)]
        assert check_cluster(workers, profile=profile).valid

    def test_a_location_outside_the_error_root_is_kept_whole(self) -> None:
        class Reader(BaseModel):
            tf_config: int
            other: int

        with pytest.raises(ValidationError) as info:
            Reader.model_validate({"tf_config": "x", "other": "y"})
        assert [problem.loc for problem in problems_of(info.value, ("tf_config",))] == [
            (),
            ("other",),
        ]

    def test_a_profile_cannot_be_changed(self) -> None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            MWMS.name = "other"  # type: ignore[misc]
        assert {MWMS: 1}[ReaderProfile(MWMS.name, MWMS.reader, error_root=("tf_config",))] == 1


class TestInputs:
    def test_json_text_bytes_and_models_read_as_the_dict(self) -> None:
        nodes = job(model_dir="/m")
        forms: list[tuple[str, Any]] = [
            (nodes[0][0], json.dumps(nodes[0][1])),
            (nodes[1][0], json.dumps(nodes[1][1]).encode()),
            (nodes[2][0], TFConfig.model_validate(nodes[2][1])),
            *nodes[3:],
        ]
        assert check_cluster(forms) == check_cluster(nodes)
        assert check_cluster(forms).valid

    def test_json_lines_with_a_bad_line(self) -> None:
        lines = [json.dumps(data) for _, data in job()]
        text = "\n".join([lines[0], "", lines[1], '{"cluster": ', *lines[2:], "[1]", ""]) + "\n"
        report = check_cluster(read_json_lines(text, "nodes.jsonl"))
        assert report.nodes == (
            "nodes.jsonl:1",
            "nodes.jsonl:3",
            "nodes.jsonl:4",
            "nodes.jsonl:5",
            "nodes.jsonl:6",
            "nodes.jsonl:7",
            "nodes.jsonl:8",
        )
        assert [(f.code, f.nodes) for f in report.findings] == [
            ("json_invalid", ("nodes.jsonl:4",)),
            ("tf_config_type", ("nodes.jsonl:8",)),
        ]
        assert "Expecting value (line 1, column 13)" in report.findings[0].message
        assert check_cluster(read_json_lines(text.encode(), "nodes.jsonl")) == report

    def test_json_lines_read_crlf_and_a_last_line_without_newline(self) -> None:
        lines = [json.dumps(data) for _, data in job()]
        report = check_cluster(read_json_lines("\r\n".join(lines)))
        assert report.valid
        assert report.nodes[-1] == f"<stdin>:{len(lines)}"

    def test_a_repeated_key_on_a_line(self) -> None:
        report = check_cluster(read_json_lines('{"task": {}, "task": {}}'))
        assert codes(report) == ["duplicate_key"]

    def test_a_node_that_is_not_an_object(self) -> None:
        report = check_cluster([("n", [])])  # type: ignore[list-item]
        assert str(report.findings[0]) == "n: TF_CONFIG must be a JSON object, got an array"

    def test_env_file_lines_are_read_by_the_dotenv_rules(self) -> None:
        """Quotes are removed, as Docker Compose and python-dotenv remove them; each line a node."""
        text = "# chief:0\nTF_CONFIG={\"task\": {}}\nOTHER=1\n\n  TF_CONFIG='{}'  \n"
        assert list(read_env_lines(text, "nodes.env")) == [
            ("nodes.env:2", '{"task": {}}'),
            ("nodes.env:5", "{}"),
        ]

    @pytest.mark.parametrize(
        ("line", "value"),
        [
            ("export TF_CONFIG='{\"task\": {}}'", '{"task": {}}'),
            ('TF_CONFIG="{\\"a\\": 1}" python train.py', '{"a": 1}'),
            ("A=1 TF_CONFIG={} B=2 run", "{}"),
            ("export TF_CONFIG=1 TF_CONFIG=2", "2"),
            ("export TF_CONFIG='{}'  # chief:0", "{}"),
            ("TF_CONFIG={}#not-a-comment", "{}#not-a-comment"),
            ('TF_CONFIG="\\$x \\n"', "$x \\n"),
            ("TF_CONFIG=\\'{}", "'{}"),
            ("export TF_CONFIG='{}' OTHER=\"1\"", "{}"),
            ("echo TF_CONFIG={}", None),
            ("run A=1 TF_CONFIG={}", None),
            ("export OTHER=1", None),
            ("# export TF_CONFIG={}", None),
            ("", None),
        ],
    )
    def test_shell_lines_are_unquoted_as_the_shell_would(
        self, line: str, value: str | None
    ) -> None:
        expected = [] if value is None else [("run.sh:1", value)]
        assert list(read_env_lines(line, "run.sh", shell=True)) == expected

    @pytest.mark.parametrize(
        ("text", "error"),
        [
            ("export TF_CONFIG='{\"unclosed", "run.sh:1:18: the single quote opened here"),
            ('A=1\nexport TF_CONFIG="$(hostname)"', "run.sh:2:19: TF_CONFIG depends on"),
        ],
    )
    def test_a_value_the_shell_cannot_give_is_refused_where_it_is(
        self, text: str, error: str
    ) -> None:
        """No value is made up: an unclosed quote, or a value known only when the script runs."""
        with pytest.raises(ValueError, match=re.escape(error)):
            list(read_env_lines(text, "run.sh", shell=True))

    def test_a_multi_line_value_is_one_node_at_its_first_line(self) -> None:
        text = "#!/bin/sh\nexport TF_CONFIG='{\n  \"task\": {}\n}'\npython train.py\n"
        assert list(read_env_lines(text, "run.sh", shell=True)) == [
            ("run.sh:2", '{\n  "task": {}\n}')
        ]

    def test_a_large_value_among_other_words(self) -> None:
        value = json.dumps({"cluster": {"worker": [f"w{i}.svc:2222" for i in range(20_000)]}})
        line = f"export TF_CONFIG='{value}' OTHER=1"
        assert list(read_env_lines(line, "run.sh", shell=True)) == [("run.sh:1", value)]

    @pytest.mark.parametrize(
        ("cluster", "code", "loc"),
        [
            ({b"worker": ["w0:2222"]}, "string_type", ("cluster", "b'worker'")),
            (MappingProxyType({"worker": ["w0:2222"]}), "dict_type", ("cluster",)),
        ],
        ids=["a job named by bytes", "a mapping that is no dict"],
    )
    def test_a_nodes_cluster_is_read_strictly_as_the_tf_config_alone_is(
        self, cluster: Any, code: str, loc: tuple[str, ...]
    ) -> None:
        """What TFConfig refuses in a TF_CONFIG of one node, the whole job refuses there."""
        tf_config = {"cluster": cluster, "task": {"type": "worker", "index": 0}}
        with pytest.raises(ValidationError) as info:
            TFConfig.model_validate(tf_config, strict=True)
        assert info.value.errors()[0]["type"] == code
        finding = only(check_cluster([("w.json", tf_config)]), code)
        assert (finding.loc, finding.nodes) == (loc, ("w.json",))

    def test_no_nodes(self) -> None:
        report = check_cluster(read_json_lines(""))
        assert codes(report) == ["no_nodes"]
        assert not report.valid
        assert report.summary() == "0 nodes, 0 clusters: 1 finding"


class TestReport:
    def test_a_report_is_frozen_and_dumps_valid(self) -> None:
        report = check_cluster(job()[:-1])
        with pytest.raises(ValidationError):
            report.profile = "mwms"  # type: ignore[misc]
        dumped = report.model_dump(mode="json")
        assert dumped["valid"] is False
        assert dumped["findings"][0]["code"] == "task_unclaimed"

    def test_every_finding_is_the_one_finding_with_its_cross_node_facts(self) -> None:
        other = {**CLUSTER, "worker": ["worker-0:2222", "worker-1:2222", "host-b:2222"]}
        nodes = [
            *job(model_dir="gs://a")[:-1],
            ("worker-2", node("worker", 2, cluster=other, model_dir="gs://b")),
            ("stray", node("worker", 7, model_dir="gs://a")),
        ]
        report = check_cluster(nodes)
        assert all(type(f) is Finding and f.cross_node is not None for f in report.findings)
        found = {f.code: f for f in report.findings}
        assert set(found) == {
            "cluster_mismatch",
            "task_not_in_cluster",
            "model_dir_mismatch",
            "task_index_out_of_range",
        }
        mismatch = found["cluster_mismatch"]
        assert (mismatch.nodes, mismatch.loc, mismatch.path) == (("worker-2",), (), "")
        assert about(mismatch) == CrossNode(
            reference_nodes=("chief-0", "ps-0", "worker-0", "worker-1", "stray"),
            differences=(
                TaskDifference(
                    job="worker", index=2, reference="worker-2:2222", other="host-b:2222"
                ),
            ),
        )
        outside = found["task_not_in_cluster"]
        assert (outside.nodes, outside.loc, outside.path) == (("stray",), ("task",), "task")
        assert (about(outside).job, about(outside).index, about(outside).profile) == (
            "worker",
            7,
            None,
        )
        model_dir = found["model_dir_mismatch"]
        assert (model_dir.nodes, model_dir.loc, model_dir.path) == (
            ("worker-2",),
            ("model_dir",),
            "model_dir",
        )
        assert [g.value for g in about(model_dir).values] == ["gs://a", "gs://b"]
        own = found["task_index_out_of_range"]
        assert (own.nodes, own.loc, own.path) == (("stray",), ("task", "index"), "task.index")
        assert about(own) == CrossNode(profile="estimator")
        assert all(
            (f.file, f.line, f.value, f.severity, f.refused) == ("", None, NO_VALUE, "error", False)
            for f in report.findings
        )

    def test_a_report_dumps_each_finding_as_before(self) -> None:
        """Code, severity, message, nodes, path, and the cross-node facts, in that order.

        A finding with no fix has no ``hint`` key (one with a fix has it last).
        """
        report = check_cluster([*job(), ("stray", node("worker", 7))])
        keys = ["code", "severity", "message", "nodes", "profile", "path", "job", "index"]
        keys += ["reference_nodes", "differences", "values"]
        for mode in ("python", "json"):
            dumped = report.model_dump(mode=mode)["findings"]
            assert [list(finding) for finding in dumped] == [keys, keys]
        outside = report.model_dump()["findings"][0]
        assert outside == {
            "code": "task_not_in_cluster",
            "severity": "error",
            "message": outside["message"],
            "nodes": ("stray",),
            "profile": None,
            "path": "task",
            "job": "worker",
            "index": 7,
            "reference_nodes": (),
            "differences": (),
            "values": (),
        }
        other = {**CLUSTER, "worker": ["worker-0:2222", "worker-1:2222", "host-b:2222"]}
        mismatched = check_cluster([*job()[:-1], ("worker-2", node("worker", 2, cluster=other))])
        [finding] = json.loads(mismatched.model_dump_json())["findings"]
        assert finding["differences"] == [
            {"job": "worker", "index": 2, "reference": "worker-2:2222", "other": "host-b:2222"}
        ]

    @pytest.mark.parametrize("mode", ["validation", "serialization"])
    def test_the_reports_json_schema_is_written_without_a_warning(
        self, mode: JsonSchemaMode
    ) -> None:
        schema = ClusterReport.model_json_schema(mode=mode)
        assert schema["properties"]["findings"]["type"] == "array"

    def test_the_reports_json_schema_describes_what_a_finding_holds(self) -> None:
        schema = ClusterReport.model_json_schema(mode="serialization")
        described = schema["properties"]["findings"]["items"]["description"]
        assert described.startswith("A finding: its code, severity, message, nodes and path")
        assert "reference_nodes, differences, values" in described

    def test_a_finding_and_its_differences_are_frozen_and_can_be_hashed(self) -> None:
        other = {**CLUSTER, "worker": ["worker-0:2222", "worker-1:2222", "host-b:2222"]}
        nodes = [*job()[:-1], ("worker-2", node("worker", 2, cluster=other))]
        finding = only(check_cluster(nodes), "cluster_mismatch")
        [difference] = about(finding).differences
        with pytest.raises(ValidationError, match="frozen"):
            difference.other = "host-c:2222"  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            finding.nodes = ()  # type: ignore[misc]
        assert {finding, copy.deepcopy(finding)} == {finding}

    def test_a_finding_names_six_nodes_or_five_and_how_many_more(self) -> None:
        def text(count: int) -> str:
            return str(Finding.at("c", "m", nodes=tuple(f"n{i}" for i in range(count))))

        assert text(6) == "n0, n1, n2, n3, n4, n5: m"
        assert text(7) == "n0, n1, n2, n3, n4 and 2 more: m"

    @pytest.mark.parametrize("model", [ClusterReport, CrossNode])
    def test_each_field_of_the_report_says_what_it_holds(self, model: type[BaseModel]) -> None:
        properties = model.model_json_schema(mode="serialization")["properties"]
        assert all(value.get("description") for value in properties.values()), properties

    def test_a_finding_is_located_at_the_line_a_node_was_read_from(self) -> None:
        """``FILE:LINE`` is a line of a file; a name with a colon and no number is a name."""

        def place(name: str) -> tuple[str, int | None, int | None]:
            twice = [(name, node("worker", 0)), ("again", node("worker", 0))]
            first = check_cluster(twice, each_node=False).located()[0]
            return first.file, first.line, first.column

        assert place("nodes.jsonl:3") == ("nodes.jsonl", 3, 1)
        assert place("host-a:worker") == ("host-a:worker", None, None)
        assert place("pods.yaml:") == ("pods.yaml:", None, None)

    def test_text_ends_with_the_summary_line_and_its_newline(self) -> None:
        assert check_cluster(job()).to_text() == "5 nodes, 1 cluster: valid\n"

    def test_text_has_a_line_per_finding_and_a_summary(self) -> None:
        text = check_cluster([*job(), ("stray", node("worker", 7))]).to_text()
        lines = text.splitlines()
        assert len(lines) == 3
        assert lines[1].startswith("stray: task.index: 7 is not a valid task_id for task_type")
        assert lines[-1] == "6 nodes, 1 cluster: 2 findings"


# -- properties: a whole job generated right, then broken in one place ------------------


def _named(nodes: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    return [(f"node-{i}", data) for i, data in enumerate(nodes)]


@given(deployments())
def test_every_task_of_a_valid_cluster_on_its_own_node_checks_clean(
    nodes: list[dict[str, Any]],
) -> None:
    report = check_cluster(_named(nodes))
    assert report.valid and not report.findings, report.to_text()
    assert report.clusters == 1


@given(deployments(), st.data())
def test_a_duplicated_index(nodes: list[dict[str, Any]], data: st.DataObject) -> None:
    victim, model = data.draw(st.permutations(range(len(nodes))))[:2]
    lost = nodes[victim]["task"]
    nodes[victim]["task"] = dict(nodes[model]["task"])
    report = check_cluster(_named(nodes))
    assert sorted(codes(report)) == ["task_claimed_twice", "task_unclaimed"], report.to_text()
    twice, unclaimed = only(report, "task_claimed_twice"), only(report, "task_unclaimed")
    assert set(twice.nodes) == {f"node-{victim}", f"node-{model}"}
    assert (about(unclaimed).job, about(unclaimed).index) == (lost["type"], lost["index"])


@given(deployments(), st.data())
def test_a_node_dropped(nodes: list[dict[str, Any]], data: st.DataObject) -> None:
    dropped = nodes.pop(data.draw(st.integers(0, len(nodes) - 1)))
    report = check_cluster(_named(nodes))
    assert codes(report) == ["task_unclaimed"]
    finding = report.findings[0]
    assert (about(finding).job, about(finding).index) == (
        dropped["task"]["type"],
        dropped["task"]["index"],
    )


@given(deployments(), st.data())
def test_one_address_changed_on_one_node(nodes: list[dict[str, Any]], data: st.DataObject) -> None:
    victim = data.draw(st.integers(0, len(nodes) - 1))
    cluster = nodes[victim]["cluster"]
    job_name = data.draw(st.sampled_from(sorted(cluster)))
    tasks = cluster[job_name]
    key = data.draw(
        st.sampled_from(sorted(tasks) if isinstance(tasks, dict) else range(len(tasks)))
    )
    old, tasks[key] = tasks[key], "changed.example.com:1"
    report = check_cluster(_named(nodes))
    assert codes(report) == ["cluster_mismatch"], report.to_text()
    [difference] = about(report.findings[0]).differences
    assert (difference.job, difference.index) == (job_name, int(key))
    assert {difference.reference, difference.other} == {old, "changed.example.com:1"}
    if len(nodes) > 2:  # with two nodes, neither cluster is the more common
        assert report.findings[0].nodes == (f"node-{victim}",)
        assert difference.other == "changed.example.com:1"


@given(deployments(), st.data())
def test_model_dir_changed_on_one_node(nodes: list[dict[str, Any]], data: st.DataObject) -> None:
    victim = data.draw(st.integers(0, len(nodes) - 1))
    nodes[victim]["model_dir"] = "gs://bucket/elsewhere"
    report = check_cluster(_named(nodes))
    assert codes(report) == ["model_dir_mismatch"]
    assert ValueGroup(value="gs://bucket/elsewhere", nodes=(f"node-{victim}",)) in (
        about(report.findings[0]).values
    )


# -- the same findings, however the nodes are given ---------------------------------------


def _broken_job() -> list[tuple[str, Any]]:
    """Nodes that break rules across nodes and rules of one node, clusters shared and not."""
    shared = copy.deepcopy(CLUSTER)
    return [
        ("no-cluster", {"task": {"type": "worker", "index": 0}}),
        ("also-none", {"task": {"type": "worker", "index": 2}}),
        *((f"{t}-{i}", {"cluster": shared, "task": {"type": t, "index": i}}) for t, i in TASKS),
        ("twice", {"cluster": shared, "task": {"type": "worker", "index": 1}, "model_dir": "/x"}),
        ("bad-task", {"cluster": shared, "task": {"type": "worker", "index": "one"}}),
        ("other", node("worker", 0, cluster={**CLUSTER, "worker": ["w:1"]})),
        ("shared-again", {"cluster": shared, "task": {"type": "ps", "index": 5}}),
        ("bad-address", node("chief", 0, cluster={**CLUSTER, "chief": ["no port"]})),
    ]


def _unshared(nodes: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(name, copy.deepcopy(data)) for name, data in nodes]


@pytest.mark.parametrize("profile", ["estimator", "mwms", "ps"])
def test_nodes_sharing_one_cluster_object_are_checked_as_copies(profile: str) -> None:
    nodes = _broken_job()
    shared = check_cluster(nodes, profile=profile)
    assert shared == check_cluster(_unshared(nodes), profile=profile)
    assert {"cluster_mismatch", "task_claimed_twice", "task_not_in_cluster"} <= set(codes(shared))
    mismatched = [f.nodes for f in shared.findings if f.code == "cluster_mismatch"]
    assert ("no-cluster", "also-none") in mismatched


@pytest.mark.parametrize("profile", ["estimator", "mwms", "ps"])
def test_each_node_false_finds_exactly_the_rules_across_nodes(profile: str) -> None:
    nodes = [*_broken_job(), ("not-json", "{"), ("not-an-object", "[]")]
    every = check_cluster(nodes, profile=profile)
    across = check_cluster(nodes, profile=profile, each_node=False)
    assert any(finding.code not in CROSS_NODE_CODES for finding in every.findings)
    assert across.findings == tuple(f for f in every.findings if f.code in CROSS_NODE_CODES)
    assert (across.nodes, across.clusters) == (every.nodes, every.clusters)


@given(deployments(), st.data())
def test_each_node_false_keeps_every_finding_across_nodes(
    nodes: list[dict[str, Any]], data: st.DataObject
) -> None:
    victim, model = data.draw(st.permutations(range(len(nodes))))[:2]
    nodes[victim]["task"] = dict(nodes[model]["task"])
    nodes[model]["cluster"] = nodes[victim]["cluster"]  # one object for two nodes
    every = check_cluster(_named(nodes))
    across = check_cluster(_named(nodes), each_node=False)
    assert across.findings == tuple(f for f in every.findings if f.code in CROSS_NODE_CODES)
    assert every == check_cluster(_unshared(_named(nodes)))


class TestLargeJobs:
    """A job's check is linear in its nodes and tasks: each node pays for its own task."""

    SMALL = 250

    @staticmethod
    def nodes(count: int, address: str = "worker-{}.train:2222") -> list[tuple[str, Any]]:
        """A chief, a ps and workers, every node given the same cluster object."""
        workers = [address.format(i) for i in range(count)]
        cluster = {"chief": ["chief-0:2222"], "ps": ["ps-0:2222"], "worker": workers}
        tasks = [("chief", 0), ("ps", 0), *(("worker", i) for i in range(count))]
        return [
            (f"{t}-{i}", {"cluster": cluster, "task": {"type": t, "index": i}}) for t, i in tasks
        ]

    @pytest.mark.parametrize("profile", ["estimator", "mwms", "ps"])
    def test_a_valid_cluster(self, profile: str) -> None:
        def checking(count: int) -> Callable[[], object]:
            nodes = self.nodes(count)
            return lambda: check_cluster(nodes, profile=profile)

        report = checking(SMALL_TO_LARGE * self.SMALL)()
        assert isinstance(report, ClusterReport)
        assert codes(report) == (["no_id_for_task_type"] if profile == "mwms" else [])
        assert growth(checking, self.SMALL) < BOUND

    def test_a_problem_at_every_task_of_the_cluster(self) -> None:
        def checking(count: int) -> Callable[[], object]:
            nodes = self.nodes(count, address="worker {}")
            return lambda: check_cluster(nodes)

        count = SMALL_TO_LARGE * self.SMALL
        report = checking(count)()
        assert isinstance(report, ClusterReport)
        assert codes(report) == ["address"] * count
        assert all(len(finding.nodes) == count + 2 for finding in report.findings)
        assert growth(checking, self.SMALL) < BOUND

    def test_every_node_given_the_same_task(self) -> None:
        def checking(count: int) -> Callable[[], object]:
            nodes = [
                (name, {**value, "task": {"type": "worker", "index": 0}})
                for name, value in self.nodes(count)
            ]
            return lambda: check_cluster(nodes)

        count = SMALL_TO_LARGE * self.SMALL
        report = checking(count)()
        assert isinstance(report, ClusterReport)
        assert codes(report) == ["task_claimed_twice"] + ["task_unclaimed"] * (count + 1)
        assert growth(checking, self.SMALL) < BOUND


def test_a_problem_of_two_clusters_names_their_nodes_in_order() -> None:
    first = {"worker": ["bad address", "worker-1:2222"]}
    second = {"worker": ["bad address", "worker-one:2222"]}
    nodes = [
        ("a", node("worker", 0, cluster=first)),
        ("b", node("worker", 0, cluster=second)),
        ("c", node("worker", 1, cluster=first)),
        ("d", node("worker", 1, cluster=second)),
    ]
    report = check_cluster(nodes, profile="mwms")
    assert only(report, "address").nodes == ("a", "b", "c", "d")


def test_a_node_whose_text_holds_a_lone_surrogate_is_a_finding() -> None:
    cluster = '{"cluster": {"chief": ["c:1"]}, '
    report = check_cluster(
        [
            ("a", cluster + '"task": {"type": "chief", "index": 0}}'),
            ("b", cluster + '"task": {"type": "chief", "index": "\\ud800"}}'),
        ]
    )
    [finding] = [f for f in report.findings if f.code == "json_invalid"]
    assert finding.nodes == ("b",)
    assert "a string holds \\ud800, half of a UTF-16 surrogate pair" in finding.message


class TestServerProfile:
    """A TF1 program's tf.train.Server: any jobs, each node's task a task of the cluster."""

    def test_a_job_of_any_jobs(self) -> None:
        assert check_cluster(job(), profile="server").valid

    def test_a_task_the_cluster_does_not_list(self) -> None:
        report = check_cluster([*job(), ("stray", node("worker", 7))], profile="server")
        [finding] = [f for f in report.findings if about(f).profile == "server"]
        assert (finding.code, finding.nodes, finding.path) == (
            "task_not_in_cluster",
            ("stray",),
            "task.index",
        )

    def test_an_index_written_as_a_string(self) -> None:
        nodes = job()
        nodes[0] = ("chief-0", node("chief", "0"))
        finding = only(check_cluster(nodes, profile="server"), "task_index_type")
        assert (finding.nodes, about(finding).profile) == (("chief-0",), "server")
        assert check_cluster(nodes, profile="estimator").valid


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: TaskDifference(job="worker", index=1, reference="w1:1", other="w9:1"),
            id="TaskDifference",
        ),
        pytest.param(lambda: ValueGroup(value="/models", nodes=("a.json",)), id="ValueGroup"),
        pytest.param(
            lambda: CrossNode(job="worker", index=0, reference_nodes=("c.json",)),
            id="CrossNode",
        ),
        pytest.param(
            lambda: Finding.at(
                "task_claimed_twice",
                "m",
                nodes=("a.json", "b.json"),
                cross_node=CrossNode(job="worker", index=0),
            ),
            id="Finding",
        ),
        pytest.param(
            lambda: check_cluster([("a.json", {"task": {}}), ("b.json", {"task": {}})]),
            id="ClusterReport",
        ),
    ],
)
def test_a_cluster_report_and_its_parts_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)
