"""estconf.RunConfig: tf.estimator.RunConfig's properties and rules (docs/tf_config.md)."""

from __future__ import annotations

import dataclasses
import decimal
import fractions
import functools
import inspect
import json
import os
import pathlib
import subprocess
import sys
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import estconf.run_config
from estconf import ClusterSpec, RunConfig, TFConfig, TPURunConfig
from estconf.estimator.reading import distributed_settings
from estconf.estimator.strategies import Strategies
from estconf.run_config import REPLACEABLE
from estconf.session_config import ConfigProto

from strategies import chief_mode_tf_configs, master_mode_tf_configs, valid_tf_configs

DOC_CLUSTER = {
    "chief": ["host0:2222"],
    "ps": ["host1:2222", "host2:2222"],
    "worker": ["host3:2222", "host4:2222", "host5:2222"],
}


def config_for(task_type: str, index: Any, cluster: Any = None, **tf_config: Any) -> RunConfig:
    return RunConfig(
        tf_config={
            "cluster": cluster or DOC_CLUSTER,
            "task": {"type": task_type, "index": index},
            **tf_config,
        }
    )


def errors_of(**kwargs: Any) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        RunConfig(**kwargs)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


def tf_config_errors(tf_config: Any) -> list[tuple[str, tuple[Any, ...], str]]:
    return errors_of(tf_config=tf_config)


class TestReferenceExamples:
    """The three examples of the tf.estimator.RunConfig page (master corrected)."""

    def test_non_chief_node(self) -> None:
        config = config_for("worker", 1)
        assert config.master == "grpc://host4:2222"
        assert config.task_id == 1
        assert config.num_ps_replicas == 2
        assert config.num_worker_replicas == 4
        assert config.cluster_spec == ClusterSpec(DOC_CLUSTER)
        assert config.task_type == "worker"
        assert not config.is_chief

    def test_chief_node(self) -> None:
        config = config_for("chief", 0)
        assert config.master == "grpc://host0:2222"
        assert config.task_id == 0
        assert config.num_ps_replicas == 2
        assert config.num_worker_replicas == 4
        assert config.cluster_spec == ClusterSpec(DOC_CLUSTER)
        assert config.task_type == "chief"
        assert config.is_chief
        assert config.session_config is not None
        assert config.session_config.device_filters == ["/job:ps", "/job:chief"]

    def test_evaluator_node(self) -> None:
        config = config_for("evaluator", 0)
        assert config.master == ""
        assert config.evaluation_master == ""
        assert config.task_id == 0
        assert config.num_ps_replicas == 0
        assert config.num_worker_replicas == 0
        assert config.cluster_spec == {}
        assert config.task_type == "evaluator"
        assert not config.is_chief

    @pytest.mark.parametrize(
        ("task_type", "task_id", "global_id"),
        [
            ("chief", 0, 0),
            ("worker", 0, 1),
            ("worker", 1, 2),
            ("worker", 2, 3),
            ("ps", 0, 4),
            ("ps", 1, 5),
        ],
    )
    def test_global_id_table(self, task_type: str, task_id: int, global_id: int) -> None:
        assert config_for(task_type, task_id).global_id_in_cluster == global_id


class TestLocalMode:
    def test_defaults(self) -> None:
        config = RunConfig()
        assert (config.task_type, config.task_id) == ("worker", 0)
        assert config.master == ""
        assert config.evaluation_master == ""
        assert config.is_chief
        assert (config.num_ps_replicas, config.num_worker_replicas) == (0, 1)
        assert config.global_id_in_cluster == 0
        assert config.cluster_spec == {}
        assert config.session_config is None
        assert config.service is None

    def test_empty_cluster_is_local(self) -> None:
        assert RunConfig(tf_config={"cluster": {}, "task": {"index": "0"}}).is_chief

    def test_session_masters(self) -> None:
        config = RunConfig(tf_config={"session_master": "grpc://m:1", "eval_session_master": "e"})
        assert (config.master, config.evaluation_master) == ("grpc://m:1", "e")

    @pytest.mark.parametrize("task_type", ["ps", "chief", "evaluator", None, "", "workers"])
    def test_task_type_must_be_worker(self, task_type: Any) -> None:
        assert tf_config_errors({"task": {"type": task_type}}) == [
            (
                "local_task_type",
                ("tf_config", "task", "type"),
                'If "cluster" is not set in TF_CONFIG, task type must be WORKER.',
            )
        ]

    @pytest.mark.parametrize("index", [1, "2", -1])
    def test_task_index_must_be_0(self, index: Any) -> None:
        assert tf_config_errors({"task": {"index": index}}) == [
            (
                "local_task_index",
                ("tf_config", "task", "index"),
                'If "cluster" is not set in TF_CONFIG, task index must be 0.',
            )
        ]

    def test_jobs_under_sparse_cluster_have_their_fix_beside_another_error(self) -> None:
        """The Estimator's complaint ends with the same fix whatever else the TF_CONFIG breaks."""
        tf_config = {"sparseCluster": {"worker": {"1": "w1:2222"}}, "task": {"index": 1}}
        alone = tf_config_errors(tf_config)
        assert alone[0][2].startswith(
            'If "cluster" is not set in TF_CONFIG, task index must be 0. '
            'Fix: TensorFlow does not read "sparseCluster"; put the jobs under "cluster"'
        )
        assert tf_config_errors({**tf_config, "session_master": 5}) == [
            ("string_type", ("tf_config", "session_master"), "Input should be a valid string"),
            *alone,
        ]

    @pytest.mark.parametrize("task_type", ["worker", "chief"])
    def test_a_null_index_fails_where_tensorflow_reads_it(self, task_type: str) -> None:
        """TensorFlow reads the index with int() before it checks the task type."""
        [(code, loc, msg)] = tf_config_errors({"task": {"type": task_type, "index": None}})
        assert (code, loc) == ("type", ("tf_config", "task", "index"))
        assert "int() argument must be a string, a bytes-like object or a real number" in msg

    @pytest.mark.parametrize("model", [RunConfig, TPURunConfig])
    @pytest.mark.parametrize(
        "task",
        [
            {"type": "worker", "index": "x"},
            {"type": "chief", "index": "x"},
            {"index": "x"},
            {"type": "worker", "index": float("nan")},
            {"type": "worker", "index": float("inf")},
            {"type": "worker", "index": []},
            {"type": "worker", "index": {}},
        ],
    )
    def test_an_unreadable_index_is_its_only_error(
        self, model: type[RunConfig], task: dict[str, Any]
    ) -> None:
        """TensorFlow fails on int() of the index, before it checks type or index."""
        with pytest.raises(ValidationError) as info:
            model.from_env({"TF_CONFIG": json.dumps({"task": task})})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("int_type", ("tf_config", "task", "index"))
        ]


class TestChiefMode:
    def test_cluster_needs_a_chief(self) -> None:
        assert tf_config_errors(
            {"cluster": {"worker": ["h:1"]}, "task": {"type": "worker", "index": 0}}
        ) == [
            (
                "missing_chief",
                ("tf_config", "cluster"),
                'If "cluster" is set in TF_CONFIG, it must have one "chief" node. Fix: move task '
                'worker:0 into a job "chief" of its own.',  # the readers that take it: profiles
            )
        ]

    def test_a_cluster_with_ps_and_no_chief_is_not_sent_to_mwms(self) -> None:
        [(_, _, msg)] = tf_config_errors(
            {"cluster": {"worker": ["h:1"], "ps": ["p:1"]}, "task": {"type": "worker", "index": 0}}
        )
        assert msg.endswith('Fix: move task worker:0 into a job "chief" of its own.')

    def test_an_index_true_is_one_error(self) -> None:
        """TensorFlow reads true as 1 and refuses it: said with the bool's own error."""
        assert tf_config_errors({"task": {"type": "worker", "index": True}}) == [
            (
                "int_type",
                ("tf_config", "task", "index"),
                "Input should be an integer, not a boolean (True); TensorFlow reads it and says: "
                'If "cluster" is not set in TF_CONFIG, task index must be 0.',
            )
        ]

    @pytest.mark.parametrize("index", [0, 1])
    def test_jobs_at_the_top_level(self, index: int) -> None:
        """Refused whatever the index: TensorFlow runs worker 0 alone without a word."""
        found = tf_config_errors(
            {"worker": ["h:1", "h:2"], "ps": ["p:1"], "task": {"type": "worker", "index": index}}
        )
        assert [(code, loc) for code, loc, _ in found[:2]] == [
            ("top_level_jobs", ("tf_config", "worker")),
            ("top_level_jobs", ("tf_config", "ps")),
        ]
        assert found[0][2] == (
            "'worker' is at the top level of TF_CONFIG, where TensorFlow ignores it and each "
            'node runs alone. Fix: put the jobs under "cluster": {"cluster": {"worker": [...], '
            '"ps": [...]}, "task": {...}}'
        )
        # TensorFlow's own complaint, where it has one, is reported beside it.
        assert [code for code, _, _ in found[2:]] == ([] if index == 0 else ["local_task_index"])

    @pytest.mark.parametrize(
        ("key", "job"),
        [("workers", "worker"), ("PS", "ps"), ("cheif", "chief"), ("Master", "master")],
    )
    def test_a_misspelled_job_at_the_top_level(self, key: str, job: str) -> None:
        [(code, loc, msg)] = tf_config_errors({key: ["h:1"]})
        assert (code, loc) == ("top_level_jobs", ("tf_config", key))
        assert msg.startswith(f"{key!r} (the job {job!r}?) is at the top level of TF_CONFIG")

    @pytest.mark.parametrize(
        "tf_config",
        [
            {"job": {"name": "trainer"}},  # a platform's key
            {"workers": 4},  # holds no tasks
            {"trainer": ["h:1"], "tpu_worker": ["h:2"]},  # no misspelling of a job
            {"cluster": {}, "session_master": "", "eval_session_master": ""},
        ],
    )
    def test_other_top_level_keys_are_kept(self, tf_config: dict[str, Any]) -> None:
        RunConfig(tf_config=tf_config)

    @pytest.mark.parametrize(
        ("job", "meant"),
        [
            ("workers", "worker"),
            ("Worker", "worker"),
            ("PS", "ps"),
            ("cheif", "chief"),
            ("evaluators", "evaluator"),
            ("masters", "master"),
        ],
    )
    def test_a_job_whose_name_misspells_a_known_job(self, job: str, meant: str) -> None:
        found = tf_config_errors(
            {"cluster": {"chief": ["c:0"], job: ["h:1"]}, "task": {"type": "chief", "index": 0}}
        )
        assert found == [
            (
                "job_name_near_miss",
                ("tf_config", "cluster", job),
                f"job {job!r} looks like a misspelling of {meant!r}: tf.estimator.RunConfig "
                f"reads it as a job of its own, which no task trains with; did you mean {meant!r}?",
            )
        ]

    @pytest.mark.parametrize("job", ["trainer", "param_server", "tpu_worker", "localhost", "eval"])
    def test_a_job_of_another_name_is_kept(self, job: str) -> None:
        cluster = {"chief": ["c:0"], job: ["h:1"]}
        assert config_for(job, 0, cluster=cluster).cluster_spec.jobs == ["chief", job]

    def test_tensorflow_s_sentence_comes_before_the_misspelling(self) -> None:
        found = tf_config_errors(
            {
                "cluster": {"chief": ["c:0"], "workers": ["h:1"]},
                "task": {"type": "worker", "index": 0},
            }
        )
        assert [code for code, _, _ in found] == ["unknown_task_type", "job_name_near_miss"]

    @pytest.mark.parametrize("chief", [["h:0", "h:1"], {"1": "h:1"}])
    def test_only_one_chief(self, chief: Any) -> None:
        """A lone chief at sparse index 1 counts as two, as TensorFlow counts job_tasks."""
        [(code, loc, msg)] = tf_config_errors(
            {"cluster": {"chief": chief}, "task": {"type": "chief", "index": 0}}
        )
        assert (code, loc) == ("multiple_chiefs", ("tf_config", "cluster", "chief"))
        assert msg == 'The "cluster" in TF_CONFIG must have only one "chief" node.'

    @pytest.mark.parametrize(
        "task", [{"index": 0}, {"type": "", "index": 0}, {"type": None, "index": 0}]
    )
    def test_task_type_must_be_set(self, task: Any) -> None:
        assert tf_config_errors({"cluster": DOC_CLUSTER, "task": task}) == [
            (
                "missing_task_type",
                ("tf_config", "task", "type"),
                'If "cluster" is set in TF_CONFIG, task type must be set.',
            )
        ]

    @pytest.mark.parametrize("task", [{"type": "worker"}, {"type": "worker", "index": None}])
    def test_task_index_must_be_set(self, task: Any) -> None:
        assert tf_config_errors({"cluster": DOC_CLUSTER, "task": task}) == [
            (
                "missing_task_index",
                ("tf_config", "task", "index"),
                'If "cluster" is set in TF_CONFIG, task index must be set.',
            )
        ]

    @pytest.mark.parametrize("task_type", ["worker", "evaluator"])
    def test_task_index_must_be_non_negative(self, task_type: str) -> None:
        assert tf_config_errors(
            {"cluster": DOC_CLUSTER, "task": {"type": task_type, "index": "-1"}}
        ) == [
            (
                "negative_task_index",
                ("tf_config", "task", "index"),
                "Task index must be non-negative number.",
            )
        ]

    def test_task_type_must_be_a_job(self) -> None:
        [(code, loc, msg)] = tf_config_errors(
            {"cluster": DOC_CLUSTER, "task": {"type": "trainer", "index": 0}}
        )
        assert (code, loc) == ("unknown_task_type", ("tf_config", "task", "type"))
        assert msg == (
            "trainer is not a valid task_type in the cluster_spec:\n"
            "ClusterSpec({'chief': ['host0:2222'], 'ps': ['host1:2222', 'host2:2222'], "
            "'worker': ['host3:2222', 'host4:2222', 'host5:2222']})\n\n"
            "Note that these values may be coming from the TF_CONFIG environment variable."
        )

    @pytest.mark.parametrize(("task_type", "index"), [("worker", 3), ("chief", 1), ("ps", 7)])
    def test_task_index_must_be_in_range(self, task_type: str, index: int) -> None:
        tf_config = {"cluster": DOC_CLUSTER, "task": {"type": task_type, "index": index}}
        with pytest.raises(ValidationError) as info:
            RunConfig(tf_config=tf_config)
        [error] = info.value.errors()
        code, loc, msg = error["type"], error["loc"], error["msg"]
        assert error["input"] == index
        assert (code, loc) == ("task_index_out_of_range", ("tf_config", "task", "index"))
        assert msg.startswith(
            f"{index} is not a valid task_id for task_type {task_type} in the cluster_spec:\n"
        )
        assert msg.endswith(
            "\n\nNote that these values may be coming from the TF_CONFIG environment variable."
        )

    def test_own_task_a_hole_of_a_sparse_job(self) -> None:
        cluster = {"chief": ["h:0"], "worker": {"2": "h:2"}}
        [(code, loc, msg)] = tf_config_errors(
            {"cluster": cluster, "task": {"type": "worker", "index": 1}}
        )
        assert (code, loc) == ("task_in_hole", ("tf_config", "task", "index"))
        assert "hole" in msg

    def test_string_index(self) -> None:
        assert config_for("worker", "2").task_id == 2

    def test_master_is_local_for_a_one_task_cluster(self) -> None:
        config = config_for("chief", 0, cluster={"chief": ["h:0"]})
        assert config.master == ""
        assert config.num_worker_replicas == 1

    def test_session_master_wins(self) -> None:
        assert config_for("worker", 1, session_master="grpc://x:1").master == "grpc://x:1"
        assert config_for("worker", 1, session_master="").master == ""

    def test_evaluation_master_is_empty_for_training_tasks(self) -> None:
        assert config_for("worker", 1, eval_session_master="grpc://e:1").evaluation_master == ""

    def test_evaluator_takes_any_index_and_its_eval_session_master(self) -> None:
        config = config_for("evaluator", 12, eval_session_master="grpc://e:1")
        assert (config.task_id, config.evaluation_master) == (12, "grpc://e:1")
        assert config.global_id_in_cluster is None

    def test_counts(self) -> None:
        cluster = {
            "chief": ["h:0"],
            "ps": {"0": "h:1", "3": "h:2"},
            "worker": ["h:3"],
            "extra": ["h:4"],
        }
        config = config_for("extra", 0, cluster=cluster)
        assert (config.num_ps_replicas, config.num_worker_replicas) == (2, 2)

    def test_global_id_orders_jobs_by_code_point_and_counts_holes(self) -> None:
        cluster = {
            "ps": ["h:0"],
            "worker": {"2": "h:1"},
            "chief": ["h:2"],
            "Zed": ["h:3"],
            "evaluator": ["h:4", "h:5"],
            "aux": ["h:6"],
        }
        ids = {
            (job, index): config_for(job, index, cluster=cluster).global_id_in_cluster
            for job, index in [("chief", 0), ("Zed", 0), ("aux", 0), ("worker", 2), ("ps", 0)]
        }
        # chief, Zed, aux, evaluator (2), worker (3 with holes), ps
        assert ids == {
            ("chief", 0): 0,
            ("Zed", 0): 1,
            ("aux", 0): 2,
            ("worker", 2): 7,
            ("ps", 0): 8,
        }


class TestMasterMode:
    cluster = {"master": ["h:0"], "ps": ["h:1"], "worker": ["h:2", "h:3"]}

    @pytest.mark.parametrize("leader", ["chief", "master"])
    def test_a_job_of_another_name_is_no_chief(self, leader: str) -> None:
        """Only the chief (or master) is; a job named before it in any order is not."""
        config = config_for("alpha", 0, cluster={leader: ["h:0"], "alpha": ["h:1"]})
        assert not config.is_chief
        assert config.global_id_in_cluster == 1

    def test_master_is_chief(self) -> None:
        config = config_for("master", 0, cluster=self.cluster)
        assert config.is_chief
        assert config.master == "grpc://h:0"
        assert config.global_id_in_cluster == 0
        assert (config.num_ps_replicas, config.num_worker_replicas) == (1, 3)

    def test_worker(self) -> None:
        config = config_for("worker", 1, cluster=self.cluster)
        assert not config.is_chief
        assert config.global_id_in_cluster == 2
        assert config.evaluation_master == ""

    def test_no_chief_with_master(self) -> None:
        [(code, loc, msg)] = tf_config_errors(
            {"cluster": {**self.cluster, "chief": ["h:9"]}, "task": {"type": "worker", "index": 0}}
        )
        assert (code, loc) == ("chief_with_master", ("tf_config", "cluster", "chief"))
        assert msg.startswith(
            "If `master` node exists in `cluster`, job `chief` is not supported. Fix:"
        )

    def test_no_evaluator_with_master(self) -> None:
        [(code, _, msg)] = tf_config_errors(
            {"cluster": self.cluster, "task": {"type": "evaluator", "index": 0}}
        )
        assert code == "evaluator_with_master"
        assert msg == (
            "If `master` node exists in `cluster`, task_type `evaluator` is not supported. "
            'Fix: rename the "master" job to "chief", whose clusters take an evaluator.'
        )

    def test_only_one_master(self) -> None:
        [(code, _, msg)] = tf_config_errors(
            {"cluster": {"master": ["h:0", "h:1"]}, "task": {"type": "master", "index": 0}}
        )
        assert code == "multiple_chiefs"
        assert msg == 'The "cluster" in TF_CONFIG must have only one "master" node.'


class TestDefaultSessionConfig:
    @pytest.mark.parametrize(
        ("task_type", "index", "filters"),
        [
            ("chief", 0, ["/job:ps", "/job:chief"]),
            ("worker", 2, ["/job:ps", "/job:worker/task:2"]),
            ("ps", 1, ["/job:ps", "/job:worker", "/job:chief", "/job:master"]),
        ],
    )
    def test_device_filters_by_task_type(
        self, task_type: str, index: int, filters: list[str]
    ) -> None:
        session_config = config_for(task_type, index).session_config
        assert session_config is not None
        assert session_config.model_dump(mode="json") == {
            "allow_soft_placement": True,
            "device_filters": filters,
            "graph_options": {"rewrite_options": {"meta_optimizer_iterations": "ONE"}},
        }

    def test_master(self) -> None:
        session_config = config_for("master", 0, cluster={"master": ["h:0"]}).session_config
        assert session_config is not None
        assert session_config.device_filters == ["/job:ps", "/job:master"]

    def test_none_for_other_task_types_evaluators_and_local_mode(self) -> None:
        assert (
            config_for("extra", 0, cluster={**DOC_CLUSTER, "extra": ["h:9"]}).session_config is None
        )
        assert config_for("evaluator", 0).session_config is None
        assert RunConfig().session_config is None

    def test_a_given_session_config_is_kept(self) -> None:
        given = RunConfig(
            session_config={},
            tf_config={"cluster": DOC_CLUSTER, "task": {"type": "chief", "index": 0}},
        )
        assert given.session_config == ConfigProto()

    def test_session_config_must_be_a_config_proto(self) -> None:
        [(code, loc, msg)] = errors_of(session_config=5)
        assert (code, loc) == ("session_config_type", ("session_config",))
        assert msg == "session_config must be instance of ConfigProto"


class TestModelDir:
    def test_from_tf_config(self) -> None:
        assert RunConfig(tf_config={"model_dir": "/m"}).model_dir == "/m"

    def test_same_in_both(self) -> None:
        assert RunConfig(model_dir="/m", tf_config={"model_dir": "/m"}).model_dir == "/m"

    def test_path_like(self) -> None:
        assert RunConfig(model_dir=pathlib.PurePosixPath("/a/b")).model_dir == "/a/b"

    def test_path_like_compared_as_text_with_tf_config(self) -> None:
        agreeing = RunConfig(model_dir=pathlib.PurePosixPath("/m"), tf_config={"model_dir": "/m"})
        assert agreeing.model_dir == "/m"
        [(code, loc, msg)] = errors_of(
            model_dir=pathlib.PurePosixPath("/a"), tf_config={"model_dir": "/m"}
        )
        assert (code, loc) == ("model_dir_conflict", ("model_dir",))
        assert 'model_dir: /a\nTF_CONFIG["model_dir"]: /m.' in msg

    def test_empty_argument(self) -> None:
        assert errors_of(model_dir="") == [
            ("model_dir_empty", ("model_dir",), "model_dir should be non-empty.")
        ]

    def test_a_true_argument_that_is_no_text_is_compared_too(self) -> None:
        """TensorFlow compares any two true values; a number is refused whatever it equals."""
        [(code, loc, msg)] = errors_of(model_dir=5, tf_config={"model_dir": "/m"})
        assert (code, loc) == ("model_dir_conflict", ("model_dir",))
        assert 'model_dir: 5\nTF_CONFIG["model_dir"]: /m.' in msg
        assert [code for code, _, _ in errors_of(model_dir=5)] == ["string_type"]

    @pytest.mark.parametrize("model_dir", [0, False, []])
    def test_false_and_no_text_in_tensorflows_words(self, model_dir: Any) -> None:
        """TensorFlow's replace keeps such a value and finds it empty."""
        message = f"model_dir should be non-empty: got {model_dir!r}, which is not a string either"
        assert errors_of(model_dir=model_dir) == [("string_type", ("model_dir",), message)]
        with pytest.raises(ValidationError, match="model_dir should be non-empty"):
            RunConfig().replace(model_dir=model_dir)

    def test_empty_in_tf_config(self) -> None:
        assert tf_config_errors({"model_dir": ""}) == [
            (
                "model_dir_empty",
                ("tf_config", "model_dir"),
                "model_dir in TF_CONFIG should be non-empty.",
            )
        ]

    def test_conflict(self) -> None:
        [(code, loc, msg)] = errors_of(model_dir="/a", tf_config={"model_dir": "/b"})
        assert (code, loc) == ("model_dir_conflict", ("model_dir",))
        assert msg.startswith(
            "`model_dir` provided in RunConfig construct, if set, must have the same value as "
            "the model_dir in TF_CONFIG. model_dir: /a\n"
        )

    def test_conflict_is_reported_with_other_tf_config_errors(self) -> None:
        found = errors_of(model_dir="/a", tf_config={"model_dir": "/b", "service": [1]})
        assert [(code, loc) for code, loc, _ in found] == [
            ("model_dir_conflict", ("model_dir",)),
            ("service_type", ("tf_config", "service")),
        ]

    def test_not_a_string(self) -> None:
        [(code, loc, _)] = errors_of(model_dir=0)
        assert (code, loc) == ("string_type", ("model_dir",))


class TestCheckpoints:
    def test_neither_given(self) -> None:
        config = RunConfig()
        assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (None, 600)

    def test_steps_given(self) -> None:
        config = RunConfig(save_checkpoints_steps=50)
        assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (50, None)

    def test_secs_given(self) -> None:
        config = RunConfig(save_checkpoints_secs=30)
        assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (None, 30)

    @pytest.mark.parametrize("key", ["save_checkpoints_steps", "save_checkpoints_secs"])
    def test_one_given_as_none_disables_both(self, key: str) -> None:
        config = RunConfig(**{key: None})
        assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (None, None)

    def test_both_none(self) -> None:
        config = RunConfig(save_checkpoints_steps=None, save_checkpoints_secs=None)
        assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (None, None)

    def test_both_set(self) -> None:
        assert errors_of(save_checkpoints_steps=1, save_checkpoints_secs=1) == [
            (
                "checkpoints_conflict",
                ("save_checkpoints_secs",),
                "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set.",
            )
        ]

    def test_conflict_is_reported_with_the_other_errors(self) -> None:
        found = errors_of(
            save_checkpoints_steps=1,
            save_checkpoints_secs=1,
            model_dir="/a",
            tf_config={"model_dir": "/b"},
            log_step_count_steps=0,
        )
        assert {code for code, _, _ in found} == {
            "checkpoints_conflict",
            "model_dir_conflict",
            "bounds",
        }

    def test_a_key_present_in_a_file_counts_as_given(self) -> None:
        config = RunConfig.model_validate_json('{"save_checkpoints_steps": null}')
        assert config.save_checkpoints_secs is None


class TestPropertyChecks:
    @pytest.mark.parametrize(
        ("key", "value", "message"),
        [
            ("save_summary_steps", -1, "save_summary_steps should be >= 0"),
            ("save_checkpoints_steps", -1, "save_checkpoints_steps should be >= 0"),
            ("save_checkpoints_secs", -0.5, "save_checkpoints_secs should be >= 0"),
            ("keep_checkpoint_max", -1, "keep_checkpoint_max should be >= 0"),
            ("keep_checkpoint_every_n_hours", 0, "keep_checkpoint_every_n_hours should be > 0"),
            ("log_step_count_steps", 0, "log_step_count_steps should be > 0"),
            ("session_creation_timeout_secs", 0, "session_creation_timeout_secs should be > 0"),
            ("keep_checkpoint_every_n_hours", -1, "keep_checkpoint_every_n_hours should be > 0"),
            ("log_step_count_steps", -2, "log_step_count_steps should be > 0"),
            ("save_checkpoints_secs", float("nan"), "save_checkpoints_secs should be >= 0"),
        ],
    )
    def test_bounds(self, key: str, value: float, message: str) -> None:
        assert errors_of(**{key: value}) == [("bounds", (key,), message)]

    @pytest.mark.parametrize(
        "key",
        [
            "save_summary_steps",
            "save_checkpoints_steps",
            "keep_checkpoint_max",
            "keep_checkpoint_every_n_hours",
            "log_step_count_steps",
            "session_creation_timeout_secs",
            "tf_random_seed",
            "experimental_max_worker_delay_secs",
            "protocol",
            "model_dir",
        ],
    )
    def test_none_passes(self, key: str) -> None:
        assert getattr(RunConfig(**{key: None}), key) is None

    def test_boundaries_pass(self) -> None:
        config = RunConfig(
            save_summary_steps=0,
            keep_checkpoint_max=0,
            save_checkpoints_steps=0,
            keep_checkpoint_every_n_hours=0.5,
            session_creation_timeout_secs=0.5,
        )
        assert config.keep_checkpoint_every_n_hours == 0.5

    @pytest.mark.parametrize("value", [1.0, 1.5, "1", True, fractions.Fraction(1)])
    def test_tf_random_seed_must_be_an_integer(self, value: Any) -> None:
        [(code, loc, msg)] = errors_of(tf_random_seed=value)
        assert (code, loc) == ("int_type", ("tf_random_seed",))
        assert "tf_random_seed must be integer." in msg
        assert ("Got a boolean; write a number." in msg) == isinstance(value, bool)

    @pytest.mark.parametrize("value", [1.0, "1", True])
    def test_worker_delay_must_be_an_integer(self, value: Any) -> None:
        [(code, _, msg)] = errors_of(experimental_max_worker_delay_secs=value)
        assert code == "int_type"
        assert "experimental_max_worker_delay_secs must be an integer if set." in msg

    @pytest.mark.parametrize(
        "key",
        [
            "save_summary_steps",
            "keep_checkpoint_max",
            "log_step_count_steps",
            "save_checkpoints_steps",
        ],
    )
    def test_step_counts_are_whole_numbers(self, key: str) -> None:
        assert getattr(RunConfig(**{key: 2.0}), key) == 2
        [(code, _, _)] = errors_of(**{key: 2.5})
        assert code == "int_type"
        [(code, _, _)] = errors_of(**{key: True})
        assert code == "int_type"

    @pytest.mark.parametrize(
        ("key", "bound"),
        [
            ("save_summary_steps", ">= 0"),
            ("save_checkpoints_steps", ">= 0"),
            ("keep_checkpoint_max", ">= 0"),
            ("log_step_count_steps", "> 0"),
        ],
    )
    @pytest.mark.parametrize(
        "value",
        [
            float("nan"),
            float("-inf"),
            -0.5,
            fractions.Fraction(-1, 2),
            decimal.Decimal("NaN"),
            decimal.Decimal("-Infinity"),
            decimal.Decimal("-0.5"),
        ],
        ids=repr,
    )
    def test_a_fraction_out_of_bounds_fails_the_bound(
        self, key: str, bound: str, value: Any
    ) -> None:
        """TensorFlow refuses it by its bound: its sentence, not the whole-number rule."""
        assert errors_of(**{key: value}) == [("bounds", (key,), f"{key} should be {bound}")]

    @pytest.mark.parametrize("key", ["save_summary_steps", "log_step_count_steps"])
    @pytest.mark.parametrize("value", [0.5, float("inf")], ids=repr)
    def test_a_fraction_within_bounds_is_still_no_whole_number(self, key: str, value: Any) -> None:
        [(code, _, _)] = errors_of(**{key: value})
        assert code == "int_type"

    @pytest.mark.parametrize("key", ["save_summary_steps", "save_checkpoints_secs"])
    def test_strings_are_not_numbers(self, key: str) -> None:
        found = errors_of(**{key: "10"})
        assert found
        assert all(code.endswith("_type") for code, _, _ in found)

    @pytest.mark.parametrize("protocol", ["grpc", "grpc+verbs"])
    def test_protocols(self, protocol: str) -> None:
        assert RunConfig(protocol=protocol).protocol == protocol

    @pytest.mark.parametrize("protocol", ["http", "", "GRPC", 1])
    def test_unknown_protocol(self, protocol: Any) -> None:
        assert errors_of(protocol=protocol) == [
            ("protocol", ("protocol",), "protocol should be grpc or grpc+verbs")
        ]

    def test_checkpoint_save_graph_def_is_a_bool(self) -> None:
        assert RunConfig(checkpoint_save_graph_def=False).checkpoint_save_graph_def is False
        [(code, _, _)] = errors_of(checkpoint_save_graph_def="no")
        assert code == "bool_type"

    def test_unknown_argument(self) -> None:
        [(code, loc, message)] = errors_of(save_checkpoint_steps=1)
        assert (code, loc) == ("unknown_key", ("save_checkpoint_steps",))
        assert message == (
            "unknown key 'save_checkpoint_steps' of RunConfig; "
            "did you mean 'save_checkpoints_steps'?"
        )


def op_device(op: Any) -> str:
    return "/cpu:0"


def logged(function: Any) -> Any:
    """A decorator that keeps the name and ``__wrapped__``, not the argument names."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return wrapper


class TestDeviceFn:
    class Placer:
        def place(self, op: Any) -> str:
            return ""

        def __call__(self, op: Any) -> str:
            return ""

    class PlacerSays:
        """Its ``__signature__`` says ``(op)``; TensorFlow reads what ``__call__`` declares."""

        __signature__ = inspect.Signature(
            [inspect.Parameter("op", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        )

        def __call__(self, *args: Any) -> str:
            return ""

    class PlacerClass:
        """A class: TensorFlow reads ``__init__``, ``self`` included."""

        def __init__(self, op: Any) -> None:
            pass

    @pytest.mark.parametrize(
        "device_fn",
        [
            op_device,
            lambda op: "",
            Placer().place,
            Placer(),
            lambda op, *args, **kw: "",
            functools.partial(lambda x, op: "", 1),
            functools.partial(lambda x, op: "", x=1),
        ],
    )
    def test_one_argument_named_op(self, device_fn: Any) -> None:
        assert RunConfig(device_fn=device_fn).device_fn is device_fn

    @pytest.mark.parametrize(
        "device_fn",
        [
            lambda x: "",
            lambda: "",
            lambda op, x=1: "",
            lambda *, op: "",
            "op",
            5,
            logged(op_device),
            PlacerSays(),
            PlacerClass,
        ],
    )
    def test_anything_else(self, device_fn: Any) -> None:
        assert errors_of(device_fn=device_fn) == [
            (
                "device_fn",
                ("device_fn",),
                'device_fn must be callable with exactly one argument "op".',
            )
        ]


class TFDecorator:
    """Stands for TensorFlow's decorator class, told by its module and name."""

    __module__ = "tensorflow.python.util.tf_decorator"

    def __init__(self, target: Any, argspec: Any = None) -> None:
        self.decorated_target = target
        self.decorator_argspec = argspec


def tf_decorated(target: Any, argspec: Any = None) -> Any:
    """``target`` wrapped as TensorFlow's decorators (``tf.function``) wrap a function."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return target(*args, **kwargs)

    wrapper._tf_decorator = TFDecorator(target, argspec)  # type: ignore[attr-defined]
    return wrapper


class TestDeviceFnThroughTensorFlowDecorators:
    """TensorFlow reads the arguments of what its own decorators decorate."""

    @pytest.mark.parametrize(
        "device_fn",
        [
            tf_decorated(op_device),
            tf_decorated(tf_decorated(op_device)),
            tf_decorated(lambda x: "", inspect.getfullargspec(op_device)),
            functools.partial(tf_decorated(op_device)),
        ],
        ids=["decorated", "twice", "its argspec", "partial"],
    )
    def test_read_through(self, device_fn: Any) -> None:
        assert RunConfig(device_fn=device_fn).device_fn is device_fn

    def test_its_argspec_decides(self) -> None:
        device_fn = tf_decorated(op_device, inspect.getfullargspec(lambda x: x))
        [(code, _, _)] = errors_of(device_fn=device_fn)
        assert code == "device_fn"

    def test_a_decorator_without_a_target_ends_the_unwrapping(self) -> None:
        """As ``tf_decorator.unwrap`` stops there: its argspec decides, and the check ends.

        Run in a process of its own, so that a check that never ends fails the test.
        """
        code = (
            "import inspect\n"
            "from estconf import RunConfig\n"
            "class TFDecorator:\n"
            "    __module__ = 'tensorflow.python.util.tf_decorator'\n"
            "def op_device(op): return ''\n"
            "def device_fn(*args): return ''\n"
            "device_fn._tf_decorator = TFDecorator()\n"
            "device_fn._tf_decorator.decorator_argspec = inspect.getfullargspec(op_device)\n"
            "print(RunConfig(device_fn=device_fn).device_fn is device_fn)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=30
        )
        assert (done.stdout, done.stderr) == ("True\n", "")


class TestPythonOnlyArguments:
    def test_kept_in_python_left_out_of_dumps_and_schema(self) -> None:
        strategy = object()
        config = RunConfig(
            train_distribute=strategy,
            eval_distribute=strategy,
            experimental_distribute=DistributeConfig(),
            device_fn=op_device,
        )
        assert config.train_distribute is strategy
        dumped = config.model_dump()
        for key in ("train_distribute", "eval_distribute", "experimental_distribute", "device_fn"):
            assert key not in dumped
            assert key not in json.dumps(RunConfig.model_json_schema())

    @pytest.mark.parametrize("name", list(RunConfig.model_fields))
    def test_every_argument_says_what_it_is_python_only_ones_too(self, name: str) -> None:
        """The API reference lists each argument with its description."""
        assert RunConfig.model_fields[name].description


class TestReplace:
    def test_only_tensorflows_list(self) -> None:
        with pytest.raises(ValueError) as info:
            RunConfig().replace(master="x")
        assert (
            f"Replacing master is not supported. Allowed properties are {list(REPLACEABLE)}."
        ) in str(info.value)

    def test_original_unchanged(self) -> None:
        original = RunConfig(save_summary_steps=10)
        replaced = original.replace(save_summary_steps=20, tf_random_seed=3)
        assert (original.save_summary_steps, original.tf_random_seed) == (10, None)
        assert (replaced.save_summary_steps, replaced.tf_random_seed) == (20, 3)

    def test_checkpoint_rules(self) -> None:
        config = RunConfig()
        assert config.replace(save_checkpoints_steps=5).save_checkpoints_secs is None
        assert config.replace(save_checkpoints_secs=5).save_checkpoints_steps is None
        steps = RunConfig(save_checkpoints_steps=5)
        assert steps.replace(save_checkpoints_secs=9).save_checkpoints_steps is None
        keeps = steps.replace(save_checkpoints_secs=None)
        assert (keeps.save_checkpoints_steps, keeps.save_checkpoints_secs) == (5, None)
        with pytest.raises(ValueError, match="cannot be both set"):
            config.replace(save_checkpoints_steps=1, save_checkpoints_secs=1)
        both = config.replace(save_checkpoints_steps=None, save_checkpoints_secs=None)
        assert (both.save_checkpoints_steps, both.save_checkpoints_secs) == (None, None)

    def test_checks_run_on_the_result(self) -> None:
        with pytest.raises(ValueError, match="log_step_count_steps should be > 0"):
            RunConfig().replace(log_step_count_steps=0)
        with pytest.raises(ValueError, match="model_dir should be non-empty"):
            RunConfig().replace(model_dir="")

    def test_distributed_properties_stay(self) -> None:
        config = config_for("worker", 1, model_dir="/a")
        replaced = config.replace(model_dir="/b", session_config=None)
        assert replaced.model_dir == "/b"
        assert replaced.session_config is None
        assert replaced.master == config.master
        assert replaced.global_id_in_cluster == config.global_id_in_cluster


class TestFromEnv:
    def test_reads_tf_config(self) -> None:
        environ = {
            "TF_CONFIG": json.dumps(
                {"cluster": DOC_CLUSTER, "task": {"type": "worker", "index": 1}}
            )
        }
        config = RunConfig.from_env(environ, save_summary_steps=7)
        assert config == config_for("worker", 1).replace(save_summary_steps=7)
        assert config.master == "grpc://host4:2222"

    def test_never_reads_the_environment_otherwise(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TF_CONFIG", json.dumps({"task": {"type": "ps"}}))
        assert RunConfig().task_type == "worker"
        with pytest.raises(ValueError, match="task type must be WORKER"):
            RunConfig.from_env()

    def test_without_environ_it_reads_os_environ_as_tensorflow_does(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The variable's text as Python decoded it, non-ASCII characters kept."""
        text = json.dumps({"model_dir": "/data/caf\u00e9 \u00fcber"}, ensure_ascii=False)
        monkeypatch.setitem(os.environ, "TF_CONFIG", text)
        assert RunConfig.from_env().model_dir == "/data/caf\u00e9 \u00fcber"

    def test_invalid_tf_config(self) -> None:
        with pytest.raises(ValueError, match="TF_CONFIG must be a JSON object"):
            RunConfig.from_env({"TF_CONFIG": "[]"})

    def test_unreadable_tf_config_is_reported_with_the_arguments_errors(self) -> None:
        with pytest.raises(ValidationError) as info:
            RunConfig.from_env({"TF_CONFIG": ""}, save_checkpoints_steps=1, save_checkpoints_secs=1)
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("checkpoints_conflict", ("save_checkpoints_secs",)),
            ("tf_config_empty", ("tf_config",)),
        ]

    @pytest.mark.parametrize(
        ("text", "error", "sentence"),
        [
            (
                '{"cluster": {"worker": ["h:1"]},'
                ' "task": {"type": "worker", "index": 0, "index": 1}}',
                ("missing_chief", ("tf_config", "cluster")),
                'it must have one "chief" node',
            ),
            (
                '{"cluster": {"worker": ["h:1"], "worker": ["h:2"]},'
                ' "task": {"type": "worker", "index": 0}}',
                ("missing_chief", ("tf_config", "cluster")),
                'it must have one "chief" node',
            ),
            (
                '{"model_dir": {}, "model_dir": 0}',
                ("string_type", ("tf_config", "model_dir")),
                "model_dir should be non-empty",
            ),
        ],
    )
    def test_a_repeated_key_is_reported_with_what_tensorflow_says_of_the_rest(
        self, text: str, error: tuple[str, tuple[str, ...]], sentence: str
    ) -> None:
        """TensorFlow keeps the last of two equal keys and goes on to its own rules."""
        with pytest.raises(ValidationError) as info:
            RunConfig.from_env({"TF_CONFIG": text})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("duplicate_key", ("tf_config",)),
            error,
        ]
        assert sentence in str(info.value)

    def test_a_repeated_key_alone_is_the_only_error(self) -> None:
        text = '{"cluster":{"chief":["h:1"]},"task":{"type":"chief","type":"chief","index":0}}'
        with pytest.raises(ValidationError) as info:
            RunConfig.from_env({"TF_CONFIG": text})
        assert [e["type"] for e in info.value.errors()] == ["duplicate_key"]


class TestDumps:
    def test_derived_keys_read_back_when_they_agree(self) -> None:
        config = config_for("worker", 1)
        assert RunConfig.model_validate(config.model_dump(mode="json")) == config

    def test_derived_keys_that_disagree(self) -> None:
        data = {**config_for("worker", 1).model_dump(mode="json"), "is_chief": True}
        with pytest.raises(ValidationError) as info:
            RunConfig.model_validate(data)
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("derived_mismatch", ("is_chief",))

    @pytest.mark.parametrize(
        ("key", "value"),
        [("is_chief", 0), ("task_id", False), ("num_ps_replicas", False), ("is_chief", 1)],
    )
    def test_a_derived_key_of_another_json_type_disagrees(self, key: str, value: object) -> None:
        """As in the JSON Schema of a dump, ``0`` is not ``false`` nor ``true`` ``1``."""
        cluster = {"chief": ["c:1"], "worker": ["w:1"]}
        dumps = [
            RunConfig(tf_config={"cluster": cluster, "task": task}).model_dump(mode="json")
            for task in ({"type": "worker", "index": 0}, {"type": "chief", "index": 0})
        ]
        dump = next(dump for dump in dumps if dump[key] == value)  # equal in Python's eyes
        with pytest.raises(ValidationError) as info:
            RunConfig.model_validate({**dump, key: value})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("derived_mismatch", (key,))

    @pytest.mark.parametrize("value", ["chief", ["c:1"], 1, None])
    def test_a_cluster_spec_that_is_not_a_mapping_disagrees(self, value: object) -> None:
        """The derived ``cluster_spec`` is a mapping: any other JSON value for it disagrees."""
        dump = config_for("worker", 1).model_dump(mode="json")
        with pytest.raises(ValidationError) as info:
            RunConfig.model_validate({**dump, "cluster_spec": value})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("derived_mismatch", ("cluster_spec",))

    def test_a_cluster_spec_of_other_jobs_disagrees(self) -> None:
        dump = config_for("worker", 1).model_dump(mode="json")
        spec = {**dump["cluster_spec"], "evaluator": ["e:1"]}
        with pytest.raises(ValidationError) as info:
            RunConfig.model_validate({**dump, "cluster_spec": spec})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("derived_mismatch", ("cluster_spec",))

    @pytest.mark.parametrize(
        "keys", [("is_chief", "master", "task_id"), ("task_id", "master", "is_chief")]
    )
    def test_derived_keys_that_disagree_in_the_order_given(self, keys: tuple[str, ...]) -> None:
        wrong = {"is_chief": True, "master": "grpc://elsewhere:1", "task_id": 7}
        data = config_for("worker", 1).model_dump(mode="json", exclude=set(keys))
        data.update((key, wrong[key]) for key in keys)
        with pytest.raises(ValidationError) as info:
            RunConfig.model_validate(data)
        assert [error["loc"] for error in info.value.errors()] == [(key,) for key in keys]


def training_nodes(cluster: ClusterSpec) -> list[tuple[str, int]]:
    return [
        (job, index)
        for job in cluster.jobs
        for index in cluster.task_indices(job)
        if job != "evaluator"
    ]


class TestInvariants:
    @given(valid_tf_configs)
    def test_round_trip(self, data: dict[str, Any]) -> None:
        config = RunConfig(tf_config=data)
        assert RunConfig.model_validate(config.model_dump(mode="json")) == config
        assert RunConfig.model_validate_json(config.model_dump_json()) == config
        assert RunConfig.from_env({"TF_CONFIG": TFConfig.model_validate(data).to_json()}) == config

    @given(st.one_of(chief_mode_tf_configs(), master_mode_tf_configs()))
    def test_global_ids_are_unique_and_dense(self, data: dict[str, Any]) -> None:
        """Training tasks get 0..n-1; an evaluator job in the cluster keeps its slots."""
        cluster = ClusterSpec(data["cluster"])
        ids = [
            RunConfig(
                tf_config={**data, "task": {"type": job, "index": index}}
            ).global_id_in_cluster
            for job, index in training_nodes(cluster)
        ]
        evaluator_slots = cluster.job_size("evaluator") if "evaluator" in cluster.jobs else 0
        assert len(set(ids)) == len(ids)
        assert set(ids) <= set(range(len(ids) + evaluator_slots))
        leader = "master" if "master" in cluster.jobs else "chief"
        chief = RunConfig(tf_config={**data, "task": {"type": leader, "index": 0}})
        assert chief.global_id_in_cluster == 0
        assert chief.is_chief

    @given(st.one_of(chief_mode_tf_configs(sparse=True), master_mode_tf_configs()))
    def test_counts_match_the_cluster(self, data: dict[str, Any]) -> None:
        config = RunConfig(tf_config=data)
        cluster = ClusterSpec(data["cluster"])
        if config.task_type == "evaluator":
            assert (config.num_ps_replicas, config.num_worker_replicas) == (0, 0)
            return
        count = {job: cluster.num_tasks(job) for job in cluster.jobs}
        assert config.num_ps_replicas == count.get("ps", 0)
        assert config.num_worker_replicas == (
            count.get("worker", 0) + count.get("chief", 0) + count.get("master", 0)
        )
        assert config.is_chief == (config.task_type in ("chief", "master"))


class Strategy:
    """Stands for a tf.distribute strategy; only its class name matters to RunConfig."""


class TPUStrategyV2:
    pass


class ParameterServerStrategyV2:
    pass


class DistributeConfig:
    def __init__(self, train: Any = None, evaluate: Any = None, remote: Any = None) -> None:
        self.train_distribute = train
        self.eval_distribute = evaluate
        self.remote_cluster = remote


LOCAL_VALUES = {
    "task_type": "worker",
    "task_id": 0,
    "master": "",
    "evaluation_master": "",
    "is_chief": True,
    "num_ps_replicas": 0,
    "num_worker_replicas": 1,
    "global_id_in_cluster": 0,
    "service": None,
    "session_config": None,
}


def values(config: RunConfig) -> dict[str, Any]:
    return {key: getattr(config, key) for key in LOCAL_VALUES}


class TestDistributionStrategies:
    """A non-TPU strategy hands a chief-mode cluster to TensorFlow's distribute coordinator."""

    tf_config = {
        "cluster": DOC_CLUSTER,
        "task": {"type": "worker", "index": 1},
        "service": {"x": 1},
    }

    def test_train_strategy_reads_as_local_mode_with_the_cluster(self) -> None:
        config = RunConfig(train_distribute=Strategy(), tf_config=self.tf_config)
        assert values(config) == LOCAL_VALUES
        assert config.cluster_spec == DOC_CLUSTER

    def test_the_task_is_not_checked(self) -> None:
        config = RunConfig(
            train_distribute=Strategy(),
            tf_config={"cluster": DOC_CLUSTER, "task": {"type": "x", "index": 9}},
        )
        assert config.task_type == "worker"

    @pytest.mark.parametrize(
        ("part", "code", "loc"),
        [
            ({"task": None}, "model_type", ("tf_config", "task")),
            ({"task": "worker"}, "model_type", ("tf_config", "task")),
            ({"service": []}, "service_type", ("tf_config", "service")),
            (
                {"task": {"type": "worker", "index": "1.0"}},
                "int_type",
                ("tf_config", "task", "index"),
            ),
        ],
    )
    def test_a_task_or_service_of_the_wrong_type_is_still_refused(
        self, part: dict[str, Any], code: str, loc: tuple[str, ...]
    ) -> None:
        """TensorFlow's coordinator reads neither; estconf refuses them (`type`)."""
        tf_config = {"cluster": DOC_CLUSTER, "task": {"type": "worker", "index": 0}, **part}
        assert [e[:2] for e in errors_of(train_distribute=Strategy(), tf_config=tf_config)] == [
            (code, loc)
        ]

    def test_from_experimental_distribute(self) -> None:
        config = RunConfig(
            experimental_distribute=DistributeConfig(train=Strategy()), tf_config=self.tf_config
        )
        assert values(config) == LOCAL_VALUES

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"train_distribute": TPUStrategyV2()},
            {"eval_distribute": Strategy()},
            {"experimental_distribute": DistributeConfig(evaluate=Strategy())},
        ],
    )
    def test_normal_reading_without_a_training_strategy(self, kwargs: dict[str, Any]) -> None:
        config = RunConfig(tf_config=self.tf_config, **kwargs)
        assert values(config) == values(RunConfig(tf_config=self.tf_config))

    @pytest.mark.parametrize(
        "caller",
        [{"eval_distribute": Strategy()}, {"experimental_distribute": DistributeConfig()}],
        ids=["evaluation-strategy", "experimental-distribute"],
    )
    def test_the_coordinator_called_in_beside_a_tpu_training_strategy(
        self, caller: dict[str, Any]
    ) -> None:
        """A training strategy of any kind, TPU too, runs the coordinator once it is called in.

        A non-TPU strategy calls it in, and so does any ``experimental_distribute``.
        """
        config = RunConfig(train_distribute=TPUStrategyV2(), tf_config=self.tf_config, **caller)
        assert values(config) == LOCAL_VALUES
        assert config.cluster_spec == DOC_CLUSTER

    def test_normal_reading_in_master_mode_and_local_mode(self) -> None:
        tf_config = {
            "cluster": {"master": ["h:0"], "worker": ["h:1"]},
            "task": {"type": "worker", "index": 0},
        }
        assert RunConfig(train_distribute=Strategy(), tf_config=tf_config).master == "grpc://h:1"
        assert RunConfig(train_distribute=Strategy()).cluster_spec == {}

    def test_remote_cluster(self) -> None:
        remote = {"worker": ["h:1"]}
        config = RunConfig(experimental_distribute=DistributeConfig(Strategy(), remote=remote))
        assert config.cluster_spec == remote
        assert values(config) == LOCAL_VALUES
        assert config.session_config is None  # the coordinator's cluster has no device filters
        with pytest.raises(ValueError, match='Cannot set both "cluster_spec" of TF_CONFIG'):
            RunConfig(
                experimental_distribute=DistributeConfig(Strategy(), remote=remote),
                tf_config=self.tf_config,
            )

    def test_strategy_given_twice(self) -> None:
        with pytest.raises(ValueError, match="can be set"):
            RunConfig(
                train_distribute=Strategy(),
                experimental_distribute=DistributeConfig(train=Strategy()),
            )

    def test_parameter_server_strategy_v2(self) -> None:
        [(code, loc, msg)] = errors_of(train_distribute=ParameterServerStrategyV2())
        assert (code, loc) == ("strategy", ("train_distribute",))
        assert "tf.compat.v1.distribute.experimental.ParameterServerStrategy" in msg

    def test_replace_keeps_the_distributed_settings(self) -> None:
        config = RunConfig(tf_config=self.tf_config)
        replaced = config.replace(train_distribute=Strategy())
        assert values(replaced) == values(config)


class TestEstimatorErrorsBesideOtherErrors:
    """TensorFlow's own complaint is reported even when the TF_CONFIG has other errors."""

    @pytest.mark.parametrize(
        ("tf_config", "codes"),
        [
            (
                {"cluster": {"worker": ["h:1"], "ps": []}, "task": {"type": "worker", "index": 0}},
                {"empty_job", "missing_chief"},
            ),
            (
                {
                    "cluster": {"chief": ["h:0"], "master": ["bad"]},
                    "task": {"type": "chief", "index": 0},
                },
                {"address", "chief_with_master"},
            ),
            (
                {"cluster": {"chief": ["h:0", "h:0"]}, "task": {"type": "chief", "index": 0}},
                {"address", "multiple_chiefs"},
            ),
            (
                {"cluster": {"chief": ["h:0"], "1w": ["h:1"]}, "task": {"type": "x", "index": 0}},
                {"job_name", "unknown_task_type"},
            ),
            (
                {
                    "cluster": {"chief": ["h:0"]},
                    "task": {"type": "chief", "index": "-1"},
                    "session_master": 5,
                },
                {"string_type", "negative_task_index"},
            ),
            (
                {"cluster": {"chief": ["h:0"], "w": ["bad"]}, "task": {"type": "chief"}},
                {"address", "missing_task_index"},
            ),
            (
                {"cluster": {"chief": ["h:0"], "w": ["bad"]}, "task": {"index": 0}},
                {"address", "missing_task_type"},
            ),
            (
                {
                    "cluster": {"chief": ["h:0"], "w": ["bad"]},
                    "task": {"type": "chief", "index": None},
                },
                {"address", "missing_task_index"},
            ),
            (
                {"task": {"type": "worker", "index": None}, "model_dir": 0},
                {"string_type", "type"},
            ),
            (  # TensorFlow reads model_dir before the cluster
                {
                    "cluster": {"chief": None},
                    "task": {"type": "chief", "index": 0},
                    "model_dir": "",
                },
                {"job_tasks_type", "model_dir_empty"},
            ),
            (
                {"cluster": {"chief": []}, "task": {"type": "chief", "index": 0}, "model_dir": ""},
                {"empty_job", "model_dir_empty"},
            ),
            (  # TensorFlow looks a task type up in a list of the jobs: a list will do
                {
                    "cluster": {"chief": ["h:0"], "w": ["bad"]},
                    "task": {"type": ["chief"], "index": 0},
                },
                {"address", "string_type", "unknown_task_type"},
            ),
        ],
    )
    def test_reported_together(self, tf_config: dict[str, Any], codes: set[str]) -> None:
        assert {code for code, _, _ in tf_config_errors(tf_config)} == codes

    @pytest.mark.parametrize(
        "tf_config",
        [
            {"cluster": {"chief": ["h:0"], "worker": []}, "task": {"type": "worker", "index": 0}},
            {"cluster": {"chief": [], "worker": ["h:1"]}, "task": {"index": 0}},
            {
                "cluster": {"chief": ["h:0"], "a": [], "w": ["h:1"]},
                "task": {"type": "w", "index": 0},
            },
        ],
    )
    def test_tensorflow_fails_on_a_job_with_no_task_before_its_own_checks(
        self, tf_config: dict[str, Any]
    ) -> None:
        """TensorFlow's job_tasks fails on an empty job (max() of nothing) once it reads it."""
        assert [code for code, _, _ in tf_config_errors(tf_config)] == ["empty_job"]

    def test_a_cluster_of_empty_jobs_has_no_task_to_move_into_a_chief(self) -> None:
        errors = tf_config_errors({"cluster": {"ps": []}, "task": {"type": "ps", "index": 0}})
        assert [(code, message) for code, _, message in errors][-1] == (
            "missing_chief",
            'If "cluster" is set in TF_CONFIG, it must have one "chief" node.',
        )

    @pytest.mark.parametrize(
        "tf_config",
        [
            {"cluster": {"chief": "h:0"}},  # TensorFlow fails on the cluster itself
            {"cluster": {"chief": ["h:0"]}, "task": {"type": "chief", "index": "x"}},
            {"cluster": {"chief": ["bad"]}, "task": {"type": "chief", "index": 0}},
        ],
    )
    def test_nothing_added_when_tensorflow_would_not_get_there(
        self, tf_config: dict[str, Any]
    ) -> None:
        assert len(tf_config_errors(tf_config)) == 1


def test_the_validated_derivation_is_reused_only_for_its_own_tf_config() -> None:
    first = config_for("worker", 1)
    second = config_for("worker", 2)  # validated last: its derivation is the one kept
    assert (first.master, second.master) == ("grpc://host4:2222", "grpc://host5:2222")
    strategy = config_for("worker", 1).replace(train_distribute=object())
    assert strategy.task_id == 1


class TestModelDirConflictBesideOtherErrors:
    """A model_dir conflict is reported even when the estimator also refuses the TF_CONFIG."""

    @pytest.mark.parametrize("model", [RunConfig, TPURunConfig])
    def test_both_errors_are_reported(self, model: type[RunConfig]) -> None:
        tf_config = {"task": {"type": "ps"}, "model_dir": "/tmp/model"}
        with pytest.raises(ValidationError) as info:
            model(tf_config=tf_config, model_dir="/tmp/m")
        assert [error["type"] for error in info.value.errors()] == [
            "model_dir_conflict",
            "local_task_type",
        ]
        assert "must have the same value as the model_dir in TF_CONFIG" in str(info.value)

    @pytest.mark.parametrize("model", [RunConfig, TPURunConfig])
    def test_and_beside_a_repeated_key(self, model: type[RunConfig]) -> None:
        """TensorFlow reads the text, the last value of each key, and compares first."""
        text = '{"task": {}, "task": null, "model_dir": "/tmp/model"}'
        with pytest.raises(ValidationError) as info:
            model.from_env({"TF_CONFIG": text}, model_dir="/tmp/m")
        assert [error["type"] for error in info.value.errors()] == [
            "model_dir_conflict",
            "duplicate_key",
            "model_type",
        ]


class IndexOnly:
    """An integer only through ``__index__``, as NumPy's integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class TestFrozen:
    def test_fields_cannot_be_assigned(self) -> None:
        config = RunConfig(model_dir="/tmp/model")
        with pytest.raises(ValidationError) as info:
            config.model_dir = "/tmp/other"  # type: ignore[misc]
        assert info.value.errors()[0]["type"] == "frozen_instance"
        assert config.model_dir == "/tmp/model"

    def test_equal_configs_hash_equal(self) -> None:
        first, second = config_for("evaluator", 3), config_for("evaluator", 3)
        assert hash(first) == hash(second)
        assert len({first, second, RunConfig(model_dir="/tmp/model"), RunConfig()}) == 3

    def test_every_config_is_hashable(self) -> None:
        """A worker's default session config holds device filters, TF_CONFIG a service."""
        tf_config = {
            "cluster": DOC_CLUSTER,
            "task": {"type": "worker", "index": 1},
            "service": {"tpu_worker_job_name": "tpu", "options": [1, 2]},
        }
        first, second = RunConfig(tf_config=tf_config), RunConfig(tf_config=tf_config)
        assert first.session_config is not None and first.session_config.device_filters
        assert hash(first) == hash(second)
        assert len({first, second, RunConfig()}) == 2


class TestIntegersThroughIndex:
    """TensorFlow only compares these settings or calls int(): NumPy integers do."""

    @pytest.mark.parametrize("key", ["save_summary_steps", "keep_checkpoint_max"])
    def test_read_as_int(self, key: str) -> None:
        value = getattr(RunConfig(**{key: IndexOnly(7)}), key)
        assert (value, type(value)) == (7, int)

    @pytest.mark.parametrize("key", ["save_summary_steps", "keep_checkpoint_max"])
    def test_bounds_still_apply(self, key: str) -> None:
        assert errors_of(**{key: IndexOnly(-1)}) == [("bounds", (key,), f"{key} should be >= 0")]

    def test_task_index(self) -> None:
        config = config_for("worker", IndexOnly(2))
        assert (config.task_id, config.master) == (2, "grpc://host5:2222")


class TestUnreadableDeviceFnSignature:
    class Opaque:
        """Callable; ``inspect.signature`` cannot read it, but its ``__call__`` reads."""

        __signature__ = "not a signature"

        def __call__(self, op: Any) -> str:
            return ""

    def test_the_arguments_of_call_are_read(self) -> None:
        device_fn = self.Opaque()
        assert RunConfig(device_fn=device_fn).device_fn is device_fn

    @pytest.mark.parametrize("device_fn", [next, str, functools.partial(next)], ids=repr)
    def test_refused_with_tensorflows_sentence(self, device_fn: Any) -> None:
        """Callables whose arguments cannot be read (TensorFlow: ``unsupported callable``)."""
        assert errors_of(device_fn=device_fn) == [
            (
                "device_fn",
                ("device_fn",),
                'device_fn must be callable with exactly one argument "op".',
            )
        ]


class TestNotAnObject:
    @pytest.mark.parametrize("value", [5, "text", [], None])
    def test_whole_config(self, value: Any) -> None:
        with pytest.raises(ValidationError) as info:
            RunConfig.model_validate(value)
        [error] = info.value.errors()
        assert (error["type"], error["loc"], error["input"]) == ("model_type", (), value)

    @pytest.mark.parametrize("value", [5, "text", []])
    def test_tf_config_argument(self, value: Any) -> None:
        with pytest.raises(ValidationError) as info:
            RunConfig(tf_config=value)
        [error] = info.value.errors()
        assert (error["type"], error["loc"], error["input"]) == (
            "model_type",
            ("tf_config",),
            value,
        )

    @pytest.mark.parametrize("task", [5, "chief", []])
    def test_task_beside_a_cluster_is_its_only_error(self, task: Any) -> None:
        """TensorFlow cannot read a type or an index from it: none is also said missing."""
        errors = tf_config_errors({"cluster": {"chief": ["h:0"]}, "task": task})
        assert [(code, loc) for code, loc, _ in errors] == [("model_type", ("tf_config", "task"))]

    @pytest.mark.parametrize(
        ("text", "value", "kind"),
        [("5", 5, "a number"), ("null", None, "null"), ("[1]", [1], "an array")],
    )
    def test_tf_config_variable(self, text: str, value: Any, kind: str) -> None:
        with pytest.raises(ValidationError) as info:
            RunConfig.from_env({"TF_CONFIG": text})
        [error] = info.value.errors()
        assert (error["type"], error["loc"], error["input"], error["msg"]) == (
            "tf_config_type",
            ("tf_config",),
            value,
            f"TF_CONFIG must be a JSON object, got {kind}",
        )


class TestClusterInEstimatorErrors:
    """A TF_CONFIG with other errors is still read as TensorFlow reads it, and the
    estimator's errors show its cluster as ``tf.train.ClusterSpec.as_dict()`` does."""

    CLUSTER = {
        "ps": {"1": "h:1", "0": "h:0"},  # indices 0..n-1: a list
        "worker": {"2": "h:2"},  # a hole: a dict
        "empty": [],  # no task: an empty dict
        "bad": ["nowhere"],  # the error that sends the TF_CONFIG down the lenient path
    }

    def test_missing_chief_input(self) -> None:
        found = RunConfigErrors.of({"cluster": self.CLUSTER, "task": {"type": "ps", "index": 0}})
        assert found["missing_chief"] == {
            "ps": ["h:0", "h:1"],
            "worker": {2: "h:2"},
            "empty": {},
            "bad": ["nowhere"],
        }

    def test_unknown_task_type_message(self) -> None:
        cluster = {**self.CLUSTER, "chief": ["h:9"]}
        found = RunConfigErrors.messages(
            {"cluster": cluster, "task": {"type": "evaluatr", "index": 0}}
        )
        assert found["unknown_task_type"].startswith(
            "evaluatr is not a valid task_type in the cluster_spec:\n"
            "ClusterSpec({'bad': ['nowhere'], 'chief': ['h:9'], 'empty': {}, "
            "'ps': ['h:0', 'h:1'], 'worker': {2: 'h:2'}})\n"
        )


class RunConfigErrors:
    @staticmethod
    def _errors(tf_config: dict[str, Any]) -> list[Any]:
        with pytest.raises(ValidationError) as info:
            RunConfig(tf_config=tf_config)
        return info.value.errors()

    @classmethod
    def of(cls, tf_config: dict[str, Any]) -> dict[str, Any]:
        return {error["type"]: error["input"] for error in cls._errors(tf_config)}

    @classmethod
    def messages(cls, tf_config: dict[str, Any]) -> dict[str, str]:
        return {error["type"]: error["msg"] for error in cls._errors(tf_config)}


class TestTaskTypesReadFromJSON:
    """Task types compare by value: those parsed from TF_CONFIG text behave as literals do."""

    @pytest.mark.parametrize(
        "tf_config",
        [
            {"task": {"type": "worker", "index": 0}},
            {"cluster": DOC_CLUSTER, "task": {"type": "chief", "index": 0}},
            {"cluster": DOC_CLUSTER, "task": {"type": "worker", "index": 2}},
            {"cluster": DOC_CLUSTER, "task": {"type": "ps", "index": 1}},
            {"cluster": DOC_CLUSTER, "task": {"type": "evaluator", "index": 4}},
            {
                "cluster": {"master": ["m:1"], "worker": ["w:1"]},
                "task": {"type": "master", "index": 0},
            },
        ],
    )
    def test_same_properties(self, tf_config: dict[str, Any]) -> None:
        from_text = RunConfig.from_env({"TF_CONFIG": json.dumps(tf_config)})
        assert from_text.model_dump() == RunConfig(tf_config=tf_config).model_dump()

    def test_evaluator_in_master_mode_from_text(self) -> None:
        text = json.dumps(
            {"cluster": {"master": ["m:1"]}, "task": {"type": "evaluator", "index": 0}}
        )
        with pytest.raises(ValidationError) as info:
            RunConfig.from_env({"TF_CONFIG": text})
        assert [e["type"] for e in info.value.errors()] == ["evaluator_with_master"]


class TestLenientReadingStopsWhereTensorFlowWould:
    """A TF_CONFIG TensorFlow itself could not read adds no estimator error to its own."""

    @pytest.mark.parametrize(
        ("task", "cluster", "errors"),
        [
            (
                {"type": "chief", "index": 0},
                {"chief": ["h:0"], "w": {"x": "h:1"}},
                [("int_type", ("tf_config", "cluster", "w", "x", "[key]"))],
            ),
            (
                {"type": "chief", "index": [0]},
                {"chief": ["h:0"], "w": ["bad"]},
                [
                    ("address", ("tf_config", "cluster", "w", 0)),
                    ("int_type", ("tf_config", "task", "index")),
                ],
            ),
            (
                {"type": "chief", "index": float("inf")},
                {"chief": ["h:0"], "w": ["bad"]},
                [
                    ("address", ("tf_config", "cluster", "w", 0)),
                    ("int_type", ("tf_config", "task", "index")),
                ],
            ),
        ],
        ids=["sparse_key_not_a_number", "index_a_list", "index_infinite"],
    )
    def test_only_the_values_own_errors(self, task: Any, cluster: Any, errors: Any) -> None:
        found = tf_config_errors({"cluster": cluster, "task": task})
        assert [(code, loc) for code, loc, _ in found] == errors


@pytest.mark.parametrize("value", [[10], {"steps": 10}, object()])
def test_step_counts_refuse_what_is_not_a_number(value: Any) -> None:
    assert errors_of(save_summary_steps=value) == [
        ("int_type", ("save_summary_steps",), "Input should be a valid integer")
    ]


@pytest.mark.parametrize("job", ["extra", "tpu_worker", "zone"])
def test_no_default_session_config_for_a_job_of_another_name(job: str) -> None:
    """Only chief, master, worker and ps get device filters, whatever the name sorts like."""
    assert config_for(job, 0, cluster={**DOC_CLUSTER, job: ["h:9"]}).session_config is None


@pytest.mark.parametrize(("argument", "in_tf_config"), [("/a", "/b"), ("/b", "/a")])
def test_model_dir_conflict_either_way(argument: str, in_tf_config: str) -> None:
    [(code, loc, _)] = errors_of(model_dir=argument, tf_config={"model_dir": in_tf_config})
    assert (code, loc) == ("model_dir_conflict", ("model_dir",))


class TestDerivedOnce:
    """The distributed settings are derived once per construction, and defaults are shared."""

    def test_one_derivation_per_construction(self, monkeypatch: pytest.MonkeyPatch) -> None:
        calls: list[TFConfig] = []
        derive = estconf.run_config.derive_distributed

        def counting(tf_config: TFConfig, *args: Any) -> Any:
            calls.append(tf_config)
            return derive(tf_config, *args)

        monkeypatch.setattr(estconf.run_config, "derive_distributed", counting)
        config = config_for("worker", 1)
        assert (config.master, config.is_chief, config.global_id_in_cluster) == (
            "grpc://host4:2222",
            False,
            2,
        )
        assert calls == [config.tf_config]

    def test_equal_default_session_configs_are_one_object(self) -> None:
        assert config_for("worker", 1).session_config is config_for("worker", 1).session_config

    def test_the_derived_values_cannot_be_changed(self) -> None:
        settings = distributed_settings(config_for("worker", 1).tf_config)
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.master = "grpc://elsewhere:1"  # type: ignore[misc]
        strategies = Strategies.of({"train_distribute": Strategy()})
        with pytest.raises(dataclasses.FrozenInstanceError):
            strategies.train_distribute = None  # type: ignore[misc]


class TestFromTensorFlow:
    """Reading TensorFlow's object back, with a stand-in that has its attributes.

    ``tests/compat`` does the same with TensorFlow's own ``RunConfig``.
    """

    TF_CONFIG: ClassVar[dict[str, Any]] = {
        "cluster": {"chief": ["c:0"], "worker": ["w:0", "w:1"], "ps": ["p:0"]},
        "task": {"type": "worker", "index": 1},
    }

    @staticmethod
    def stand_in(config: RunConfig, **changed: Any) -> SimpleNamespace:
        values = {
            name: getattr(config, name)
            for name in (*RunConfig.model_fields, *RunConfig.model_computed_fields)
        }
        cluster = config.cluster_spec.as_dict()
        values["cluster_spec"] = SimpleNamespace(as_dict=lambda: cluster)
        values["session_config"] = None
        values.update(changed)
        return SimpleNamespace(**values)

    def environ(self) -> dict[str, str]:
        return {"TF_CONFIG": json.dumps(self.TF_CONFIG)}

    def test_reads_the_arguments_back(self) -> None:
        config = RunConfig(
            tf_config=self.TF_CONFIG, model_dir="/m", session_config=None, save_summary_steps=7
        )
        assert RunConfig.from_tensorflow(self.stand_in(config), self.environ()) == config

    def test_reads_a_session_config_message_back(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """TensorFlow's ConfigProto is read from protobuf's JSON form of it."""
        config = RunConfig(
            tf_config=self.TF_CONFIG,
            session_config={"allow_soft_placement": True, "device_filters": ["/job:ps"]},
        )
        assert config.session_config is not None
        written = config.session_config.to_proto_dict()
        message = SimpleNamespace(DESCRIPTOR=SimpleNamespace(full_name="tensorflow.ConfigProto"))
        json_format = SimpleNamespace(MessageToDict=lambda given, **options: written)
        monkeypatch.setitem(sys.modules, "google.protobuf.json_format", json_format)
        tensorflows = self.stand_in(config, session_config=message)
        assert RunConfig.from_tensorflow(tensorflows, self.environ()) == config

    def test_a_property_that_disagrees_is_named(self) -> None:
        config = RunConfig(tf_config=self.TF_CONFIG)
        with pytest.raises(ValueError, match=r"is_chief: TensorFlow True, estconf False$"):
            RunConfig.from_tensorflow(self.stand_in(config, is_chief=True), self.environ())

    def test_another_cluster_is_named(self) -> None:
        config = RunConfig(tf_config=self.TF_CONFIG)
        other = SimpleNamespace(as_dict=lambda: {"chief": ["c:0"]})
        with pytest.raises(ValueError, match=r"environ it was built with\): cluster_spec$"):
            RunConfig.from_tensorflow(self.stand_in(config, cluster_spec=other), self.environ())


def test_built_on_first_use_not_at_import() -> None:
    """Importing ``estconf.RunConfig`` builds no validator; the first config does."""
    code = (
        "import estconf\n"
        "cls = estconf.RunConfig\n"
        "assert not cls.__pydantic_complete__\n"
        "cls()\n"
        "assert cls.__pydantic_complete__\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


class TestStrategiesFromExperimentalDistribute:
    """TensorFlow copies the strategies a DistributeConfig carries into its own properties."""

    @pytest.mark.parametrize("model", [RunConfig, TPURunConfig])
    def test_the_properties_give_them(self, model: type[RunConfig]) -> None:
        train, evaluate = Strategy(), Strategy()
        config = model(experimental_distribute=DistributeConfig(train=train, evaluate=evaluate))
        assert config.train_distribute is train
        assert config.eval_distribute is evaluate
        assert config.replace(save_summary_steps=1).train_distribute is train

    def test_truth_decides_as_in_tensorflow(self) -> None:
        own, nested = Strategy(), Strategy()
        kept = RunConfig(train_distribute=own, experimental_distribute=DistributeConfig())
        assert kept.train_distribute is own
        config = RunConfig(train_distribute="", experimental_distribute=DistributeConfig(nested))
        assert config.train_distribute is nested

    @pytest.mark.parametrize("key", ["train", "eval"])
    def test_given_both_ways(self, key: str) -> None:
        nested = {"train" if key == "train" else "evaluate": Strategy()}
        found = errors_of(
            **{f"{key}_distribute": Strategy()}, experimental_distribute=DistributeConfig(**nested)
        )
        assert found == [
            (
                "strategy_conflict",
                (f"{key}_distribute",),
                f"Either `{key}_distribute` or`experimental_distribute.{key}_distribute` "
                "can be set.",
            )
        ]

    @pytest.mark.parametrize(
        ("given", "missing"),
        [
            (Strategy(), "train_distribute"),
            (SimpleNamespace(train_distribute=None), "eval_distribute"),
            (SimpleNamespace(train_distribute=Strategy(), eval_distribute=None), "remote_cluster"),
        ],
        ids=["a strategy", "no eval_distribute", "no remote_cluster"],
    )
    def test_what_is_no_distribute_config_is_refused(self, given: Any, missing: str) -> None:
        """TensorFlow reads these attributes of it, and fails where one is missing."""
        assert errors_of(experimental_distribute=given) == [
            (
                "distribute_config",
                ("experimental_distribute",),
                "experimental_distribute must be a DistributeConfig "
                "(tf.contrib.distribute.DistributeConfig), whose "
                f"{missing} TensorFlow reads: '{type(given).__name__}' object has no "
                f"attribute '{missing}'",
            )
        ]

    def test_remote_cluster_is_read_only_with_a_training_strategy(self) -> None:
        given = SimpleNamespace(train_distribute=None, eval_distribute=Strategy())
        assert RunConfig(experimental_distribute=given).eval_distribute is given.eval_distribute
        [(code, _, _)] = errors_of(experimental_distribute=given, train_distribute=Strategy())
        assert code == "distribute_config"

    def test_what_is_false_or_replaced_is_not_read(self) -> None:
        """A false one is not read; nor is one given to ``replace``, as in TensorFlow."""

        class Off:
            def __bool__(self) -> bool:
                return False

        off = Off()
        assert RunConfig(experimental_distribute=off).experimental_distribute is off
        strategy = Strategy()
        replaced = RunConfig().replace(experimental_distribute=strategy)
        assert replaced.experimental_distribute is strategy

    def test_replace_sets_each_property_alone(self) -> None:
        """TensorFlow's replace sets the attributes; nothing is copied again."""
        train = Strategy()
        config = RunConfig(experimental_distribute=DistributeConfig(train=train))
        assert config.replace(experimental_distribute=None).train_distribute is train
        assert config.replace(train_distribute=None).train_distribute is None
        other = RunConfig().replace(experimental_distribute=DistributeConfig(train=train))
        assert other.train_distribute is None

    def test_the_v2_parameter_server_strategy_is_refused_only_as_an_argument(self) -> None:
        strategy = ParameterServerStrategyV2()
        config = RunConfig(experimental_distribute=DistributeConfig(train=strategy))
        assert config.train_distribute is strategy
        assert RunConfig().replace(train_distribute=strategy).train_distribute is strategy

    def test_tensorflow_is_given_each_strategy_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A strategy that experimental_distribute carries is not passed again on its own."""

        def arguments(**kwargs: Any) -> dict[str, Any]:
            return kwargs

        tf = SimpleNamespace(estimator=SimpleNamespace(RunConfig=arguments))
        monkeypatch.setattr(estconf.run_config, "tensorflow", lambda: tf)
        train, evaluate = Strategy(), Strategy()
        distribute = DistributeConfig(train=train)
        config = RunConfig(experimental_distribute=distribute, eval_distribute=evaluate)
        built = config.to_tensorflow()
        assert built["experimental_distribute"] is distribute
        assert built["train_distribute"] is None
        assert built["eval_distribute"] is evaluate

    def test_left_out_of_dumps(self) -> None:
        config = RunConfig(experimental_distribute=DistributeConfig(train=Strategy()))
        assert "train_distribute" not in config.model_dump()
