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
