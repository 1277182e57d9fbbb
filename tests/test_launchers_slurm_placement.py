"""launchers.slurm.placement: where SLURM runs each rank, and a TF_CONFIG per rank at its host.

SLURM's default task distribution is *block*: a host's tasks are consecutive
ranks, the hosts in the step's nodelist order (``srun --distribution``, whose
default for the nodes is ``block``).  TensorFlow's ``SlurmClusterResolver``
numbers the tasks over the hosts sorted as strings (docs/slurm.md).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from estconf import TFConfig
from estconf.distribute import (
    SlurmClusterResolver,
    TFConfigClusterResolver,
    misplaced_ranks,
    rank_hosts,
    slurm_tf_configs,
)
from estconf.launchers.slurm.placement import Misplaced, step_environ

STEP = {"SLURM_STEP_NODELIST": "node[9-10]", "SLURM_STEP_TASKS_PER_NODE": "2(x2)"}


def codes(error: ValidationError) -> list[tuple[str, tuple[Any, ...]]]:
    return [(e["type"], e["loc"]) for e in error.errors()]


class TestStepEnviron:
    def test_a_count_for_every_host_is_written_as_srun_writes_it(self) -> None:
        assert step_environ("node[9-10]", 2, rank=3) == {
            "SLURM_PROCID": "3",
            "SLURM_STEP_NODELIST": "node[9-10]",
            "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
            "SLURM_STEP_NUM_TASKS": "4",
        }

    def test_the_rank_defaults_to_0(self) -> None:
        assert step_environ("node[9-10]", 2)["SLURM_PROCID"] == "0"

    def test_slurms_list_is_kept_and_counted(self) -> None:
        environ = step_environ("a,b,c", "2(x2),1")
        assert environ["SLURM_STEP_TASKS_PER_NODE"] == "2(x2),1"
        assert environ["SLURM_STEP_NUM_TASKS"] == "5"

    def test_an_unreadable_nodelist_in_tensorflows_words(self) -> None:
        with pytest.raises(ValidationError) as info:
            step_environ("node[1-2", 2)
        assert codes(info.value) == [("slurm_hostlist", ("environ", "SLURM_STEP_NODELIST"))]
        assert "Invalid hostlist format" in str(info.value)


class TestRankHosts:
    def test_block_distribution_in_the_nodelists_order(self) -> None:
        assert rank_hosts(environ=STEP) == ["node9", "node9", "node10", "node10"]

    def test_uneven_tasks_per_node(self) -> None:
        environ = {"SLURM_STEP_NODELIST": "b,a", "SLURM_STEP_TASKS_PER_NODE": "1,3"}
        assert rank_hosts(environ=environ) == ["b", "a", "a", "a"]

    def test_tasks_per_node_as_an_argument(self) -> None:
        assert rank_hosts({"y": 1, "x": 2}, environ={}) == ["y", "x", "x"]
        assert rank_hosts(1, environ=STEP) == ["node9", "node10"]

    def test_a_host_named_twice_is_refused(self) -> None:
        environ = {"SLURM_STEP_NODELIST": "a,b,a", "SLURM_STEP_TASKS_PER_NODE": "1(x3)"}
        with pytest.raises(ValidationError) as info:
            rank_hosts(environ=environ)
        assert codes(info.value) == [("slurm_host_twice", ("environ", "SLURM_STEP_NODELIST"))]
        assert info.value.errors()[0]["msg"].startswith("the nodelist names a twice:")


class TestMisplacedRanks:
    def test_the_string_sort_puts_every_rank_on_the_other_host(self) -> None:
        resolver = SlurmClusterResolver(
            {"ps": 1, "worker": 3}, gpus_per_node=2, environ={**STEP, "SLURM_PROCID": "0"}
        )
        assert misplaced_ranks(resolver) == [
            Misplaced(0, "node9", ("ps", 0), "node10:8888"),
            Misplaced(1, "node9", ("worker", 0), "node10:8889"),
            Misplaced(2, "node10", ("worker", 1), "node9:8888"),
            Misplaced(3, "node10", ("worker", 2), "node9:8889"),
        ]

    def test_hosts_that_sort_alike_both_ways_misplace_no_rank(self) -> None:
        environ = {**STEP, "SLURM_STEP_NODELIST": "node[1-2]", "SLURM_STEP_NUM_TASKS": "4"}
        resolver = SlurmClusterResolver(gpus_per_node=2, environ={**environ, "SLURM_PROCID": "1"})
        assert misplaced_ranks(resolver) == []

    def test_the_jobs_name_order_alone_misplaces_no_rank(self) -> None:
        # rank 0 is the ps whatever order the jobs are given in: on its own host all the same
        environ = {**STEP, "SLURM_STEP_NODELIST": "node[1-2]", "SLURM_PROCID": "0"}
        resolver = SlurmClusterResolver({"worker": 3, "ps": 1}, gpus_per_node=2, environ=environ)
        assert resolver.task_type == "ps"
        assert misplaced_ranks(resolver) == []


class TestSlurmTFConfigs:
    def test_each_rank_at_its_own_host_jobs_in_the_given_order(self) -> None:
        configs = slurm_tf_configs({"ps": 1, "worker": 3}, environ=STEP)
        cluster = {"ps": ["node9:8888"], "worker": ["node9:8889", "node10:8888", "node10:8889"]}
        assert configs == [
            {"cluster": cluster, "task": {"type": "ps", "index": 0}, "rpc_layer": "grpc"},
            {"cluster": cluster, "task": {"type": "worker", "index": 0}, "rpc_layer": "grpc"},
            {"cluster": cluster, "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"},
            {"cluster": cluster, "task": {"type": "worker", "index": 2}, "rpc_layer": "grpc"},
        ]

    def test_the_order_given_is_kept_not_sorted(self) -> None:
        configs = slurm_tf_configs({"worker": 3, "chief": 1}, environ=STEP)
        assert list(configs[0]["cluster"]) == ["worker", "chief"]
        assert configs[0]["task"] == {"type": "worker", "index": 0}
        assert configs[3]["task"] == {"type": "chief", "index": 0}
        assert configs[3]["cluster"]["chief"] == ["node10:8889"]

    def test_every_task_a_worker_by_default_no_gpu_needed(self) -> None:
        configs = slurm_tf_configs(environ=STEP, rpc_layer=None)
        assert configs[2] == {
            "cluster": {"worker": ["node9:8888", "node9:8889", "node10:8888", "node10:8889"]},
            "task": {"type": "worker", "index": 2},
        }

    def test_a_job_of_size_0_is_left_out(self) -> None:
        configs = slurm_tf_configs({"ps": 0, "worker": 4}, environ=STEP)
        assert list(configs[0]["cluster"]) == ["worker"]

    def test_ports_from_port_base_on_each_host(self) -> None:
        configs = slurm_tf_configs(port_base=2222, tasks_per_node={"b": 2, "a": 1}, environ={})
        assert configs[0]["cluster"] == {"worker": ["b:2222", "b:2223", "a:2222"]}

    def test_each_is_read_by_tf_config_cluster_resolver_as_its_rank(self) -> None:
        configs = slurm_tf_configs({"chief": 1, "worker": 3}, environ=STEP)
        hosts = rank_hosts(environ=STEP)
        for rank, config in enumerate(configs):
            resolver = TFConfigClusterResolver(tf_config=config)
            assert resolver.master().removeprefix("grpc://").startswith(hosts[rank] + ":")
            TFConfig.model_validate(config)

    def test_the_jobs_must_add_up_to_the_steps_tasks(self) -> None:
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs({"worker": 3}, environ=STEP)
        assert codes(info.value) == [("slurm_tasks", ("jobs",))]
        assert "Requested 3 tasks but only 4 were assigned." in str(info.value)

    def test_a_port_above_65535_is_refused_with_the_largest_port_base(self) -> None:
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(port_base=65535, environ=STEP)
        assert codes(info.value) == [("slurm_port", ("port_base",))]
        assert (
            "port_base 65535 with 2 tasks on a host gives ports up to 65536, above 65535: "
            "give a port_base of at most 65534"
        ) in str(info.value)
        assert slurm_tf_configs(port_base=65534, environ=STEP)[0]["cluster"]["worker"][-1] == (
            "node10:65535"
        )

    def test_a_step_without_tasks_is_refused(self) -> None:
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(environ={**STEP, "SLURM_STEP_NODELIST": ""})
        assert codes(info.value) == [("slurm_no_nodes", ("environ", "SLURM_STEP_NODELIST"))]
        assert "the step has no task: the nodelist or the tasks per node is empty" in str(
            info.value
        )

    def test_a_host_name_no_task_address_can_hold_is_refused(self) -> None:
        """The addresses are checked as in any TF_CONFIG: a host name has no space."""
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(environ={**STEP, "SLURM_STEP_NODELIST": "node 9"})
        assert "'node 9:8888' is not a valid task address" in str(info.value)

    def test_inside_srun_the_tasks_host_must_be_its_ranks(self) -> None:
        inside = {**STEP, "SLURM_PROCID": "2", "SLURMD_NODENAME": "node10"}
        assert slurm_tf_configs(environ=inside)[2]["task"] == {"type": "worker", "index": 2}
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(environ={**inside, "SLURMD_NODENAME": "node9"})  # cyclic
        assert codes(info.value) == [("slurm_placement", ("environ", "SLURMD_NODENAME"))]
        assert "--distribution=block" in str(info.value)

    def test_rank_0_on_another_host_is_refused_too(self) -> None:
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(environ={**STEP, "SLURM_PROCID": "0", "SLURMD_NODENAME": "node10"})
        assert codes(info.value) == [("slurm_placement", ("environ", "SLURMD_NODENAME"))]
        assert "rank 0 runs on node10" in str(info.value)

    @pytest.mark.parametrize("rank", ["4", "-1"])
    def test_a_rank_the_step_does_not_have_is_no_host_to_check(self, rank: str) -> None:
        # which rank to write is picked afterwards (tf-config --rank refuses a rank out of range)
        outside = {**STEP, "SLURM_PROCID": rank, "SLURMD_NODENAME": "node9"}
        assert len(slurm_tf_configs(environ=outside)) == 4

    @pytest.mark.parametrize(
        ("kwargs", "code"),
        [
            ({"jobs": {"worker": -4}}, "greater_than_equal"),
            ({"jobs": {"bad name": 4}}, "job_name"),
            ({"port_base": True}, "int_type"),
            ({"tasks_per_node": -1}, "greater_than_equal"),
        ],
    )
    def test_invalid_arguments(self, kwargs: dict[str, Any], code: str) -> None:
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(**kwargs, environ=STEP)
        assert code in [e["type"] for e in info.value.errors()]

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"environ": {**STEP, "SLURM_STEP_NODELIST": ""}},
            {"port_base": 65535, "environ": STEP},
            {"environ": {"SLURM_STEP_NODELIST": "a,a", "SLURM_STEP_TASKS_PER_NODE": "1(x2)"}},
            {"environ": {**STEP, "SLURM_PROCID": "2", "SLURMD_NODENAME": "node9"}},
            {"port_base": True, "environ": STEP},
        ],
    )
    def test_its_own_refusals_and_its_arguments_are_titled_after_it(
        self, kwargs: dict[str, Any]
    ) -> None:
        with pytest.raises(ValidationError) as info:
            slurm_tf_configs(**kwargs)
        assert info.value.title == "slurm_tf_configs"
        assert str(info.value).startswith("1 validation error for slurm_tf_configs\n")

    @given(
        counts=st.lists(st.integers(0, 4), min_size=1, max_size=12),
        jobs=st.lists(st.sampled_from(["chief", "ps", "worker", "evaluator"]), unique=True),
    )
    def test_every_rank_once_at_its_host_in_rank_order(
        self, counts: list[int], jobs: list[str]
    ) -> None:
        placed = {f"n{number}": count for number, count in enumerate(counts, start=1)}
        total = sum(counts)
        if total == 0:
            return
        sizes = dict.fromkeys(jobs, 0)
        sizes["worker"] = total - sum(sizes.values())
        configs = slurm_tf_configs(sizes, tasks_per_node=placed, environ={})
        hosts = rank_hosts(placed, environ={})
        addresses = [c["cluster"][c["task"]["type"]][c["task"]["index"]] for c in configs]
        assert [a.rpartition(":")[0] for a in addresses] == hosts
        assert len(set(addresses)) == total


class TestBounds:
    """The counts of a step are bounded before a rank's host or address is built."""

    def test_65533_tasks_on_a_node_are_written(self) -> None:
        configs = slurm_tf_configs(
            environ={"SLURM_STEP_NODELIST": "n1", "SLURM_STEP_TASKS_PER_NODE": "65533"},
            port_base=2,
        )
        assert len(configs) == 65_533
        assert configs[-1]["cluster"]["worker"][-1] == "n1:65534"

    @pytest.mark.parametrize("tasks", ["65534", "2147483648", "9223372036854775808"])
    def test_more_tasks_on_a_node_than_slurm_runs(self, tasks: str) -> None:
        environ = {"SLURM_STEP_NODELIST": "n1", "SLURM_STEP_TASKS_PER_NODE": tasks}
        for build in (rank_hosts, slurm_tf_configs):
            with pytest.raises(ValidationError) as raised:
                build(environ=environ)
            assert codes(raised.value) == [
                ("slurm_too_many_tasks", ("environ", "SLURM_STEP_TASKS_PER_NODE"))
            ]
        with pytest.raises(ValidationError) as raised:
            step_environ("n1", int(tasks))
        assert codes(raised.value) == [("slurm_too_many_tasks", ("tasks_per_node",))]

    def test_a_step_of_more_than_100000_tasks(self) -> None:
        with pytest.raises(ValidationError) as raised:
            rank_hosts(tasks_per_node={"a": 50_000, "b": 50_001}, environ={})
        assert codes(raised.value) == [("slurm_too_many_tasks", ("tasks_per_node",))]
        assert len(rank_hosts(tasks_per_node={"a": 50_000, "b": 50_000}, environ={})) == 100_000

    def test_jobs_of_sizes_past_the_ranks_cost_the_ranks_alone(self) -> None:
        """Sizes that add up to the step's tasks, one huge and one negative, as TensorFlow takes."""
        resolver = SlurmClusterResolver(
            {"a": -(10**12), "b": 10**12 + 4},
            gpus_per_node=2,
            environ={**STEP, "SLURM_PROCID": "0"},
        )
        assert [m.rank for m in misplaced_ranks(resolver)] == [0, 1, 2, 3]
