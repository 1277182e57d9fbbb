"""estconf.launchers.slurm.batch: the step a plain ``srun`` starts in a batch script."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from estconf.distribute._hostlist import expand_hostlist, expand_tasks_per_node
from estconf.launchers.slurm.batch import BatchStep, batch_step, placeholders, spread
from estconf.launchers.slurm.directives import read_script
from estconf.launchers.slurm.steps import Place

DATA = Path(__file__).resolve().parent / "data" / "launchers" / "slurm"


def step(*lines: str, **options: object) -> BatchStep:
    data = "\n".join(["#!/bin/bash", *lines, "srun python train.py", ""]).encode()
    return batch_step(read_script(data, "job.sh"), **options)  # type: ignore[arg-type]


def layout(found: BatchStep) -> tuple[str, str, int | None]:
    assert not found.failed, found.findings
    return found.nodelist, found.tasks_per_node, found.gpus


def refusal(found: BatchStep) -> tuple[str, str, int | None, int | None, str]:
    assert found.failed
    last = found.findings[-1]
    return last.code, last.path, last.line, last.column, last.message


class TestTheJobsSize:
    """sbatch's own arithmetic of nodes and tasks (``_opt_verify``), then SLURM's block layout."""

    @pytest.mark.parametrize(
        ("lines", "nodelist", "tasks"),
        [
            ((), "node1", "1"),
            (("#SBATCH -N 2",), "node[1-2]", "1(x2)"),
            (("#SBATCH -N 2 --ntasks-per-node=4",), "node[1-2]", "4(x2)"),
            (("#SBATCH --ntasks-per-node=3",), "node1", "3"),
            (("#SBATCH -N 3 -n 7",), "node[1-3]", "3,2(x2)"),
            (("#SBATCH -n 5 --ntasks-per-node=2",), "node[1-3]", "2(x2),1"),
            (("#SBATCH -n 4 --ntasks-per-node=3",), "node[1-2]", "2(x2)"),
            (("#SBATCH -n 1",), "node1", "1"),
            (("#SBATCH -N 2-4 -n 2",), "node[1-2]", "1(x2)"),
            (("#SBATCH -N 16",), "node[01-16]", "1(x16)"),
            (("#SBATCH -N 1k",), "node[0001-1024]", "1(x1024)"),
            (("#SBATCH -N ' 2 ' -n +4",), "node[1-2]", "2(x2)"),
            (("#SBATCH -N 2", "#SBATCH -N 3"), "node[1-3]", "1(x3)"),
        ],
    )
    def test_nodes_and_tasks(self, lines: tuple[str, ...], nodelist: str, tasks: str) -> None:
        assert layout(step(*lines))[:2] == (nodelist, tasks)

    def test_fewer_tasks_than_nodes_is_fewer_nodes_with_sbatchs_note(self) -> None:
        found = step("#SBATCH -N 4 -n 2")
        assert layout(found)[:2] == ("node[1-2]", "1(x2)")
        assert found.lines[0] == (
            "note: job.sh: sbatch: can't run 2 processes on 4 nodes, setting nnodes to 2"
        )

    @pytest.mark.parametrize(
        ("lines", "path", "column", "message"),
        [
            (("#SBATCH -n 8",), "-n", 9, "--ntasks=8 without --nodes: SLURM puts the tasks"),
            (("#SBATCH --nodes=2-4",), "--nodes", 9, "--nodes=2-4 lets SLURM choose"),
            (("#SBATCH --nodes=2,4",), "--nodes", 9, "--nodes=2,4 lets SLURM choose"),
            (("#SBATCH -N 0",), "-N", 9, "--nodes=0 asks for no node"),
            (("#SBATCH -N 2 -n 9 --ntasks-per-node=4",), "-n", 14, "--ntasks=9 is more than 2"),
            (("#SBATCH -w n[1-3] -N 2",), "-N", 19, "names 3 hosts, more than the job's 2"),
            (("#SBATCH -w n[1-2] -N 3",), "-N", 19, "SLURM adds hosts of its choice"),
            (("#SBATCH -w n[1-3] -n 2",), "-n", 19, "names 3 hosts, more than the job's 2"),
        ],
    )
    def test_no_one_step(
        self, lines: tuple[str, ...], path: str, column: int, message: str
    ) -> None:
        code, found_path, line, found_column, said = refusal(step(*lines))
        assert (code, found_path, line, found_column) == ("sbatch_layout", path, 2, column)
        assert message in said

    def test_a_refusal_keeps_the_scripts_warnings(self) -> None:
        found = step("#SBATCH --ntask-per-node=2", "#SBATCH -n 8")
        assert [f.code for f in found.findings] == ["sbatch_unknown_option", "sbatch_layout"]


class TestTheHosts:
    def test_the_nodelist_once_each_in_slurms_order(self) -> None:
        assert layout(step("#SBATCH -w n[10],n9,n9,m2"))[:2] == ("m2,n9,n10", "1(x3)")

    def test_a_nodelist_and_ntasks_spread_over_its_hosts(self) -> None:
        assert layout(step("#SBATCH -w n[1-3] -n 4"))[:2] == ("n1,n2,n3", "2,1(x2)")

    def test_a_nodelist_is_no_placeholder(self) -> None:
        assert step("#SBATCH --nodelist=gpu[07-08]").lines == ()

    def test_placeholders_are_said(self) -> None:
        [note] = step("#SBATCH -N 2").lines
        assert note.startswith("note: job.sh names no host: node[1-2] stand for the hosts SLURM")

    @pytest.mark.parametrize(
        ("value", "code", "message"),
        [
            ("./hosts", "sbatch_layout", "names a file of hosts, which estconf does not read"),
            ("r[1-2]n[1-2]", "sbatch_value", "estconf reads a nodelist as TensorFlow does"),
            ("n[1-99999999]", "sbatch_value", "more than 65536 hosts"),
            ("n,,m", "sbatch_value", "an empty host name between commas"),
        ],
    )
    def test_a_nodelist_estconf_cannot_read(self, value: str, code: str, message: str) -> None:
        found = refusal(step(f"#SBATCH --nodelist={value}"))
        assert (found[0], found[1], found[3]) == (code, "--nodelist", 9)
        assert message in found[4]


class TestTheOptionsOverTheScript:
    """``--nodelist`` and ``--tasks-per-node`` win, as sbatch's command line wins."""

    def test_the_nodelist_replaces_the_scripts_and_its_placeholders(self) -> None:
        found = step("#SBATCH -w b[1-4]", nodelist="a[1-4]")
        assert layout(found)[:2] == ("a[1-4]", "1(x4)")
        assert step("#SBATCH -N 2", nodelist="a[1-2]").lines == ()

    def test_the_nodelist_is_the_jobs_hosts_as_given(self) -> None:
        assert layout(step(nodelist="b,a"))[:2] == ("b,a", "1(x2)")

    def test_the_tasks_per_node_replace_the_scripts(self) -> None:
        assert layout(step("#SBATCH -N 2 --ntasks-per-node=8", tasks_per_node=3))[1] == "3(x2)"
        assert layout(step("#SBATCH -n 8", tasks_per_node=4))[:2] == ("node[1-2]", "4(x2)")

    def test_a_nodelist_that_does_not_fit_the_nodes_is_refused_at_the_directive(self) -> None:
        code, path, line, _, message = refusal(step("#SBATCH -N 3", nodelist="a[1-2]"))
        assert (code, path, line) == ("sbatch_layout", "-N", 2)
        assert message.startswith("--nodelist names 2 hosts, fewer than the job's 3 nodes")

    def test_a_nodelist_tensorflow_cannot_read_is_its_error(self) -> None:
        with pytest.raises(ValidationError, match='Invalid hostlist format "a\\[1-2"'):
            step("#SBATCH -N 2", nodelist="a[1-2")

    def test_where_each_value_comes_from(self) -> None:
        found = step("#SBATCH -N 2", "#SBATCH --ntasks-per-node=2 --gres=gpu:4")
        assert found.places == {
            ("environ", "SLURM_STEP_TASKS_PER_NODE"): Place("--ntasks-per-node", "job.sh", 3, 9),
            ("tasks_per_node",): Place("--ntasks-per-node", "job.sh", 3, 9),
            ("environ", "CUDA_VISIBLE_DEVICES"): Place("--gres", "job.sh", 3, 29),
            ("gpus_per_task",): Place("--gres", "job.sh", 3, 29),
        }
        given = step("#SBATCH -N 2", nodelist="a[1-2]", tasks_per_node=2).places
        assert given[("environ", "SLURM_STEP_NODELIST")] == Place("--nodelist")
        assert given[("tasks_per_node",)] == Place("--tasks-per-node")


class TestGPUs:
    """The GPUs each task sees in ``CUDA_VISIBLE_DEVICES``, which the resolver counts."""

    @pytest.mark.parametrize(
        ("line", "gpus"),
        [
            ("#SBATCH --gres=gpu:4", 4),
            ("#SBATCH --gres=gpu:a100:4", 4),
            ("#SBATCH --gres=gpu", 1),
            ("#SBATCH --gres=gpu:a100", 1),
            ("#SBATCH --gres=gres/gpu:2", 2),
            ("#SBATCH --gres=gpu:tesla:2,gpu:k80:2", 4),
            ("#SBATCH --gres=nvme:1,gpu:3", 3),
            ("#SBATCH --gres=nvme:1", None),
            ("#SBATCH --gres=gpu:0", None),
            ("#SBATCH --gres=none", None),
            ("#SBATCH --gpus-per-node=8", 8),
            ("#SBATCH --gpus-per-node=T4:2", 2),
            ("#SBATCH --gpus-per-node=a:1,b:2", 3),
            ("#SBATCH --gpus-per-task=2 --gres=gpu:8", 2),
            ("#SBATCH", None),
        ],
    )
    def test_the_gpus_a_task_sees(self, line: str, gpus: int | None) -> None:
        found = step(line)
        assert layout(found)[2] == gpus
        assert found.environ == (
            {} if gpus is None else {"CUDA_VISIBLE_DEVICES": ",".join(map(str, range(gpus)))}
        )

    def test_gpus_bound_to_each_task_are_said(self) -> None:
        found = step("#SBATCH -N 2 --ntasks-per-node=4 --gpus-per-task=1")
        assert found.bound_gpus
        assert found.lines[-1].startswith(
            "note: job.sh:2: SLURM binds each task to its own 1 GPU (--gpus-per-task), so "
            "CUDA_VISIBLE_DEVICES lists 1 in each task"
        )

    def test_gres_and_gpus_per_node_are_refused_together_as_sbatch_does(self) -> None:
        found = refusal(step("#SBATCH --gres=gpu:2 --gpus-per-node=2"))
        assert found == (
            "sbatch_option",
            "--gpus-per-node",
            2,
            22,
            "--gpus-per-node and --gres=gpu are mutually exclusive.",
        )

    @pytest.mark.parametrize(
        ("line", "message"),
        [
            ("#SBATCH --gres=gpu:2k", "2,048 GPUs, more than the 1,024 of any node"),
            ("#SBATCH --gres=gpu:x:y:2", "is not a generic resource of GPUs"),
            ("#SBATCH --gres=gpu:4x", "is not a generic resource of GPUs"),
            ("#SBATCH --gpus-per-node=x", "'x' is not a count of GPUs"),
            ("#SBATCH --gpus-per-task=1025", "1,025 GPUs, more than the 1,024 of any node"),
            ("#SBATCH --gpus-per-node=" + "9" * 5000, "is not a count of GPUs"),
        ],
    )
    def test_counts_refused(self, line: str, message: str) -> None:
        code, _, line_number, _, said = refusal(step(line))
        assert (code, line_number) == ("sbatch_value", 2)
        assert message in said


class TestNotRead:
    def test_directives_that_can_place_ranks_otherwise_are_noted(self) -> None:
        found = step("#SBATCH -N 2 -m cyclic", "#SBATCH -G 8 --gpu-bind=closest -F hosts")
        assert [(f.code, f.severity, f.path, f.line, f.column) for f in found.findings] == [
            ("sbatch_not_read", "note", "-m", 2, 14),
            ("sbatch_not_read", "note", "-G", 3, 9),
            ("sbatch_not_read", "note", "--gpu-bind", 3, 14),
            ("sbatch_not_read", "note", "-F", 3, 33),
        ]
        assert found.findings[0].message == (
            "estconf does not read --distribution=cyclic: it lays the tasks out otherwise than "
            "in blocks, so SLURM may place the ranks or their GPUs otherwise than shown"
        )

    @pytest.mark.parametrize(
        ("line", "reason"),
        [
            ("#SBATCH --ntasks-per-socket=2", "it bounds a node's tasks by its sockets, "),
            (
                "#SBATCH --gpus=8",
                "it asks for the job's GPUs, spread over its nodes as SLURM chooses, ",
            ),
            ("#SBATCH --gpu-bind=closest", "it binds each task to some of its node's GPUs, "),
        ],
    )
    def test_a_note_says_what_the_directive_not_read_does(self, line: str, reason: str) -> None:
        found = step(line).findings
        assert [(f.code, f.severity, f.line) for f in found] == [("sbatch_not_read", "note", 2)]
        assert reason in found[0].message

    def test_only_the_directive_that_wins_counts(self) -> None:
        assert step("#SBATCH -m cyclic -m block:cyclic").findings == ()
        assert [f.path for f in step("#SBATCH -m block -m plane=2").findings] == ["-m"]

    def test_a_block_distribution_is_not_noted_but_the_directives_after_it_are(self) -> None:
        found = step("#SBATCH -m block --gpu-bind=closest", "#SBATCH -G 8")
        assert [(f.path, f.line, f.column) for f in found.findings] == [
            ("--gpu-bind", 2, 18),
            ("-G", 3, 9),
        ]

    @pytest.mark.parametrize(
        "line", ["#SBATCH --cpus-per-task=8", "#SBATCH --exclusive", "#SBATCH --mem=0"]
    )
    def test_directives_of_no_placement_are_not_noted(self, line: str) -> None:
        assert step("#SBATCH -N 2", line).findings == ()


class TestTheStep:
    def test_a_step_cannot_be_changed(self) -> None:
        found = step("#SBATCH -N 2")
        with pytest.raises(dataclasses.FrozenInstanceError):
            found.nodelist = "n1"  # type: ignore[misc]

    def test_a_step_of_refused_directives_binds_no_gpus(self) -> None:
        found = step("#SBATCH --nodes=two")
        assert found.failed
        assert found.bound_gpus is False

    def test_a_step_binds_gpus_only_by_the_task(self) -> None:
        assert step("#SBATCH -N 2 --gres=gpu:4").bound_gpus is False
        assert step("#SBATCH -N 2 --ntasks-per-node=2 --gpus-per-task=1").bound_gpus is True


def test_placeholders_are_one_width() -> None:
    assert [placeholders(count) for count in (1, 2, 9, 10, 100)] == [
        "node1",
        "node[1-2]",
        "node[1-9]",
        "node[01-10]",
        "node[001-100]",
    ]


@given(st.integers(1, 200), st.integers(1, 50))
def test_spread_is_slurms_block_layout(tasks: int, nodes: int) -> None:
    """Every node gets its share, the first ones one more, in SLURM's compressed form."""
    counts = expand_tasks_per_node(spread(tasks, nodes), nodes)
    assert sum(counts) == tasks and len(counts) == nodes
    assert counts == sorted(counts, reverse=True) and counts[0] - counts[-1] <= 1


@given(st.integers(1, 3000))
def test_placeholders_are_hosts_in_their_own_order_as_text(count: int) -> None:
    """Sorted as strings, as TensorFlow sorts them, they keep their order: no misplaced rank."""
    hosts = expand_hostlist(placeholders(count))
    assert len(hosts) == count and hosts == sorted(hosts)


@pytest.mark.parametrize(
    ("name", "nodelist", "tasks", "gpus"),
    [
        ("gpu-2x4.sbatch", "node[1-2]", "1(x2)", 4),
        ("nodelist.sbatch", "gpu07,gpu08", "2(x2)", 2),
        ("ntasks-per-node.sbatch", "node[1-4]", "8(x4)", 8),
        ("no-sizes.sbatch", "node1", "1", None),
        ("gpus-per-task.sbatch", "node[1-2]", "4(x2)", 1),
        ("old-directives.sbatch", "node[1-2]", "1(x2)", 4),
    ],
)
def test_the_scripts_of_the_data(name: str, nodelist: str, tasks: str, gpus: int | None) -> None:
    found = batch_step(read_script((DATA / name).read_bytes(), name))
    assert layout(found) == (nodelist, tasks, gpus)
