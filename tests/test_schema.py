"""estconf.schema: the JSON Schema of each kind of config file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from jsonschema import Draft202012Validator

from estconf import RunConfig, TPURunConfig
from estconf.files import ConfigFileError, loads
from estconf.io import files as io_files
from estconf.run_config import REPLACEABLE
from estconf.schema import DIALECT, KINDS, _tidy, dumps, json_schema, schema_id, write_schemas

from strategies import (
    cluster_files,
    run_config_documents,
    session_config_documents,
    tf_config_documents,
    tpu_config_documents,
    tpu_run_config_documents,
    valid_tf_configs,
)

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
VALIDATORS = {kind: Draft202012Validator(json_schema(kind)) for kind in KINDS}


def model_accepts(kind: str, document: dict[str, Any]) -> bool:
    try:
        loads(json.dumps(document), "json", kind)
    except ConfigFileError:
        return False
    return True


def schema_errors(kind: str, document: Any) -> list[str]:
    return [error.message for error in VALIDATORS[kind].iter_errors(document)]


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_is_up_to_date(kind: str) -> None:
    path = SCHEMAS / f"{kind}.schema.json"
    assert path.exists(), "schemas/ lacks a kind: run `make schemas`"
    assert path.read_text(encoding="utf-8") == dumps(json_schema(kind)), (
        f"{path.name} is stale: run `make schemas`"
    )


def test_no_stray_committed_schema() -> None:
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == sorted(
        f"{kind}.schema.json" for kind in KINDS
    )


@pytest.mark.parametrize("kind", KINDS)
def test_is_a_draft_2020_12_schema(kind: str) -> None:
    schema = json_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == DIALECT
    assert schema["$id"] == schema_id(kind)
    assert schema["title"]
    assert "not expressed in this schema" in schema["description"]


def test_write_schemas(tmp_path: Path) -> None:
    written = write_schemas(tmp_path / "out")
    assert [p.name for p in written] == [f"{kind}.schema.json" for kind in KINDS]
    assert json.loads(written[0].read_text(encoding="utf-8")) == json_schema(KINDS[0])


def test_descriptions_come_from_the_field_docs_without_doctests() -> None:
    schema = json_schema("run_config")
    prop = schema["properties"]["save_summary_steps"]
    assert prop["description"] == RunConfig.model_fields["save_summary_steps"].description
    assert prop["default"] == 100
    assert ">>>" not in json.dumps(schema)
    assert "``" not in json.dumps(schema)


def test_python_only_arguments_are_left_out() -> None:
    properties = json_schema("run_config")["properties"]
    assert "device_fn" not in properties
    assert "train_distribute" not in properties


class TestNeverStricterThanTheModels:
    @given(tf_config_documents())
    def test_tf_config(self, document: dict[str, Any]) -> None:
        if model_accepts("tf_config", document):
            assert schema_errors("tf_config", document) == []

    @given(run_config_documents)
    def test_run_config(self, document: dict[str, Any]) -> None:
        if model_accepts("run_config", document):
            assert schema_errors("run_config", document) == []

    @given(session_config_documents)
    def test_session_config(self, document: dict[str, Any]) -> None:
        if model_accepts("run_config", {"session_config": document}):
            assert schema_errors("run_config", {"session_config": document}) == []

    @given(tpu_config_documents)
    def test_tpu_config(self, document: dict[str, Any]) -> None:
        if model_accepts("tpu_config", document):
            assert schema_errors("tpu_config", document) == []

    @given(tpu_run_config_documents)
    def test_tpu_run_config(self, document: dict[str, Any]) -> None:
        if model_accepts("tpu_run_config", document):
            assert schema_errors("tpu_run_config", document) == []

    @given(cluster_files())
    def test_cluster(self, cluster: dict[str, Any]) -> None:
        document = json.loads(json.dumps(cluster))  # a sparse job's keys as a file writes them
        if model_accepts("cluster", document):
            assert schema_errors("cluster", document) == []

    @given(valid_tf_configs)
    def test_dumps_validate(self, tf_config: dict[str, Any]) -> None:
        config = RunConfig(tf_config=tf_config, save_checkpoints_steps=10)
        assert schema_errors("run_config", config.model_dump(mode="json")) == []
        assert schema_errors("tf_config", config.tf_config.model_dump(mode="json")) == []
        tpu = TPURunConfig(tf_config=tf_config, tpu_config={"iterations_per_loop": "1h"})
        assert schema_errors("tpu_run_config", tpu.model_dump(mode="json")) == []
        assert schema_errors("tpu_config", tpu.tpu_config.model_dump(mode="json")) == []


CLUSTER = {"chief": ["h:0"], "worker": ["h:1", "h:2"]}
WORKER = {"type": "worker", "index": 1}


class TestInvariants:
    """Rules the schema expresses: each document is refused by the models and the schema."""

    @pytest.mark.parametrize("value", [-1, 0, 1, 0.5])
    @pytest.mark.parametrize("name", REPLACEABLE)  # every argument of tf.estimator.RunConfig
    def test_each_argument_bounded_as_the_model_bounds_it(self, name: str, value: float) -> None:
        """An argument whose bounds the schema does not repeat (``schema._run_config``) fails."""
        document = {name: value}
        accepted = model_accepts("run_config", document)
        assert (schema_errors("run_config", document) == []) == accepted

    @pytest.mark.parametrize(
        "document",
        [
            pytest.param({"cluster": {"chief": ["h:0", "h:9"]}, "task": WORKER}, id="two chiefs"),
            pytest.param({"cluster": {"chief": {"1": "h:0"}}, "task": WORKER}, id="chief at 1"),
            pytest.param({"cluster": {"master": ["h:0", "h:9"]}, "task": WORKER}, id="two masters"),
            pytest.param(
                {"cluster": {**CLUSTER, "master": ["h:9"]}, "task": WORKER}, id="chief and master"
            ),
            pytest.param({"cluster": {"worker": ["h:1"]}, "task": WORKER}, id="no chief"),
            pytest.param({"cluster": CLUSTER}, id="no task"),
            pytest.param({"cluster": CLUSTER, "task": {"type": "worker"}}, id="no index"),
            pytest.param({"cluster": CLUSTER, "task": {"type": "", "index": 0}}, id="empty type"),
            pytest.param({"cluster": CLUSTER, "task": {**WORKER, "index": -1}}, id="negative"),
            pytest.param({"task": {"type": "ps"}}, id="local ps"),
            pytest.param({"task": {"index": 1}}, id="local index 1"),
            pytest.param(
                {"cluster": {"master": ["h:0"]}, "task": {"type": "evaluator", "index": 0}},
                id="evaluator with master",
            ),
            pytest.param({"cluster": {"worker": []}}, id="empty job"),
            pytest.param({"cluster": {"1worker": ["h:1"]}}, id="job name"),
            pytest.param({"cluster": {"chief": ["h:99999"]}, "task": WORKER}, id="port"),
            pytest.param({"model_dir": ""}, id="empty model_dir"),
        ],
    )
    def test_tf_config(self, document: dict[str, Any]) -> None:
        assert not model_accepts("tf_config", document)
        assert schema_errors("tf_config", document)
        assert schema_errors("run_config", {"tf_config": document})

    @pytest.mark.parametrize(
        "document",
        [
            {"save_checkpoints_steps": 1, "save_checkpoints_secs": 1},
            {"save_summary_steps": -1},
            {"save_checkpoints_steps": -1},
            {"save_checkpoints_secs": -0.5},
            {"keep_checkpoint_max": -1},
            {"keep_checkpoint_every_n_hours": 0},
            {"log_step_count_steps": 0},
            {"session_creation_timeout_secs": 0},
            {"protocol": "http"},
            {"model_dir": ""},
            {"save_summary_steps": "5"},
            {"checkpoint_save_graph_def": "no"},
            {"session_config": {"device_filter": []}},
            {"device_fn": "f"},
            {"unknown": 1},
        ],
        ids=lambda document: ",".join(f"{k}={v!r}" for k, v in document.items()),
    )
    def test_run_config(self, document: dict[str, Any]) -> None:
        assert not model_accepts("run_config", document)
        assert schema_errors("run_config", document)

    @pytest.mark.parametrize(
        "document",
        [
            {"cluster": {}},
            {"cluster": CLUSTER, "task": WORKER},
            {"cluster": CLUSTER, "task": {"type": "evaluator", "index": 7}},
            {
                "cluster": {"chief": {"0": "h:0"}, "ps": {"-0": "h:3"}},
                "task": {"type": "ps", "index": "-0"},
            },
            {
                "cluster": {"master": ["h:0"], "worker": ["h:1"]},
                "task": {"type": "master", "index": 0},
            },
            {"task": {"type": "worker", "index": "00"}, "job": {"anything": True}},
        ],
    )
    def test_what_both_accept(self, document: dict[str, Any]) -> None:
        assert model_accepts("tf_config", document)
        assert schema_errors("tf_config", document) == []
        assert schema_errors("run_config", {"tf_config": document}) == []
        assert schema_errors("run_config", {"tf_config": None}) == []

    @pytest.mark.parametrize(
        "document",
        [
            {"num_cores_per_replica": 3},
            {"num_shards": 0},
            {"iterations_per_loop": 0},
            {"iterations_per_loop": "10d"},
            {"iterations_per_loop": "010s"},
            {"per_host_input_for_training": "PER_HOST_V9"},
            {"eval_training_input_configuration": "PER_HOST_V2"},
            {"experimental_host_call_every_n_steps": 0},
            {"initial_infeed_sleep_secs": -1},
            {"input_partition_dims": [[1, 2]], "num_cores_per_replica": 2},
            {"input_partition_dims": [[1, 2]], "per_host_input_for_training": 3},
            {
                "input_partition_dims": [[1, 2], None, None],
                "per_host_input_for_training": 3,
                "num_cores_per_replica": 2,
            },
            {"num_shard": 8},
        ],
        ids=lambda document: ",".join(f"{k}={v!r}" for k, v in document.items()),
    )
    def test_tpu_config(self, document: dict[str, Any]) -> None:
        assert not model_accepts("tpu_config", document)
        assert schema_errors("tpu_config", document)
        assert schema_errors("tpu_run_config", {"tpu_config": document})


@pytest.mark.parametrize("kind", KINDS)
def test_the_schema_key_is_allowed_in_every_kind_by_schema_and_models(kind: str) -> None:
    from estconf import files

    documents: dict[str, dict[str, Any]] = {
        "tf_config": {"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}},
        "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
        "run_config": {"model_dir": "/m"},
        "tpu_config": {"iterations_per_loop": 2},
        "tpu_run_config": {"tpu_config": {"iterations_per_loop": 2}},
        "vertex_custom_job": {"workerPoolSpecs": [{"replicaCount": 1}]},
    }
    valid = documents[kind]
    for name in (schema_id(kind), f"https://example.com/schemas/{kind}.schema.json"):
        document = {"$schema": name, **valid}
        assert list(VALIDATORS[kind].iter_errors(document)) == []
        loaded = io_files.load_file("x.json", content=json.dumps(document).encode())
        assert (loaded.kind, loaded.kind_from) == (kind, "$schema")
        assert type(loaded.model) is type(files.loads(json.dumps(valid), "json", kind))
    assert list(VALIDATORS[kind].iter_errors({"$schema": 1, **valid})) != []


def test_descriptions_are_plain_text_at_any_depth_in_lists_too() -> None:
    node: dict[str, Any] = {
        "description": "Use ``a``.",
        "anyOf": [{"description": "See :class:`~estconf.RunConfig`.\n\nExample:\n  x"}],
        "properties": {"b": {"items": [{"description": "``b``"}]}},
    }
    _tidy(node)
    assert node == {
        "description": "Use `a`.",
        "anyOf": [{"description": "See `estconf.RunConfig`."}],
        "properties": {"b": {"items": [{"description": "`b`"}]}},
    }


def test_a_cluster_has_the_estimators_leader_and_addresses() -> None:
    """One chief or one master, not both, no evaluator beside a master; jobs of tasks."""
    document: dict[str, Any]
    for document in (
        {"chief": ["c:1"], "ps": ["p:1"], "worker": ["w:1"], "evaluator": ["e:1"]},
        {"master": {"0": "m:1"}, "worker": {"2": "w:1"}},
        {"$schema": "urn:estconf:schema:cluster", "chief": ["c:1"], "trainer": ["t:1"]},
    ):
        assert schema_errors("cluster", document) == []
        assert model_accepts("cluster", document)
    for document in (
        {},
        {"worker": ["w:1"]},
        {"chief": ["c:1", "c:2"]},
        {"chief": ["c:1"], "master": ["m:1"]},
        {"master": ["m:1"], "evaluator": ["e:1"]},
        {"chief": ["c:1"], "ps": []},
        {"chief": ["c:1"], "1ps": ["p:1"]},
        {"chief": ["c:1"], "worker": ["w"]},
        {"chief": ["c:1"], "worker": {"x": "w:1"}},
    ):
        assert schema_errors("cluster", document) != [], document
        assert not model_accepts("cluster", document), document


def test_a_vertex_custom_job_in_either_spelling_or_whole() -> None:
    pool = {"machineSpec": {"machineType": "n1-standard-4"}, "replicaCount": "2"}
    document: dict[str, Any]
    for document in (
        {"workerPoolSpecs": [{"replicaCount": 1}, pool]},
        {"worker_pool_specs": [{"replica_count": 1}]},
        {"displayName": "mnist", "jobSpec": {"workerPoolSpecs": [{"replicaCount": 1}]}},
    ):
        assert schema_errors("vertex_custom_job", document) == []
        assert model_accepts("vertex_custom_job", document)
    for document in (
        {"displayName": "mnist"},
        {"workerPoolSpecs": []},
        {"workerPoolSpecs": [{"replicaCount": "1.5"}]},
        {"workerPoolSpecs": [{"replicaCount": 1}] * 5},
    ):
        assert schema_errors("vertex_custom_job", document) != []
        assert not model_accepts("vertex_custom_job", document)
