"""estconf.finding: the one located finding every check reports."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from estconf import TFConfig, kubeflow
from estconf.deployment import Problem
from estconf.deployment.profile import problems_of
from estconf.finding import NO_VALUE, Finding, Loc, Severity, show_value
from estconf.io.errors import FileError, error
from estconf.io.parse import parse
from estconf.launchers.kubeflow import tfjobs
from estconf.reports import files as report
from values import is_a_value

KUBEFLOW = Path(__file__).parent / "data" / "kubeflow"


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


def test_a_finding_made_directly_is_about_a_value_not_its_key_unless_told() -> None:
    found = Finding("tf_config.json", "task", ("task",), "model_type", "not an object")
    assert found.on_key is False
    assert Finding("f", "task", ("task",), "c", "m", on_key=True).on_key is True


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


def test_a_finding_is_not_refused_unless_told() -> None:
    found = Finding.at("missing_chief", "no chief")
    assert found.refused is False
    assert found.label == found.severity == "error"
    for severity in ("warning", "note"):
        assert Finding.at("tfjob_generate_name", "m", severity=severity).label == severity


def test_a_refusal_is_an_error_that_is_refused() -> None:
    """What the launcher refuses before it runs is an error; its text says ``refused``."""
    found = Finding.at("tfjob_no_image", "image: must be required", ("spec",), refused=True)
    assert (found.severity, found.refused, found.label) == ("error", True, "refused")
    assert str(found) == "spec: image: must be required"
    assert found != dataclasses.replace(found, refused=False)
    assert error("f.yaml", "tfjob_no_image", "m", refused=True).refused is True
    assert error("f.yaml", "tfjob_no_image", "m").refused is False


# A TFJob finding's path, as Kubernetes writes a field path: keys dotted, list positions in
# brackets.
TFJOB_PATHS = [
    (
        ("spec", "tfReplicaSpecs", "PS", "template", "spec", "containers", 0, "image"),
        "spec.tfReplicaSpecs.PS.template.spec.containers[0].image",
    ),
    (("spec", "runPolicy", "cleanPodPolicy"), "spec.runPolicy.cleanPodPolicy"),
    (("metadata", "generateName"), "metadata.generateName"),
    (("apiVersion",), "apiVersion"),
    ((0, "a"), "[0].a"),
    ((), ""),
]


@pytest.mark.parametrize(("loc", "path"), TFJOB_PATHS)
def test_a_tfjob_findings_path_is_written_as_kubernetes_writes_a_field_path(
    loc: Loc, path: str
) -> None:
    assert Finding.at("tfjob_no_image", "m", loc, refused=True).path == path


def test_every_tfjob_finding_of_the_samples_is_at_a_path_kubernetes_writes_alike() -> None:
    """The keys of the sample manifests' findings are identifiers: dotted, as Kubernetes does."""
    from ruamel.yaml import YAML

    seen = 0
    for sample in sorted(KUBEFLOW.glob("*.yaml")):
        try:
            tfjob = kubeflow.TFJob.model_validate(YAML(typ="safe").load(sample.read_text()))
        except Exception:  # a stream, a list, an Experiment: read otherwise
            continue
        for found in kubeflow.check(tfjob):
            kubernetes = "".join(
                f"[{step}]" if isinstance(step, int) else f".{step}" for step in found.loc
            ).removeprefix(".")
            assert found.path == kubernetes
            seen += 1
    assert seen > 20


def test_a_refusal_is_said_refused_in_the_text_report_and_not_in_json() -> None:
    """A refusal's message begins ``refused:`` in every report; JSON writes no field of its own."""
    result = tfjobs.check_text(
        (KUBEFLOW / "refused.yaml").read_bytes(), "yaml", "refused.yaml", "estimator"
    )
    assert result is not None
    refusals = [e for e in result.errors if e.refused]
    assert [e.code for e in refusals] == [
        "tfjob_multiple_chief",
        "tfjob_no_tensorflow_container",
        "tfjob_no_image",
    ]
    assert {e.severity for e in refusals} == {"error"}
    assert all(e.message.startswith("refused: the operator's admission webhook") for e in refusals)
    others = [e for e in result.errors if not e.refused]
    assert [e.message.split(":")[0] for e in others] == ["error", "warning"]
    assert "spec.tfReplicaSpecs: refused: " in report.write_text([result])
    (written,) = json.loads(report.write_json([result]))["files"]
    assert {key for error in written["errors"] for key in error} == {
        "path",
        "loc",
        "line",
        "column",
        "code",
        "severity",
        "message",
        "hint",
    }
    assert written["errors"][0]["message"].startswith("refused: ")
    # the fix is a field of its own, not a part of the message
    assert written["errors"][0]["hint"] == refusals[0].hint
    assert all("(hint: " not in error["message"] for error in written["errors"])


def test_the_kubeflow_finding_is_the_one_finding() -> None:
    assert kubeflow.Finding is Finding
    assert kubeflow.Severity is Severity
    assert kubeflow.Location is Loc
    (found,) = (
        f
        for f in kubeflow.check(
            kubeflow.TFJob.model_validate(
                {
                    "apiVersion": "kubeflow.org/v1",
                    "kind": "TFJob",
                    "metadata": {"name": "j"},
                    "spec": {},
                }
            )
        )
        if f.code == "tfjob_no_replica_specs"
    )
    assert type(found) is Finding
    assert (found.severity, found.refused, found.path) == ("error", True, "spec.tfReplicaSpecs")


def test_the_cluster_reports_finding_is_the_one_finding() -> None:
    from estconf import deployment
    from estconf.deployment import report as cluster_report

    assert deployment.Finding is Finding
    assert cluster_report.Finding is Finding
    tf_config = {"cluster": {"worker": ["w0:1"]}, "task": {"type": "worker", "index": 0}}
    report = deployment.check_cluster([("a.json", tf_config), ("b.json", tf_config)])
    assert report.findings
    assert all(type(found) is Finding for found in report.findings)


def test_a_finding_at_nodes_is_written_at_them_and_otherwise_as_before() -> None:
    from estconf.deployment import CrossNode

    at_nodes = Finding.at("model_dir_mismatch", "differs", ("model_dir",), nodes=("a", "b"))
    assert (at_nodes.nodes, at_nodes.cross_node) == (("a", "b"), None)
    assert str(at_nodes) == "a, b: model_dir: differs"
    at_none = Finding.at("task_unclaimed", "no node", cross_node=CrossNode(job="w", index=1))
    assert str(at_none) == "cluster: no node"
    assert at_none.cross_node == CrossNode(job="w", index=1)
    in_file = Finding.at("address", "bad", ("cluster",), file="f.json", line=2, column=3)
    assert (in_file.nodes, in_file.cross_node) == ((), None)
    assert str(in_file) == "f.json:2:3: cluster: bad"


@pytest.mark.parametrize(
    "copy_of", [copy.copy, copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))]
)
def test_no_value_stays_itself_when_a_finding_is_copied(copy_of: Callable[[Any], Any]) -> None:
    assert copy_of(NO_VALUE) is NO_VALUE
    found = Finding.at("missing_chief", "no chief")
    assert copy_of(found) == found
    assert copy_of(found).value is NO_VALUE


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
        pytest.param(
            lambda: Finding.at("tfjob_no_image", "m", ("spec",), hint="h", refused=True),
            id="refusal",
        ),
        pytest.param(
            lambda: Finding.at("task_claimed_twice", "m", nodes=("a", "b")),
            id="at nodes",
        ),
    ],
)
def test_a_finding_is_a_value(make: Callable[[], Finding]) -> None:
    """A finding refuses assignment and hashes by its fields: a set of findings holds each once."""
    is_a_value(make)


def test_the_hint_of_a_pydantic_error_is_the_hint_of_its_context() -> None:
    from estconf._errors import fail
    from estconf.finding import hint_of

    invalid = fail("T", "missing_chief", "no chief", ("cluster",), None, {"hint": "add one"})
    (detail,) = invalid.errors(include_url=False)
    assert hint_of(detail) == "add one"
    assert Finding.of_error(detail).hint == "add one"
    assert hint_of({"type": "x", "msg": "m", "loc": ()}) is None
    assert Finding.of_error({"type": "x", "msg": "m", "loc": ()}).hint is None


def test_a_hint_the_message_already_says_is_no_hint_of_its_own() -> None:
    """A rule that writes its fix into its sentence (``... Fix: ...``) is not told it twice."""
    from estconf.finding import hint_of

    said = {"type": "x", "msg": "no chief. Fix: add one.", "ctx": {"hint": " Fix: add one."}}
    assert hint_of(said) is None
    assert hint_of({"type": "x", "msg": "no chief", "ctx": {"hint": " "}}) is None
    assert hint_of({"type": "x", "msg": "no chief", "ctx": {"hint": "add one"}}) == "add one"


def test_a_value_is_shown_with_its_characters_as_written() -> None:
    """Not as JSON's \\u escapes: a path or host name reads as the file wrote it."""
    assert show_value({"model_dir": "/data/café"}) == '{"model_dir": "/data/café"}'
