"""estconf.distribute.ServerConfig: a TF1 program's tf.train.Server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

from estconf.distribute import ServerConfig
from estconf.profiles import check_profile
from values import is_a_value

from strategies import distribute_tf_configs

DIST_MNIST = {"ps": ["ps-0:2222"], "worker": ["worker-0:2222", "worker-1:2222"]}


def refusals(tf_config: Any) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        ServerConfig(tf_config=tf_config)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestTheTask:
    def test_a_ps_and_worker_job(self) -> None:
        config = ServerConfig(
            tf_config={"cluster": DIST_MNIST, "task": {"type": "worker", "index": 1}}
        )
        assert (config.task_type, config.task_id) == ("worker", 1)
        assert (config.address, config.target) == ("worker-1:2222", "grpc://worker-1:2222")

    @pytest.mark.parametrize("job", ["trainer", "param_server", "Worker", "master", "chief"])
    def test_any_job_name(self, job: str) -> None:
        tf_config = {"cluster": {job: ["h:1"]}, "task": {"type": job, "index": 0}}
        assert ServerConfig(tf_config=tf_config).task_type == job

    def test_nothing_about_chief_or_evaluator(self) -> None:
        cluster = {"chief": ["c:0", "c:1"], "evaluator": ["e:0", "e:1"]}
        ServerConfig(tf_config={"cluster": cluster, "task": {"type": "evaluator", "index": 1}})

    def test_a_job_that_is_not_in_the_cluster(self) -> None:
        assert refusals({"cluster": DIST_MNIST, "task": {"type": "chief", "index": 0}}) == [
            (
                "task_not_in_cluster",
                ("tf_config", "task", "type"),
                "No such job in cluster: 'chief' (the jobs are ['ps', 'worker'])",
            )
        ]

    @pytest.mark.parametrize("index", [2, -1])
    def test_an_index_that_is_not_a_task(self, index: int) -> None:
        [(code, loc, msg)] = refusals(
            {"cluster": DIST_MNIST, "task": {"type": "worker", "index": index}}
        )
        assert (code, loc) == ("task_not_in_cluster", ("tf_config", "task", "index"))
        assert msg.startswith(f"No task with index {index} in job 'worker'")

    @pytest.mark.parametrize(
        ("task", "value"),
        [({"type": "chief", "index": 0}, "chief"), ({"type": "worker", "index": 5}, 5)],
    )
    def test_the_error_shows_the_value_it_is_placed_at(
        self, task: dict[str, Any], value: object
    ) -> None:
        """A missing job shows the job name; a missing task of a job shows the index."""
        with pytest.raises(ValidationError) as refused:
            ServerConfig(tf_config={"cluster": DIST_MNIST, "task": task})
        [error] = refused.value.errors()
        assert (error["type"], error["input"]) == ("task_not_in_cluster", value)

    @pytest.mark.parametrize("index", [2**31, -(2**31) - 1, 2**63])
    def test_an_index_beyond_int32_is_refused_before_the_task_is_looked_up(
        self, index: int
    ) -> None:
        # The ServerDef's int32 field refuses it: ValueError: Value out of range: <index>
        for cluster in (DIST_MNIST, {}):
            [(code, loc, msg)] = refusals(
                {"cluster": cluster, "task": {"type": "worker", "index": index}}
            )
            assert (code, loc) == ("int32_range", ("tf_config", "task", "index"))
            assert msg.startswith(f"Value out of range: {index} ")

    def test_a_hole_of_a_sparse_job(self) -> None:
        cluster = {"worker": {"0": "w:0", "2": "w:2"}}
        [(code, _, _)] = refusals({"cluster": cluster, "task": {"type": "worker", "index": 1}})
        assert code == "task_not_in_cluster"

    def test_no_cluster(self) -> None:
        [(code, _, msg)] = refusals({"task": {"type": "worker", "index": 0}})
        assert (code, msg) == (
            "task_not_in_cluster",
            "No such job in cluster: 'worker' (the jobs are [])",
        )


class TestInferred:
    """A missing job name or index is taken from the cluster when it leaves one choice."""

    def test_the_only_job_and_task(self) -> None:
        config = ServerConfig(tf_config={"cluster": {"worker": ["w:0"]}})
        assert (config.task_type, config.task_id) == ("worker", 0)

    def test_the_only_task_of_the_job(self) -> None:
        config = ServerConfig(tf_config={"cluster": DIST_MNIST, "task": {"type": "ps"}})
        assert config.task_id == 0

    def test_no_job_name_and_two_jobs(self) -> None:
        [(code, loc, msg)] = refusals({"cluster": DIST_MNIST, "task": {"index": 0}})
        assert (code, loc) == ("missing_job_name", ("tf_config", "task", "type"))
        assert msg.startswith("Must specify an explicit `job_name`.")

    def test_no_index_and_two_tasks(self) -> None:
        [(code, loc, msg)] = refusals({"cluster": DIST_MNIST, "task": {"type": "worker"}})
        assert (code, loc) == ("missing_task_index", ("tf_config", "task", "index"))
        assert msg.startswith("Must specify an explicit `task_index`.")


class TestIndexAsWritten:
    """The index goes to an int32 field of the ServerDef, which takes integers only."""

    @pytest.mark.parametrize(("index", "kind"), [("1", "str"), (1.0, "float")])
    def test_refused(self, index: Any, kind: str) -> None:
        tf_config = {"cluster": DIST_MNIST, "task": {"type": "worker", "index": index}}
        [(code, loc, msg)] = refusals(tf_config)
        assert (code, loc) == ("task_index_type", ("tf_config", "task", "index"))
        assert msg.startswith(f"task index {index!r} is written as a ")
        assert f"'{kind}' object cannot be interpreted as an integer" in msg
        with pytest.raises(ValidationError, match="task_index_type"):
            ServerConfig.from_env({"TF_CONFIG": json.dumps(tf_config)})

    def test_an_index_true_is_read_as_protobuf_reads_it(self) -> None:
        """Refused as a bool (section 6), and as the 1 the ServerDef makes of it."""
        tf_config = {"cluster": {"chief": ["h:0"]}, "task": {"type": "chief", "index": True}}
        found = refusals(tf_config)
        assert [code for code, _, _ in found] == ["int_type", "task_not_in_cluster"]
        assert found[1][2].startswith("No task with index 1 in job 'chief'")

    def test_a_type_no_server_def_takes_is_reported_once(self) -> None:
        """Protobuf's ServerDef refuses a job name that is no string: no task is looked up."""
        tf_config = {"cluster": DIST_MNIST, "task": {"type": 5, "index": 0}}
        assert [(code, loc) for code, loc, _ in refusals(tf_config)] == [
            ("string_type", ("tf_config", "task", "type"))
        ]

    def test_an_index_no_reader_takes_is_reported_once(self) -> None:
        tf_config = {"cluster": DIST_MNIST, "task": {"type": "worker", "index": "x"}}
        assert [code for code, _, _ in refusals(tf_config)] == ["int_type"]


class TestProfile:
    def test_the_server_profile_reads_a_dist_mnist_cluster(self) -> None:
        tf_config = {"cluster": DIST_MNIST, "task": {"type": "ps", "index": 0}}
        assert isinstance(check_profile(tf_config, "server"), ServerConfig)

    def test_the_estimator_names_it_for_a_cluster_without_chief(self) -> None:
        with pytest.raises(ValidationError) as info:
            check_profile({"cluster": DIST_MNIST, "task": {"type": "ps", "index": 0}})
        assert info.value.errors()[0]["msg"].endswith(
            "(this cluster is valid for --profile ps or --profile server)"
        )

    def test_but_not_for_a_second_chief(self) -> None:
        cluster = {"chief": ["c:0", "c:1"], "worker": ["w:0"]}
        with pytest.raises(ValidationError) as info:
            check_profile({"cluster": cluster, "task": {"type": "worker", "index": 0}})
        assert "--profile server" not in info.value.errors()[0]["msg"]
        check_profile({"cluster": cluster, "task": {"type": "worker", "index": 0}}, "server")


@given(distribute_tf_configs())
def test_a_task_of_its_cluster_is_always_read(data: dict[str, Any]) -> None:
    """The server takes exactly the tasks of its cluster, whatever their jobs."""
    try:
        config = ServerConfig(tf_config=data)
    except ValidationError:
        return
    assert config.tf_config.cluster.task_address(config.task_type, config.task_id) == config.address


def test_a_server_config_is_a_value() -> None:
    """A ServerConfig refuses assignment and hashes by its TF_CONFIG."""
    is_a_value(
        lambda: ServerConfig(
            tf_config={
                "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
                "task": {"type": "worker", "index": 0},
            }
        )
    )
