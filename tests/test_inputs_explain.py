"""What a reader derives from a TF_CONFIG, as a table or JSON, with the rule behind each value."""

from __future__ import annotations

import json
from typing import Any

import pytest

from estconf import RunConfig, TFConfig
from estconf.inputs.explain import explain_profile, explain_readers, explain_run_config
from estconf.profiles import check_profile
from estconf.tpu import RunConfig as TPURunConfig

PS_CLUSTER = {
    "cluster": {
        "chief": ["chief-0.train:2222"],
        "worker": ["worker-0.train:2222", "worker-1.train:2222"],
        "ps": ["ps-0.train:2222"],
    },
    "task": {"type": "worker", "index": 1},
}
WORKERS = {
    "cluster": {"worker": ["w0:2222", "w1:2222"]},
    "task": {"type": "worker", "index": 0},
}


def rows(text: str) -> dict[str, str]:
    """The table as {key: the rest of the line}; indented rows keep their key."""
    found = {}
    for line in text.splitlines():
        key, _, rest = line.strip().partition("  ")
        found[key] = rest.strip()
    return found


class EmptyResolver:
    """Stands for a tf.distribute cluster resolver of an empty cluster and no master."""

    def master(self) -> str:
        return ""

    def cluster_spec(self) -> dict[str, Any]:
        return {}


def run_config(tf_config: dict[str, Any]) -> RunConfig:
    return RunConfig(tf_config=TFConfig.model_validate(tf_config))


class TestRunConfig:
    def test_a_row_per_derived_value_and_a_row_per_job(self) -> None:
        table = rows(explain_run_config(run_config(PS_CLUSTER), "tf_config.json"))
        assert table["TF_CONFIG from"] == "tf_config.json"
        assert table["task"] == "worker:1"
        assert table["master"] == "grpc://worker-1.train:2222"
        assert table["num_worker_replicas"] == "3"
        assert table["global_id_in_cluster"] == "2"
        assert table["cluster_spec"] == "3 jobs, 4 tasks"
        assert table["worker"] == "worker-0.train:2222, worker-1.train:2222"
        assert table["device_filters"] == "/job:ps, /job:worker/task:1"
        assert table["model_dir"] == "(none)"
        assert table["checkpoints"] == "every 600 s"
        assert "service" not in table

    def test_why_says_the_rule_behind_each_value(self) -> None:
        text = explain_run_config(run_config(PS_CLUSTER), "env", why=True)
        table = rows(text)
        assert table["num_worker_replicas"] == "3  (2 workers + 1 chief)"
        assert table["global_id_in_cluster"] == (
            "2  (jobs in the order chief, worker, ps: 1 chief before worker, then index 1)"
        )
        assert table["device_filters"].endswith("(the default session_config of a worker task)")
        assert "(2 workers + 1 chief)" not in explain_run_config(run_config(PS_CLUSTER), "env")

    def test_a_session_config_of_its_own_is_not_the_default(self) -> None:
        text = explain_run_config(
            run_config(PS_CLUSTER), "env", why=True, session_config_given=True
        )
        assert "default session_config" not in text

    @pytest.mark.parametrize(
        ("tf_config", "task", "is_chief"),
        [
            ({}, "no cluster: local mode, where the task is worker:0", "local mode"),
            (
                {"cluster": {"chief": ["c:1"]}, "task": {"type": "evaluator", "index": 0}},
                "the evaluator, which is not part of the training cluster",
                "the evaluator is never the chief",
            ),
        ],
    )
    def test_why_outside_a_training_cluster(
        self, tf_config: dict[str, Any], task: str, is_chief: str
    ) -> None:
        out = json.loads(explain_run_config(run_config(tf_config), "env", output="json", why=True))
        assert out["reasons"]["task"] == task
        assert out["reasons"]["is_chief"].startswith(is_chief)

    def test_a_session_master_with_no_cluster_is_said_to_be_the_master(self) -> None:
        """In local mode a TF_CONFIG's session_master is the master, and the reason says so."""
        tf_config = {"session_master": "grpc://m:2222"}
        out = json.loads(explain_run_config(run_config(tf_config), "env", output="json", why=True))
        assert out["master"] == "grpc://m:2222"
        assert out["reasons"]["master"] == "session_master of TF_CONFIG"

    def test_a_worker_whose_resolver_gives_no_cluster_is_not_an_evaluator(self) -> None:
        """A TPU worker whose cluster resolver gives an empty cluster keeps a worker's reasons.

        Only an evaluator is outside the training cluster; an empty derived
        cluster does not make a worker one.
        """
        tf_config = TFConfig.model_validate(
            {
                "cluster": {"chief": ["c:2222"], "worker": ["w:2222"]},
                "task": {"type": "worker", "index": 0},
            }
        )
        config = TPURunConfig(tf_config=tf_config, cluster=EmptyResolver())
        out = json.loads(explain_run_config(config, "env", output="json", why=True))
        assert out["cluster_spec"] == {}
        assert out["reasons"]["task"].startswith("the task of TF_CONFIG, in chief mode")
        assert out["reasons"]["is_chief"] == "task type is worker; the chief is chief:0"

    def test_checkpoints_are_none_when_neither_steps_nor_seconds_are_set(self) -> None:
        """A RunConfig with neither save_checkpoints_steps nor _secs saves no checkpoints."""
        config = RunConfig(
            tf_config=TFConfig.model_validate(PS_CLUSTER), save_checkpoints_secs=None
        )
        assert rows(explain_run_config(config, "env"))["checkpoints"] == "(none)"

    def test_json_is_one_object_with_reasons_only_when_asked(self) -> None:
        out = json.loads(explain_run_config(run_config(PS_CLUSTER), "env", output="json"))
        assert out["tf_config_source"] == "env"
        assert out["global_id_in_cluster"] == 2
        assert "reasons" not in out

    def test_a_tpu_run_config_shows_its_loop(self) -> None:
        config = TPURunConfig.model_validate({"tpu_config": {"iterations_per_loop": "30s"}})
        table = rows(explain_run_config(config, "none"))
        assert table["tpu_config"] == ""
        assert table["per loop"] == "30 s"
        out = json.loads(explain_run_config(config, "none", output="json"))
        assert out["tpu_config"]["iterations_per_loop_counter"] == {"value": 30, "unit": "seconds"}


class TestProfile:
    def test_mwms_with_why(self) -> None:
        model = check_profile(TFConfig.model_validate(WORKERS), "mwms")
        table = rows(explain_profile(model, "env", "mwms", why=True))
        assert table["profile"] == "mwms"
        assert table["task"] == "worker:0"
        assert table["num_workers"] == "2  (0 chiefs + 2 workers)"
        assert table["is_chief"] == "True  (task type is worker; the chief is worker:0)"

    def test_mwms_counts_the_chief_first(self) -> None:
        cluster = {"chief": ["c:2222"], "worker": ["w0:2222", "w1:2222"]}
        for task, index, reason in [
            ({"type": "chief", "index": 0}, "0", "the chief is 0"),
            ({"type": "worker", "index": 1}, "2", "index 1 + 1 chief"),
        ]:
            tf_config = TFConfig.model_validate({"cluster": cluster, "task": task})
            table = rows(explain_profile(check_profile(tf_config, "mwms"), "env", "mwms", why=True))
            assert table["id_in_cluster"] == f"{index}  ({reason})"

    def test_mwms_an_evaluator_is_its_own_chief(self) -> None:
        """Under MultiWorkerMirroredStrategy an evaluator is the chief of itself alone."""
        cluster = {"chief": ["c:2222"], "worker": ["w:2222"], "evaluator": ["e:2222"]}
        tf_config = {"cluster": cluster, "task": {"type": "evaluator", "index": 0}}
        model = check_profile(TFConfig.model_validate(tf_config), "mwms")
        table = rows(explain_profile(model, "env", "mwms", why=True))
        assert table["is_chief"] == "True  (an evaluator is its own chief)"

    def test_ps_with_why_in_json(self) -> None:
        model = check_profile(TFConfig.model_validate(PS_CLUSTER), "ps")
        out = json.loads(explain_profile(model, "env", "ps", output="json", why=True))
        assert out["profile"] == "ps"
        assert out["reasons"]["num_ps"] == "1 ps in the cluster"
        assert out["reasons"]["role"] == "task type"

    def test_ps_device_filters_are_a_row_per_task(self) -> None:
        """The ps reader's device filters: a heading row, then one row per task below it."""
        model = check_profile(TFConfig.model_validate(PS_CLUSTER), "ps")
        table = rows(explain_profile(model, "env", "ps"))
        assert table["device_filters"] == ""
        assert table["worker:1"] == "/job:ps, /job:chief"
        assert table["ps:0"] == "/job:worker, /job:chief"

    def test_a_reader_without_reasons_gives_none(self) -> None:
        model = check_profile(TFConfig.model_validate(WORKERS), "server")
        out = json.loads(explain_profile(model, "env", "server", output="json", why=True))
        assert out["reasons"] == {}


class TestReaders:
    def test_side_by_side_with_each_refusal_below(self) -> None:
        text, accepted = explain_readers(TFConfig.model_validate(PS_CLUSTER), "env")
        assert accepted
        lines = text.splitlines()
        assert lines[0] == "TF_CONFIG from  env"
        assert lines[1].split() == ["estimator", "mwms", "ps", "server"]
        assert lines[2].split()[:3] == ["task", "worker:1", "refused"]
        assert lines[-1] == (
            "mwms: cluster.ps[0]: task ps:0 of this cluster: There is no id for task_type 'ps'"
        )

    def test_no_reader_accepts(self) -> None:
        cluster = {"chief": ["c:1", "c:2"], "worker": ["w:1"]}
        tf_config = {"cluster": cluster, "task": {"type": "worker", "index": 3}}
        out, accepted = explain_readers(TFConfig.model_validate(tf_config), "env", output="json")
        assert not accepted
        assert all(view["values"] is None for view in json.loads(out)["readers"])


class TPUResolver:
    """Stands for the cluster resolver of a TPU job: its own cluster and master."""

    def master(self) -> str:
        return "grpc://tpu:8470"

    def cluster_spec(self) -> dict[str, Any]:
        return {"worker": ["t:8470"]}


def test_an_evaluator_with_a_tpu_cluster_resolver_gets_an_evaluators_reasons() -> None:
    """The evaluator is outside training whatever the resolver gives; the master is its."""
    tf_config = TFConfig.model_validate(
        {
            "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
            "task": {"type": "evaluator", "index": 0},
        }
    )
    config = TPURunConfig(tf_config=tf_config, cluster=TPUResolver())
    out = json.loads(explain_run_config(config, "env", output="json", why=True))
    assert (out["master"], out["is_chief"], out["global_id_in_cluster"]) == (
        "grpc://tpu:8470",
        False,
        None,
    )
    assert out["reasons"]["task"] == "the evaluator, which is not part of the training cluster"
    assert out["reasons"]["master"] == "the cluster resolver's master"
    assert (
        out["reasons"]["global_id_in_cluster"] == "the evaluator has no id in the training cluster"
    )
