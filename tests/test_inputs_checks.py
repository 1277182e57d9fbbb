"""estconf.inputs.checks: ``estconf.check`` checks inputs as ``estconf validate`` does."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import estconf
from estconf.finding import Finding
from estconf.inputs import Report, check
from estconf.inputs.checks import check_input
from estconf.io.checks import Limits
from estconf.io.errors import Result
from estconf.io.sources import Input
from values import refuses_assignment

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _no_project(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no pyproject.toml of estconf's own settings


def test_estconf_check_is_the_layers() -> None:
    assert estconf.check is check


def test_a_config_file_by_its_kind() -> None:
    report = check(DATA / "valid" / "run_config.yaml")
    assert report.valid
    assert [(r.kind, r.kind_from) for r in report.results] == [("run_config", "file name")]


def test_a_tfjob_each_finding_at_its_line() -> None:
    report = check(str(DATA / "kubeflow" / "dist_mnist.yaml"), profile="mwms")
    [result] = report.results
    assert result.kind == "tfjob"
    assert all(isinstance(found, Finding) and found.line for found in report.findings)
    assert report.valid == (not report.findings)


def test_manifests_that_set_tf_config() -> None:
    [result] = check(DATA / "kubernetes" / "configmap.yaml").results
    assert result.kind == "manifest"


def test_a_directory_passes_over_other_tools_files(tmp_path: Path) -> None:
    (tmp_path / "tf_config.json").write_text(
        '{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}', encoding="utf-8"
    )
    (tmp_path / "values.yaml").write_text("replicas: 2\n", encoding="utf-8")
    report = check(tmp_path)
    assert report.valid
    assert [r.skipped is not None for r in report.results] == [False, True]


def test_the_kind_given_wins(tmp_path: Path) -> None:
    path = tmp_path / "values.yaml"
    path.write_text("replicas: 2\n", encoding="utf-8")
    [found] = check(path, kind="run_config").findings
    assert (found.code, found.path) == ("unknown_key", "replicas")


def test_a_missing_file_is_unreadable() -> None:
    report = check(["nope.json"])
    assert (report.valid, report.unreadable) == (False, True)


def test_standard_input_and_its_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    text = b'{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert check("-").valid
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    [found] = check("-", limits=Limits(max_size=10)).findings
    assert (found.file, found.code) == ("<stdin>", "size")


def test_standard_input_too_large_is_a_tf_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input past the size limit is reported as the TF_CONFIG it stands for."""
    text = b'{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    [result] = check("-", limits=Limits(max_size=10)).results
    assert (result.file, result.kind) == ("<stdin>", "tf_config")


def test_standard_input_of_text_only_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A standard input with no bytes under it (a text stream alone) is read as UTF-8 text."""
    text = '{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}'
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert check("-").valid


def test_standard_input_of_text_with_a_lone_surrogate_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Text standard input holding a lone surrogate is an error of the input, not a crash."""
    text = '{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief\udc80", "index": 0}}'
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    report = check("-")
    assert not report.valid
    assert [(found.file, found.code) for found in report.findings] == [("<stdin>", "encoding")]


def test_a_report_of_no_results_is_valid() -> None:
    assert Report(()).valid


def test_a_report_cannot_be_changed() -> None:
    """A report refuses assignment; its results are not frozen, so it is not hashed."""
    refuses_assignment(Report((Result("a.json", None, []),)))


JOBSET = DATA / "launchers" / "jobset"


def test_a_trainjob_is_checked_with_its_runtime_from_another_file() -> None:
    report = check([JOBSET / "trainjob_ps.yaml", JOBSET / "runtime_ps.yaml"], profile="ps")
    assert report.valid and report.findings == []


def test_a_trainjob_whose_runtime_is_in_no_file_is_a_note() -> None:
    report = check([JOBSET / "trainjob_ps.yaml", JOBSET / "chief_worker_ps.yaml"], profile="ps")
    assert [(found.file, found.code) for found in report.findings] == [
        (str(JOBSET / "trainjob_ps.yaml"), "runtime_not_given")
    ]


def test_a_runtimes_errors_are_its_own_files() -> None:
    """The pods of a runtime are checked through the TrainJob, and reported in the runtime."""
    trainjob, runtime = JOBSET / "trainjob_ps.yaml", JOBSET / "runtime_ps.yaml"
    report = check([trainjob, runtime], profile="mwms")
    valid = [(r.file, r.valid) for r in report.results]
    assert valid == [(str(trainjob), True), (str(runtime), False)]
    assert {found.file for found in report.findings} == {str(runtime)}


def test_a_trainjob_on_standard_input_keeps_its_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input is read once: its TrainJob is not checked again with a file's runtime."""
    text = (JOBSET / "trainjob_ps.yaml").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    report = check(["-", JOBSET / "runtime_ps.yaml"], profile="ps", input_format="yaml")
    assert [(found.file, found.code) for found in report.findings] == [
        ("<stdin>", "runtime_not_given")
    ]


def test_each_trainjob_file_is_checked_with_the_runtimes_of_the_others(tmp_path: Path) -> None:
    """A file whose TrainJob finds its runtime in no other file leaves the next one checked."""
    runtime = (JOBSET / "runtime_ps.yaml").read_text(encoding="utf-8")
    trainjob = (JOBSET / "trainjob_ps.yaml").read_text(encoding="utf-8")
    first = tmp_path / "first.yaml"
    first.write_text(
        f"{runtime}\n---\n{trainjob.replace('name: tensorflow-ps', 'name: absent')}",
        encoding="utf-8",
    )
    report = check([first, JOBSET / "trainjob_ps.yaml"], profile="ps")
    assert [(found.file, found.code) for found in report.findings] == [
        (str(first), "runtime_not_given")
    ]


def test_a_file_of_tfjobs_is_checked_as_tfjobs_whatever_else_it_names(tmp_path: Path) -> None:
    """A file that holds a TFJob and a JobSet gives the TFJob's findings."""
    tfjob = (DATA / "kubeflow" / "dist_mnist.yaml").read_text(encoding="utf-8")
    jobset = (JOBSET / "chief_worker_ps.yaml").read_text(encoding="utf-8")
    both = tmp_path / "both.yaml"
    both.write_text(f"{tfjob}\n---\n{jobset}", encoding="utf-8")
    [result] = check(both, profile="mwms").results
    assert result.kind == "tfjob"
    assert "tfjob_no_id_for_task_type" in [found.code for found in result.errors]


def test_a_kind_given_to_check_input_is_said_given_by_kind() -> None:
    result = check_input(Input(str(DATA / "valid" / "run_config.yaml")), kind="run_config")
    assert (result.kind, result.kind_from) == ("run_config", "--kind")
