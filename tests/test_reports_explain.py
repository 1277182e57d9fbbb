"""estconf.reports.explain: what a reader derives, as explain's table or JSON, with the rules."""

from __future__ import annotations

import json
from typing import Any

from estconf import RunConfig, TFConfig
from estconf.profiles import check_profile
from estconf.reports.explain import explain_profile, explain_readers, explain_run_config
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

    def test_a_reader_gives_no_rules_unless_asked_why(self) -> None:
        cluster = {"chief": ["c:2222"], "worker": ["w0:2222", "w1:2222"]}
        tf_config = TFConfig.model_validate(
            {"cluster": cluster, "task": {"type": "worker", "index": 1}}
        )
        model = check_profile(tf_config, "mwms")
        assert rows(explain_profile(model, "env", "mwms"))["id_in_cluster"] == "2"
        document = json.loads(explain_profile(model, "env", "mwms", output="json"))
        assert "reasons" not in document

    def test_a_task_with_an_index_and_no_type_shows_both(self) -> None:
        """The ps reader takes a task with no type as the coordinator, and keeps its index."""
        cluster = {"chief": ["c:2222"], "worker": ["w:2222"], "ps": ["p:2222"]}
        tf_config = TFConfig.model_validate({"cluster": cluster, "task": {"index": 0}})
        table = rows(explain_profile(check_profile(tf_config, "ps"), "env", "ps"))
        assert (table["task"], table["role"]) == ("(none):0", "coordinator")

    def test_mwms_an_evaluator_is_its_own_chief(self) -> None:
        """Under MultiWorkerMirroredStrategy an evaluator is the chief of itself alone."""
        cluster = {"chief": ["c:2222"], "worker": ["w:2222"], "evaluator": ["e:2222"]}
        tf_config = {"cluster": cluster, "task": {"type": "evaluator", "index": 0}}
        model = check_profile(TFConfig.model_validate(tf_config), "mwms")
        table = rows(explain_profile(model, "env", "mwms", why=True))
        assert table["is_chief"] == "True  (an evaluator is its own chief)"

    def test_ps_device_filters_are_a_row_per_task(self) -> None:
        """The ps reader's device filters: a heading row, then one row per task below it."""
        model = check_profile(TFConfig.model_validate(PS_CLUSTER), "ps")
        table = rows(explain_profile(model, "env", "ps"))
        assert table["device_filters"] == ""
        assert table["worker:1"] == "/job:ps, /job:chief"
        assert table["ps:0"] == "/job:worker, /job:chief"


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


def test_no_reader_accepts_in_json() -> None:
    cluster = {"chief": ["c:1", "c:2"], "worker": ["w:1"]}
    tf_config = {"cluster": cluster, "task": {"type": "worker", "index": 3}}
    out, accepted = explain_readers(TFConfig.model_validate(tf_config), "env", output="json")
    assert not accepted
    document = json.loads(out)
    assert document["tf_config_source"] == "env"
    assert all(view["values"] is None for view in document["readers"])


def test_a_reader_without_reasons_writes_an_empty_object_of_them() -> None:
    model = check_profile(TFConfig.model_validate(WORKERS), "server")
    out = json.loads(explain_profile(model, "env", "server", output="json", why=True))
    assert out["reasons"] == {}
