"""estconf.finding: the one located finding every check reports."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from pydantic import ValidationError

from estconf import TFConfig
from estconf.deployment import Problem
from estconf.deployment.profile import problems_of
from estconf.finding import NO_VALUE, Finding, show_value
from estconf.io.errors import FileError, error
from estconf.io.parse import parse
from estconf.launchers.kubeflow.finding import reported_severity
from values import is_a_value


def test_a_finding_holds_code_severity_message_hint_input_place_and_path() -> None:
    found = Finding.at(
        "address",
        "'h' is not a valid task address",
        ("cluster", "worker", 1),
        file="tf_config.json",
        line=4,
        column=30,
        value="h",
        severity="warning",
        hint="write host:port",
    )
    assert (found.code, found.severity, found.hint) == ("address", "warning", "write host:port")
    assert (found.file, found.line, found.column) == ("tf_config.json", 4, 30)
    assert (found.path, found.loc) == ("cluster.worker[1]", ("cluster", "worker", 1))
    assert str(found) == "tf_config.json:4:30: cluster.worker[1]: 'h' is not a valid task address"


def test_a_finding_is_an_error_about_no_value_in_no_file_unless_told() -> None:
    found = Finding.at("missing_chief", "no chief")
    assert (found.severity, found.hint, found.value) == ("error", None, NO_VALUE)
    assert (found.file, found.line, found.column, found.path) == ("", None, None, "")
    assert found.describe() == str(found) == "no chief"


def test_a_finding_about_no_value_shows_it_as_no_value() -> None:
    assert repr(NO_VALUE) == "NO_VALUE"
    assert "value=NO_VALUE" in repr(Finding.at("missing_chief", "no chief"))


class _Elementwise:
    """A value compared item by item, as a numpy array is: its ``!=`` is no bool."""

    def __ne__(self, other: object) -> bool:
        raise ValueError("the truth value of an array is ambiguous")

    def __eq__(self, other: object) -> bool:
        raise ValueError("the truth value of an array is ambiguous")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "array([1, 2])"


def test_a_value_that_compares_item_by_item_is_shown() -> None:
    found = Finding.at("int_type", "should be an integer", ("task", "index"), value=_Elementwise())
    assert found.describe() == "task.index: should be an integer (got array([1, 2]))"


@pytest.mark.parametrize("limit", [10, 60])
def test_a_long_value_is_shown_cut_to_the_limit_with_an_ellipsis(limit: int) -> None:
    """The value's JSON is cut to ``limit`` characters, the last three of them "..."."""
    shown = show_value("x" * 100, limit)
    assert shown == '"' + "x" * (limit - 4) + "..."
    assert len(shown) == limit
    assert show_value("x" * (limit - 2), limit) == '"' + "x" * (limit - 2) + '"'


def test_a_finding_shows_a_long_value_in_60_characters() -> None:
    """The default limit is 60: a finding's "(got ...)" stays short."""
    found = Finding.at("bounds", "too long", ("model_dir",), value="x" * 100)
    assert found.describe() == f'model_dir: too long (got "{"x" * 56}...)'


def test_the_file_pipelines_errors_are_findings() -> None:
    found = error("f.json", "bounds", "should be >= 0", ("save_summary_steps",), value=-1)
    assert isinstance(found, Finding)
    assert type(found) is FileError
    assert found.severity == "error"
    assert str(found) == "f.json: save_summary_steps: should be >= 0 (got -1)"
    assert type(dataclasses.replace(found, line=1, column=2)) is FileError


def test_a_profiles_problems_are_findings_in_no_file_yet() -> None:
    problem = Problem("ps_refused", "no ps here", ("cluster", "ps"))
    assert isinstance(problem, Finding)
    assert (problem.code, problem.message, problem.loc) == (
        "ps_refused",
        "no ps here",
        ("cluster", "ps"),
    )
    assert (problem.path, problem.file, problem.severity) == ("cluster.ps", "", "error")
    with pytest.raises(ValidationError) as raised:
        TFConfig.model_validate({"cluster": {"worker": ["h"]}})
    (found,) = problems_of(raised.value)
    assert (found.code, found.path) == ("address", "cluster.worker[0]")


@pytest.mark.parametrize(
    ("severity", "reported"),
    [("refused", "error"), ("error", "error"), ("warning", "warning"), ("note", "note")],
)
def test_a_tfjob_finding_refused_by_the_webhook_is_reported_as_an_error(
    severity: str, reported: str
) -> None:
    assert reported_severity(severity) == reported  # type: ignore[arg-type]


def test_a_finding_on_a_key_is_placed_at_the_key_of_the_nearest_value_the_text_has() -> None:
    document = parse("spec:\n  replicas: 2\n", "yaml", "job.yaml")
    on_key, on_value = document.place(
        [
            error("job.yaml", "unknown_key", "m", ("spec", "template"), on_key=True),
            error("job.yaml", "type", "m", ("spec", "template")),
        ]
    )
    assert (on_key.line, on_key.column) == (1, 1)  # the key spec, which lacks template
    assert (on_value.line, on_value.column) == (2, 3)  # the value of spec


def test_a_pydantic_error_is_a_finding_at_its_place_less_the_documents_root() -> None:
    with pytest.raises(ValidationError) as raised:
        TFConfig.model_validate({"cluster": {"worker": ["h"]}})
    (detail,) = raised.value.errors(include_url=False)
    found = FileError.of_error(detail, file="f.json")
    assert type(found) is FileError
    assert (found.file, found.code, found.path, found.value) == (
        "f.json",
        "address",
        "cluster.worker[0]",
        NO_VALUE,
    )
    wrapped = {**detail, "loc": ("tf_config", *detail["loc"])}
    assert Finding.of_error(wrapped, root=("tf_config",)).loc == ("cluster", "worker", 0)
    assert Finding.of_error(wrapped, root=("other",)).loc == ("tf_config", "cluster", "worker", 0)
    moved = Finding.of_error(detail, prefix="task worker:0: ", loc=("cluster",), value=True)
    assert (moved.loc, moved.value) == (("cluster",), "h")
    assert moved.message.startswith("task worker:0: 'h' is not a valid task address")


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Finding.at("bounds", "too small", ("a",), value=-1), id="Finding"),
        pytest.param(
            lambda: error("f.json", "bounds", "should be >= 0", ("save_summary_steps",), value=-1),
            id="FileError",
        ),
    ],
)
def test_a_finding_is_a_value(make: Callable[[], Finding]) -> None:
    """A finding refuses assignment and hashes by its fields: a set of findings holds each once."""
    is_a_value(make)
