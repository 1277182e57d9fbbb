"""estconf.io.kinds: the kinds of config file, how a file's kind is told, other documents."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from estconf.io import kinds
from estconf.io.kinds import KINDS, from_schema, resolve
from values import is_a_value


class TestFromSchema:
    @pytest.mark.parametrize(
        "value",
        [
            "urn:estconf:schema:run_config",
            "run_config.schema.json",
            "schemas/run_config.schema.json",
            "https://example.com/schemas/run_config.schema.json#",
            "https://example.com/schemas/run_config.schema.json#/properties/model_dir",
            "https://example.com/schemas/run_config.schema.json?ref=v1",
            "https://example.com/schemas/run_config.schema.json?ref=v1#top",
            "C:\\schemas\\run_config.schema.json#",
        ],
    )
    def test_a_schema_is_named_by_its_id_or_its_file_name(self, value: str) -> None:
        """A fragment (``#...``) and a query (``?...``) after the file name still name it."""
        assert from_schema(value) is KINDS["run_config"]
        resolved = resolve({kinds.SCHEMA_KEY: value}, "tf_config.json")
        assert resolved == kinds.Resolved(KINDS["run_config"], "$schema")

    @pytest.mark.parametrize(
        "value",
        [
            None,
            1,
            "",
            "urn:estconf:schema:run_config#",
            "run_config.schema.json.bak",
            "https://example.com/run_config.schema.json/other.json",
            "https://json-schema.org/draft/2020-12/schema",
        ],
    )
    def test_anything_else_names_no_kind(self, value: object) -> None:
        assert from_schema(value) is None


@pytest.mark.parametrize(
    "make",
    [
        # one object per kind: a copy stands for the other
        pytest.param(lambda: dataclasses.replace(KINDS["tf_config"]), id="Kind"),
        pytest.param(lambda: resolve({"task": {}}, None), id="Resolved"),
    ],
)
def test_a_kind_and_how_it_was_told_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)


TFJOB = {"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "j"}}


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
        assert kinds.may_hold_tfjob(raw)

    @pytest.mark.parametrize(
        "raw",
        [b"", b"cluster: {}\n", b"# a TFJob\n", b"kind: TFJobList\nitems: []\n", b"kind: Pod\n"],
    )
    def test_other_bytes_hold_none(self, raw: bytes) -> None:
        """The word alone is no TFJob, nor is an empty List of them."""
        assert not kinds.may_hold_tfjob(raw)

    def test_a_manifest_has_an_api_version(self) -> None:
        assert kinds.may_hold_manifest(b"apiVersion: v1\nkind: Pod\n")
        assert not kinds.may_hold_manifest(b"kind: Pod\n")

    @pytest.mark.parametrize(
        "api_version", ["kubeflow.org/v1", "kubeflow.org/v1beta2", "kubeflow.org/"]
    )
    def test_a_tfjob_is_of_kubeflows_api_group(self, api_version: str) -> None:
        assert kinds.is_tfjob({**TFJOB, "apiVersion": api_version})

    @pytest.mark.parametrize("api_version", ["kubeflow.org", "example.com/v1", None, 1])
    def test_a_tfjob_of_another_api_group_is_one_for_its_model_alone(
        self, api_version: object
    ) -> None:
        other = {**TFJOB, "apiVersion": api_version}
        assert not kinds.is_tfjob(other)
        assert kinds.is_tfjob(other, any_api_group=True)
        assert not kinds.is_tfjob({**other, "kind": "TFJobList"}, any_api_group=True)

    def test_a_list_is_a_kind_ending_in_list_with_a_list_of_items(self) -> None:
        assert kinds.list_items({"kind": "List", "items": [TFJOB]}) == [TFJOB]
        assert kinds.list_items({"kind": "TFJobList", "items": []}) == []
        assert kinds.list_items({"items": [TFJOB]}) is None
        assert kinds.list_items({"kind": "List", "items": {"a": TFJOB}}) is None
        assert kinds.list_items({"kind": "Template", "items": [TFJOB]}) is None

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
        assert list(kinds.tfjobs_in(document)) == [
            (("items", 0), TFJOB, None),
            (("items", 3, "items", 0, "spec", "trialTemplate", "trialSpec"), TFJOB, experiment),
        ]
        assert list(kinds.tfjobs_in(TFJOB, ("top",))) == [(("top",), TFJOB, None)]

    def test_only_katibs_experiment_runs_a_tfjob(self) -> None:
        experiment = {
            "apiVersion": "kubeflow.org/v1beta1",
            "kind": "Experiment",
            "spec": {"trialTemplate": {"trialSpec": TFJOB}},
        }
        assert kinds.is_katib_experiment(experiment)
        other = {**experiment, "apiVersion": "example.com/v1"}
        assert not kinds.is_katib_experiment(other)
        assert list(kinds.tfjobs_in(other)) == []
        no_tfjob = {**experiment, "spec": {"trialTemplate": {"trialSpec": {"kind": "Job"}}}}
        assert list(kinds.tfjobs_in(no_tfjob)) == []
        assert list(kinds.tfjobs_in({**experiment, "spec": []})) == []


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
        declared = kinds.launcher_manifest({"apiVersion": api_version, "kind": kind})
        assert declared is not None
        assert (declared.launcher, declared.kind) == ("jobset", kind)
        assert declared.api_group == api_version.split("/")[0]
        assert kinds.may_hold_launcher_manifest(f"kind: {kind}\n".encode())

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
        assert kinds.launcher_manifest(data) is None

    @pytest.mark.parametrize(
        "raw",
        [b"kind: JobSetList\n", b"# a JobSet\n", b"kind: TrainJobs\n", b"kind: Pod\n", b""],
    )
    def test_other_bytes_hold_none(self, raw: bytes) -> None:
        assert not kinds.may_hold_launcher_manifest(raw)

    def test_the_bytes_of_one_in_json_may_hold_one(self) -> None:
        assert kinds.may_hold_launcher_manifest(b'{"kind": "ClusterTrainingRuntime"}')

    def test_a_trainer_object_is_kubeflows(self) -> None:
        data = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob"}
        assert kinds.manifest_of(data) == (
            "a Kubeflow TrainJob manifest (apiVersion: trainer.kubeflow.org/v1alpha1)"
        )


class TestOtherDocuments:
    def test_an_env_list_holds_its_env_alone(self) -> None:
        assert kinds.is_env_list({"env": []})
        assert not kinds.is_env_list({"env": {}})
        assert not kinds.is_env_list({"env": [], "name": "c"})

    def test_a_helm_template_holds_a_go_template_action(self) -> None:
        found = kinds.helm_template("a: 1\nreplicas: {{- .Values.workers }}\n")
        assert found is not None
        assert (found[0], found.start()) == ("{{- .Values.workers }}", 15)
        assert kinds.helm_template("a: '{ {x} }'\n") is None

    def test_a_file_of_a_kind_is_named_by_its_title(self) -> None:
        assert kinds.file_of(KINDS["tf_config"]) == "a TF_CONFIG file"
        assert kinds.file_of(None) == "a config file of a kind estconf reads"


@pytest.mark.parametrize("key", ["workerPoolSpecs", "worker_pool_specs", "jobSpec", "job_spec"])
def test_a_vertex_custom_job_is_told_by_any_one_of_its_keys(key: str) -> None:
    """A spec's worker pools in either spelling, or a whole CustomJob's spec in either."""
    assert resolve({key: {}}, "job.yaml") == kinds.Resolved(KINDS["vertex_custom_job"], "keys")


class TestUnderProfile:
    TF_CONFIG = {
        "cluster": {"worker": ["w0:2222", "w1:2222"]},
        "task": {"type": "worker", "index": 0},
    }
    OTHERS = "(this cluster is valid for --profile mwms or --profile server)"

    def message(self, kind: kinds.Kind) -> str:
        with pytest.raises(ValueError) as info:
            kind.validate(self.TF_CONFIG)
        return str(info.value)

    def test_the_estimators_errors_name_the_profiles_that_accept_the_tf_config(self) -> None:
        """Unless told not to (a file with errors of its own), under a profile or none."""
        tf_config = KINDS["tf_config"]
        assert tf_config.under_profile(None) is tf_config
        assert self.OTHERS in self.message(tf_config)
        assert self.OTHERS in self.message(tf_config.under_profile("estimator"))
        for profile in (None, "estimator"):
            told = tf_config.under_profile(profile, name_others=False)
            assert self.OTHERS not in self.message(told)
