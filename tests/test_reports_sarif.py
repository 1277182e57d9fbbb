"""estconf.reports.sarif: findings as a SARIF 2.1.0 log, of validate and of check-cluster.

The SARIF logs are checked against the official SARIF 2.1.0 JSON Schema
(OASIS, Errata 01), kept in ``tests/data/sarif/``, and each result's region
against the line and column the text report gives the same finding.
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML

from estconf import __version__
from estconf.cli import main
from estconf.codes import CODES
from estconf.deployment import ClusterReport, CrossNode
from estconf.finding import Finding
from estconf.io.errors import FileError, Result, error
from estconf.reports import files as report
from estconf.reports.cluster import write_cluster
from estconf.reports.sarif import DOCS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json"
INVALID = sorted(
    str(path.relative_to(ROOT))
    for path in (ROOT / "tests" / "data" / "invalid").iterdir()
    if path.suffix in (".json", ".toml", ".yaml")
)
MANIFESTS = [
    "tests/data/kubeflow/refused.yaml",
    "tests/data/kubeflow/host_network.yaml",
    "tests/data/kubeflow/katib_experiment.yaml",
    "tests/data/kubeflow/estimator_no_chief.yaml",
]
NODES = [
    ["examples/broken_nodes.jsonl"],
    ["tests/data/check_cluster/broken_line.jsonl"],
    ["tests/data/check_cluster/good/chief.json", "tests/data/invalid/near_miss_cluster.json"],
]
# file:line:column: at the start of a line of the text report
PLACE = re.compile(r"^(?P<file>[^:\n]+?):(?P<line>\d+):(?P<column>\d+): ", re.MULTILINE)


@cache
def validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr().out
    return status, out


def sarif(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The SARIF log of a command, checked against the SARIF 2.1.0 schema."""
    status, out = run(capsys, *argv, "--format", "sarif")
    log: dict[str, Any] = json.loads(out)
    levels = {result["level"] for run in log["runs"] for result in run["results"]}
    # an error fails the command (2: an input it cannot read); warnings alone pass
    assert status in ((1, 2) if "error" in levels else (0,))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(log)]
    assert errors == []
    return log


def regions(log: dict[str, Any]) -> list[tuple[str, int, int] | tuple[str]]:
    """Each result's input and, where it has one, the line and column of its region."""
    found: list[tuple[str, int, int] | tuple[str]] = []
    for result in log["runs"][0]["results"]:
        physical = result["locations"][0]["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        region = physical.get("region")
        found.append(
            (uri,) if region is None else (uri, region["startLine"], region["startColumn"])
        )
    return found


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("path", [*INVALID, *MANIFESTS])
def test_a_files_sarif_is_valid_and_each_region_is_where_the_text_report_places_it(
    capsys: pytest.CaptureFixture[str], path: str
) -> None:
    log = sarif(capsys, "validate", path)
    text = run(capsys, "validate", "-q", path)[1]
    placed = [(m["file"], int(m["line"]), int(m["column"])) for m in PLACE.finditer(text)]
    lines = [line for line in text.splitlines() if not line.startswith((" ", "hint: "))]
    assert len(log["runs"][0]["results"]) == len(lines)
    # a hint, on its own line of the text, is the second line of its result's message
    hints = [line for line in text.splitlines() if line.startswith("hint: ")]
    messages = [r["message"]["text"] for r in log["runs"][0]["results"]]
    assert [m.split("\n", 1)[1] for m in messages if "\n" in m] == hints
    assert [r for r in regions(log) if len(r) == 3] == placed
    assert all(r[0] == path for r in regions(log))


@pytest.mark.parametrize("inputs", NODES, ids=lambda inputs: inputs[-1])
def test_a_clusters_sarif_is_valid_and_each_result_is_at_its_first_nodes_line(
    capsys: pytest.CaptureFixture[str], inputs: list[str]
) -> None:
    log = sarif(capsys, "check-cluster", *inputs)
    github = run(capsys, "check-cluster", "--format", "github", *inputs)[1]
    annotations = [line for line in github.splitlines() if line.startswith("::error ")]
    assert len(annotations) == len(log["runs"][0]["results"]) > 0
    for annotation, region in zip(annotations, regions(log), strict=True):
        where = dict(
            p.split("=", 1) for p in annotation[len("::error ") :].split("::")[0].split(",")
        )
        assert region[0] == where["file"]
        assert region[1:] == ((int(where["line"]), int(where["col"])) if "line" in where else ())


def test_a_result_names_its_rule_level_message_and_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = sarif(capsys, "validate", "examples/broken/tf_config.json")
    (result,) = log["runs"][0]["results"]
    assert result == {
        "ruleId": "address",
        "ruleIndex": 0,
        "level": "error",
        "message": {
            "text": "cluster.worker[1]: 'host2:22222222' is not a valid task address: the port "
            "'22222222' is above 65535, the highest port"
        },
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "examples/broken/tf_config.json"},
                    "region": {"startLine": 4, "startColumn": 30},
                },
                "logicalLocations": [{"fullyQualifiedName": "cluster.worker[1]"}],
            }
        ],
    }


def test_the_tool_lists_each_code_used_once_with_its_meaning_and_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = sarif(capsys, "validate", "examples/broken/run_config.yaml", "tests/data/invalid")
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"], driver["informationUri"]) == (
        "estconf",
        __version__,
        DOCS,
    )
    rules = driver["rules"]
    used = [result["ruleId"] for result in log["runs"][0]["results"]]
    assert [rule["id"] for rule in rules] == list(dict.fromkeys(used))
    for result in log["runs"][0]["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    by_id = {rule["id"]: rule for rule in rules}
    assert by_id["unknown_key"]["shortDescription"]["text"].startswith(
        "a key the object's model does not have"
    )
    assert by_id["syntax"]["helpUri"] == f"{DOCS}errors/#file-errors"
    assert by_id["bool_type"]["helpUri"] == (
        f"{DOCS}errors/#session_config-configproto-and-its-messages"
    )


def test_a_tfjobs_warning_is_a_warning_and_what_the_webhook_refuses_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = sarif(capsys, "validate", "tests/data/kubeflow/refused.yaml")
    levels = {(r["ruleId"], r["level"]) for r in log["runs"][0]["results"]}
    assert ("tfjob_tf_config_set", "warning") in levels
    assert ("tfjob_multiple_chief", "error") in levels


def test_a_pods_refusal_is_described_by_the_readers_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = sarif(capsys, "validate", "tests/data/kubeflow/estimator_no_chief.yaml")
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    rule = rules["tfjob_missing_chief"]
    assert rule["shortDescription"]["text"].startswith(
        "a pod of the TFJob refuses its predicted TF_CONFIG: "
    )
    assert rule["helpUri"] == rules_anchor("tfjob_cluster_check")


def rules_anchor(code: str) -> str:
    return f"{DOCS}errors/#{CODES[code].section}"


def test_standard_input_is_described_and_keeps_its_region(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    stdin = io.TextIOWrapper(io.BytesIO(b'{"cluster": {"worker": ["h"]}}'))
    monkeypatch.setattr(sys, "stdin", stdin)
    log = sarif(capsys, "validate", "-", "--kind", "tf_config")
    (location,) = log["runs"][0]["results"][0]["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"description": {"text": "<stdin>"}},
        "region": {"startLine": 1, "startColumn": 25},
    }


def test_a_finding_without_a_line_has_no_region_and_one_in_no_input_no_location() -> None:
    log = json.loads(
        report.write_sarif(
            [Result("a b.json", None, [error("a b.json", "empty", "the file is empty")])]
        )
    )
    (result,) = log["runs"][0]["results"]
    assert result["locations"] == [
        {"physicalLocation": {"artifactLocation": {"uri": "a%20b.json"}}}
    ]
    cluster = ClusterReport(
        profile="estimator",
        nodes=(),
        clusters=0,
        findings=(Finding.at("no_nodes", "no TF_CONFIG was given", cross_node=CrossNode()),),
    )
    log = json.loads(write_cluster(cluster, "sarif"))
    (location,) = log["runs"][0]["results"][0]["locations"]
    assert location == {
        "physicalLocation": {"artifactLocation": {"description": {"text": "<no input>"}}}
    }
    assert validator().is_valid(log)


def test_a_finding_with_a_line_and_no_column_starts_at_the_lines_first_column() -> None:
    """SARIF columns are 1-based: a finding that knows only its line is at column 1."""
    found = FileError.at("syntax", "bad", (), file="f.json", line=3)
    log = json.loads(report.write_sarif([Result("f.json", None, [found])]))
    (location,) = log["runs"][0]["results"][0]["locations"]
    assert location["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 1}
    assert validator().is_valid(log)


def test_a_code_no_table_lists_is_pydantics_and_points_at_the_model_errors() -> None:
    found = FileError.at("string_too_short", "too short", ("a",), file="f.json", line=1, column=2)
    log = json.loads(report.write_sarif([Result("f.json", None, [found])]))
    (rule,) = log["runs"][0]["tool"]["driver"]["rules"]
    assert rule["helpUri"] == f"{DOCS}errors/#model-errors"
    assert "string_too_short" in rule["shortDescription"]["text"]


@pytest.mark.parametrize("code", ["float_type", "tuple_type", "slurm_no_nodes"])
def test_a_code_that_ends_in_another_code_is_not_a_pods_refusal(code: str) -> None:
    """``float_type`` ends in ``type``, ``slurm_no_nodes`` in ``no_nodes``: neither is a pod's."""
    found = FileError.at(code, "m", ("a",), file="f.json", line=1, column=2)
    log = json.loads(report.write_sarif([Result("f.json", None, [found])]))
    (rule,) = log["runs"][0]["tool"]["driver"]["rules"]
    assert not rule["shortDescription"]["text"].startswith("a pod of the TFJob")


def test_the_docs_address_is_the_sites() -> None:
    site = YAML(typ="safe").load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert site["site_url"] == DOCS
