"""estconf.reports.files: what validate found of each file, as text, JSON, GitHub annotations.

The text, JSON and GitHub reports of real files are checked byte for byte by
the command's tests (``tests/test_cli_validate.py``); SARIF in
``tests/test_reports_sarif.py``.
"""

from __future__ import annotations

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
