"""estconf.io.manifest_kinds: which Kubernetes object a document is, and its TFJobs."""

from __future__ import annotations

from typing import Any

import pytest

from estconf.io import kinds, manifest_kinds

TFJOB = {"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "j"}}


def test_kinds_gives_the_same_answers() -> None:
    """A reader asks ``estconf.io.kinds``: the manifests' answers are the same objects there."""
    for name in manifest_kinds.__all__:
        assert getattr(kinds, name) is getattr(manifest_kinds, name)


class TestTFJobs:
    @pytest.mark.parametrize(
        "raw",
        [
            b"kind: TFJob\n",
            b'{"kind": "TFJob"}',
            b"'kind':'TFJob'",
            b"kind:\n  TFJob\n",
            b"items:\n- kind: TFJob\n",
            b"? kind\n: TFJob\n",
            b"kind: !!str TFJob\n",
            b"kind: &k !<tag:yaml.org,2002:str> 'TFJob'\n",
        ],
    )
    def test_the_bytes_of_a_tfjob_may_hold_one(self, raw: bytes) -> None:
        assert manifest_kinds.may_hold_tfjob(raw)

    @pytest.mark.parametrize(
        "raw",
        [b"", b"cluster: {}\n", b"# a TFJob\n", b"kind: TFJobList\nitems: []\n", b"kind: Pod\n"],
    )
    def test_other_bytes_hold_none(self, raw: bytes) -> None:
        """The word alone is no TFJob, nor is an empty List of them."""
        assert not manifest_kinds.may_hold_tfjob(raw)

    def test_a_manifest_has_an_api_version(self) -> None:
        assert manifest_kinds.may_hold_manifest(b"apiVersion: v1\nkind: Pod\n")
        assert not manifest_kinds.may_hold_manifest(b"kind: Pod\n")

    @pytest.mark.parametrize(
        "api_version", ["kubeflow.org/v1", "kubeflow.org/v1beta2", "kubeflow.org/"]
    )
    def test_a_tfjob_is_of_kubeflows_api_group(self, api_version: str) -> None:
        assert manifest_kinds.is_tfjob({**TFJOB, "apiVersion": api_version})

    @pytest.mark.parametrize("api_version", ["kubeflow.org", "example.com/v1", None, 1])
    def test_a_tfjob_of_another_api_group_is_one_for_its_model_alone(
        self, api_version: object
    ) -> None:
        other = {**TFJOB, "apiVersion": api_version}
        assert not manifest_kinds.is_tfjob(other)
        assert manifest_kinds.is_tfjob(other, any_api_group=True)
        assert not manifest_kinds.is_tfjob({**other, "kind": "TFJobList"}, any_api_group=True)

    def test_a_volcano_job_is_a_job_of_volcanos_batch_api_group(self) -> None:
        volcano = {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job"}
        assert manifest_kinds.is_volcano_job(volcano)
        assert manifest_kinds.is_volcano_job({**volcano, "apiVersion": "batch.volcano.sh/v1beta1"})
        assert not manifest_kinds.is_volcano_job(
            {**volcano, "apiVersion": "batch/v1"}
        )  # Kubernetes'
        assert not manifest_kinds.is_volcano_job({**volcano, "kind": "Queue"})
        assert manifest_kinds.manifest_of(volcano) == (
            "a Volcano Job manifest (apiVersion: batch.volcano.sh/v1alpha1)"
        )

    def test_the_bytes_of_a_volcano_job_name_its_api_group(self) -> None:
        assert manifest_kinds.may_hold_volcano_job(
            b"apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
        )
        assert not manifest_kinds.may_hold_volcano_job(b"apiVersion: batch/v1\nkind: Job\n")

    def test_a_list_is_a_kind_ending_in_list_with_a_list_of_items(self) -> None:
        assert manifest_kinds.list_items({"kind": "List", "items": [TFJOB]}) == [TFJOB]
        assert manifest_kinds.list_items({"kind": "TFJobList", "items": []}) == []
        assert manifest_kinds.list_items({"items": [TFJOB]}) is None
        assert manifest_kinds.list_items({"kind": "List", "items": {"a": TFJOB}}) is None
        assert manifest_kinds.list_items({"kind": "Template", "items": [TFJOB]}) is None

    def test_the_tfjobs_of_a_document_are_found_at_their_path(self) -> None:
        experiment = {
            "apiVersion": "kubeflow.org/v1beta1",
            "kind": "Experiment",
            "spec": {"trialTemplate": {"trialSpec": TFJOB}},
        }
        document: dict[str, Any] = {
            "kind": "List",
            "items": [TFJOB, {"kind": "Service"}, 1, {"kind": "List", "items": [experiment]}],
        }
        assert list(manifest_kinds.tfjobs_in(document)) == [
            (("items", 0), TFJOB, None),
            (("items", 3, "items", 0, "spec", "trialTemplate", "trialSpec"), TFJOB, experiment),
        ]
        assert list(manifest_kinds.tfjobs_in(TFJOB, ("top",))) == [(("top",), TFJOB, None)]

    def test_only_katibs_experiment_runs_a_tfjob(self) -> None:
        experiment = {
            "apiVersion": "kubeflow.org/v1beta1",
            "kind": "Experiment",
            "spec": {"trialTemplate": {"trialSpec": TFJOB}},
        }
        assert manifest_kinds.is_katib_experiment(experiment)
        other = {**experiment, "apiVersion": "example.com/v1"}
        assert not manifest_kinds.is_katib_experiment(other)
        assert list(manifest_kinds.tfjobs_in(other)) == []
        no_tfjob = {**experiment, "spec": {"trialTemplate": {"trialSpec": {"kind": "Job"}}}}
        assert list(manifest_kinds.tfjobs_in(no_tfjob)) == []
        assert list(manifest_kinds.tfjobs_in({**experiment, "spec": []})) == []


class TestLaunchersObjects:
    @pytest.mark.parametrize(
        ("api_version", "kind"),
        [
            ("jobset.x-k8s.io/v1alpha2", "JobSet"),
            ("jobset.x-k8s.io/v1alpha1", "JobSet"),
            ("trainer.kubeflow.org/v1alpha1", "TrainJob"),
            ("trainer.kubeflow.org/v1alpha1", "TrainingRuntime"),
            ("trainer.kubeflow.org/v1", "ClusterTrainingRuntime"),
        ],
    )
    def test_an_object_is_told_by_its_api_group_and_kind(self, api_version: str, kind: str) -> None:
        declared = manifest_kinds.launcher_manifest({"apiVersion": api_version, "kind": kind})
        assert declared is not None
        assert (declared.launcher, declared.kind) == ("jobset", kind)
        assert declared.api_group == api_version.split("/")[0]
        assert manifest_kinds.may_hold_launcher_manifest(f"kind: {kind}\n".encode())

    @pytest.mark.parametrize(
        "data",
        [
            {"apiVersion": "batch/v1", "kind": "JobSet"},
            {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "TrainJob"},
            {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "JobSet"},
            {"apiVersion": 1, "kind": "JobSet"},
            {"kind": "JobSet"},
            TFJOB,
        ],
    )
    def test_another_object_is_none_of_them(self, data: dict[str, Any]) -> None:
        assert manifest_kinds.launcher_manifest(data) is None

    @pytest.mark.parametrize(
        "raw",
        [b"kind: JobSetList\n", b"# a JobSet\n", b"kind: TrainJobs\n", b"kind: Pod\n", b""],
    )
    def test_other_bytes_hold_none(self, raw: bytes) -> None:
        assert not manifest_kinds.may_hold_launcher_manifest(raw)

    def test_the_bytes_of_one_in_json_may_hold_one(self) -> None:
        assert manifest_kinds.may_hold_launcher_manifest(b'{"kind": "ClusterTrainingRuntime"}')

    def test_a_trainer_object_is_kubeflows(self) -> None:
        data = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob"}
        assert manifest_kinds.manifest_of(data) == (
            "a Kubeflow TrainJob manifest (apiVersion: trainer.kubeflow.org/v1alpha1)"
        )
