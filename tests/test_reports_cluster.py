"""estconf.reports.cluster: the report of check-cluster, as text, JSON and GitHub annotations."""

from __future__ import annotations

import json
from typing import Any

import pytest

from estconf.deployment import ClusterReport, CrossNode, check_cluster
from estconf.finding import Finding
from estconf.inputs.cluster_checks import Said
from estconf.reports.cluster import write_cluster


def test_a_cluster_report_in_text_says_the_hints_notes_and_files_passed_over() -> None:
    cluster = ClusterReport(profile="estimator", nodes=("a.json",), clusters=1, findings=())
    said = Said(hints=["h"], notes=["n"], passed_over=[("s.yaml", "a Service")])
    assert write_cluster(cluster, "text", said) == (
        "hint: h\nnote: n\ns.yaml: passed over, a Service\n1 node, 1 cluster: valid\n"
    )
    assert json.loads(write_cluster(cluster, "json", said))["skipped"] == [
        {"file": "s.yaml", "reason": "a Service"}
    ]


def test_a_findings_fix_is_a_line_of_its_own_in_every_format() -> None:
    finding = Finding.at(
        "missing_ps",
        "There must be at least one ps.",
        ("cluster",),
        nodes=("w0.json",),
        hint="add a job 'ps'",
        cross_node=CrossNode(),
    )
    cluster = ClusterReport(profile="ps", nodes=("w0.json",), clusters=1, findings=(finding,))
    assert write_cluster(cluster, "text") == (
        "w0.json: cluster: There must be at least one ps.\n"
        "hint: add a job 'ps'\n"
        "1 node, 1 cluster: 1 finding\n"
    )
    assert json.loads(write_cluster(cluster, "json"))["findings"][0]["hint"] == "add a job 'ps'"
    assert write_cluster(cluster, "github") == (
        "::error file=w0.json,title=estconf missing_ps::"
        "w0.json: cluster: There must be at least one ps.%0Ahint: add a job 'ps'\n"
    )
    [result] = json.loads(write_cluster(cluster, "sarif"))["runs"][0]["results"]
    assert result["message"]["text"] == (
        "w0.json: cluster: There must be at least one ps.\nhint: add a job 'ps'"
    )


def test_a_cluster_finding_is_placed_at_its_first_nodes_file_and_line() -> None:
    findings = (
        Finding.at("task_claimed_twice", "m", nodes=("n.jsonl:2", "n.jsonl:3")),
        Finding.at("model_dir_mismatch", "m", nodes=("a.json",)),
        Finding.at("task_unclaimed", "m", cross_node=CrossNode()),
    )
    cluster = ClusterReport(
        profile="estimator", nodes=("b.json", "a.json"), clusters=1, findings=findings
    )
    placed = [(f.file, f.line, f.column, f.code) for f in cluster.located()]
    assert placed == [
        ("n.jsonl", 2, 1, "task_claimed_twice"),
        ("a.json", None, None, "model_dir_mismatch"),
        ("b.json", None, None, "task_unclaimed"),
    ]
    assert write_cluster(cluster, "github", Said(hints=["h"])) == (
        "::error file=n.jsonl,line=2,col=1,title=estconf task_claimed_twice::"
        "n.jsonl:2, n.jsonl:3: m\n"
        "::error file=a.json,title=estconf model_dir_mismatch::a.json: m\n"
        "::error file=b.json,title=estconf task_unclaimed::cluster: m\n"
        "::notice title=estconf hint::h\n"
    )
    empty = ClusterReport(profile="estimator", nodes=(), clusters=0, findings=findings[2:])
    assert [f.file for f in empty.located()] == ["<no input>"]


def test_a_cluster_report_in_json_is_strict_json() -> None:
    def node(index: int, x: float) -> dict[str, Any]:
        task = {"type": "worker", "index": index}
        return {"cluster": {"worker": ["w0:1", "w1:1"]}, "task": task, "service": {"x": x}}

    cluster = check_cluster([("a", node(0, float("inf"))), ("b", node(1, 1))], each_node=False)

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    document = json.loads(write_cluster(cluster, "json"), parse_constant=refuse)
    values = [group["value"] for group in document["findings"][0]["values"]]
    assert values == [{"x": None}, {"x": 1}]


def _mismatch(tasks: int) -> ClusterReport:
    """Three nodes, one of which is given other addresses for all ``tasks`` workers."""
    ours = {"worker": [f"w{index}:1" for index in range(tasks)]}
    theirs = {"worker": [f"x{index}:1" for index in range(tasks)]}
    return check_cluster(
        [
            ("a", {"cluster": ours, "task": {"type": "worker", "index": 0}}),
            ("b", {"cluster": ours, "task": {"type": "worker", "index": 1}}),
            ("c", {"cluster": theirs, "task": {"type": "worker", "index": 2}}),
        ],
        each_node=False,
    )


@pytest.mark.parametrize(("tasks", "more"), [(20, []), (21, ["  ... and 1 more tasks differ"])])
def test_a_cluster_mismatch_in_text_shows_the_first_twenty_tasks_that_differ(
    tasks: int, more: list[str]
) -> None:
    lines = write_cluster(_mismatch(tasks), "text").splitlines()
    assert [line for line in lines if line.startswith("  - ")] == [
        f"  - worker:{index} w{index}:1" for index in range(20)
    ]
    assert [line for line in lines if line.startswith("  ... ")] == more


def test_a_cluster_report_in_json_is_indented_by_two_spaces() -> None:
    """As the report of files: each level of the object two spaces further in."""
    cluster = ClusterReport(profile="estimator", nodes=("a.json",), clusters=1, findings=())
    lines = write_cluster(cluster, "json").splitlines()
    assert lines[:2] == ["{", '  "profile": "estimator",']


def test_a_format_named_at_run_time_is_the_format_of_that_name() -> None:
    """A format read from the command line is a string of its own, not the one spelled here."""
    cluster = ClusterReport(profile="estimator", nodes=("a.json",), clusters=1, findings=())
    assert json.loads(write_cluster(cluster, "".join(["js", "on"])))["valid"] is True


def test_a_cluster_report_in_json_writes_text_as_it_is() -> None:
    """A node's name outside ASCII is written as its characters, not as ``\\u`` escapes."""
    cluster = ClusterReport(profile="estimator", nodes=("nœud-0.json",), clusters=1, findings=())
    assert '"nœud-0.json"' in write_cluster(cluster, "json")


def test_a_warning_is_written_with_its_fix_and_its_severity_in_every_format() -> None:
    cluster = {"chief": ["c0:2222"], "worker": ["w0:0"]}
    nodes = [
        ("n.jsonl:1", {"cluster": cluster, "task": {"type": "chief", "index": 0}}),
        ("n.jsonl:2", {"cluster": cluster, "task": {"type": "worker", "index": 0}}),
    ]
    report = check_cluster(nodes)
    message = (
        "warning: 'w0:0' has port 0, any free port: task worker:0 listens on a port chosen when "
        "it starts, which the other task of the cluster cannot know"
    )
    hint = "give the task a fixed port, e.g. 'w0:2222'"
    assert write_cluster(report, "text", Said(hints=["h"])) == (
        f"n.jsonl:1, n.jsonl:2: cluster.worker[0]: {message}\n"
        f"hint: {hint}\n"
        "hint: h\n"
        "2 nodes, 1 cluster: 1 finding (1 warning)\n"
    )
    [dumped] = json.loads(write_cluster(report, "json"))["findings"]
    assert (dumped["severity"], dumped["message"], dumped["hint"]) == ("warning", message, hint)
    assert write_cluster(report, "github") == (
        "::warning file=n.jsonl,line=1,col=1,title=estconf port_zero::n.jsonl:1, n.jsonl:2: "
        f"cluster.worker[0]: {message}%0Ahint: {hint}\n"
    )
    [result] = json.loads(write_cluster(report, "sarif"))["runs"][0]["results"]
    assert result["level"] == "warning"
    assert result["message"]["text"].endswith(f"\nhint: {hint}")
