"""estconf.launchers.kubeflow._webhook: what the operator's admission webhook refuses in a TFJob."""

from __future__ import annotations

from typing import Any

import pytest

from estconf.kubeflow import TFJob
from estconf.launchers.kubeflow._webhook import dns1035_label_errors, webhook_refusals

CONTAINERS = [{"name": "tensorflow", "image": "tf:2"}]


def tfjob(metadata: dict[str, Any], containers: list[dict[str, Any]] = CONTAINERS) -> TFJob:
    return TFJob.model_validate(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "TFJob",
            "metadata": metadata,
            "spec": {
                "tfReplicaSpecs": {"Worker": {"template": {"spec": {"containers": containers}}}}
            },
        }
    )


def test_a_dns1035_label_is_at_most_63_characters() -> None:
    assert dns1035_label_errors("a" * 63) == []
    assert dns1035_label_errors("a" * 64) == ["must be no more than 63 characters"]


@pytest.mark.parametrize(
    ("metadata", "where"),
    [
        ({"name": "ok", "generateName": "Bad_"}, None),
        ({"name": "Bad", "generateName": "ok-"}, ("metadata", "name")),
        ({"generateName": "Bad_"}, ("metadata", "generateName")),
    ],
)
def test_the_name_is_checked_and_a_generate_name_only_without_one(
    metadata: dict[str, str], where: tuple[str, ...] | None
) -> None:
    found = [(f.code, f.loc) for f in webhook_refusals(tfjob(metadata))]
    assert found == ([] if where is None else [("tfjob_invalid_name", where)])


def test_a_replica_type_is_written_in_brackets_in_the_field_path() -> None:
    (no_containers, no_tensorflow) = webhook_refusals(tfjob({"name": "j"}, containers=[]))
    assert no_containers.message == (
        "the operator's admission webhook refuses the TFJob: "
        "spec.tfReplicaSpecs[Worker].template.spec.containers: Required value: must be specified"
    )
    assert no_tensorflow.code == "tfjob_no_tensorflow_container"
