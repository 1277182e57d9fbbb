"""estconf.reports.files: what validate found of each file, as text, JSON, GitHub annotations.

The text, JSON and GitHub reports of real files are checked byte for byte by
the command's tests (``tests/test_cli_validate.py``); SARIF in
``tests/test_reports_sarif.py``.
"""

from __future__ import annotations

import json

import pytest

from estconf.io import REPORT_FORMATS
from estconf.io.errors import Result, error
from estconf.reports import files as report


@pytest.mark.parametrize("format", ["text", "json", "github"])
def test_write_chooses_the_reporter_of_a_format(format: str) -> None:
    results = [Result("f.json", "tf_config", [error("f.json", "syntax", "m", ("a",))], "keys")]
    writers = {
        "text": report.write_text,
        "json": report.write_json,
        "github": report.write_github,
    }
    assert report.write(results, format) == writers[format](results)
    assert REPORT_FORMATS == report.FORMATS == ("text", "json", "github", "sarif")


def test_a_github_annotation_escapes_the_line_breaks_of_a_file_name() -> None:
    name = "a\r\nb,50%.json"
    results = [Result(name, "tf_config", [error(name, "syntax", "m", ())], "keys")]
    annotation = report.write_github(results).splitlines()[0]
    assert annotation.startswith("::error file=a%0D%0Ab%2C50%25.json,title=estconf syntax::")


def test_json_writes_a_file_name_and_message_beyond_ascii_as_they_are() -> None:
    name = "données/é.json"
    results = [Result(name, "tf_config", [error(name, "syntax", "attendu « } »", ())], "keys")]
    written = report.write_json(results)
    assert '"file": "données/é.json"' in written
    assert "attendu « } »" in written
    assert "\\u" not in written


def test_a_hint_is_a_line_of_its_own_in_text_a_field_in_json_a_second_line_elsewhere() -> None:
    found = error("j.yaml", "tfjob_single_replica", "warning: one pod", ("spec",), hint="add pods")
    result = Result("j.yaml", "tfjob", [found])
    assert report.write_text([result], quiet=True) == (
        "j.yaml: spec: warning: one pod\nhint: add pods\n"
    )
    (written,) = json.loads(report.write_json([result]))["files"][0]["errors"]
    assert (written["message"], written["hint"]) == ("warning: one pod", "add pods")
    assert report.write_github([result]).endswith("::spec: warning: one pod%0Ahint: add pods\n")
    sarif_log = json.loads(report.write_sarif([result]))
    [written_result] = sarif_log["runs"][0]["results"]
    assert written_result["message"]["text"] == "spec: warning: one pod\nhint: add pods"
    # without a hint, nothing more
    plain = Result("j.yaml", "tfjob", [error("j.yaml", "tfjob_single_replica", "one pod")])
    assert report.write_text([plain], quiet=True) == "j.yaml: one pod\n"
    assert "hint" not in json.loads(report.write_json([plain]))["files"][0]["errors"][0]


def _one_of_each_severity() -> list[Result]:
    found = [
        error("j.yaml", "tfjob_restart_policy_invalid", "error: bad", ("a",)),
        error(
            "j.yaml", "tfjob_success_policy_ignored", "warning: ignored", ("b",), severity="warning"
        ),
        error("j.yaml", "tfjob_restart_exit_code", "note: read so", ("c",), severity="note"),
    ]
    return [Result("j.yaml", "tfjob", found), Result("ok.json", "tf_config", [])]


@pytest.mark.parametrize(
    ("severities", "summary", "valid"),
    [
        (("error", "warning", "note"), "1 error, 1 warning, 1 note in 1 of 2 files", False),
        (("warning",), "1 warning in 1 of 2 files", True),
        (("note", "note"), "2 notes in 1 of 2 files", True),
        ((), "2 files valid", True),
    ],
)
def test_the_summary_counts_each_severity_and_only_an_error_makes_a_file_invalid(
    severities: tuple[str, ...], summary: str, valid: bool
) -> None:
    kept = [
        e for e in _one_of_each_severity()[0].errors for _ in range(severities.count(e.severity))
    ]
    results = [Result("j.yaml", "tfjob", kept), Result("ok.json", "tf_config", [])]
    assert report.summary(results) == summary
    assert results[0].valid is valid
    assert results[0].fails() is not valid
    assert results[0].fails(strict=True) is (not valid or "warning" in severities)


def test_every_reporter_says_each_findings_severity() -> None:
    results = _one_of_each_severity()
    text = report.write_text(results, quiet=True)
    assert [line.split(": ")[2] for line in text.splitlines()] == ["error", "warning", "note"]
    errors = json.loads(report.write_json(results))["files"][0]["errors"]
    assert [e["severity"] for e in errors] == ["error", "warning", "note"]
    github = report.write_github(results).splitlines()
    assert [line.split(" ", 1)[0] for line in github] == ["::error", "::warning", "::notice"]
    sarif = json.loads(report.write_sarif(results))["runs"][0]["results"]
    assert [r["level"] for r in sarif] == ["error", "warning", "note"]


class _Elementwise:
    """A value compared item by item, as a numpy array is: its ``!=`` is no bool."""

    def __ne__(self, other: object) -> _Elementwise:  # type: ignore[override]
        return self

    def __bool__(self) -> bool:
        raise ValueError("the truth value of an array with more than one element is ambiguous")

    __hash__ = object.__hash__

    def __str__(self) -> str:
        return "[1 2]"


def test_a_value_json_cannot_hold_is_written_as_its_text_whatever_its_comparisons() -> None:
    found = error("f.json", "int_type", "should be an integer", ("index",), value=_Elementwise())
    result = Result("f.json", "tf_config", [found])
    (written,) = json.loads(report.write_json([result]))["files"][0]["errors"]
    assert written["value"] == "[1 2]"
