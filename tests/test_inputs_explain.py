"""estconf.inputs.explain: what a reader derives from a TF_CONFIG, and the rule behind each."""

from __future__ import annotations

from typing import Any

import pytest

from estconf import RunConfig, TFConfig
from estconf.inputs.explain import Explained, profile_facts, reader_views, run_config_facts
from estconf.profiles import check_profile
from estconf.tpu import RunConfig as TPURunConfig
from values import refuses_assignment

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


def run_config(tf_config: dict[str, Any]) -> RunConfig:
    return RunConfig(tf_config=TFConfig.model_validate(tf_config))


def with_reasons(found: Explained) -> dict[str, Any]:
    """The facts, and the reasons under ``reasons``, as ``explain --format json --why`` has them."""
    assert found.reasons is not None
    return {**found.facts, "reasons": found.reasons}


class EmptyResolver:
    """Stands for a tf.distribute cluster resolver of an empty cluster and no master."""

    def master(self) -> str:
        return ""

    def cluster_spec(self) -> dict[str, Any]:
        return {}


class TPUResolver:
    """Stands for the cluster resolver of a TPU job: its own cluster and master."""

    def master(self) -> str:
        return "grpc://tpu:8470"

    def cluster_spec(self) -> dict[str, Any]:
        return {"worker": ["t:8470"]}


class TestRunConfig:
    def test_the_facts_start_with_the_source_and_have_no_reasons_unless_asked(self) -> None:
        found = run_config_facts(run_config(PS_CLUSTER), "env")
        assert list(found.facts)[:2] == ["tf_config_source", "task_type"]
        assert (found.facts["tf_config_source"], found.facts["global_id_in_cluster"]) == ("env", 2)
        assert found.reasons is None

    def test_a_session_config_of_its_own_has_no_reason(self) -> None:
        config = run_config(PS_CLUSTER)
        assert (
            "device_filters" in with_reasons(run_config_facts(config, "env", why=True))["reasons"]
        )
        found = run_config_facts(config, "env", why=True, session_config_given=True)
        assert "device_filters" not in with_reasons(found)["reasons"]

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
        out = with_reasons(run_config_facts(run_config(tf_config), "env", why=True))
        assert out["reasons"]["task"] == task
        assert out["reasons"]["is_chief"].startswith(is_chief)

    def test_a_session_master_with_no_cluster_is_said_to_be_the_master(self) -> None:
        """In local mode a TF_CONFIG's session_master is the master, and the reason says so."""
        tf_config = {"session_master": "grpc://m:2222"}
        out = with_reasons(run_config_facts(run_config(tf_config), "env", why=True))
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
        out = with_reasons(run_config_facts(config, "env", why=True))
        assert out["cluster_spec"] == {}
        assert out["reasons"]["task"].startswith("the task of TF_CONFIG, in chief mode")
        assert out["reasons"]["is_chief"] == "task type is worker; the chief is chief:0"

    def test_an_evaluator_with_a_tpu_cluster_resolver_gets_an_evaluators_reasons(self) -> None:
        """The evaluator is outside training whatever the resolver gives; the master is its."""
        tf_config = TFConfig.model_validate(
            {
                "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
                "task": {"type": "evaluator", "index": 0},
            }
        )
        config = TPURunConfig(tf_config=tf_config, cluster=TPUResolver())
        out = with_reasons(run_config_facts(config, "env", why=True))
        assert (out["master"], out["is_chief"], out["global_id_in_cluster"]) == (
            "grpc://tpu:8470",
            False,
            None,
        )
        assert out["reasons"]["task"] == "the evaluator, which is not part of the training cluster"
        assert out["reasons"]["master"] == "the cluster resolver's master"
        assert (
            out["reasons"]["global_id_in_cluster"]
            == "the evaluator has no id in the training cluster"
        )

    def test_a_tpu_run_config_keeps_its_loop(self) -> None:
        config = TPURunConfig.model_validate({"tpu_config": {"iterations_per_loop": "30s"}})
        tpu = run_config_facts(config, "none").facts["tpu_config"]
        assert tpu["iterations_per_loop_counter"] == {"value": 30, "unit": "seconds"}


class TestProfile:
    def test_ps_with_why(self) -> None:
        model = check_profile(TFConfig.model_validate(PS_CLUSTER), "ps")
        out = with_reasons(profile_facts(model, "env", "ps", why=True))
        assert out["profile"] == "ps"
        assert out["reasons"]["num_ps"] == "1 ps in the cluster"
        assert out["reasons"]["role"] == "task type"

    def test_a_reader_without_reasons_gives_none(self) -> None:
        model = check_profile(TFConfig.model_validate(WORKERS), "server")
        assert profile_facts(model, "env", "server", why=True).reasons == {}
        assert profile_facts(model, "env", "server").reasons is None


class TestReaders:
    def test_each_reader_has_a_view(self) -> None:
        found = reader_views(TFConfig.model_validate(PS_CLUSTER), "env")
        assert found.source == "env"
        assert [view["profile"] for view in found.views] == ["estimator", "mwms", "ps", "server"]
        assert found.accepted

    def test_each_view_is_json_data_with_the_profile_as_a_plain_string(self) -> None:
        found = reader_views(TFConfig.model_validate(PS_CLUSTER), "env")
        assert [type(view["profile"]) for view in found.views] == [str] * 4

    def test_no_reader_accepts(self) -> None:
        cluster = {"chief": ["c:1", "c:2"], "worker": ["w:1"]}
        tf_config = {"cluster": cluster, "task": {"type": "worker", "index": 3}}
        found = reader_views(TFConfig.model_validate(tf_config), "env")
        assert not found.accepted
        assert all(view["values"] is None for view in found.views)


def test_what_a_reader_derives_refuses_assignment() -> None:
    """The facts of one reader and the views of each: a record that holds dicts and lists."""
    refuses_assignment(run_config_facts(run_config(PS_CLUSTER), "env", why=True))
    refuses_assignment(reader_views(TFConfig.model_validate(PS_CLUSTER), "env"))
