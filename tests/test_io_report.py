"""estconf.io.report: one set of reporters (text, JSON, GitHub annotations)."""

from __future__ import annotations

import json

import pytest

from estconf.deployment import ClusterReport
from estconf.deployment import Finding as ClusterFinding
from estconf.io import REPORT_FORMATS, report
from estconf.io.errors import error
from estconf.io.report import Result, Said


@pytest.mark.parametrize("format", ["text", "json", "github"])
def test_write_chooses_the_reporter_of_a_format(format: str) -> None:
    results = [Result("f.json", "tf_config", [error("f.json", "c", "m", ("a",))], "keys")]
    writers = {
        "text": report.write_text,
        "json": report.write_json,
        "github": report.write_github,
    }
    assert report.write(results, format) == writers[format](results)
    assert REPORT_FORMATS == report.FORMATS


def test_a_cluster_report_in_text_says_the_hints_notes_and_files_passed_over() -> None:
    cluster = ClusterReport(profile="estimator", nodes=("a.json",), clusters=1, findings=())
    said = Said(hints=["h"], notes=["n"], passed_over=[("s.yaml", "a Service")])
    assert report.write_cluster(cluster, "text", said) == (
        "hint: h\nnote: n\ns.yaml: passed over, a Service\n1 node, 1 cluster: valid\n"
    )
    assert json.loads(report.write_cluster(cluster, "json", said))["skipped"] == [
        {"file": "s.yaml", "reason": "a Service"}
    ]


def test_a_cluster_finding_is_placed_at_its_first_nodes_file_and_line() -> None:
    findings = (
        ClusterFinding(code="task_claimed_twice", message="m", nodes=("n.jsonl:2", "n.jsonl:3")),
        ClusterFinding(code="model_dir_mismatch", message="m", nodes=("a.json",)),
        ClusterFinding(code="task_unclaimed", message="m"),
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
    assert report.write_cluster(cluster, "github", Said(hints=["h"])) == (
        "::error file=n.jsonl,line=2,col=1,title=estconf task_claimed_twice::"
        "n.jsonl:2, n.jsonl:3: m\n"
        "::error file=a.json,title=estconf model_dir_mismatch::a.json: m\n"
        "::error file=b.json,title=estconf task_unclaimed::cluster: m\n"
        "::notice title=estconf hint::h\n"
    )
    empty = ClusterReport(profile="estimator", nodes=(), clusters=0, findings=findings[2:])
    assert [f.file for f in empty.located()] == ["<no input>"]
