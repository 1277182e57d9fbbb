"""estconf.distribute.TFConfigClusterResolver: the cluster resolver."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

from estconf import ClusterSpec, TFConfig
from estconf.distribute import TFConfigClusterResolver
from values import is_a_value

from strategies import distribute_tf_configs

CLUSTER = {"chief": ["c:0"], "worker": ["w:0", "w:1"], "ps": ["p:0"]}


def codes(error: ValidationError) -> list[tuple[str, tuple[Any, ...]]]:
    return [(e["type"], e["loc"]) for e in error.errors()]


class TestTaskAndRpcLayer:
    def test_from_tf_config(self) -> None:
        resolver = TFConfigClusterResolver(
            tf_config={
                "cluster": CLUSTER,
                "task": {"type": "worker", "index": "1"},
                "rpc_layer": "grpc",
                "environment": "cloud",
            }
        )
        assert (resolver.task_type, resolver.task_id, resolver.rpc_layer) == ("worker", 1, "grpc")

    def test_environment_is_the_argument_only(self) -> None:
        resolver = TFConfigClusterResolver(tf_config={"environment": "cloud"})
        assert resolver.environment is None
        assert TFConfigClusterResolver(environment="google").environment == "google"

    def test_arguments_override_tf_config(self) -> None:
        resolver = TFConfigClusterResolver(
            "ps", "0", "grpc+verbs", tf_config={"task": {"type": "worker", "index": 1}}
        )
        assert (resolver.task_type, resolver.task_id, resolver.rpc_layer) == ("ps", 0, "grpc+verbs")

    @pytest.mark.parametrize(
        ("argument", "task_type"),
        [(5, "5"), (b"worker", "b'worker'"), (1.5, "1.5"), (True, "True"), ("", "")],
    )
    def test_task_type_argument_is_read_with_str(self, argument: object, task_type: str) -> None:
        resolver = TFConfigClusterResolver(
            task_type=argument, tf_config={"task": {"type": "worker", "index": 0}}
        )
        assert resolver.task_type == task_type

    @pytest.mark.parametrize("name", ["rpc_layer", "environment"])
    def test_rpc_layer_and_environment_are_kept_so_must_be_strings(self, name: str) -> None:
        kwargs: dict[str, Any] = {name: 5}
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(**kwargs)
        assert codes(info.value) == [("string_type", (name,))]

    def test_nothing_given_is_none(self) -> None:
        resolver = TFConfigClusterResolver()
        assert (resolver.task_type, resolver.task_id, resolver.rpc_layer) == (None, None, None)
        assert resolver.cluster_spec() == ClusterSpec()

    def test_a_task_outside_the_cluster_is_the_resolvers_business_not(self) -> None:
        resolver = TFConfigClusterResolver(
            tf_config={"cluster": CLUSTER, "task": {"type": "other", "index": 9}}
        )
        assert (resolver.task_type, resolver.task_id) == ("other", 9)

    @pytest.mark.parametrize("key", ["type", "index"])
    def test_null_type_or_index_is_refused(self, key: str) -> None:
        task = {"type": "worker", "index": 0, key: None}
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(tf_config={"task": task})
        assert codes(info.value) == [("type", ("tf_config", "task", key))]
        assert "is null" in str(info.value)

    def test_a_null_index_says_how_tensorflow_fails_on_it(self) -> None:
        """TensorFlow reads the index with int(), which fails on None with its own sentence."""
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(tf_config={"task": {"type": "worker", "index": None}})
        assert (
            "fails on it: int() argument must be a string, a bytes-like object or a real "
            "number, not 'NoneType'" in str(info.value)
        )

    def test_negative_index_is_refused(self) -> None:
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(tf_config={"task": {"type": "worker", "index": -1}})
        assert codes(info.value) == [("negative_index", ("tf_config", "task", "index"))]
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(task_id=-2)
        assert codes(info.value) == [("negative_index", ("task_id",))]

    def test_a_negative_index_is_named_in_the_message(self) -> None:
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(tf_config={"task": {"type": "worker", "index": -1}})
        assert "task index -1 is negative; task indices start at 0" in str(info.value)
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver(task_id=-2)
        assert "task index -2 is negative" in str(info.value)


class TestMaster:
    def test_session_master_wins(self) -> None:
        resolver = TFConfigClusterResolver(
            tf_config={
                "cluster": CLUSTER,
                "task": {"type": "worker", "index": 0},
                "session_master": "",
            }
        )
        assert resolver.master() == ""

    @pytest.mark.parametrize(
        "cluster",
        [{}, {"worker": ["w:0"]}, {"worker": {"0": "w:0"}}],
        ids=["empty", "one", "sparse0"],
    )
    def test_empty_for_no_job_or_one_job_of_one_task(self, cluster: dict[str, Any]) -> None:
        assert TFConfigClusterResolver(tf_config={"cluster": cluster}).master() == ""

    def test_a_sparse_job_counts_its_holes(self) -> None:
        resolver = TFConfigClusterResolver(
            tf_config={"cluster": {"worker": {"1": "w:1"}}, "task": {"type": "worker", "index": 1}}
        )
        assert resolver.master() == "w:1"

    def test_address_with_the_rpc_layer(self) -> None:
        tf_config = {
            "cluster": CLUSTER,
            "task": {"type": "worker", "index": 1},
            "rpc_layer": "grpc",
        }
        resolver = TFConfigClusterResolver(tf_config=tf_config)
        assert resolver.master() == "grpc://w:1"
        assert resolver.master("ps", 0) == "grpc://p:0"
        assert resolver.master(rpc_layer="") == "w:1"
        assert TFConfigClusterResolver(rpc_layer="x", tf_config=tf_config).master() == "x://w:1"

    @pytest.mark.parametrize(
        ("task", "sentence"),
        [
            ({"type": "other", "index": 0}, "No such job in cluster: 'other'"),
            ({"type": "worker", "index": 2}, "No task with index 2 in job 'worker'"),
            ({"type": "worker"}, "No task with index None in job 'worker'"),
            ({"index": 0}, "No such job in cluster: None"),
        ],
    )
    def test_a_task_not_in_the_cluster(self, task: dict[str, Any], sentence: str) -> None:
        resolver = TFConfigClusterResolver(tf_config={"cluster": CLUSTER, "task": task})
        with pytest.raises(ValidationError, match=sentence) as info:
            resolver.master()
        assert info.value.errors()[0]["type"] == "task_not_in_cluster"

    def test_a_task_not_in_the_cluster_is_the_error_s_input(self) -> None:
        resolver = TFConfigClusterResolver(tf_config={"cluster": CLUSTER})
        with pytest.raises(ValidationError) as info:
            resolver.master("worker", 2)
        assert info.value.errors()[0]["input"] == {"task_type": "worker", "task_id": 2}


class TestFromEnv:
    def test_reads_the_variable(self) -> None:
        text = json.dumps({"cluster": CLUSTER, "task": {"type": "chief", "index": 0}})
        resolver = TFConfigClusterResolver.from_env({"TF_CONFIG": text}, task_id=0)
        assert resolver.task_type == "chief"
        assert resolver.cluster_spec() == CLUSTER

    def test_unset_is_empty(self) -> None:
        assert TFConfigClusterResolver.from_env({}) == TFConfigClusterResolver()

    def test_reads_os_environ_by_default(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TF_CONFIG", '{"rpc_layer": "grpc"}')
        assert TFConfigClusterResolver.from_env().rpc_layer == "grpc"

    @pytest.mark.parametrize("text", ["", "[]", "{"])
    def test_unreadable_is_reported_at_tf_config(self, text: str) -> None:
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver.from_env({"TF_CONFIG": text})
        assert all(e["loc"][:1] == ("tf_config",) for e in info.value.errors())

    def test_what_tensorflow_reads_of_duplicate_keys_is_checked_too(self) -> None:
        """TensorFlow keeps the last value, then refuses it with its own sentence."""
        with pytest.raises(ValidationError) as info:
            TFConfigClusterResolver.from_env({"TF_CONFIG": '{"cluster": {}, "cluster": null}'})
        assert [e["type"] for e in info.value.errors()] == ["duplicate_key", "cluster_type"]
        assert "`cluster` must be a dictionary mapping one or more job names" in str(info.value)

    def test_tf_config_argument_is_refused(self) -> None:
        with pytest.raises(TypeError) as info:
            TFConfigClusterResolver.from_env({}, tf_config={})
        assert str(info.value) == "from_env reads tf_config from the environment; pass environ"


@given(distribute_tf_configs())
def test_round_trip(data: dict[str, Any]) -> None:
    try:
        resolver = TFConfigClusterResolver(tf_config=data)
    except ValidationError:
        return
    assert TFConfigClusterResolver.model_validate(resolver.model_dump()) == resolver
    assert resolver.tf_config == TFConfig.model_validate(data)


def test_a_document_without_the_arguments_takes_them_from_tf_config() -> None:
    tf_config = {"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 1}}
    resolver = TFConfigClusterResolver.model_validate(
        {"tf_config": {**tf_config, "rpc_layer": "grpc"}}
    )
    assert (resolver.task_type, resolver.task_id, resolver.rpc_layer) == ("worker", 1, "grpc")


def test_a_resolver_is_frozen() -> None:
    resolver = TFConfigClusterResolver(task_type="worker", task_id=0)
    with pytest.raises(ValidationError, match="frozen"):
        resolver.task_id = 1  # type: ignore[misc]


def test_a_resolver_is_a_value() -> None:
    """A resolver refuses assignment and hashes by its fields."""
    is_a_value(
        lambda: TFConfigClusterResolver(
            tf_config=TFConfig.model_validate(
                {
                    "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
                    "task": {"type": "worker", "index": 0},
                }
            )
        )
    )


@pytest.mark.parametrize(
    ("cluster", "sentence"),
    [
        (
            {"chief": {"0": "h:0", "x": "h:1"}, "worker": None},
            "invalid literal for int() with base 10: 'x'",
        ),
        (
            {"worker": None, "chief": {"x": "h:1"}},
            "The tasks for job 'worker' must be a list or a dictionary",
        ),
    ],
)
def test_the_first_job_tensorflow_fails_on_is_reported(
    cluster: dict[str, Any], sentence: str
) -> None:
    """TensorFlow's ``ClusterSpec`` reads the jobs in order and stops at the first it fails on."""
    text = json.dumps({"cluster": cluster})
    with pytest.raises(ValidationError, match=re.escape(sentence)):
        TFConfigClusterResolver.from_env({"TF_CONFIG": text})
