"""estconf.launchers.kubeflow.manifest: reading TFJob manifests as the training operator does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from estconf.io.errors import ConfigFileError
from estconf.kubeflow import TFJob, read_tfjobs
from estconf.launchers.kubeflow.manifest import equal_fold

DATA = Path(__file__).parent / "data" / "kubeflow"


def text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def manifest(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "TFJob",
        "metadata": {"name": "j"},
        "spec": spec,
    }


# Real manifests the model refuses, with the code of the first error.
REFUSED = {"v1alpha1.yaml": "tfjob_api_version", "containers_mapping.yaml": "tfjob_not_a_list"}


@pytest.mark.parametrize(
    "path",
    # a Katib Experiment holds a TFJob template, which validate checks as each trial's
    [
        path
        for path in sorted(DATA.iterdir())
        if path.name not in {*REFUSED, "katib_experiment.yaml"}
    ],
    ids=lambda path: path.name,
)
def test_every_data_manifest_reads(path: Path) -> None:
    jobs = read_tfjobs(path.read_bytes())
    assert jobs and all(job.kind == "TFJob" for job in jobs)


@pytest.mark.parametrize(("name", "code"), sorted(REFUSED.items()))
def test_data_manifests_of_another_shape_are_refused(name: str, code: str) -> None:
    with pytest.raises(ValidationError) as info:
        read_tfjobs(text(name))
    assert info.value.errors()[0]["type"] == code


def test_equal_manifests_hash_equal() -> None:
    (first,) = read_tfjobs(text("chief_worker_evaluator.yaml"))
    second = TFJob.from_yaml(text("chief_worker_evaluator.yaml"))
    assert first == second
    assert hash(first) == hash(second)


def test_stream_skips_other_kinds() -> None:
    (job,) = read_tfjobs(text("stream.yaml"))
    assert (job.metadata.name, job.metadata.namespace) == ("streamed", "ml")
    assert TFJob.from_yaml(text("stream.yaml")) == job


def test_kubectl_list_yields_its_items() -> None:
    assert [job.metadata.name for job in read_tfjobs(text("kubectl_get_list.yaml"))] == [
        "first",
        "second",
    ]
    with pytest.raises(ValueError, match="expected one TFJob, found 2"):
        TFJob.from_yaml(text("kubectl_get_list.yaml"))
    with pytest.raises(ValueError, match="found 0"):
        TFJob.from_yaml("kind: ConfigMap\n")


JOB = "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: j}\nspec: {tfReplicaSpecs: {}}\n"


def test_a_document_that_is_no_mapping_is_skipped_and_the_stream_read_on() -> None:
    (job,) = read_tfjobs(f"--- [1, 2]\n--- text\n---\n{JOB}")
    assert job.metadata.name == "j"


ITEMS = "items:\n- {apiVersion: kubeflow.org/v1, kind: TFJob, metadata: {name: i}, spec: {}}\n"


@pytest.mark.parametrize(
    "document",
    ["kind: List\n", "kind: List\nitems: {a: 1}\n", f"kind: Template\n{ITEMS}"],
    ids=["a List without items", "its items not a list", "items of a kind not a List"],
)
def test_only_the_items_list_of_a_list_kind_is_read_as_documents(document: str) -> None:
    assert read_tfjobs(document) == ()
    (job,) = read_tfjobs(f"{document}---\n{JOB}")
    assert job.metadata.name == "j"
    assert [job.metadata.name for job in read_tfjobs(f"kind: TFJobList\n{ITEMS}")] == ["i"]


def test_kubectl_get_keeps_status_and_everything_else() -> None:
    job = TFJob.from_yaml(text("kubectl_get.yaml"))
    assert job.model_extra is not None and job.model_extra["status"]["replicaStatuses"]["PS"] == {
        "active": 1,
        "selector": "training.kubeflow.org/job-name=dist-mnist,training.kubeflow.org/"
        "operator-name=tfjob-controller,training.kubeflow.org/replica-type=ps",
    }
    from ruamel.yaml import YAML

    assert job.to_manifest() == YAML(typ="safe").load(text("kubectl_get.yaml"))


def test_json_manifest() -> None:
    job = TFJob.from_yaml(text("chief_worker.json"))
    assert job.replica_types == {"Chief": "Chief", "Worker": "Worker"}
    assert TFJob.model_validate(job.to_manifest()) == job


def test_dump_reads_back() -> None:
    job = TFJob.from_yaml(text("per_type_ports.yaml"))
    dump = job.model_dump()
    assert dump["replica_types"] == {"Chief": "Chief", "PS": "PS", "Worker": "Worker"}
    assert dump["spec"]["tfReplicaSpecs"]["PS"]["port"] == 3333
    assert TFJob.model_validate(dump) == job
    dump["spec"]["tfReplicaSpecs"]["PS"]["port"] = 2222
    with pytest.raises(ValidationError, match="derived_mismatch"):
        TFJob.model_validate(dump)


def test_replica_defaults() -> None:
    spec = TFJob.from_yaml(text("letter_case.yaml")).spec.tf_replica_specs
    assert spec is not None
    assert (spec["ps"].replicas, spec["ps"].replica_count, spec["ps"].port) == (None, 1, 2222)


def test_port_of_the_tensorflow_container_only() -> None:
    specs = TFJob.from_yaml(text("per_type_ports.yaml")).spec.tf_replica_specs
    assert specs is not None
    assert {key: spec.port for key, spec in specs.items()} == {
        "Chief": 2222,
        "PS": 3333,
        "Worker": 2223,
    }
    assert specs["Worker"].tensorflow_container == 1


@pytest.mark.parametrize(
    ("keys", "types", "shadowed", "ambiguous"),
    [
        (["WORKER", "ps", "cHiEf"], ["Worker", "PS", "Chief"], {}, ()),
        (["Worker", "worker"], ["Worker"], {"Worker": "Worker"}, ()),
        (["WORKER", "worker"], [], {"WORKER": "Worker", "worker": "Worker"}, ("Worker",)),
        (["Trainer", "evaluator"], ["Trainer", "Evaluator"], {}, ()),
        (["P\u017f"], ["PS"], {}, ()),
        (["Wor\u212aer"], ["Worker"], {}, ()),
    ],
)
def test_replica_types_as_the_operator_renames_them(
    keys: list[str], types: list[str], shadowed: dict[str, str], ambiguous: tuple[str, ...]
) -> None:
    # v1.9.0 defaulting_utils.go setTypeNameToCamelCase: the first key that EqualFolds a
    # known type (and is not it) is moved to the type, replacing a spec already there.
    container = {"name": "tensorflow", "image": "i"}
    job = TFJob.model_validate(
        manifest(
            tfReplicaSpecs={
                key: {"template": {"spec": {"containers": [container]}}} for key in keys
            }
        )
    )
    assert list(job.replica_types.values()) == types
    assert (job.shadowed_replica_keys, job.ambiguous_replica_types) == (shadowed, ambiguous)


def test_equal_fold_is_go_s() -> None:
    assert equal_fold("eVALUATOR", "Evaluator")
    assert not equal_fold("Evaluators", "Evaluator")
    assert not equal_fold("Ps", "PSS")


@pytest.mark.parametrize("version", ["v1beta2", "v1beta1", "v1alpha2"])
def test_older_versions_read_as_v1(version: str) -> None:
    job = TFJob.model_validate({**manifest(), "apiVersion": f"kubeflow.org/{version}"})
    assert job.api_version == f"kubeflow.org/{version}"


@pytest.mark.parametrize("api_version", ["kubeflow.org/v1alpha1", "batch/v1", "v1", "kubeflow.org"])
def test_other_api_versions_refused(api_version: str) -> None:
    with pytest.raises(ValidationError, match="tfjob_api_version") as info:
        TFJob.model_validate({**manifest(), "apiVersion": api_version})
    assert info.value.errors()[0]["loc"] == ("apiVersion",)


@pytest.mark.parametrize(
    ("spec", "loc", "message"),
    [
        (
            {"containers": {"name": "tensorflow", "image": "tf"}},
            ("containers",),
            'containers must be a list: put "- " before "name:"',
        ),
        (
            {"containers": {"tensorflow": {"image": "tf"}}},
            ("containers",),
            'containers must be a list: write "- name: tensorflow" and put its keys under it',
        ),
        (
            {"containers": [{"name": "tensorflow", "ports": {"containerPort": 2222}}]},
            ("containers", 0, "ports"),
            'ports must be a list: put "- " before "containerPort:"',
        ),
        (
            {"containers": [{"name": "tensorflow", "env": {"name": "A", "value": "1"}}]},
            ("containers", 0, "env"),
            'env must be a list: put "- " before "name:"',
        ),
    ],
)
def test_a_list_written_as_a_mapping_says_where_the_dash_goes(
    spec: dict[str, Any], loc: tuple[str | int, ...], message: str
) -> None:
    data = manifest(tfReplicaSpecs={"Worker": {"template": {"spec": spec}}})
    with pytest.raises(ValidationError) as info:
        TFJob.model_validate(data)
    [error] = info.value.errors()
    assert error["type"] == "tfjob_not_a_list"
    assert error["loc"] == ("spec", "tfReplicaSpecs", "Worker", "template", "spec", *loc)
    assert error["msg"] == f"{message} (a YAML list item starts with a dash)"


def test_api_version_refusal_names_the_version_given() -> None:
    with pytest.raises(ValidationError) as info:
        TFJob.model_validate({**manifest(), "apiVersion": "kubeflow.org/v1alpha1"})
    assert info.value.errors()[0]["msg"] == (
        "a TFJob's apiVersion is kubeflow.org/v1 (or the earlier v1beta2, v1beta1, v1alpha2, "
        "read as v1), not 'kubeflow.org/v1alpha1'; kubeflow.org/v1alpha1 TFJobs, with a list "
        "of replicaSpecs, are not read"
    )


def test_the_schema_of_replicas_tells_the_operators_default() -> None:
    """A missing ``replicas`` is null in the schema: its description says the operator makes 1."""
    replicas = TFJob.model_json_schema()["$defs"]["ReplicaSpec"]["properties"]["replicas"]
    assert replicas["default"] is None
    assert replicas["description"] == "How many pods of this type; the operator's default is 1."


@pytest.mark.parametrize(
    ("replicas", "loc"),
    [
        (-1, ("spec", "tfReplicaSpecs", "Worker", "replicas")),
        ("2", ("spec", "tfReplicaSpecs", "Worker", "replicas")),
        (True, ("spec", "tfReplicaSpecs", "Worker", "replicas")),
        (2**31, ("spec", "tfReplicaSpecs", "Worker", "replicas")),
    ],
)
def test_bad_replicas_refused_at_their_place(replicas: Any, loc: tuple[str, ...]) -> None:
    with pytest.raises(ValidationError) as info:
        TFJob.model_validate(manifest(tfReplicaSpecs={"Worker": {"replicas": replicas}}))
    assert info.value.errors()[0]["loc"] == loc


def worker_port(number: int) -> dict[str, Any]:
    port = {"name": "tfjob-port", "containerPort": number}
    container = {"name": "tensorflow", "ports": [port]}
    return manifest(tfReplicaSpecs={"Worker": {"template": {"spec": {"containers": [container]}}}})


@pytest.mark.parametrize("number", [-(2**31), -2, 0, 65536, 2**31 - 1])
def test_a_container_port_of_any_int32_is_read(number: int) -> None:
    """Kubernetes decodes containerPort as an int32; its range 1 to 65535 is a check's."""
    tfjob = TFJob.model_validate(worker_port(number))
    (spec,) = (tfjob.spec.tf_replica_specs or {}).values()
    assert spec.template.spec.containers[0].ports[0].container_port == number


@pytest.mark.parametrize("number", [-(2**31) - 1, 2**31])
def test_a_container_port_past_int32_is_refused_at_its_place(number: int) -> None:
    with pytest.raises(ValidationError) as info:
        TFJob.model_validate(worker_port(number))
    at = ("spec", "tfReplicaSpecs", "Worker", "template", "spec", "containers", 0, "ports", 0)
    assert info.value.errors()[0]["loc"] == (*at, "containerPort")


def test_enable_dynamic_worker_is_a_bool() -> None:
    with pytest.raises(ValidationError, match="enableDynamicWorker"):
        TFJob.model_validate(manifest(enableDynamicWorker="true"))


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("kind: TFJob\nkind: TFJob\n", "<string>:2:1: kind: duplicate key 'kind'"),
        ("a: [1\n", "<string>:2:1: invalid YAML: while parsing a flow sequence"),
    ],
)
def test_unreadable_text(source: str, message: str) -> None:
    with pytest.raises(ConfigFileError, match=re.escape(message)) as info:
        read_tfjobs(source)
    assert "To suppress" not in str(info.value)
