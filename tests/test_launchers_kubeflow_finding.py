"""estconf.launchers.kubeflow.finding: what a check of a TFJob manifest reports."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from estconf.launchers.kubeflow.finding import Finding, format_location, reported_severity

LOCATION = ("spec", "tfReplicaSpecs", "PS", "template", "spec", "containers", 0, "image")


def finding(**fields: Any) -> Finding:
    given = {"code": "tfjob_no_image", "severity": "refused", "message": "m", "location": LOCATION}
    return Finding(**{**given, **fields})


def test_a_location_is_written_as_kubernetes_writes_a_field_path() -> None:
    assert format_location(LOCATION) == "spec.tfReplicaSpecs.PS.template.spec.containers[0].image"
    assert format_location((0, "a")) == "[0].a"
    assert format_location(()) == ""


def test_a_finding_gives_its_path_and_dumps_it() -> None:
    found = finding()
    assert found.path == "spec.tfReplicaSpecs.PS.template.spec.containers[0].image"
    assert found.model_dump()["path"] == found.path
    assert str(found) == f"{found.path}: refused: m [tfjob_no_image]"
    assert str(finding(location=(), hint="h")) == "refused: m [tfjob_no_image] (hint: h)"


@pytest.mark.parametrize("severity", ["refused", "error", "warning", "note"])
def test_the_four_severities(severity: str) -> None:
    assert finding(severity=severity).severity == severity


def test_a_refused_severity_read_from_a_report_is_reported_as_an_error() -> None:
    """A severity read from a JSON report is mapped by its text, as one the checks give."""
    read = json.loads('{"refused": "error", "error": "error", "note": "note"}')
    for severity, reported in read.items():
        assert reported_severity(severity) == reported


def test_another_severity_is_refused() -> None:
    with pytest.raises(ValidationError):
        finding(severity="fatal")


def test_a_finding_is_frozen_and_hashable() -> None:
    found = finding()
    with pytest.raises(ValidationError, match="frozen"):
        found.code = "other"  # type: ignore[misc]
    assert hash(found) == hash(finding())
    assert len({found, finding(), finding(code="tfjob_no_containers")}) == 2


def test_its_json_schema_describes_each_field() -> None:
    properties = Finding.model_json_schema(mode="serialization")["properties"]
    assert {name: properties[name].get("description") for name in properties} == {
        "code": "A stable code naming the rule, e.g. `tfjob_multiple_chief`.",
        "severity": "`refused`, `error`, `warning` or `note`.",
        "message": "What is wrong and what happens because of it.",
        "hint": "How to fix it, when there is a fix.",
        "location": "Where in the manifest the cause is.",
        "path": "The location written as a dotted path (``spec.tfReplicaSpecs.PS``).",
    }
