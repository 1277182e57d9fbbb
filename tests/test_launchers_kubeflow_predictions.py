"""launchers.kubeflow.predictions: the TF_CONFIGs the training operator writes for a TFJob."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from estconf.io.checks import Limits
from estconf.io.sources import InputError
from estconf.launchers.kubeflow.manifest import TFJob
from estconf.launchers.kubeflow.predictions import (
    Predicted,
    _set_by_hand,
    manifest_tf_configs,
    replica_tf_configs,
)
from estconf.launchers.kubeflow.size import TFConfigSize
from estconf.reports.launchers import write_notes

KUBEFLOW = Path(__file__).parent / "data" / "kubeflow"
ONE_REPLICA = (
    "the job has one replica in all: the operator gives its pod no TF_CONFIG "
    "(TensorFlow runs it alone)\n"
)


def manifest(name: str, job_name: str | None = None) -> Predicted:
    return manifest_tf_configs((KUBEFLOW / name).read_bytes(), name, Limits(), job_name=job_name)


class TestReplicas:
    def test_each_pods_tf_config_at_the_operators_addresses(self) -> None:
        found = replica_tf_configs("mnist", {"Chief": 1, "Worker": 2}, namespace="ml")
        assert (write_notes(found.notes), found.failed) == ("", False)
        assert [task for task, _ in found.outputs] == [("chief", 0), ("worker", 0), ("worker", 1)]
        tf_config = json.loads(found.outputs[2][1])
        assert tf_config["cluster"]["worker"][1] == "mnist-worker-1.ml.svc:2222"
        assert tf_config["task"] == {"type": "worker", "index": 1}

    def test_one_task_alone(self) -> None:
        found = replica_tf_configs("m", {"Chief": 1, "Worker": 2}, task=("worker", 1))
        assert [task for task, _ in found.outputs] == [("worker", 1)]

    def test_a_cluster_the_profile_refuses_is_said_at_the_first_pod(self) -> None:
        found = replica_tf_configs("m", {"Worker": 2})
        assert (found.outputs, found.failed) == ([], True)
        assert write_notes(found.notes).startswith(
            '--job m (worker:0): cluster: If "cluster" is set in TF_CONFIG, it must have one '
            '"chief" node.'
        )
        assert "(this cluster is valid for --profile mwms or --profile server)" in write_notes(
            found.notes
        )
        assert not replica_tf_configs("m", {"Worker": 2}, profile="mwms").failed

    def test_one_replica_gets_no_tf_config(self) -> None:
        found = replica_tf_configs("m", {"Worker": 1})
        assert (found.outputs, write_notes(found.notes), found.failed) == ([], ONE_REPLICA, False)

    def test_what_the_operator_refuses_is_said_after_the_job(self) -> None:
        found = replica_tf_configs("Bad_Name", {"Worker": 2})
        assert found.failed
        assert write_notes(found.notes).startswith(
            "--job Bad_Name: the operator's admission webhook refuses the TFJob: metadata.name"
        )

    def test_the_size_is_seen_before_the_tf_configs_are_built(self) -> None:
        seen: list[TFConfigSize] = []
        replica_tf_configs("m", {"Chief": 1, "Worker": 3}, before=seen.append)
        assert [size.pods for size in seen] == [4]

    def test_a_cluster_too_large_to_build(self) -> None:
        with pytest.raises(InputError, match="estconf validate checks a job of any size"):
            replica_tf_configs("m", {"Worker": 200_000})


class TestManifest:
    def test_every_tf_config_the_operator_would_write(self) -> None:
        found = manifest("dist_mnist.yaml")
        assert (write_notes(found.notes), found.failed, len(found.outputs)) == ("", False, 5)

    def test_an_earlier_api_version_is_predicted_as_v1_with_a_note(self) -> None:
        found = manifest("dist_mnist_v1beta1.yaml")
        assert not found.failed
        assert len(found.outputs) == 6
        assert write_notes(found.notes) == (
            "dist_mnist_v1beta1.yaml: apiVersion: note: kubectl apply refuses a TFJob of "
            "kubeflow.org/v1beta1 (the operator serves kubeflow.org/v1 only); these are the "
            "TF_CONFIGs of the same job as kubeflow.org/v1\n"
            "hint: write apiVersion: kubeflow.org/v1\n"
        )

    def test_what_the_operator_refuses_is_said_at_its_path(self) -> None:
        found = manifest("refused.yaml")
        assert (found.outputs, found.failed) == ([], True)
        assert write_notes(found.notes).startswith(
            "refused.yaml: spec.tfReplicaSpecs.Worker.template.spec.containers[1].image: "
        )

    def test_a_key_that_is_no_identifier_is_quoted_in_its_path_as_validate_writes_it(
        self,
    ) -> None:
        manifest = (
            b"apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: j}\nspec:\n"
            b"  tfReplicaSpecs:\n    my worker:\n      template:\n        spec:\n"
            b"          containers: [{name: tensorflow}]\n"
        )
        found = manifest_tf_configs(manifest, "j.yaml", Limits())
        assert found.failed
        assert write_notes(found.notes).startswith(
            'j.yaml: spec.tfReplicaSpecs["my worker"].template.spec.containers[0].image: '
        )

    def test_a_job_too_large_to_build_is_said(self) -> None:
        found = manifest("million_replicas.yaml")
        assert found.failed
        assert write_notes(found.notes) == (
            "million_replicas.yaml: the TFJob's cluster has 1,065,535 pods, more than the "
            "100,000 a prediction builds (max_pods)\n"
        )

    def test_one_replica_gets_no_tf_config(self) -> None:
        found = manifest("single_replica.yaml")
        assert (found.outputs, write_notes(found.notes), found.failed) == ([], ONE_REPLICA, False)

    def test_a_generated_name_needs_the_jobs_name(self) -> None:
        with pytest.raises(InputError, match="generateName"):
            manifest("generate_name.yaml")
        assert not manifest("generate_name.yaml", job_name="sweep-x1").failed

    def test_not_a_manifest(self) -> None:
        found = manifest_tf_configs(b"{", "bad.yaml", Limits())
        assert found.failed
        assert write_notes(found.notes).startswith("bad.yaml:")

    def test_every_error_of_a_manifest_that_cannot_be_read_is_a_line(self) -> None:
        raw = (KUBEFLOW / "dist_mnist.yaml").read_bytes().replace(b"replicas: 2", b"replicas: .nan")
        found = manifest_tf_configs(raw, "j.yaml", Limits())
        assert (found.outputs, found.failed) == ([], True)
        assert write_notes(found.notes) == "".join(
            f"j.yaml:{line}:17: spec.tfReplicaSpecs.{replica}.replicas: NaN and infinite numbers "
            "are not allowed; write a finite number\n"
            for line, replica in ((19, "PS"), (27, "Worker"))
        )


def test_a_prediction_cannot_be_changed() -> None:
    found = replica_tf_configs("m", {"Chief": 1, "Worker": 2})
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.failed = True  # type: ignore[misc]


def test_a_hand_set_tf_config_is_read_after_a_spec_with_no_tensorflow_container() -> None:
    main = {"name": "main", "image": "train:1"}
    tensorflow = {
        "name": "tensorflow",
        "image": "train:1",
        "env": [{"name": "TF_CONFIG", "value": "{}"}],
    }
    tfjob = TFJob.model_validate(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "TFJob",
            "metadata": {"name": "j"},
            "spec": {
                "tfReplicaSpecs": {
                    "PS": {"replicas": 0, "template": {"spec": {"containers": [main]}}},
                    "Worker": {"replicas": 1, "template": {"spec": {"containers": [tensorflow]}}},
                }
            },
        }
    )
    assert _set_by_hand(tfjob) == {"Worker": "{}"}
