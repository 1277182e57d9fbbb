"""estconf.distribute.ParameterServerConfig: ParameterServerStrategy (TF2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

from estconf import TFConfig
from estconf.distribute import ParameterServerConfig
from values import is_a_value

from strategies import distribute_tf_configs

CLUSTER = {"chief": ["c:0"], "worker": ["w:0", "w:1"], "ps": ["p:0"]}


def config(cluster: dict[str, Any], **task: Any) -> ParameterServerConfig:
    return ParameterServerConfig(tf_config={"cluster": cluster, "task": task})


def refusal(tf_config: dict[str, Any]) -> tuple[str, tuple[Any, ...], str]:
    with pytest.raises(ValidationError) as info:
        ParameterServerConfig(tf_config=tf_config)
    errors = info.value.errors()
    assert len(errors) == 1
    return errors[0]["type"], errors[0]["loc"], errors[0]["msg"]


class TestSetUp:
    def test_counts_and_device_filters(self) -> None:
        chief = config(CLUSTER, type="chief", index=0)
        assert (chief.num_workers, chief.num_ps) == (2, 1)
        assert chief.device_filters == {
            "worker:0": ["/job:ps", "/job:chief"],
            "worker:1": ["/job:ps", "/job:chief"],
            "ps:0": ["/job:worker", "/job:chief"],
        }
        assert chief.cluster_spec == CLUSTER

    @pytest.mark.parametrize(
        ("task", "role"),
        [
            ({"type": "chief", "index": 0}, "coordinator"),
            ({}, "coordinator"),
            ({"type": "worker", "index": 1}, "worker"),
            ({"type": "ps", "index": "0"}, "ps"),
            ({"type": "evaluator", "index": 3}, "evaluator"),
        ],
    )
    def test_role(self, task: dict[str, Any], role: str) -> None:
        ps = config(CLUSTER, **task)
        assert ps.role == role
        assert ps.is_coordinator == (role == "coordinator")
        assert (ps.task_type, ps.task_id) == (
            task.get("type"),
            None if "index" not in task else int(task["index"]),
        )

    def test_a_coordinator_needs_no_task(self) -> None:
        coordinator = config({"worker": ["w:0"], "ps": ["p:0"]})
        assert coordinator.is_coordinator
        assert (coordinator.task_type, coordinator.task_id) == (None, None)

    def test_filters_range_over_the_number_of_tasks_holes_not_counted(self) -> None:
        sparse = config({"worker": {"0": "w:0", "5": "w:5"}, "ps": ["p:0"]})
        assert sparse.num_workers == 2
        assert list(sparse.device_filters) == ["worker:0", "worker:1", "ps:0"]

    def test_rpc_layer(self) -> None:
        tf_config = {"cluster": CLUSTER, "rpc_layer": "grpc"}
        assert ParameterServerConfig(tf_config=tf_config).rpc_layer == "grpc"


class TestRefusals:
    """TensorFlow's checks, in its order, then the section 6 rules."""

    @pytest.mark.parametrize(
        "tf_config", [{}, {"cluster": {}, "task": {"type": "chief", "index": 0}}]
    )
    def test_cluster_must_not_be_empty(self, tf_config: dict[str, Any]) -> None:
        code, _, msg = refusal(tf_config)
        assert (code, msg) == (
            "empty_cluster",
            "Cluster spec must be non-empty in `tf.distribute.cluster_resolver.ClusterResolver`.",
        )

    def test_the_cluster_rules_of_multi_worker_util(self) -> None:
        assert refusal({"cluster": {**CLUSTER, "master": ["m:0"]}})[0] == "disallowed_job"
        assert (
            refusal({"cluster": CLUSTER, "task": {"type": "master", "index": 0}})[0]
            == "unrecognized_task_type"
        )
        assert (
            refusal(
                {
                    "cluster": {"worker": ["w:0"], "ps": ["p:0"]},
                    "task": {"type": "chief", "index": 0},
                }
            )[0]
            == "task_type_not_in_cluster"
        )
        assert refusal({"cluster": {**CLUSTER, "chief": ["c:0", "c:1"]}})[0] == "multiple_chiefs"
        assert (
            refusal({"cluster": CLUSTER, "task": {"type": "worker", "index": 2}})[0]
            == "task_id_out_of_range"
        )

    def test_a_task_of_the_cluster_needs_an_index(self) -> None:
        code, loc, msg = refusal({"cluster": CLUSTER, "task": {"type": "worker"}})
        assert (code, loc) == ("missing_task_index", ("tf_config", "task", "index"))
        assert "'>=' not supported" in msg

    def test_an_evaluator_outside_the_cluster_needs_no_index(self) -> None:
        assert config(CLUSTER, type="evaluator").role == "evaluator"

    @pytest.mark.parametrize(
        ("job", "sentence"),
        [
            ("ps", "There must be at least one ps."),
            ("worker", "There must be at least one worker."),
        ],
    )
    def test_at_least_one_ps_and_one_worker(self, job: str, sentence: str) -> None:
        cluster = {name: tasks for name, tasks in CLUSTER.items() if name != job}
        code, _, msg = refusal({"cluster": cluster, "task": {"type": "chief", "index": 0}})
        assert (code, msg) == (f"missing_{job}", sentence)

    def test_ps_is_checked_before_worker(self) -> None:
        assert refusal({"cluster": {"chief": ["c:0"]}})[0] == "missing_ps"

    def test_negative_index_and_hole_are_refused_on_purpose(self) -> None:
        assert (
            refusal({"cluster": CLUSTER, "task": {"type": "worker", "index": -1}})[0]
            == "negative_index"
        )
        sparse = {**CLUSTER, "worker": {"0": "w:0", "3": "w:3"}}
        assert (
            refusal({"cluster": sparse, "task": {"type": "worker", "index": 1}})[0]
            == "task_in_hole"
        )


class TestTensorFlowsComplaintBesideAStricterRule:
    """A TF_CONFIG a section 6 rule refuses is still checked as the strategy reads it."""

    @pytest.mark.parametrize(
        ("text", "errors", "sentence"),
        [
            (
                json.dumps({"cluster": {"worker": ["w0:2222", "w0:2222"]}}),
                [
                    ("address", ("tf_config", "cluster", "worker", 1)),
                    ("missing_ps", ("tf_config", "cluster")),
                ],
                "There must be at least one ps.",
            ),
            (
                json.dumps(
                    {
                        "cluster": {"worker": ["w0:2222"], "ps": ["p:1"], "aux-1": ["a:2222"]},
                        "task": {"type": "worker", "index": 0},
                    }
                ),
                [
                    ("job_name", ("tf_config", "cluster", "aux-1", "[key]")),
                    ("disallowed_job", ("tf_config", "cluster", "aux-1")),
                ],
                "Disallowed task type found in cluster spec.",
            ),
            (
                json.dumps({"cluster": {}, "task": {"type": "worker", "index": None}}),
                [
                    ("type", ("tf_config", "task", "index")),
                    ("empty_cluster", ("tf_config", "cluster")),
                ],
                "Cluster spec must be non-empty",
            ),
            (
                "[]",
                [("tf_config_type", ("tf_config",)), ("empty_cluster", ("tf_config", "cluster"))],
                "Cluster spec must be non-empty",
            ),
            (
                '{"task": {}, "task": null}',
                [
                    ("duplicate_key", ("tf_config",)),
                    ("model_type", ("tf_config", "task")),
                    ("empty_cluster", ("tf_config", "cluster")),
                ],
                "Cluster spec must be non-empty",
            ),
        ],
        ids=["repeated_address", "job_name", "null_index", "not_an_object", "duplicate_key"],
    )
    def test_both_reported(self, text: str, errors: list[tuple[str, Any]], sentence: str) -> None:
        with pytest.raises(ValidationError) as info:
            ParameterServerConfig.from_env({"TF_CONFIG": text})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == errors
        assert sentence in str(info.value)

    def test_a_tf_config_instance_is_read_with_its_cluster(self) -> None:
        tf_config = TFConfig(cluster=CLUSTER, task={"type": "worker", "index": None})
        with pytest.raises(ValidationError) as info:
            ParameterServerConfig(tf_config=tf_config)
        assert [e["type"] for e in info.value.errors()] == ["type"]

    def test_nothing_added_when_tensorflow_fails_on_the_cluster(self) -> None:
        with pytest.raises(ValidationError) as info:
            ParameterServerConfig(tf_config={"cluster": {"worker": "w:1"}})
        assert [e["type"] for e in info.value.errors()] == ["job_tasks_type"]


def test_dump_holds_every_derived_value() -> None:
    tf_config = {"cluster": CLUSTER, "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}
    dump = ParameterServerConfig(tf_config=tf_config).model_dump()
    assert {key: value for key, value in dump.items() if key != "tf_config"} == {
        "cluster_spec": CLUSTER,
        "task_type": "worker",
        "task_id": 1,
        "rpc_layer": "grpc",
        "num_workers": 2,
        "num_ps": 1,
        "role": "worker",
        "is_coordinator": False,
        "device_filters": {
            "worker:0": ["/job:ps", "/job:chief"],
            "worker:1": ["/job:ps", "/job:chief"],
            "ps:0": ["/job:worker", "/job:chief"],
        },
    }


def test_from_env() -> None:
    text = json.dumps({"cluster": CLUSTER, "task": {"type": "ps", "index": 0}})
    assert ParameterServerConfig.from_env({"TF_CONFIG": text}).role == "ps"
    with pytest.raises(ValidationError):
        ParameterServerConfig.from_env({})


@given(distribute_tf_configs())
def test_round_trip(data: dict[str, Any]) -> None:
    try:
        ps = ParameterServerConfig(tf_config=data)
    except ValidationError:
        return
    assert ParameterServerConfig.model_validate(ps.model_dump()) == ps
    assert ParameterServerConfig.model_validate_json(ps.model_dump_json()) == ps
    assert len(ps.device_filters) == ps.num_workers + ps.num_ps


def test_a_parameter_server_config_is_a_value() -> None:
    """A ParameterServerConfig refuses assignment and hashes by its TF_CONFIG."""
    is_a_value(
        lambda: ParameterServerConfig(
            tf_config={
                "cluster": {"chief": ["c:1"], "worker": ["w:1"], "ps": ["p:1"]},
                "task": {"type": "ps", "index": 0},
            }
        )
    )
