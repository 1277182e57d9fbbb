"""estconf.contrib: tf.contrib.learn's ClusterConfig and RunConfig as TensorFlow 1.15 built them."""

from __future__ import annotations

import copy
import doctest
import importlib
import json
import math
import pathlib
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import ValidationError

import estconf
from estconf import ClusterSpec, TFConfig
from estconf.session_config import ConfigProto, GPUOptions
from values import is_a_value

from strategies import legacy_tf_configs

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from estconf import contrib

ClusterConfig = contrib.ClusterConfig
RunConfig = contrib.RunConfig

# The examples of TensorFlow 1.x's docstrings and tests.
DERIVED = (
    "cluster_spec",
    "environment",
    "is_chief",
    "num_ps_replicas",
    "num_worker_replicas",
    "task_id",
    "task_type",
)
"""The properties a contrib config derives from TF_CONFIG, each a key of its dump."""
CLUSTER = {"ps": ["host1:2222", "host2:2222"], "worker": ["host3:2222", "host4:2222", "host5:2222"]}
TEST_CLUSTER = {"ps": ["host1:1", "host2:2"], "worker": ["host3:3", "host4:4", "host5:5"]}


def make(**kwargs: Any) -> contrib.RunConfig:
    """Build a RunConfig, expecting the deprecation warning every construction emits."""
    with pytest.deprecated_call():
        return RunConfig(**kwargs)


def make_cluster(**kwargs: Any) -> contrib.ClusterConfig:
    """Build a ClusterConfig, expecting the deprecation warning."""
    with pytest.deprecated_call():
        return ClusterConfig(**kwargs)


@contextmanager
def deprecation_expected() -> Iterator[None]:
    """For property tests that build many configs: the warning is expected, not checked."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def errors_of(cls: type[contrib.ClusterConfig] = RunConfig, **kwargs: Any) -> list[Any]:
    with pytest.raises(ValidationError) as info, deprecation_expected():
        cls(**kwargs)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


def tensorflow_1_15(tf_config: dict[str, Any], master: str | None = None) -> dict[str, Any] | str:
    """What TensorFlow 1.15's ClusterConfig computes from a TF_CONFIG (or its error's start).

    A plain transcription of the rules, on the raw JSON object, to check the
    models against.
    """
    task = tf_config.get("task", {})
    task_type = task.get("type")
    index = task.get("index")
    task_id = int(index) if index else 0
    cluster = tf_config.get("cluster", {})
    if master is None:
        master = ""
        jobs = list(cluster)
        single_node = len(jobs) == 1 and len(cluster[jobs[0]]) == 1
        if cluster and not single_node and task_type:
            if task_type not in jobs:
                return f"{task_type} is not a valid task_type in the cluster_spec:"
            if not 0 <= task_id < len(cluster[task_type]):
                return f"{task_id} is not a valid task_id for task_type {task_type} in the"
            master = "grpc://" + cluster[task_type][task_id]
    environment = tf_config.get("environment", "local")
    if task_type is None:
        is_chief = task_id == 0
    elif environment == "cloud":
        is_chief = task_type == "master" and task_id == 0
    else:
        is_chief = task_type == "worker" and task_id == 0
    return {
        "task_type": task_type,
        "task_id": task_id,
        "master": master,
        "num_ps_replicas": len(cluster.get("ps", [])),
        "num_worker_replicas": len(cluster.get("worker", [])) + len(cluster.get("master", [])),
        "environment": environment,
        "is_chief": is_chief,
    }


class TestDeprecation:
    def test_importing_warns_and_points_to_estconf_run_config(self) -> None:
        module = sys.modules.pop("estconf.contrib")
        try:
            with pytest.deprecated_call(match=r"use estconf\.RunConfig"):
                importlib.import_module("estconf.contrib")
        finally:
            sys.modules["estconf.contrib"] = module
            estconf.contrib = module

    def test_importing_warns_once_at_the_import(self) -> None:
        for module in ("estconf.contrib", "estconf.contrib.cluster_config"):
            done = subprocess.run(
                [sys.executable, "-W", "always::DeprecationWarning", "-c", f"import {module}"],
                capture_output=True,
                text=True,
                check=True,
            )
            assert done.stderr.count("DeprecationWarning") == 1, done.stderr
            assert done.stderr.startswith("<string>:1: DeprecationWarning: estconf.contrib")

    def test_importing_estconf_does_not_import_contrib(self) -> None:
        code = "import sys, estconf; assert 'estconf.contrib' not in sys.modules"
        subprocess.run([sys.executable, "-W", "error", "-c", code], check=True)

    @pytest.mark.parametrize("cls", [ClusterConfig, RunConfig])
    def test_building_warns_at_the_caller(self, cls: type[contrib.ClusterConfig]) -> None:
        with pytest.deprecated_call(match=r"use estconf\.RunConfig") as caught:
            cls()
        assert [pathlib.Path(w.filename).name for w in caught] == ["test_contrib.py"]

    def test_every_way_of_building_warns(self) -> None:
        with pytest.deprecated_call():
            RunConfig.from_env({})
        with pytest.deprecated_call():
            RunConfig.model_validate({"num_cores": 2})
        with pytest.deprecated_call():
            RunConfig.model_validate_json('{"num_cores": 2}')

    def test_replace_does_not_warn_again(self) -> None:
        config = make()
        config.replace(tf_random_seed=1)  # filterwarnings=error would turn a warning into a failure


class TestNames:
    def test_environment(self) -> None:
        assert (contrib.Environment.CLOUD, contrib.Environment.GOOGLE) == ("cloud", "google")
        assert contrib.Environment.LOCAL == "local"

    def test_task_type(self) -> None:
        assert (contrib.TaskType.MASTER, contrib.TaskType.PS, contrib.TaskType.WORKER) == (
            "master",
            "ps",
            "worker",
        )

    def test_run_config_is_a_cluster_config(self) -> None:
        assert issubclass(RunConfig, ClusterConfig)


class TestTFConfig:
    def test_docstring_example(self) -> None:
        config = make_cluster(
            TF_CONFIG={"cluster": CLUSTER, "task": {"type": "worker", "index": 1}}
        )
        # TensorFlow's docstring says 'host4:2222'; its code adds the scheme.
        assert config.master == "grpc://host4:2222"
        assert config.task_id == 1
        assert config.num_ps_replicas == 2
        assert config.num_worker_replicas == 3
        assert config.cluster_spec == ClusterSpec(CLUSTER)
        assert config.task_type == "worker"
        assert not config.is_chief

    def test_from_env(self, monkeypatch: pytest.MonkeyPatch) -> None:
        text = json.dumps({"cluster": CLUSTER, "task": {"type": "ps", "index": 1}})
        with pytest.deprecated_call():
            config = ClusterConfig.from_env({"TF_CONFIG": text}, master="grpc://m:1")
        assert (config.task_type, config.task_id, config.master) == ("ps", 1, "grpc://m:1")
        monkeypatch.setenv("TF_CONFIG", text)
        with pytest.deprecated_call():
            assert RunConfig.from_env().master == "grpc://host2:2222"

    @pytest.mark.parametrize("environ", [{}, {"TF_CONFIG": ""}])
    def test_unset_or_empty_is_an_empty_config(self, environ: dict[str, str]) -> None:
        with pytest.deprecated_call():
            config = RunConfig.from_env(environ)
        assert TFConfig() == config.TF_CONFIG
        assert contrib.read_tf_config(environ) == TFConfig()

    def test_set_but_empty_differs_from_the_estimator(self) -> None:
        with pytest.raises(ValidationError):
            estconf.RunConfig.from_env({"TF_CONFIG": ""})

    @pytest.mark.parametrize(
        "text", ["  ", "null", "[]", "{", '{"task": {"index": 1, "index": 2}}']
    )
    def test_invalid_text(self, text: str) -> None:
        with pytest.raises(ValidationError):
            RunConfig.from_env({"TF_CONFIG": text})

    def test_errors_are_located_under_tf_config(self) -> None:
        [(code, loc, _)] = errors_of(TF_CONFIG={"cluster": {"worker": ["nope"]}})
        assert (code, loc) == ("address", ("TF_CONFIG", "cluster", "worker", 0))

    def test_from_env_reports_tf_config_and_argument_errors_together(self) -> None:
        environ = {"TF_CONFIG": '{"cluster": {"worker": ["nope"]}}'}
        with pytest.raises(ValidationError) as info:
            RunConfig.from_env(environ, num_cores=1.5)
        assert {e["loc"][0] for e in info.value.errors()} == {"TF_CONFIG", "num_cores"}

    def test_from_env_reports_unreadable_text_and_argument_errors_together(self) -> None:
        with pytest.raises(ValidationError) as info, deprecation_expected():
            RunConfig.from_env({"TF_CONFIG": "{"}, num_cores=1.5)
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("json_invalid", ("TF_CONFIG",)),
            ("int_type", ("num_cores",)),
        ]

    def test_a_repeated_key_and_the_lookup_refusal_tensorflow_reaches(self) -> None:
        """TensorFlow 1.15 keeps the last of two equal keys, then fails at the lookup."""
        cluster = '"cluster": {"worker": ["a:1", "b:1"]}'
        text = "{" + cluster + ', "task": {}, "task": {"type": "ps"}}'
        with pytest.raises(ValidationError) as info, deprecation_expected():
            ClusterConfig.from_env({"TF_CONFIG": text})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("duplicate_key", ("TF_CONFIG",)),
            ("unknown_task_type", ("TF_CONFIG", "task", "type")),
        ]
        text = "{" + cluster + ', "task": {"type": "ps"}, "task": {}}'  # the last has no type
        with pytest.raises(ValidationError) as info, deprecation_expected():
            ClusterConfig.from_env({"TF_CONFIG": text})
        assert [e["type"] for e in info.value.errors()] == ["duplicate_key"]

    def test_from_env_takes_no_tf_config_argument(self) -> None:
        with pytest.raises(TypeError):
            RunConfig.from_env({}, TF_CONFIG={})

    def test_tf_config_names_the_config_proto_not_the_variable(self) -> None:
        [(code, loc, msg)] = errors_of(ClusterConfig, tf_config={"cluster": CLUSTER})
        assert (code, loc) == ("tf_config_name", ("tf_config",))
        assert "passed as TF_CONFIG" in msg
        [(code, loc, msg)] = errors_of(RunConfig, tf_config={"cluster": CLUSTER})
        assert (code, loc) == ("derived_mismatch", ("tf_config",))
        assert "the TF_CONFIG variable is passed as TF_CONFIG" in msg

    def test_a_job_given_as_an_object_is_refused(self) -> None:
        # TensorFlow 1.15's ClusterSpec keeps JSON's string keys; its ClusterDef refuses them.
        [(code, loc, msg)] = errors_of(
            TF_CONFIG={"cluster": {"ps": ["h:1"], "worker": {"0": "h:2", "1": "h:3"}}}
        )
        assert (code, loc) == ("legacy_sparse_job", ("TF_CONFIG", "cluster", "worker"))
        assert "TensorFlow 1.15 cannot read it" in msg


class TestTaskTypeAndId:
    def test_defaults(self) -> None:
        config = make_cluster()
        assert config.task_type is None
        assert config.task_id == 0
        assert config.cluster_spec == {}

    @pytest.mark.parametrize(
        ("index", "task_id"), [(2, 2), ("2", 2), ("0", 0), (0, 0), (None, 0), ("-1", -1)]
    )
    def test_task_id_is_the_index_when_truthy_else_0(self, index: Any, task_id: int) -> None:
        config = make_cluster(TF_CONFIG={"task": {"index": index}})
        assert config.task_id == task_id

    def test_task_type_null_is_none(self) -> None:
        assert make_cluster(TF_CONFIG={"task": {"type": None}}).task_type is None

    def test_get_task_id(self, monkeypatch: pytest.MonkeyPatch) -> None:
        environ = {"TF_CONFIG": '{"task": {"type": "worker", "index": "3"}}'}
        assert contrib.get_task_id(environ) == 3
        assert ClusterConfig.get_task_id(environ) == 3
        assert contrib.get_task_id({}) == 0
        assert contrib.get_task_id({"TF_CONFIG": ""}) == 0
        monkeypatch.setenv("TF_CONFIG", '{"task": {"index": 2}}')
        assert contrib.get_task_id() == 2
        assert RunConfig.get_task_id() == 2
        assert make().get_task_id(environ) == 3  # a static method, on a config too


class TestMaster:
    def test_an_argument_is_kept_without_a_look_up(self) -> None:
        # TensorFlow 1.x's test: the task type is no job of the cluster, and no error.
        cluster = {"ps": ["localhost:9990"], "my_job_name": ["localhost:9991", "localhost:9992"]}
        config = make(
            TF_CONFIG={"cluster": cluster, "task": {"type": "worker", "index": 2}},
            master="localhost:0",
            evaluation_master="localhost:9991",
        )
        assert config.master == "localhost:0"
        assert config.evaluation_master == "localhost:9991"
        assert config.task_id == 2
        assert (config.num_ps_replicas, config.num_worker_replicas) == (1, 0)
        assert not config.is_chief

    def test_values_from_tf_config(self) -> None:
        config = make(TF_CONFIG={"cluster": TEST_CLUSTER, "task": {"type": "worker", "index": 1}})
        assert config.master == "grpc://host4:4"
        assert config.cluster_spec.as_dict() == TEST_CLUSTER
        assert config.evaluation_master == ""

    def test_no_cluster(self) -> None:
        assert make(TF_CONFIG={"task": {"type": "worker", "index": 3}}).master == ""

    def test_one_job_of_two_tasks_is_not_local(self) -> None:
        cluster = {"worker": ["host1:1", "host2:2"]}
        config = make(TF_CONFIG={"cluster": cluster, "task": {"type": "worker", "index": 1}})
        assert config.master == "grpc://host2:2"

    def test_a_single_node_cluster_is_local(self) -> None:
        config = make(TF_CONFIG={"cluster": {"worker": ["host1:1"]}, "task": {"type": "ps"}})
        assert config.master == ""

    @pytest.mark.parametrize("task", [{}, {"index": 1}, {"type": ""}, {"type": None}])
    def test_no_task_type_gives_an_empty_master(self, task: dict[str, Any]) -> None:
        assert make(TF_CONFIG={"cluster": TEST_CLUSTER, "task": task}).master == ""

    def test_session_master_is_not_read(self) -> None:
        config = make(
            TF_CONFIG={
                "cluster": TEST_CLUSTER,
                "task": {"type": "ps", "index": 0},
                "session_master": "grpc://elsewhere:1",
                "eval_session_master": "grpc://eval:1",
            }
        )
        assert (config.master, config.evaluation_master) == ("grpc://host1:1", "")

    def test_an_empty_master_argument_is_kept(self) -> None:
        config = make(TF_CONFIG={"cluster": TEST_CLUSTER, "task": {"type": "ps"}}, master="")
        assert config.master == ""

    def test_task_type_not_in_the_cluster(self) -> None:
        [(code, loc, msg)] = errors_of(
            TF_CONFIG={"cluster": TEST_CLUSTER, "task": {"type": "not_in_cluster_spec"}}
        )
        assert (code, loc) == ("unknown_task_type", ("TF_CONFIG", "task", "type"))
        assert msg == (
            "not_in_cluster_spec is not a valid task_type in the cluster_spec:\n"
            "ClusterSpec({'ps': ['host1:1', 'host2:2'], "
            "'worker': ['host3:3', 'host4:4', 'host5:5']})\n\n"
            "Note that these values may be coming from the TF_CONFIG environment variable."
        )

    @pytest.mark.parametrize("index", [3, "3", -1])
    def test_index_out_of_range(self, index: Any) -> None:
        tf_config = {"cluster": TEST_CLUSTER, "task": {"type": "worker", "index": index}}
        with pytest.raises(ValidationError) as info, deprecation_expected():
            ClusterConfig(TF_CONFIG=tf_config)
        [error] = info.value.errors()
        code, loc, msg = error["type"], error["loc"], error["msg"]
        assert error["input"] == int(index)
        assert (code, loc) == ("task_index_out_of_range", ("TF_CONFIG", "task", "index"))
        assert msg.startswith(f"{int(index)} is not a valid task_id for task_type worker in the ")
        assert msg.endswith(
            "Note that these value may be coming from the TF_CONFIG environment variable."
        )

    @pytest.mark.parametrize(
        ("tf_config", "errors"),
        [
            (
                {"cluster": TEST_CLUSTER, "task": {"type": "chief"}, "environment": None},
                [
                    ("type", ("TF_CONFIG", "environment")),
                    ("unknown_task_type", ("TF_CONFIG", "task", "type")),
                ],
            ),
            (
                {"cluster": {**TEST_CLUSTER, "master": []}, "task": {"type": "ps", "index": 2}},
                [
                    ("empty_job", ("TF_CONFIG", "cluster", "master")),
                    ("task_index_out_of_range", ("TF_CONFIG", "task", "index")),
                ],
            ),
            (
                {"cluster": TEST_CLUSTER, "task": {"type": "ps", "index": 5.0}, "model_dir": 3},
                [
                    ("string_type", ("TF_CONFIG", "model_dir")),
                    ("task_index_out_of_range", ("TF_CONFIG", "task", "index")),
                ],
            ),
        ],
    )
    def test_an_invalid_tf_config_also_gets_the_lookup_refusal(
        self, tf_config: dict[str, Any], errors: list[tuple[str, tuple[str, ...]]]
    ) -> None:
        """TensorFlow 1.15 reads what estconf refuses, then fails at the master's lookup."""
        found = errors_of(ClusterConfig, TF_CONFIG=tf_config)
        assert [(code, loc) for code, loc, _ in found] == errors
        assert found[-1][2].endswith("may be coming from the TF_CONFIG environment variable.")

    @pytest.mark.parametrize(
        ("tf_config", "master"),
        [
            # TensorFlow 1.15 fails before the lookup: int("x"), a job that is an object, …
            ({"cluster": TEST_CLUSTER, "task": {"type": "chief", "index": "x"}}, None),
            (
                {"cluster": {**TEST_CLUSTER, "ps": {"0": "host1:1"}}, "task": {"type": "chief"}},
                None,
            ),
            ({"cluster": {**TEST_CLUSTER, "ps": [1]}, "task": {"type": "chief"}}, None),
            ({"cluster": TEST_CLUSTER, "task": ["chief"]}, None),
            # a master given is not looked up
            (
                {"cluster": TEST_CLUSTER, "task": {"type": "chief"}, "environment": None},
                "grpc://m:1",
            ),
        ],
    )
    def test_no_lookup_refusal_where_tensorflow_does_not_look_up(
        self, tf_config: dict[str, Any], master: str | None
    ) -> None:
        found = errors_of(ClusterConfig, TF_CONFIG=tf_config, master=master)
        assert [code for code, _, _ in found if "task" in code] == []

    @given(legacy_tf_configs(), st.none() | st.sampled_from(["", "grpc://m:1"]))
    def test_as_tensorflow_computes(self, tf_config: dict[str, Any], master: str | None) -> None:
        expected = tensorflow_1_15(tf_config, master)
        with deprecation_expected():
            if isinstance(expected, str):
                with pytest.raises(ValidationError, match=expected):
                    ClusterConfig(TF_CONFIG=tf_config, master=master)
                return
            config = ClusterConfig(TF_CONFIG=tf_config, master=master)
        assert {key: getattr(config, key) for key in expected} == expected


class TestCountsAndChief:
    def test_num_worker_replicas_counts_the_master_too(self) -> None:
        cluster = {**TEST_CLUSTER, "master": ["host6:6"]}
        config = make(TF_CONFIG={"cluster": cluster, "task": {"type": "worker", "index": 1}})
        assert (config.num_ps_replicas, config.num_worker_replicas) == (2, 4)

    def test_chief_and_evaluator_jobs_are_not_counted(self) -> None:
        cluster = {"chief": ["h:0"], "evaluator": ["h:1"], "worker": ["h:2"]}
        config = make(TF_CONFIG={"cluster": cluster})
        assert (config.num_ps_replicas, config.num_worker_replicas) == (0, 1)

    @pytest.mark.parametrize(
        ("task", "environment", "is_chief"),
        [
            ({}, None, True),
            ({"index": 1}, None, False),
            ({"index": 1}, "cloud", False),
            ({"type": "master", "index": 0}, "cloud", True),
            ({"type": "worker", "index": 0}, "cloud", False),
            ({"type": "worker", "index": 0}, None, True),
            ({"type": "worker", "index": 0}, "random", True),
            ({"type": "worker", "index": 0}, "google", True),
            ({"type": "master", "index": 0}, "random", False),
            ({"type": "worker", "index": 1}, None, False),
            ({"type": "ps", "index": 0}, None, False),
        ],
    )
    def test_is_chief(self, task: dict[str, Any], environment: str | None, is_chief: bool) -> None:
        cluster = {"ps": ["host1:1", "host2:2"], "master": ["host3:3"], "worker": ["h:4", "h:5"]}
        tf_config: dict[str, Any] = {"cluster": cluster, "task": task}
        if environment is not None:
            tf_config["environment"] = environment
        config = make(TF_CONFIG=tf_config)
        assert config.is_chief is is_chief
        assert config.environment == (environment or "local")

    def test_default_is_chief_without_a_job_name(self) -> None:
        assert make(TF_CONFIG={"cluster": {}, "task": {}}).is_chief

    def test_without_a_job_name_only_index_0_is_chief(self) -> None:
        assert not make(TF_CONFIG={"task": {"index": -1}}).is_chief

    def test_worker_0_read_from_the_environment_is_chief(self) -> None:
        text = json.dumps({"cluster": {"worker": ["h:0", "h:1"]}, "task": {"type": "worker"}})
        with pytest.deprecated_call():
            assert RunConfig.from_env({"TF_CONFIG": text}).is_chief

    def test_only_index_0_of_the_leading_job_is_chief(self) -> None:
        # With a master given, the task is not looked up, so a negative index stays.
        tf_config = {"cluster": {"worker": ["h:0", "h:1"]}, "task": {"type": "worker", "index": -1}}
        assert not make(TF_CONFIG=tf_config, master="grpc://m:0").is_chief

    def test_the_dump_holds_every_property(self) -> None:
        cluster = {"ps": ["host1:1"], "master": ["host3:3"], "worker": ["h:4", "h:5"]}
        tf_config = {"cluster": cluster, "task": {"type": "master"}, "environment": "cloud"}
        for model in (RunConfig, ClusterConfig):
            with deprecation_expected():
                dump = model(TF_CONFIG=tf_config).model_dump()
            assert {key: dump[key] for key in DERIVED} == {
                "cluster_spec": cluster,
                "environment": "cloud",
                "is_chief": True,
                "num_ps_replicas": 1,
                "num_worker_replicas": 3,
                "task_id": 0,
                "task_type": "master",
            }

    def test_only_tf_config_gets_the_tf_config_hint(self) -> None:
        dump = make(TF_CONFIG={"task": {"index": 1}}).model_dump(mode="json")
        [(code, loc, msg)] = errors_of(**{**dump, "is_chief": True})
        assert (code, loc) == ("derived_mismatch", ("is_chief",))
        assert msg.endswith("remove it or make it agree")


def test_the_dump_schema_describes_the_derived_properties() -> None:
    schema = ClusterConfig.model_json_schema(mode="serialization")["properties"]["is_chief"]
    assert schema["description"] == "Whether this task is the chief."
    assert schema["readOnly"] is True


class TestRunConfigArguments:
    def test_the_schema_says_tf_random_seed_is_an_integer(self) -> None:
        schema = RunConfig.model_json_schema()["properties"]["tf_random_seed"]
        assert schema["anyOf"] == [{"type": "integer"}, {"type": "null"}]

    def test_defaults(self) -> None:
        config = make()
        assert config.master == ""
        assert config.num_cores == 0
        assert config.log_device_placement is False
        assert config.gpu_memory_fraction == 1
        assert config.tf_random_seed is None
        assert config.save_summary_steps == 100
        assert (config.save_checkpoints_secs, config.save_checkpoints_steps) == (600, None)
        assert config.keep_checkpoint_max == 5
        assert config.keep_checkpoint_every_n_hours == 10000
        assert config.log_step_count_steps == 100
        assert config.protocol is None
        assert config.evaluation_master == ""
        assert config.model_dir is None
        assert config.session_config is None
        assert config.session_creation_timeout_secs == 7200
        assert (config.train_distribute, config.eval_distribute, config.device_fn) == (None,) * 3
        assert config.experimental_max_worker_delay_secs is None

    def test_properties_tensorflow_1_15_never_set(self) -> None:
        # The contrib constructor skips the estimator's: reading these failed in TensorFlow.
        config = make()
        assert not hasattr(config, "global_id_in_cluster")
        assert not hasattr(config, "service")

    def test_cluster_config_defaults(self) -> None:
        config = make_cluster()
        assert (config.master, config.evaluation_master, config.environment) == ("", "", "local")
        assert (config.num_ps_replicas, config.num_worker_replicas, config.is_chief) == (0, 0, True)

    def test_constructor_checks_no_range_as_tensorflow_1_15(self) -> None:
        config = make(
            save_summary_steps=-1,
            keep_checkpoint_every_n_hours=0,
            log_step_count_steps=0,
            session_creation_timeout_secs=-5,
            protocol="http",
            tf_random_seed=1.0,
        )
        assert config.save_summary_steps == -1
        assert config.protocol == "http"
        assert config.tf_random_seed == 1.0
        assert type(config.tf_random_seed) is float  # kept as given

    @pytest.mark.parametrize(
        ("name", "value", "code"),
        [
            ("num_cores", 2.0, "int_type"),
            ("num_cores", True, "int_type"),
            ("num_cores", "2", "int_type"),
            ("log_device_placement", 1, "bool_type"),
            ("gpu_memory_fraction", "0.5", "float_type"),
            ("gpu_memory_fraction", True, "int_type"),
            ("tf_random_seed", 1.5, "int_type"),
            ("tf_random_seed", "5", "float_type"),
            ("save_summary_steps", 1.5, "int_type"),
            ("protocol", 5, "string_type"),
            ("model_dir", pathlib.Path("x"), "string_type"),
            ("session_config", "x", "session_config_type"),
            ("master", 5, "string_type"),
        ],
    )
    def test_types(self, name: str, value: Any, code: str) -> None:
        codes = {c for c, loc, _ in errors_of(**{name: value}) if loc[0] == name}
        assert code in codes


class TestCheckpoints:
    def test_steps_without_secs(self) -> None:
        config = make(save_checkpoints_steps=100)
        assert (config.save_checkpoints_secs, config.save_checkpoints_steps) == (None, 100)

    @pytest.mark.parametrize("secs", [0, 0.0])
    def test_secs_0_means_the_default(self, secs: float) -> None:
        assert make(save_checkpoints_secs=secs).save_checkpoints_secs == 600
        assert (
            make(save_checkpoints_secs=secs, save_checkpoints_steps=5).save_checkpoints_secs is None
        )

    def test_negative_secs_are_kept(self) -> None:
        # Only 0 stands for the default; TensorFlow 1.15 checks nothing else here.
        assert make(save_checkpoints_secs=-1).save_checkpoints_secs == -1

    def test_both_may_be_set(self) -> None:
        config = make(save_checkpoints_secs=14, save_checkpoints_steps=13)
        assert (config.save_checkpoints_secs, config.save_checkpoints_steps) == (14, 13)

    def test_both_none_disables_checkpoints(self) -> None:
        config = make(save_checkpoints_secs=None, save_checkpoints_steps=None)
        assert (config.save_checkpoints_secs, config.save_checkpoints_steps) == (None, None)


class TestTFConfigProperty:
    def test_default(self) -> None:
        assert make().tf_config == ConfigProto(
            log_device_placement=False,
            inter_op_parallelism_threads=0,
            intra_op_parallelism_threads=0,
            gpu_options=GPUOptions(per_process_gpu_memory_fraction=1.0),
        )

    def test_built_once(self) -> None:
        """As TensorFlow's, the property gives the one ConfigProto the config holds."""
        config = make(num_cores=2)
        assert config.tf_config is config.tf_config

    def test_built_from_the_arguments(self) -> None:
        config = make(num_cores=-1, log_device_placement=True, gpu_memory_fraction=0.25)
        assert config.tf_config.model_dump(mode="json") == {
            "log_device_placement": True,
            "inter_op_parallelism_threads": -1,
            "intra_op_parallelism_threads": -1,
            "gpu_options": {"per_process_gpu_memory_fraction": 0.25},
        }
        assert isinstance(make(gpu_memory_fraction=1).tf_config.gpu_options, GPUOptions)

    def test_gpu_memory_fraction_is_a_double(self) -> None:
        [(code, loc, msg)] = errors_of(gpu_memory_fraction=10**400)
        assert (code, loc) == ("double_range", ("gpu_memory_fraction",))
        assert msg.endswith("does not fit a double")

    @pytest.mark.parametrize(
        ("fraction", "json_form"),
        [(math.inf, "Infinity"), (-math.inf, "-Infinity"), (math.nan, "NaN")],
    )
    def test_gpu_memory_fraction_may_be_nan_or_infinite(
        self, fraction: float, json_form: str
    ) -> None:
        """TensorFlow 1.15's double field takes them; the ConfigProto holds them."""
        config = make(gpu_memory_fraction=fraction)
        held = config.tf_config.gpu_options
        assert held is not None and held.per_process_gpu_memory_fraction is not None
        assert repr(held.per_process_gpu_memory_fraction) == repr(fraction)
        dumped = config.model_dump(mode="json")["tf_config"]
        assert dumped["gpu_options"] == {"per_process_gpu_memory_fraction": json_form}

    @pytest.mark.parametrize("num_cores", [2**31 - 1, -(2**31)])
    def test_num_cores_takes_every_int32(self, num_cores: int) -> None:
        config = make(num_cores=num_cores)
        assert config.tf_config.inter_op_parallelism_threads == num_cores

    def test_num_cores_schema_is_the_int32_range(self) -> None:
        schema = RunConfig.model_json_schema()["properties"]["num_cores"]
        assert (schema["minimum"], schema["maximum"]) == (-(2**31), 2**31 - 1)

    @pytest.mark.parametrize("num_cores", [2**31, -(2**31) - 1])
    def test_num_cores_is_an_int32(self, num_cores: int) -> None:
        [(code, loc, msg)] = errors_of(num_cores=num_cores)
        assert (code, loc) == ("int32_range", ("num_cores",))
        assert msg.startswith(f"Value out of range: {num_cores}")

    def test_a_dumped_tf_config_reads_back_only_if_it_agrees(self) -> None:
        config = make(num_cores=3)
        dump = config.model_dump(mode="json")
        with pytest.deprecated_call():
            assert RunConfig.model_validate(dump) == config
        [(code, loc, _)] = errors_of(**{**dump, "num_cores": 4})
        assert (code, loc) == ("derived_mismatch", ("tf_config",))


class TestModelDir:
    def test_an_empty_model_dir_keeps_the_rest_of_tf_config(self) -> None:
        cluster = {"worker": ["h:0", "h:1"]}
        config = make(
            TF_CONFIG={"model_dir": "", "cluster": cluster, "task": {"type": "worker", "index": 1}}
        )
        assert (config.model_dir, config.task_id, config.master) == ("", 1, "grpc://h:1")

    def test_argument_and_tf_config(self) -> None:
        assert make().model_dir is None
        assert make(model_dir="test_dir").model_dir == "test_dir"
        assert make(TF_CONFIG={"model_dir": "test_dir"}).model_dir == "test_dir"
        assert (
            make(TF_CONFIG={"model_dir": "test_dir"}, model_dir="test_dir").model_dir == "test_dir"
        )

    def test_equal_directories_agree_whatever_objects_hold_them(self) -> None:
        from_json = json.loads('{"model_dir": "test_dir"}')
        given = "".join(["test", "_dir"])
        assert given is not from_json["model_dir"]
        assert make(TF_CONFIG=from_json, model_dir=given).model_dir == "test_dir"

    def test_must_agree_with_tf_config(self) -> None:
        [(code, loc, msg)] = errors_of(
            TF_CONFIG={"model_dir": "test_dir"}, model_dir="test_dir/sub_dir"
        )
        assert (code, loc) == ("model_dir_conflict", ("model_dir",))
        assert msg.startswith(
            "`model_dir` provided in RunConfig construct, if set, must have the same value as "
            "the model_dir in TF_CONFIG. model_dir: test_dir/sub_dir\n"
        )

    def test_empty_values_as_tensorflow_1_15(self) -> None:
        assert make(model_dir="").model_dir is None
        assert make(TF_CONFIG={"model_dir": ""}).model_dir == ""
        assert make(TF_CONFIG={"model_dir": ""}, model_dir="").model_dir == ""
        [(code, _, _)] = errors_of(TF_CONFIG={"model_dir": "x"}, model_dir="")
        assert code == "model_dir_conflict"
        [(code, _, _)] = errors_of(TF_CONFIG={"model_dir": ""}, model_dir="x")
        assert code == "model_dir_conflict"

    @pytest.mark.parametrize("given", ["/m", ""])
    def test_a_model_dir_in_tf_config_of_another_type_is_compared_too(self, given: str) -> None:
        """TensorFlow 1.15 compares any two set: its sentence comes with the type's error."""
        found = errors_of(TF_CONFIG={"model_dir": 3}, model_dir=given)
        assert [(code, loc) for code, loc, _ in found] == [
            ("string_type", ("TF_CONFIG", "model_dir")),
            ("model_dir_conflict", ("model_dir",)),
        ]
        assert found[1][2].endswith('TF_CONFIG["model_dir"]: 3.\n')

    def test_an_empty_model_dir_in_tf_config_still_checks_the_rest(self) -> None:
        [(code, loc, _)] = errors_of(TF_CONFIG={"model_dir": "", "cluster": {"a": ["x"]}})
        assert (code, loc) == ("address", ("TF_CONFIG", "cluster", "a", 0))


class TestReplace:
    def test_replace(self) -> None:
        config = make(tf_random_seed=123, model_dir="test_dir")
        new_config = config.replace(model_dir="another_test_dir")
        assert new_config.model_dir == "another_test_dir"
        assert new_config.tf_random_seed == 123
        assert config.model_dir == "test_dir"

    def test_only_the_properties_of_tensorflow_1_15(self) -> None:
        config = make()
        with pytest.raises(ValidationError) as info:
            config.replace(checkpoint_save_graph_def=False)
        [error] = info.value.errors()
        assert error["type"] == "replace_not_supported"
        assert error["msg"].startswith("Replacing checkpoint_save_graph_def is not supported.")
        assert "'session_creation_timeout_secs']." in error["msg"]

    def test_checkpoints(self) -> None:
        config = make()
        replaced = config.replace(save_checkpoints_steps=50)
        assert (replaced.save_checkpoints_secs, replaced.save_checkpoints_steps) == (None, 50)
        with pytest.raises(ValidationError, match="cannot be both set"):
            config.replace(save_checkpoints_steps=50, save_checkpoints_secs=60)
        assert config.replace(save_checkpoints_secs=0).save_checkpoints_secs == 0

    def test_both_checkpoint_settings_from_the_constructor_survive(self) -> None:
        config = make(save_checkpoints_secs=14, save_checkpoints_steps=13)
        replaced = config.replace(tf_random_seed=1)
        assert (replaced.save_checkpoints_secs, replaced.save_checkpoints_steps) == (14, 13)

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"save_summary_steps": -1}, "save_summary_steps should be >= 0"),
            ({"keep_checkpoint_every_n_hours": 0}, "keep_checkpoint_every_n_hours should be > 0"),
            ({"protocol": "http"}, "protocol should be grpc or grpc+verbs"),
            ({"tf_random_seed": 1.0}, "tf_random_seed must be integer."),
            ({"model_dir": ""}, "model_dir should be non-empty"),
            (
                {"device_fn": lambda x: x},
                'device_fn must be callable with exactly one argument "op".',
            ),
        ],
    )
    def test_the_estimator_checks_run(self, kwargs: dict[str, Any], message: str) -> None:
        with pytest.raises(ValidationError, match=message.replace("+", r"\+").replace(".", r"\.")):
            make().replace(**kwargs)

    def test_the_checks_cover_values_from_the_constructor(self) -> None:
        config = make(save_summary_steps=-1)
        with pytest.raises(ValidationError, match="save_summary_steps should be >= 0"):
            config.replace(tf_random_seed=1)

    def test_both_checkpoint_settings_from_the_constructor_checked_with_the_rest(self) -> None:
        """TensorFlow 1.15 checks save_summary_steps first: its sentence is among the errors."""
        config = make(save_checkpoints_steps=-1, save_checkpoints_secs=-1, save_summary_steps=-1)
        with pytest.raises(ValidationError) as info:
            config.replace(tf_random_seed=1)
        assert {(error["loc"], error["msg"]) for error in info.value.errors()} == {
            (("save_summary_steps",), "save_summary_steps should be >= 0"),
            (("save_checkpoints_secs",), "save_checkpoints_secs should be >= 0"),
            (("save_checkpoints_steps",), "save_checkpoints_steps should be >= 0"),
        }

    def test_python_only_properties(self) -> None:
        def device_fn(op: Any) -> str:
            return "/cpu:0"

        strategy = object()
        config = make().replace(
            device_fn=device_fn, train_distribute=strategy, experimental_max_worker_delay_secs=5
        )
        assert config.device_fn is device_fn
        assert config.train_distribute is strategy
        assert config.experimental_max_worker_delay_secs == 5
        assert "device_fn" not in config.model_dump()

    def test_tf_config_is_not_read_again(self) -> None:
        config = make(TF_CONFIG={"model_dir": "a"})
        assert config.replace(model_dir="b").model_dir == "b"


class TestUid:
    def test_an_unset_property_is_not_its_name(self) -> None:
        assert make(model_dir="None").uid() != make().uid()

    def test_stable(self) -> None:
        config = make(tf_random_seed=123, model_dir="test_dir")
        assert {config.uid() for _ in range(10)} == {config.uid()}
        assert copy.deepcopy(config).uid() == config.uid()

    def test_changes_with_a_property(self) -> None:
        config = make(tf_random_seed=123, model_dir="test_dir")
        replaced = config.replace(model_dir="another_test_dir")
        assert replaced.uid() != config.uid()
        assert replaced.uid(["model_dir"]) == config.uid(["model_dir"])

    def test_default_whitelist(self) -> None:
        config = make(
            tf_random_seed=11,
            save_summary_steps=12,
            save_checkpoints_steps=13,
            save_checkpoints_secs=14,
            session_config={"allow_soft_placement": True},
            keep_checkpoint_max=16,
            keep_checkpoint_every_n_hours=17,
        )
        new_config = make(
            tf_random_seed=21,
            save_summary_steps=22,
            save_checkpoints_steps=23,
            save_checkpoints_secs=24,
            session_config={"allow_soft_placement": False},
            keep_checkpoint_max=26,
            keep_checkpoint_every_n_hours=27,
        )
        assert config.uid() == new_config.uid()
        assert config.uid(whitelist=[]) != new_config.uid(whitelist=[])
        assert config.uid() != new_config.replace(model_dir="another_test_dir").uid()

    def test_cluster_order_does_not_matter(self) -> None:
        first = '{"cluster": {"ps": ["host1:1", "host2:2"], "worker": ["host3:3", "host4:4"]}}'
        second = '{"cluster": {"worker": ["host3:3", "host4:4"], "ps": ["host1:1", "host2:2"]}}'
        with pytest.deprecated_call():
            configs = [RunConfig.from_env({"TF_CONFIG": text}) for text in (first, second)]
        assert configs[0].uid() == configs[1].uid()

    def test_different_clusters_differ(self) -> None:
        other = {"ps": ["host1:1"], "worker": TEST_CLUSTER["worker"]}
        assert (
            make(TF_CONFIG={"cluster": TEST_CLUSTER}).uid()
            != make(TF_CONFIG={"cluster": other}).uid()
        )

    def test_replaced_python_only_values_count(self) -> None:
        config = make()
        assert config.replace(experimental_distribute=None).uid() != config.uid()

    @given(
        configs=st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "tf_random_seed": st.sampled_from([1, 2, 1.0]),
                    "save_summary_steps": st.sampled_from([10, 20]),
                    "num_cores": st.sampled_from([0, 2]),
                    "gpu_memory_fraction": st.sampled_from([1, 1.0, 0.5]),
                    "model_dir": st.sampled_from(["a", "b"]),
                    "protocol": st.sampled_from(["grpc", "grpc+verbs"]),
                    "session_config": st.sampled_from([{}, {"allow_soft_placement": True}]),
                    "TF_CONFIG": st.sampled_from(
                        [
                            {"cluster": {"ps": ["h:1"], "worker": ["h:2"]}},
                            {"cluster": {"worker": ["h:2"], "ps": ["h:1"]}},
                            {"cluster": {"ps": ["h:1"], "worker": ["h:2"]}, "task": {"index": 1}},
                            {"environment": "cloud"},
                        ]
                    ),
                },
            ),
            min_size=2,
            max_size=2,
        ),
        whitelist=st.none() | st.sets(st.sampled_from(RunConfig.UID_PROPERTIES)),
    )
    def test_changes_exactly_when_a_property_outside_the_whitelist_changes(
        self, configs: list[dict[str, Any]], whitelist: set[str] | None
    ) -> None:
        with deprecation_expected():
            first, second = (RunConfig(**kwargs) for kwargs in configs)
        skip = set(contrib.DEFAULT_UID_WHITELIST if whitelist is None else whitelist)
        same = all(
            getattr(first, name) == getattr(second, name)
            for name in RunConfig.UID_PROPERTIES
            if name not in skip
        )
        assert (first.uid(whitelist) == second.uid(whitelist)) is same


class TestRoundTrip:
    @given(
        tf_config=legacy_tf_configs(),
        kwargs=st.fixed_dictionaries(
            {},
            optional={
                "num_cores": st.integers(-1, 8),
                "log_device_placement": st.booleans(),
                "gpu_memory_fraction": st.sampled_from([0.5, 1, 1.0]),
                "tf_random_seed": st.none() | st.integers(0, 99) | st.just(3.0),
                "save_checkpoints_secs": st.none() | st.sampled_from([0, 60, 0.5]),
                "save_checkpoints_steps": st.none() | st.integers(0, 1000),
                "protocol": st.none() | st.sampled_from(["grpc", "other"]),
                "evaluation_master": st.none() | st.just("grpc://e:1"),
                "master": st.none() | st.just("grpc://m:1"),
                "model_dir": st.none() | st.just(""),
            },
        ),
    )
    def test_model_validate_model_dump(
        self, tf_config: dict[str, Any], kwargs: dict[str, Any]
    ) -> None:
        assume(not isinstance(tensorflow_1_15(tf_config, kwargs.get("master")), str))
        with deprecation_expected():
            config = RunConfig(TF_CONFIG=tf_config, **kwargs)
            assert RunConfig.model_validate(config.model_dump()) == config
            assert RunConfig.model_validate_json(config.model_dump_json()) == config
            cluster_config = ClusterConfig(TF_CONFIG=tf_config, master=kwargs.get("master"))
            assert ClusterConfig.model_validate(cluster_config.model_dump()) == cluster_config

    def test_frozen(self) -> None:
        config = make()
        with pytest.raises(ValidationError):
            config.num_cores = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    "make_config",
    [
        pytest.param(lambda: make_cluster(TF_CONFIG={"cluster": CLUSTER}), id="ClusterConfig"),
        pytest.param(lambda: make(tf_random_seed=1), id="RunConfig"),
    ],
)
def test_a_config_is_a_value(make_config: Callable[[], contrib.ClusterConfig]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make_config)


@pytest.mark.parametrize("module", ["cluster_config", "run_config"])
def test_docstring_examples(module: str) -> None:
    with deprecation_expected():
        result = doctest.testmod(
            importlib.import_module(f"estconf.contrib.{module}"),
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        )
    assert result.attempted > 0
    assert result.failed == 0


TENSORFLOW_1_15_CASES: list[dict[str, Any]] = json.loads(
    (pathlib.Path(__file__).parent / "data" / "tensorflow_1_15_contrib.json").read_text()
)["cases"]
"""Inputs and TensorFlow 1.15.5's answers to them (where they came from: the file's ``about``)."""


def without_defaults(message: Any) -> Any:
    """A message in JSON form less its default values, as protobuf's ``MessageToDict`` writes it."""
    if not isinstance(message, dict):
        return message
    kept = {key: without_defaults(value) for key, value in message.items()}
    return {key: value for key, value in kept.items() if value not in (None, False, 0, {})}


class TestAsTensorFlow115Answered:
    @pytest.mark.parametrize("case", TENSORFLOW_1_15_CASES, ids=range(len(TENSORFLOW_1_15_CASES)))
    def test_recorded_case(self, case: dict[str, Any]) -> None:
        environ = {} if case["TF_CONFIG"] is None else {"TF_CONFIG": case["TF_CONFIG"]}
        cls = RunConfig if case["class"] == "RunConfig" else ClusterConfig
        answer = case["tensorflow"]

        def build() -> contrib.ClusterConfig:
            config = cls.from_env(environ, **case["kwargs"])
            if "replace" in case:
                assert isinstance(config, RunConfig)
                return config.replace(**case["replace"])
            return config

        with deprecation_expected():
            if "properties" in answer and "estconf_stricter" not in case:
                config = build()
            else:
                with pytest.raises(ValidationError) as info:
                    build()
        if "estconf_stricter" in case:
            assert {error["type"] for error in info.value.errors()} == {case["estconf_stricter"]}
        elif "error" in answer:
            messages = [error["msg"] for error in info.value.errors()]
            if answer["error"] == "ValueError":  # TensorFlow's sentence, whole, is one of ours
                assert any(answer["message"] in message for message in messages), messages
        else:
            properties = dict(answer["properties"])
            assert properties.pop("get_task_id") == cls.get_task_id(environ)
            ours = {name: getattr(config, name) for name in properties}
            ours["cluster_spec"] = config.cluster_spec.model_dump(mode="json")
            if "tf_config" in ours:
                ours["tf_config"] = without_defaults(ours["tf_config"].model_dump(mode="json"))
            assert ours == properties
