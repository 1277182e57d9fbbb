"""estconf.distribute.MultiWorkerConfig: MultiWorkerMirroredStrategy."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

from estconf.distribute import MultiWorkerConfig
from estconf.distribute.multi_worker import SINGLE_WORKER_DEVICE
from values import is_a_value

from strategies import distribute_tf_configs

WORKERS = {"worker": ["w:0", "w:1", "w:2"]}
CHIEF_WORKERS = {"chief": ["c:0"], "worker": ["w:0", "w:1"]}


def config(cluster: dict[str, Any], task_type: str, index: int | str) -> MultiWorkerConfig:
    return MultiWorkerConfig(
        tf_config={"cluster": cluster, "task": {"type": task_type, "index": index}}
    )


def refusal(tf_config: dict[str, Any]) -> tuple[str, tuple[Any, ...], str]:
    with pytest.raises(ValidationError) as info:
        MultiWorkerConfig(tf_config=tf_config)
    errors = info.value.errors()
    assert len(errors) == 1
    return errors[0]["type"], errors[0]["loc"], errors[0]["msg"]


class TestSingleWorker:
    @pytest.mark.parametrize(
        "tf_config",
        [{}, {"cluster": {}}, {"task": {"type": "ps", "index": 7}}, {"task": {"type": "other"}}],
    )
    def test_without_cluster_the_task_is_not_read(self, tf_config: dict[str, Any]) -> None:
        single = MultiWorkerConfig(tf_config=tf_config)
        assert not single.multi_worker
        assert (single.cluster_spec, single.task_type, single.task_id) == (None, None, None)
        assert (single.num_workers, single.id_in_cluster, single.is_chief) == (1, 0, True)
        assert (single.collective_leader, single.coordination_leader) == ("", "")
        assert (
            single.worker_device
            == SINGLE_WORKER_DEVICE
            == "/job:localhost/replica:0/task:0/device:CPU:0"
        )

    def test_rpc_layer_is_read(self) -> None:
        assert MultiWorkerConfig(tf_config={"rpc_layer": "grpc"}).rpc_layer == "grpc"


class TestMultiWorker:
    def test_workers_alone(self) -> None:
        worker = config(WORKERS, "worker", "2")
        assert worker.multi_worker
        assert (worker.task_type, worker.task_id) == ("worker", 2)
        assert (worker.num_workers, worker.id_in_cluster, worker.is_chief) == (3, 2, False)
        assert worker.collective_leader == "/job:worker/replica:0/task:0"
        assert worker.coordination_leader == "/job:worker/replica:0/task:0"
        assert worker.worker_device == "/job:worker/task:2"
        assert worker.cluster_spec == WORKERS

    def test_worker_zero_is_chief_without_a_chief(self) -> None:
        assert config(WORKERS, "worker", 0).is_chief
        assert not config(CHIEF_WORKERS, "worker", 0).is_chief

    def test_the_chief_counts_as_a_worker(self) -> None:
        one = config({"chief": ["c:0"], "worker": ["w:0"]}, "worker", 0)
        assert (one.num_workers, one.id_in_cluster) == (2, 1)

    def test_the_derived_values_cannot_be_changed(self) -> None:
        derived = MultiWorkerConfig.derive(config(CHIEF_WORKERS, "chief", 0).tf_config)
        with pytest.raises(dataclasses.FrozenInstanceError):
            derived.num_workers = 1  # type: ignore[misc]

    def test_chief_leads(self) -> None:
        chief = config(CHIEF_WORKERS, "chief", 0)
        assert (chief.num_workers, chief.id_in_cluster, chief.is_chief) == (3, 0, True)
        assert chief.collective_leader == "/job:chief/replica:0/task:0"
        assert config(CHIEF_WORKERS, "worker", 1).id_in_cluster == 2

    def test_ps_leads_coordination(self) -> None:
        worker = config({**CHIEF_WORKERS, "ps": ["p:0"]}, "worker", 0)
        assert worker.coordination_leader == "/job:ps/replica:0/task:0"
        assert worker.collective_leader == "/job:chief/replica:0/task:0"

    def test_evaluator_in_the_cluster(self) -> None:
        evaluator = config({**CHIEF_WORKERS, "evaluator": ["e:0"]}, "evaluator", 0)
        assert (evaluator.num_workers, evaluator.id_in_cluster, evaluator.is_chief) == (1, 0, True)
        assert (evaluator.collective_leader, evaluator.coordination_leader) == ("", "")
        assert evaluator.worker_device == "/job:evaluator/task:0"

    def test_a_sparse_job_counts_its_tasks(self) -> None:
        worker = config({"chief": {"1": "c:1"}, "worker": {"0": "w:0", "1": "w:1"}}, "worker", 1)
        assert (worker.num_workers, worker.id_in_cluster) == (3, 2)


class TestRefusals:
    """TensorFlow's checks, in its order, then the section 6 rules."""

    @pytest.mark.parametrize(
        ("task", "missing"), [({}, "type"), ({"type": "worker"}, "index"), ({"index": 0}, "type")]
    )
    def test_task_type_and_index_must_be_set(self, task: dict[str, Any], missing: str) -> None:
        code, loc, msg = refusal({"cluster": WORKERS, "task": task})
        assert (code, loc) == ("missing_task", ("tf_config", "task", missing))
        assert (
            msg == "When `cluster_spec` is given, you must also specify `task_type` and `task_id`."
        )

    def test_a_misspelled_job_is_named(self) -> None:
        _, loc, msg = refusal(
            {"cluster": {"worker": ["w:0"], "PS": ["p:0"]}, "task": {"type": "worker", "index": 0}}
        )
        assert loc == ("tf_config", "cluster", "PS")
        assert msg.endswith("(job 'PS' is not one of them; did you mean 'ps'?)")

    def test_only_known_jobs(self) -> None:
        code, loc, msg = refusal(
            {"cluster": {**WORKERS, "master": ["m:0"]}, "task": {"type": "worker", "index": 0}}
        )
        assert (code, loc) == ("disallowed_job", ("tf_config", "cluster", "master"))
        assert msg.startswith(
            "Disallowed task type found in cluster spec. Allowed types are ('chief', 'worker', "
            "'evaluator', 'ps', None) and the cluster spec is ClusterSpec({'master': ['m:0'], "
            "'worker': ['w:0', 'w:1', 'w:2']})."
        )

    def test_only_known_task_types(self) -> None:
        code, _, msg = refusal({"cluster": WORKERS, "task": {"type": "master", "index": 0}})
        assert code == "unrecognized_task_type"
        assert msg == (
            "Unrecognized task_type: master, valid task types are: "
            "('chief', 'worker', 'evaluator', 'ps', None)"
        )

    @pytest.mark.parametrize("task_type", ["chief", "ps"])
    def test_task_type_must_be_a_job(self, task_type: str) -> None:
        code, _, msg = refusal({"cluster": WORKERS, "task": {"type": task_type, "index": 0}})
        assert (code, msg) == (
            "task_type_not_in_cluster",
            f"`task_type` {task_type!r} not found in cluster_spec.",
        )

    @pytest.mark.parametrize("job", ["chief", "evaluator"])
    def test_at_most_one_chief_and_one_evaluator(self, job: str) -> None:
        cluster = {**WORKERS, job: ["x:0", "x:1"]}
        code, loc, msg = refusal({"cluster": cluster, "task": {"type": "worker", "index": 0}})
        assert (code, loc, msg) == (
            f"multiple_{job}s",
            ("tf_config", "cluster", job),
            f"There must be at most one '{job}' job.",
        )

    def test_index_below_the_number_of_tasks(self) -> None:
        code, _, msg = refusal({"cluster": WORKERS, "task": {"type": "worker", "index": 3}})
        assert (code, msg) == (
            "task_id_out_of_range",
            "The `task_id` 3 exceeds the maximum id of worker.",
        )

    def test_holes_are_not_counted(self) -> None:
        cluster = {"worker": {"0": "w:0", "5": "w:5"}}
        code, _, msg = refusal({"cluster": cluster, "task": {"type": "worker", "index": 5}})
        assert (code, msg) == (
            "task_id_out_of_range",
            "The `task_id` 5 exceeds the maximum id of worker.",
        )

    def test_ps_has_no_id(self) -> None:
        code, _, msg = refusal(
            {"cluster": {**WORKERS, "ps": ["p:0"]}, "task": {"type": "ps", "index": 0}}
        )
        assert (code, msg) == ("no_id_for_task_type", "There is no id for task_type 'ps'")

    def test_evaluator_outside_the_cluster(self) -> None:
        code, _, msg = refusal({"cluster": WORKERS, "task": {"type": "evaluator", "index": 0}})
        assert code == "missing_evaluator_job"
        assert "KeyError: 'evaluator'" in msg

    def test_negative_index_is_refused_on_purpose(self) -> None:
        code, loc, _ = refusal({"cluster": CHIEF_WORKERS, "task": {"type": "worker", "index": -1}})
        assert (code, loc) == ("negative_index", ("tf_config", "task", "index"))

    def test_a_hole_is_refused_on_purpose(self) -> None:
        cluster = {"worker": {"0": "w:0", "5": "w:5"}}
        code, _, msg = refusal({"cluster": cluster, "task": {"type": "worker", "index": 1}})
        assert code == "task_in_hole"
        assert "hole" in msg

    def test_tensorflows_check_comes_before_the_stricter_one(self) -> None:
        cluster = {**WORKERS, "ps": ["p:0"]}
        code, _, _ = refusal({"cluster": cluster, "task": {"type": "ps", "index": -1}})
        assert code == "no_id_for_task_type"


class TestTensorFlowsComplaintBesideAStricterRule:
    """A TF_CONFIG a section 6 rule refuses is still checked as the strategy reads it."""

    @pytest.mark.parametrize(
        ("tf_config", "errors", "sentence"),
        [
            (
                {"cluster": {"worker": ["w0", "w1:2222"]}, "task": {"type": "chief", "index": 0}},
                [
                    ("address", ("tf_config", "cluster", "worker", 0)),
                    ("task_type_not_in_cluster", ("tf_config", "task", "type")),
                ],
                "`task_type` 'chief' not found in cluster_spec.",
            ),
            (
                {
                    "cluster": {"worker": ["w0:2222"], "aux-1": ["a:2222"]},
                    "task": {"type": "worker", "index": 0},
                },
                [
                    ("job_name", ("tf_config", "cluster", "aux-1", "[key]")),
                    ("disallowed_job", ("tf_config", "cluster", "aux-1")),
                ],
                "Disallowed task type found in cluster spec. Allowed types are ('chief', "
                "'worker', 'evaluator', 'ps', None) and the cluster spec is ClusterSpec("
                "{'aux-1': ['a:2222'], 'worker': ['w0:2222']}).",
            ),
            (
                {"cluster": {"worker": ["w:1", "w:1"]}, "task": {"type": "worker", "index": 2}},
                [
                    ("address", ("tf_config", "cluster", "worker", 1)),
                    ("task_id_out_of_range", ("tf_config", "task", "index")),
                ],
                "The `task_id` 2 exceeds the maximum id of worker.",
            ),
            (
                {"cluster": {"worker": ["w0"]}, "task": {"type": None, "index": 0}},
                [
                    ("address", ("tf_config", "cluster", "worker", 0)),
                    ("unrecognized_task_type", ("tf_config", "task", "type")),
                ],
                "Unrecognized task_type: None, valid task types are:",
            ),
            (
                # worker_count checks task 0 of the task's own job, which has none.
                {"cluster": {"worker": []}, "task": {"type": "worker", "index": -1}},
                [
                    ("empty_job", ("tf_config", "cluster", "worker")),
                    ("task_id_out_of_range", ("tf_config", "task", "index")),
                ],
                "The `task_id` 0 exceeds the maximum id of worker.",
            ),
            (
                # TensorFlow puts index -3 at the place counted from the end: over task 0.
                {
                    "cluster": {"chief": {"0": "c0:1", "-3": "c3:1", "2": "c2:1"}, "aux": ["a:1"]},
                    "task": {"type": "chief", "index": 0},
                },
                [
                    ("sparse_index_negative", ("tf_config", "cluster", "chief", -3)),
                    ("disallowed_job", ("tf_config", "cluster", "aux")),
                ],
                "the cluster spec is ClusterSpec({'aux': ['a:1'], "
                "'chief': ['c3:1', None, 'c2:1']}).",
            ),
        ],
        ids=[
            "task_type_not_in_cluster",
            "disallowed_job",
            "index_out_of_range",
            "null_type",
            "empty_own_job",
            "negative_sparse_index",
        ],
    )
    def test_both_reported(
        self, tf_config: dict[str, Any], errors: list[tuple[str, Any]], sentence: str
    ) -> None:
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig.from_env({"TF_CONFIG": json.dumps(tf_config)})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == errors
        assert sentence in str(info.value)

    @pytest.mark.parametrize(
        ("index", "errors"),
        [
            ("x", ["address", "int_type"]),
            ([], ["address", "int_type"]),
            (None, ["address"]),  # the null check runs on a valid TF_CONFIG only
            (1.5, ["address", "int_type", "task_type_not_in_cluster"]),  # int(1.5) is 1
        ],
    )
    def test_nothing_added_once_tensorflow_fails_reading_the_index(
        self, index: Any, errors: list[str]
    ) -> None:
        tf_config = {"cluster": {"worker": ["w0"]}, "task": {"type": "chief", "index": index}}
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig(tf_config=tf_config)
        assert [e["type"] for e in info.value.errors()] == errors

    def test_tensorflows_complaint_about_what_it_reads_of_duplicate_keys(self) -> None:
        text = (
            '{"cluster": {"worker": ["w:1"]}, "cluster": {"worker": ["w:1"], "ps": ["p:1"]}, '
            '"task": {"type": "ps", "index": 0}}'
        )
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig.from_env({"TF_CONFIG": text})
        assert [e["type"] for e in info.value.errors()] == ["duplicate_key", "no_id_for_task_type"]


class TestFromEnv:
    def test_reads_the_variable(self) -> None:
        text = json.dumps({"cluster": WORKERS, "task": {"type": "worker", "index": 1}})
        assert MultiWorkerConfig.from_env({"TF_CONFIG": text}) == config(WORKERS, "worker", 1)

    @pytest.mark.parametrize(("index", "id_in_cluster"), [(0, 1), (1, 2), (2, 3)])
    def test_workers_count_after_the_chief(self, index: int, id_in_cluster: int) -> None:
        cluster = {"chief": ["c:0"], "worker": ["w:0", "w:1", "w:2"]}
        assert config(cluster, "worker", index).id_in_cluster == id_in_cluster

    def test_a_chief_read_from_json(self) -> None:
        text = json.dumps({"cluster": CHIEF_WORKERS, "task": {"type": "chief", "index": 0}})
        chief = MultiWorkerConfig.from_env({"TF_CONFIG": text})
        assert (chief.id_in_cluster, chief.is_chief, chief.num_workers) == (0, True, 3)

    def test_an_evaluator_read_from_json(self) -> None:
        text = json.dumps(
            {
                "cluster": {**WORKERS, "evaluator": ["e:0"]},
                "task": {"type": "evaluator", "index": 0},
            }
        )
        evaluator = MultiWorkerConfig.from_env({"TF_CONFIG": text})
        assert (evaluator.num_workers, evaluator.id_in_cluster, evaluator.is_chief) == (1, 0, True)
        assert evaluator.collective_leader == ""
        text = json.dumps({"cluster": WORKERS, "task": {"type": "evaluator", "index": 0}})
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig.from_env({"TF_CONFIG": text})
        assert [e["type"] for e in info.value.errors()] == ["missing_evaluator_job"]

    def test_unset_is_single_worker(self) -> None:
        assert not MultiWorkerConfig.from_env({}).multi_worker

    def test_unreadable(self) -> None:
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig.from_env({"TF_CONFIG": "[]"})
        assert [(e["type"], e["input"]) for e in info.value.errors()] == [("tf_config_type", [])]

    def test_not_json_is_shown_as_given(self) -> None:
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig.from_env({"TF_CONFIG": "{bad"})
        [error] = info.value.errors()
        assert (error["loc"], error["input"]) == (("tf_config",), "{bad")


class TestDump:
    def test_holds_every_derived_value(self) -> None:
        tf_config = {"cluster": CHIEF_WORKERS, "task": {"type": "worker", "index": 1}}
        dump = MultiWorkerConfig(tf_config={**tf_config, "rpc_layer": "grpc"}).model_dump()
        assert {key: value for key, value in dump.items() if key != "tf_config"} == {
            "cluster_spec": CHIEF_WORKERS,
            "task_type": "worker",
            "task_id": 1,
            "rpc_layer": "grpc",
            "multi_worker": True,
            "num_workers": 3,
            "id_in_cluster": 2,
            "is_chief": False,
            "collective_leader": "/job:chief/replica:0/task:0",
            "coordination_leader": "/job:chief/replica:0/task:0",
            "worker_device": "/job:worker/task:1",
        }

    def test_derived_keys_are_computed_fields(self) -> None:
        dump = config(CHIEF_WORKERS, "worker", 1).model_dump(mode="json")
        assert dump["id_in_cluster"] == 2
        assert dump["worker_device"] == "/job:worker/task:1"

    def test_a_disagreeing_derived_key_is_refused(self) -> None:
        dump = config(CHIEF_WORKERS, "worker", 1).model_dump()
        with pytest.raises(ValidationError) as info:
            MultiWorkerConfig.model_validate({**dump, "id_in_cluster": 0})
        assert [e["type"] for e in info.value.errors()] == ["derived_mismatch"]


@given(distribute_tf_configs())
def test_round_trip(data: dict[str, Any]) -> None:
    try:
        multi_worker = MultiWorkerConfig(tf_config=data)
    except ValidationError:
        return
    assert MultiWorkerConfig.model_validate(multi_worker.model_dump()) == multi_worker
    assert MultiWorkerConfig.model_validate_json(multi_worker.model_dump_json()) == multi_worker
    assert multi_worker.multi_worker == bool(data.get("cluster"))
    if multi_worker.multi_worker:
        assert 0 <= multi_worker.id_in_cluster < multi_worker.num_workers


def test_a_multi_worker_config_is_a_value() -> None:
    """A MultiWorkerConfig refuses assignment and hashes by its TF_CONFIG."""
    is_a_value(
        lambda: MultiWorkerConfig(
            tf_config={
                "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
                "task": {"type": "worker", "index": 0},
            }
        )
    )
