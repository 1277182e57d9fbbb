"""``estconf.convert.reading``: the TFJob of a file, converted, and what is said placed in it."""

from __future__ import annotations

import pytest

from estconf.convert.reading import REFUSING, convert_text
from values import refuses_assignment

HEAD = """\
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: mnist}
spec:
  tfReplicaSpecs:
"""


def spec(key: str, *, port: int | None = None, restart: str | None = None) -> str:
    """A replica spec of two pods, its tensorflow container on ``port`` if given."""
    ports = f", ports: [{{name: tfjob-port, containerPort: {port}}}]" if port else ""
    policy = f"      restartPolicy: {restart}\n" if restart else ""
    return (
        f"    {key}:\n"
        "      replicas: 2\n"
        f"{policy}"
        "      template:\n"
        "        spec:\n"
        f'          containers: [{{name: tensorflow, image: "tf:2.15"{ports}}}]\n'
    )


class TestWhatTheOperatorWouldNotRun:
    @pytest.mark.parametrize(
        ("replica_specs", "code"),
        [
            (spec("Worker", port=70000), "tfjob_port_invalid"),
            (spec("Worker", restart="Sometimes"), "tfjob_restart_policy_invalid"),
            (spec("worker") + spec("WORKER"), "tfjob_duplicate_replica_type"),
        ],
    )
    def test_an_error_kubernetes_or_the_map_order_decides_refuses(
        self, replica_specs: str, code: str
    ) -> None:
        converted = convert_text((HEAD + replica_specs).encode(), "tfjob.yaml")
        assert (converted.refused, converted.documents) == (True, ())
        summary, *reasons = converted.findings
        assert summary.code == "convert_refused"
        assert code in REFUSING
        assert {each.code for each in reasons} == {code}

    def test_one_reason_is_announced_as_the_reason(self) -> None:
        converted = convert_text((HEAD + spec("Worker", port=70000)).encode(), "tfjob.yaml")
        summary, reason = converted.findings
        assert (summary.line, summary.column, summary.refused) == (1, 1, True)
        assert summary.message == (
            "refused: the TFJob is not converted: the operator would not run it as written "
            "(the reason follows)"
        )
        assert summary.hint == "estconf validate FILE says what else it finds of the TFJob"
        assert (reason.line, reason.severity) == (10, "error")

    def test_a_spec_the_operator_drops_for_another_of_its_type_is_dropped(self) -> None:
        converted = convert_text((HEAD + spec("Worker") + spec("worker")).encode(), "tfjob.yaml")
        assert not converted.refused
        dropped = [f for f in converted.findings if f.code == "convert_field_dropped"]
        assert [(f.path, f.line, f.column) for f in dropped] == [
            ("spec.tfReplicaSpecs.Worker", 6, 5)
        ]


class TestTheFile:
    def test_a_file_of_two_tfjobs_is_refused_by_the_conversions_code(self) -> None:
        text = HEAD + spec("Worker") + "---\n" + HEAD + spec("Worker")
        converted = convert_text(text.encode(), "two.yaml")
        (found,) = converted.findings
        assert (found.code, found.refused, found.file) == ("convert_refused", True, "two.yaml")
        assert found.message == "refused: holds 2 TFJobs: convert one at a time"

    def test_a_file_of_no_tfjob_is_refused_as_such(self) -> None:
        text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tf}\ndata: {a: b}\n"
        (found,) = convert_text(text.encode(), "cm.yaml").findings
        assert found.message == "refused: holds no TFJob (kind: TFJob, apiVersion: kubeflow.org/v1)"

    def test_what_converting_gave_refuses_assignment(self) -> None:
        refuses_assignment(convert_text((HEAD + spec("Worker")).encode(), "tfjob.yaml"))
