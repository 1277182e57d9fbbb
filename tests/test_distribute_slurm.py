"""estconf.distribute.SlurmClusterResolver: TensorFlow's SLURM resolver (docs/slurm.md)."""

from __future__ import annotations

import enum
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from estconf import ClusterSpec
from estconf.distribute import SlurmClusterResolver
from estconf.distribute._hostlist import ListFormatError, expand_hostlist, expand_tasks_per_node
from values import refuses_assignment

STEP = {
    "SLURM_PROCID": "0",
    "SLURM_STEP_NUM_TASKS": "4",
    "SLURM_STEP_NODELIST": "node[9-10]",
    "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
}


def step(**variables: str) -> dict[str, str]:
    return {**STEP, **variables}


def codes(error: ValidationError) -> list[tuple[str, tuple[Any, ...]]]:
    return [(e["type"], e["loc"]) for e in error.errors()]


def refused(**kwargs: Any) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        SlurmClusterResolver(**kwargs)
    return info.value


class _Zero(enum.IntEnum):
    """A count of 0 that is an int subclass, as an API caller may pass."""

    GPUS = 0


class TestHostlist:
    @pytest.mark.parametrize(
        ("hostlist", "hosts"),
        [
            ("n[1-2],m5,o[3-4,6,7-9]", ["n1", "n2", "m5", "o3", "o4", "o6", "o7", "o8", "o9"]),
            ("node[08-11]", ["node08", "node09", "node10", "node11"]),
            ("n[1-3,01]", ["n1", "n2", "n3", "n01"]),
            ("b,a,b", ["b", "a", "b"]),
            ("n[3-1]", []),
            ("n1,", ["n1"]),
            ("[1-2]", ["1", "2"]),
            ("", []),
        ],
    )
    def test_expanded_in_order_padded_to_the_start(self, hostlist: str, hosts: list[str]) -> None:
        assert expand_hostlist(hostlist) == hosts

    @pytest.mark.parametrize(
        "hostlist",
        ["n[1-2]x", "n[1-2-3]", "n[", "a,,b", ",a", "n[[1]]", "n[]", "n[a-b]", "n]", "n[0-70000]"],
    )
    def test_what_tensorflow_cannot_read(self, hostlist: str) -> None:
        with pytest.raises(ListFormatError):
            expand_hostlist(hostlist)

    def test_a_range_is_limited_by_how_many_hosts_it_names_not_by_its_numbers(self) -> None:
        assert expand_hostlist("n[99998-99999]") == ["n99998", "n99999"]
        assert len(expand_hostlist("n[1-65536]")) == 65536
        with pytest.raises(ListFormatError, match="names more than 65536 hosts"):
            expand_hostlist("n[1-65537]")

    @pytest.mark.parametrize(
        ("text", "counts"),
        [("2(x3),1", [2, 2, 2, 1]), ("4", [4]), ("0,1(x1)", [0, 1]), ("1(x99999999)", [1] * 5)],
    )
    def test_tasks_per_node_expanded_up_to_the_hosts(self, text: str, counts: list[int]) -> None:
        assert expand_tasks_per_node(text, 5) == counts

    @pytest.mark.parametrize("text", ["", "2(x", "1,,2", "x", "2(3)", "-1"])
    def test_tasks_per_node_tensorflow_cannot_read(self, text: str) -> None:
        with pytest.raises(ListFormatError):
            expand_tasks_per_node(text, 5)


class TestTheCluster:
    def test_hosts_sorted_as_strings_ports_per_host(self) -> None:
        resolver = SlurmClusterResolver(gpus_per_node=2, environ=STEP)
        assert resolver.cluster_spec() == ClusterSpec(
            {"worker": ["node10:8888", "node10:8889", "node9:8888", "node9:8889"]}
        )
        # SLURM runs rank 0 on node9; TensorFlow gives it node10's first port.
        assert (resolver.task_type, resolver.task_id) == ("worker", 0)
        assert resolver.master() == "grpc://node10:8888"

    def test_jobs_filled_in_sorted_name_order(self) -> None:
        resolver = SlurmClusterResolver(jobs={"worker": 3, "ps": 1}, gpus_per_node=2, environ=STEP)
        assert resolver.cluster_spec().as_dict() == {
            "ps": ["node10:8888"],
            "worker": ["node10:8889", "node9:8888", "node9:8889"],
        }
        assert (resolver.task_type, resolver.task_id) == ("ps", 0)

    def test_a_job_of_size_0_stays_empty_and_the_evaluator_is_in(self) -> None:
        resolver = SlurmClusterResolver(
            jobs={"chief": 1, "evaluator": 1, "ps": 0, "worker": 2},
            gpus_per_node=2,
            environ=step(SLURM_PROCID="1"),
        )
        assert resolver.cluster_spec().as_dict() == {
            "chief": ["node10:8888"],
            "evaluator": ["node10:8889"],
            "ps": {},
            "worker": ["node9:8888", "node9:8889"],
        }
        assert (resolver.task_type, resolver.task_id) == ("evaluator", 0)
        assert resolver.tf_config == {
            "cluster": resolver.cluster_spec().as_dict(),
            "task": {"type": "evaluator", "index": 0},
            "rpc_layer": "grpc",
        }

    def test_jobs_default_to_every_task_as_worker(self) -> None:
        resolver = SlurmClusterResolver(gpus_per_node=2, environ=step(SLURM_PROCID="3"))
        assert (resolver.task_type, resolver.task_id) == ("worker", 3)

    def test_tasks_per_node_argument_replaces_the_step_variable(self) -> None:
        environ = {k: v for k, v in STEP.items() if k != "SLURM_STEP_TASKS_PER_NODE"}
        resolver = SlurmClusterResolver(
            jobs={"worker": 2}, tasks_per_node=1, gpus_per_node=1, port_base=2222, environ=environ
        )
        assert resolver.cluster_spec().as_dict() == {"worker": ["node10:2222", "node9:2222"]}
        by_host = SlurmClusterResolver(
            jobs={"worker": 3},
            tasks_per_node={"b": 1, "a": 2},
            gpus_per_node=2,
            environ={"SLURM_PROCID": "2"},
        )
        assert by_host.cluster_spec().as_dict() == {"worker": ["a:8888", "a:8889", "b:8888"]}

    def test_a_length_mismatch_is_cut(self) -> None:
        resolver = SlurmClusterResolver(
            gpus_per_node=2, environ=step(SLURM_STEP_TASKS_PER_NODE="2", SLURM_STEP_NUM_TASKS="2")
        )
        assert resolver.cluster_spec().as_dict() == {"worker": ["node9:8888", "node9:8889"]}

    def test_never_reads_the_job_variables(self) -> None:
        environ = {"SLURM_PROCID": "0", "SLURM_JOB_NODELIST": "n1", "SLURM_JOB_NUM_NODES": "1"}
        error = refused(jobs={"worker": 1}, gpus_per_node=1, environ=environ)
        assert codes(error) == [("slurm_variable_missing", ("environ", "SLURM_STEP_NODELIST"))]
        assert (
            "SLURM_STEP_NODELIST not found in environment. Not running inside a SLURM step?"
            in str(error)
        )
        kept = SlurmClusterResolver(
            gpus_per_node=2, environ={**STEP, "SLURM_JOB_ID": "7", "HOME": "/"}
        )
        assert kept.environ == STEP

    def test_from_env_reads_os_environ(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name, value in STEP.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
        resolver = SlurmClusterResolver.from_env(rpc_layer=None)
        assert resolver.master() == "node10:8888"
        assert SlurmClusterResolver.from_env(step(SLURM_PROCID="2"), gpus_per_node=4).task_id == 2
        assert os.environ["CUDA_VISIBLE_DEVICES"] == "0,1"  # read, never written


class TestTheRanksOfAStep:
    """Every rank of a step has the same cluster: it is worked out and checked once."""

    def test_ranks_of_one_step_share_the_cluster(self) -> None:
        first = SlurmClusterResolver(gpus_per_node=2, environ=step(SLURM_PROCID="0"))
        last = SlurmClusterResolver(gpus_per_node=2, environ=step(SLURM_PROCID="3"))
        assert first.cluster_spec() is last.cluster_spec()
        assert (last.task_id, last.cuda_visible_devices) == (3, "1")

    def test_another_step_has_its_own(self) -> None:
        one = SlurmClusterResolver(gpus_per_node=2, environ=STEP)
        other = SlurmClusterResolver(gpus_per_node=2, port_base=9000, environ=STEP)
        assert one.cluster_spec() is not other.cluster_spec()
        assert other.cluster_spec().task_address("worker", 0) == "node10:9000"

    def test_a_ranks_tf_config_is_its_own_to_change(self) -> None:
        first = SlurmClusterResolver(gpus_per_node=2, environ=step(SLURM_PROCID="0"))
        first.tf_config["cluster"]["worker"].append("elsewhere:1")
        second = SlurmClusterResolver(gpus_per_node=2, environ=step(SLURM_PROCID="1"))
        assert len(second.tf_config["cluster"]["worker"]) == 4


class TestGPUs:
    def test_gpus_per_task_and_what_is_written(self) -> None:
        resolver = SlurmClusterResolver(gpus_per_node=4, environ=step(SLURM_PROCID="3"))
        assert resolver.num_accelerators() == {"GPU": 2}
        assert resolver.cuda_visible_devices == "2,3"
        unset = SlurmClusterResolver(gpus_per_node=4, auto_set_gpu=False, environ=STEP)
        assert unset.cuda_visible_devices is None

    def test_gpus_are_set_by_default_when_read_from_data(self) -> None:
        """As in TensorFlow, auto_set_gpu defaults to True, for a resolver read from JSON too."""
        data = {"gpus_per_node": 4, "environ": step(SLURM_PROCID="3")}
        resolver = SlurmClusterResolver.model_validate(data)
        assert resolver.auto_set_gpu is True
        assert resolver.cuda_visible_devices == "2,3"
        schema = SlurmClusterResolver.model_json_schema()["properties"]["auto_set_gpu"]
        assert schema["default"] is True

    @pytest.mark.parametrize(("visible", "per_task"), [("0,1,2,3", 2), ("", 0), ("5,7", 1)])
    def test_gpu_count_from_cuda_visible_devices(self, visible: str, per_task: int) -> None:
        environ = step(CUDA_VISIBLE_DEVICES=visible)
        if per_task == 0:
            assert codes(refused(environ=environ)) == [
                ("slurm_gpus_per_task_zero", ("gpus_per_task",))
            ]
        else:
            assert SlurmClusterResolver(environ=environ).num_accelerators() == {"GPU": per_task}

    def test_no_gpu_count_refused_naming_gpus_per_node(self) -> None:
        error = refused(environ=STEP)
        assert codes(error) == [("gpu_count_unknown", ("gpus_per_node",))]
        assert "gpus_per_node" in str(error) and "nvidia-smi" in str(error)

    def test_no_gpu_count_and_jobs_that_do_not_add_up(self) -> None:
        # TensorFlow counts the tasks after the GPUs, without needing them
        error = refused(jobs={"worker": 3}, environ=STEP)
        assert codes(error) == [
            ("gpu_count_unknown", ("gpus_per_node",)),
            ("slurm_tasks", ("jobs",)),
        ]
        assert "Requested 3 tasks but only 4 were assigned." in str(error)

    def test_cpu_only_job_refused_clearly(self) -> None:
        error = refused(gpus_per_node=0, environ=STEP)
        assert codes(error) == [("slurm_gpus_per_task_zero", ("gpus_per_task",))]
        assert "range() arg 3 must not be zero" in str(error)
        assert codes(refused(gpus_per_node=8, gpus_per_task=0, environ=STEP))[0][0] == (
            "slurm_gpus_per_task_zero"
        )

    def test_zero_gpus_per_task_given_is_said_as_given(self) -> None:
        """The counts gpus_per_task is worked out from are said only when it is worked out."""
        [given] = refused(gpus_per_node=8, gpus_per_task=0, environ=STEP).errors()
        assert (given["msg"], given["ctx"]["hint"]) == (
            "gpus_per_task is 0: TensorFlow's cluster_spec() fails on it with: range() arg 3 "
            "must not be zero",
            "a CPU-only job cannot use SlurmClusterResolver: write each rank's TF_CONFIG "
            "(slurm_tf_configs) and read it with TFConfigClusterResolver",
        )
        worked_out = refused(gpus_per_node=1, environ=STEP).errors()[0]["msg"]
        assert worked_out.startswith("0 GPUs per task (1 GPUs per node, at most 2 tasks on a node)")

    def test_more_gpus_than_the_node_has(self) -> None:
        error = refused(gpus_per_node=2, gpus_per_task=2, environ=STEP)
        assert codes(error) == [("slurm_gpus", ("gpus_per_task",))]
        assert "Requested more GPUs per node than available." in str(error)

    def test_more_gpus_than_the_node_has_says_the_counts(self) -> None:
        error = refused(gpus_per_node=2, gpus_per_task=1, tasks_per_node=3, environ=STEP)
        assert error.errors()[0]["msg"] == (
            "Requested more GPUs per node than available. (3 tasks on a node times "
            "1 GPUs per task is more than 2 GPUs per node)"
        )

    def test_zero_gpus_per_task_is_refused_when_given_as_an_int_subclass(self) -> None:
        """An ``IntEnum`` 0 is 0 to TensorFlow's ``range()``, which fails on it."""
        error = refused(gpus_per_node=2, gpus_per_task=_Zero.GPUS, environ=STEP)
        assert codes(error) == [("slurm_gpus_per_task_zero", ("gpus_per_task",))]

    def test_zero_gpus_per_task_given_as_an_int_subclass_is_said_as_given(self) -> None:
        error = refused(gpus_per_node=2, gpus_per_task=_Zero.GPUS, environ=STEP)
        assert error.errors()[0]["msg"].startswith("gpus_per_task is 0: ")

    def test_no_task_on_any_node_is_refused_when_counts_are_an_int_subclass(self) -> None:
        """Counts of ``IntEnum`` 0 leave no task: GPUs per task cannot be worked out."""
        tasks = {"node9": _Zero.GPUS, "node10": _Zero.GPUS}
        error = refused(jobs={}, gpus_per_node=2, tasks_per_node=tasks, environ=STEP)
        assert codes(error) == [("slurm_no_tasks", ("gpus_per_task",))]


class TestTensorFlowErrors:
    def test_jobs_must_add_up(self) -> None:
        error = refused(jobs={"worker": 3}, gpus_per_node=2, environ=STEP)
        assert codes(error) == [("slurm_tasks", ("jobs",))]
        assert "Requested 3 tasks but only 4 were assigned." in str(error)

    def test_unreadable_lists_in_tensorflow_words(self) -> None:
        error = refused(gpus_per_node=2, environ=step(SLURM_STEP_NODELIST="n[1-2"))
        assert codes(error) == [("slurm_hostlist", ("environ", "SLURM_STEP_NODELIST"))]
        assert 'Invalid hostlist format "n[1-2"' in str(error)
        error = refused(gpus_per_node=2, environ=step(SLURM_STEP_TASKS_PER_NODE="2(x"))
        assert codes(error) == [("slurm_tasks_per_node", ("environ", "SLURM_STEP_TASKS_PER_NODE"))]
        assert 'Invalid tasks-per-node list format "2(x"' in str(error)

    def test_a_bracket_group_inside_another_is_refused_saying_so(self) -> None:
        error = refused(gpus_per_node=2, environ=step(SLURM_STEP_NODELIST="n[1[2]]"))
        assert codes(error) == [("slurm_hostlist", ("environ", "SLURM_STEP_NODELIST"))]
        assert error.errors()[0]["msg"] == (
            'Invalid hostlist format "n[1[2]]": a bracket group opens inside another'
        )

    def test_an_unreadable_tasks_per_node_says_which_part_is_wrong(self) -> None:
        error = refused(gpus_per_node=2, environ=step(SLURM_STEP_TASKS_PER_NODE="2(x"))
        assert error.errors()[0]["msg"] == (
            "Invalid tasks-per-node list format \"2(x\": '2(x' is neither N nor N(xM)"
        )

    def test_a_rank_that_is_not_digits_is_named_and_quoted(self) -> None:
        error = refused(gpus_per_node=2, environ=step(SLURM_PROCID="x"))
        assert error.errors()[0]["msg"] == (
            "SLURM_PROCID should be an integer written in ASCII digits, got 'x'"
        )

    def test_bare_python_errors_become_clear_ones(self) -> None:
        no_node = refused(gpus_per_node=2, environ=step(SLURM_STEP_NODELIST=""))
        assert codes(no_node) == [("slurm_no_nodes", ("environ", "SLURM_STEP_NODELIST"))]
        assert codes(refused(tasks_per_node={}, gpus_per_node=2, environ=STEP)) == [
            ("slurm_no_nodes", ("tasks_per_node",))
        ]
        no_task = refused(jobs={}, gpus_per_node=2, environ=step(SLURM_STEP_TASKS_PER_NODE="0(x2)"))
        assert codes(no_task) == [("slurm_no_tasks", ("gpus_per_task",))]
        beyond = refused(gpus_per_node=2, environ=step(SLURM_PROCID="4"))
        assert codes(beyond) == [("slurm_rank", ("environ", "SLURM_PROCID"))]

    def test_a_rank_beyond_the_cluster_without_auto_set_gpu_has_no_task(self) -> None:
        resolver = SlurmClusterResolver(
            gpus_per_node=2, auto_set_gpu=False, environ=step(SLURM_PROCID="9")
        )
        assert (resolver.task_type, resolver.task_id, resolver.master()) == (None, None, "")
        assert resolver.tf_config["task"] == {}

    @pytest.mark.parametrize("rank", ["+1", " 1", "1_0", "\u0661", "x", "", "--1"])
    def test_rank_is_ascii_digits(self, rank: str) -> None:
        error = refused(gpus_per_node=2, environ=step(SLURM_PROCID=rank))
        assert codes(error) == [("int_type", ("environ", "SLURM_PROCID"))]

    def test_negative_rank_refused(self) -> None:
        error = refused(gpus_per_node=2, environ=step(SLURM_PROCID="-1"))
        assert codes(error) == [("negative_index", ("environ", "SLURM_PROCID"))]
        assert error.errors()[0]["msg"].startswith("SLURM_PROCID is -1: ranks start at 0")

    def test_a_negative_rank_is_refused_after_tensorflow_own_failures(self) -> None:
        environ = step(SLURM_PROCID="-1")
        del environ["SLURM_STEP_NUM_TASKS"]
        error = refused(gpus_per_node=2, environ=environ)
        assert codes(error) == [("slurm_variable_missing", ("environ", "SLURM_STEP_NUM_TASKS"))]
        assert "SLURM_STEP_NUM_TASKS not found in environment." in str(error)
        beyond = refused(gpus_per_node=2, environ=step(SLURM_PROCID="-5"))
        assert codes(beyond) == [("slurm_rank", ("environ", "SLURM_PROCID"))]

    @pytest.mark.parametrize(
        ("kwargs", "loc", "reason"),
        [
            ({"gpus_per_node": 2.0}, ("gpus_per_node",), "cannot be interpreted as an integer"),
            (
                {"gpus_per_node": 2, "gpus_per_task": 1.0},
                ("gpus_per_task",),
                "cannot be interpreted as an integer",
            ),
            (
                {"gpus_per_node": 2, "jobs": {"worker": 4.0}},
                ("jobs", "worker"),
                "slice indices must be integers",
            ),
            (
                {"gpus_per_node": 2, "tasks_per_node": {"node9": 2, "node10": 2.0}},
                ("tasks_per_node", "node10"),
                "cannot be interpreted as an integer",
            ),
        ],
    )
    def test_a_whole_float_count_is_refused_as_tensorflow_fails_on_it(
        self, kwargs: dict[str, Any], loc: tuple[str, ...], reason: str
    ) -> None:
        error = refused(**kwargs, environ=STEP)
        assert codes(error) == [("slurm_float", loc)]
        assert reason in str(error)

    def test_a_float_count_that_does_not_add_up_shows_tensorflow_sentence(self) -> None:
        error = refused(jobs={"worker": 3.0}, gpus_per_node=2, environ=STEP)
        assert codes(error) == [("slurm_tasks", ("jobs",))]
        assert "Requested 3.0 tasks but only 4 were assigned." in str(error)

    def test_tasks_per_node_read_with_int_as_tensorflow_reads_it(self) -> None:
        as_text = SlurmClusterResolver(tasks_per_node="2", gpus_per_node=2, environ=STEP)
        as_int = SlurmClusterResolver(tasks_per_node=2, gpus_per_node=2, environ=STEP)
        assert as_text.cluster_spec() == as_int.cluster_spec()
        assert as_text.tasks_per_node == 2
        assert codes(refused(tasks_per_node=" 2", gpus_per_node=2, environ=STEP))[0][0] == (
            "int_type"
        )

    def test_a_port_above_65535_is_refused(self) -> None:
        error = refused(gpus_per_node=2, port_base=65535, environ=STEP)
        assert {code for code, _ in codes(error)} == {"address"}

    def test_master_of_a_task_not_in_the_cluster(self) -> None:
        resolver = SlurmClusterResolver(jobs={"ps": 0, "worker": 4}, gpus_per_node=2, environ=STEP)
        assert resolver.master("worker", 2, rpc_layer="") == "grpc://node9:8888"
        with pytest.raises(ValidationError, match="No task with index 0") as info:
            resolver.master("ps", 0)
        assert codes(info.value)[0] == ("task_not_in_cluster", ("jobs",))
        with pytest.raises(ValidationError, match="No such job in cluster"):
            resolver.master("chief", 0)


def test_a_dumped_resolver_holds_the_task_it_resolves() -> None:
    """model_dump and the JSON Schema show the rank's task and GPUs, not only the arguments."""
    dumped = SlurmClusterResolver(gpus_per_node=2, environ=STEP).model_dump()
    assert (dumped["task_type"], dumped["task_id"], dumped["cuda_visible_devices"]) == (
        "worker",
        0,
        "0",
    )
    schema = SlurmClusterResolver.model_json_schema(mode="serialization")["properties"]
    assert schema["task_type"]["description"] == "This rank's job; null when no job holds it."


def test_a_slurm_resolver_cannot_be_changed() -> None:
    """A resolver refuses assignment; it holds its jobs and environment as dicts: not hashed."""
    environ = {
        "SLURM_STEP_NODELIST": "n[1-2]",
        "SLURM_STEP_TASKS_PER_NODE": "1(x2)",
        "SLURM_PROCID": "0",
    }
    refuses_assignment(SlurmClusterResolver({"worker": 2}, gpus_per_node=1, environ=environ))


class TestBounds:
    """Every count is bounded before an address or a GPU list is built from it."""

    def test_a_nodelist_of_more_hosts_than_a_step_has(self) -> None:
        assert len(expand_hostlist("n[1-65536],m[1-34464]", 100_000)) == 100_000
        with pytest.raises(ListFormatError, match="names more than 100,000 hosts"):
            expand_hostlist("n[1-65536],m[1-34465]", 100_000)
        error = refused(gpus_per_node=1, environ=step(SLURM_STEP_NODELIST="n[1-65536],m[1-65536]"))
        assert codes(error) == [("slurm_hostlist", ("environ", "SLURM_STEP_NODELIST"))]

    @pytest.mark.parametrize("tasks", [65_534, 2**31, 2**63])
    def test_more_tasks_on_a_node_than_slurm_runs(self, tasks: int) -> None:
        environ = step(SLURM_STEP_TASKS_PER_NODE=f"{tasks},1", SLURM_STEP_NUM_TASKS=str(tasks + 1))
        assert codes(refused(gpus_per_node=1, environ=environ)) == [
            ("slurm_too_many_tasks", ("environ", "SLURM_STEP_TASKS_PER_NODE"))
        ]
        assert codes(refused(gpus_per_node=1, tasks_per_node=tasks, environ=STEP)) == [
            ("slurm_too_many_tasks", ("tasks_per_node",))
        ]
        assert codes(refused(gpus_per_node=1, tasks_per_node={"a": tasks}, environ=STEP)) == [
            ("slurm_too_many_tasks", ("tasks_per_node",))
        ]

    def test_more_tasks_in_a_step_than_estconf_builds(self) -> None:
        environ = step(SLURM_STEP_NODELIST="n[1-4]", SLURM_STEP_TASKS_PER_NODE="25001(x4)")
        error = refused(jobs={"worker": 100_004}, gpus_per_node=1024, environ=environ)
        assert codes(error) == [("slurm_too_many_tasks", ("environ", "SLURM_STEP_TASKS_PER_NODE"))]
        assert "100,004 tasks in the step, more than the 100,000 estconf builds" in str(error)

    @pytest.mark.parametrize(
        ("kwargs", "environ", "loc"),
        [
            ({"gpus_per_node": 1025}, STEP, ("gpus_per_node",)),
            ({"gpus_per_node": 2**31}, STEP, ("gpus_per_node",)),
            ({"gpus_per_node": 2, "gpus_per_task": 10**8}, STEP, ("gpus_per_task",)),
            (
                {},
                step(CUDA_VISIBLE_DEVICES=",".join(map(str, range(1025)))),
                ("environ", "CUDA_VISIBLE_DEVICES"),
            ),
        ],
    )
    def test_more_gpus_than_any_node_holds(
        self, kwargs: dict[str, Any], environ: dict[str, str], loc: tuple[str, ...]
    ) -> None:
        assert codes(refused(**kwargs, environ=environ)) == [("slurm_too_many_gpus", loc)]

    def test_1024_gpus_are_read_and_only_the_ranks_own_are_written(self) -> None:
        environ = step(
            SLURM_STEP_NODELIST="n[1-50000]",
            SLURM_STEP_TASKS_PER_NODE="1(x50000)",
            SLURM_STEP_NUM_TASKS="50000",
            SLURM_PROCID="49999",
        )
        start = time.process_time()
        resolver = SlurmClusterResolver(gpus_per_node=1024, environ=environ)
        assert time.process_time() - start < 2.0  # 51 million GPU numbers are not written
        assert resolver.cuda_visible_devices == ",".join(map(str, range(1024)))
        assert resolver.num_accelerators() == {"GPU": 1024}

    @pytest.mark.parametrize(
        ("port_base", "said"),
        [(65536, "65536"), (-1, "-1"), (10**40, "far above 65535"), (-(10**30), "far below 0")],
    )
    def test_a_port_base_that_is_no_port(self, port_base: int, said: str) -> None:
        error = refused(port_base=port_base, gpus_per_node=2, environ=STEP)
        assert codes(error) == [("address", ("port_base",))]
        assert f"port_base is {said}, and a port goes from 0 to 65535" in str(error)
        if port_base == 65536:
            assert "'node10:65536' is not a valid task address" in str(error)

    def test_the_highest_port_base_is_taken(self) -> None:
        environ = step(SLURM_STEP_TASKS_PER_NODE="1(x2)", SLURM_STEP_NUM_TASKS="2")
        resolver = SlurmClusterResolver(port_base=65535, gpus_per_node=1, environ=environ)
        assert resolver.cluster_spec().as_dict() == {"worker": ["node10:65535", "node9:65535"]}


def test_a_task_count_of_more_digits_than_python_converts_is_a_format_error() -> None:
    with pytest.raises(ListFormatError, match="Exceeds the limit"):
        expand_tasks_per_node("9" * 5000, 2)
    with pytest.raises(ListFormatError, match="Exceeds the limit"):
        expand_tasks_per_node(f"1(x{'9' * 5000})", 2)


def test_a_hostlist_past_its_limit_is_expanded_no_further(monkeypatch: pytest.MonkeyPatch) -> None:
    """A range of 60,000 hosts stops at the first host past the limit, not at its end."""
    from estconf.distribute import _hostlist

    drawn: list[str] = []
    numbers = _hostlist._numbers

    def counted(ranges: str) -> Iterator[str]:
        for number in numbers(ranges):
            drawn.append(number)
            yield number

    monkeypatch.setattr(_hostlist, "_numbers", counted)
    with pytest.raises(ListFormatError, match="more than 10 hosts"):
        expand_hostlist("n[1-60000]", limit=10)
    assert len(drawn) == 11
