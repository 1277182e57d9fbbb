"""``estconf.convert.names``: what JobSet's and Trainer's webhooks refuse in the converted job."""

from __future__ import annotations

from typing import Any

import pytest

from estconf.convert.reading import convert_text
from estconf.convert.tfjob import Refused, tfjob_to_trainjob
from estconf.launchers.kubeflow.manifest import TFJob


def _tfjob(name: str = "mnist") -> dict[str, Any]:
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "TFJob",
        "metadata": {"name": name},
        "spec": {
            "tfReplicaSpecs": {
                "Worker": {
                    "replicas": 2,
                    "template": {
                        "spec": {"containers": [{"name": "tensorflow", "image": "tf:2.15"}]}
                    },
                }
            }
        },
    }


class TestNamesTooLong:
    def test_a_name_too_long_is_a_refusal_at_the_tfjobs_name(self) -> None:
        text = (
            "apiVersion: kubeflow.org/v1\nkind: TFJob\n"
            f"metadata:\n  name: {'a' * 50}\n"
            "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n"
            "      template:\n        spec:\n"
            '          containers: [{name: tensorflow, image: "tf:2.15"}]\n'
        )
        converted = convert_text(text.encode(), "tfjob.yaml", jobset=True)
        (found,) = converted.findings
        assert (converted.refused, found.code, found.refused) == (True, "convert_refused", True)
        assert (found.path, found.line, found.column) == ("metadata.name", 4, 3)
        assert found.message.startswith("refused: the converted job would be refused: ")


class TestValuesAJobSetCannotHold:
    @pytest.mark.parametrize("jobset", [False, True], ids=["trainjob", "jobset"])
    def test_a_pod_templates_value_is_refused_at_the_replica_specs(self, jobset: bool) -> None:
        data = _tfjob()
        data["spec"]["tfReplicaSpecs"]["Worker"]["template"]["metadata"] = {"labels": {"a": 1}}
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(TFJob.model_validate(data), jobset=jobset)
        (finding,) = refused.value.findings
        assert (finding.code, finding.path) == ("convert_refused", "spec.tfReplicaSpecs")
        assert finding.message.endswith(
            ".template.metadata.labels.a: Input should be a valid string"
        )

    def test_a_value_of_the_tfjobs_own_metadata_is_refused_at_the_tfjob(self) -> None:
        data = _tfjob()
        data["metadata"]["labels"] = {"tier": 1}
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(TFJob.model_validate(data), jobset=True)
        (finding,) = refused.value.findings
        assert finding.path == ""
        assert finding.message == (
            "the converted job cannot hold a value of the TFJob: metadata.labels.tier: "
            "Input should be a valid string"
        )
        assert finding.hint == "write the value as Kubernetes takes it in a pod template"
