"""estconf.launchers.slurm.steps: a SLURM step given, and each rank's view of it."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from estconf.distribute import SlurmClusterResolver
from estconf.io.sources import InputError
from estconf.launchers.slurm.placement import Misplaced
from estconf.launchers.slurm.steps import (
    Place,
    Rank,
    Step,
    misplaced_notes,
    ranks,
    refusal_notes,
    step_environ,
)
from estconf.reports.launchers import write_notes
from values import is_a_value, refuses_assignment

STEP = step_environ(False, "node[9-10]", "2")


def refusal_text(exc: ValidationError, from_env: bool) -> str:
    """The resolver's refusal as ``tf-config --slurm`` writes it."""
    return write_notes(refusal_notes(exc, from_env))


def test_tensorflows_view_places_ranks_on_hosts_sorted_as_text() -> None:
    views, misplaced = ranks(Step({"worker": 4}, gpus_per_node=2), STEP)
    assert [view.task for view in views] == [("worker", index) for index in range(4)]
    assert views[0].label.startswith("rank 0 on node9: worker:0, master ")
    # TensorFlow sorts node10 before node9: every rank is given the other host
    assert [m.rank for m in misplaced] == [0, 1, 2, 3]


def test_written_tf_configs_are_at_each_ranks_own_host() -> None:
    views, misplaced = ranks(Step({"worker": 4}), STEP, write=True)
    assert misplaced == []
    first = json.loads(views[0].text)
    assert first["task"] == {"type": "worker", "index": 0}
    assert first["cluster"]["worker"][0].startswith("node9:")


def test_a_step_without_a_port_base_starts_at_tensorflows_8888() -> None:
    views, _ = ranks(Step({"worker": 4}), STEP, write=True)
    cluster = json.loads(views[0].text)["cluster"]
    assert cluster == {"worker": ["node9:8888", "node9:8889", "node10:8888", "node10:8889"]}


def test_one_rank_and_what_is_seen_before_it_is_built() -> None:
    seen: list[tuple[range, str]] = []
    views, _ = ranks(
        Step({"worker": 4}, gpus_per_node=2, rank=3),
        STEP,
        before=lambda r, one: seen.append((r, one)),
    )
    assert [view.label.split(":")[0] for view in views] == ["rank 3 on node10"]
    assert seen[0][0] == range(3, 4)


def test_a_rank_the_step_has_not() -> None:
    with pytest.raises(InputError, match="--rank 4: the step has 4 tasks, ranks 0 to 3"):
        ranks(Step({"worker": 4}, rank=4), STEP)


def test_an_environment_variable_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLURM_JOB_NODELIST", b"node\xff".decode("utf-8", "surrogateescape"))
    with pytest.raises(InputError, match=r"\$SLURM_JOB_NODELIST is not UTF-8 text \(byte 0xff"):
        step_environ(True)


def refusal(step: Step) -> ValidationError:
    with pytest.raises(ValidationError) as raised:
        ranks(step, STEP)
    return raised.value


def test_the_ranks_on_another_host_are_said_ten_then_counted_with_the_fix() -> None:
    assert write_notes(misplaced_notes([])) == ""
    misplaced = [Misplaced(rank, f"n{rank}", ("worker", rank), "n0:8888") for rank in range(12)]
    lines = write_notes(misplaced_notes(misplaced)).splitlines()
    assert lines[0] == (
        "--slurm: rank 0 runs on n0, but TensorFlow's SlurmClusterResolver gives it "
        "worker:0 at n0:8888 (it sorts the hosts as strings)"
    )
    assert len(lines) == 12
    assert lines[10] == "--slurm: and 2 more ranks given another host"
    assert lines[11].startswith("hint: add --write for a TF_CONFIG per rank at the host")


def test_a_refusal_is_said_at_the_flag_with_its_fix() -> None:
    said = refusal_text(refusal(Step({"worker": 3}, gpus_per_node=2)), from_env=False)
    assert said.startswith("--slurm: --jobs: Requested 3 tasks but only 4 were assigned.")
    assert said.endswith("\nhint: the sizes of --jobs add up to the step's tasks\n")


def test_a_job_name_tensorflow_cannot_hold_is_said_at_jobs() -> None:
    said = refusal_text(refusal(Step({"wor:ker": 4}, gpus_per_node=2)), from_env=False)
    assert said.startswith("--slurm: --jobs: 'wor:ker' is not a job name TensorFlow can hold")


@pytest.mark.parametrize("write", [False, True], ids=["tensorflow-view", "written"])
def test_the_first_ranks_tf_config_is_given_before_the_others_are_built(write: bool) -> None:
    seen: list[tuple[range, str]] = []
    step = Step({"worker": 4}, gpus_per_node=2)
    found, _ = ranks(step, STEP, write=write, before=lambda wanted, one: seen.append((wanted, one)))
    assert seen == [(range(4), found[0].text)]
    assert json.loads(found[0].text)["task"] == {"type": "worker", "index": 0}


def test_the_flags_fix_stands_for_the_resolvers_own() -> None:
    """The resolver's hint names its arguments (gpus_per_node): the flag's is said instead."""
    said = refusal_text(refusal(Step({"worker": 4})), from_env=False)
    assert said == (
        "--slurm: --gpus-per-node: no GPU count: TensorFlow would run nvidia-smi --list-gpus "
        "here, and estconf runs no program\n"
        "hint: give --gpus-per-node N, or --write, which needs no GPU count\n"
    )
    no_task = refusal_text(refusal_of(gpus_per_node=2, tasks="0"), from_env=False)
    assert no_task.endswith("\nhint: give each node a task: --tasks-per-node 1 or more\n")
    assert "gpus_per_task" not in no_task


def test_a_refusal_the_flags_have_no_fix_for_is_told_the_resolvers() -> None:
    said = refusal_text(refusal_of(gpus_per_node=2, nodelist="node[9-"), from_env=False)
    assert said.splitlines()[1:] == [
        "hint: write the nodelist as SLURM does: hosts separated by commas, a run of numbered "
        "hosts in brackets (node[01-04,07],gpu1)"
    ]


def refusal_of(
    gpus_per_node: int, nodelist: str = "node[9-10]", tasks: str = "2"
) -> ValidationError:
    with pytest.raises(ValidationError) as raised:
        step = Step({"worker": 4} if tasks != "0" else None, gpus_per_node=gpus_per_node)
        ranks(step, step_environ(False, nodelist, tasks))
    return raised.value


def test_a_refusal_from_the_environment_is_said_at_the_variable() -> None:
    exc = refusal(Step({"worker": 4}))
    assert refusal_text(exc, from_env=False).startswith("--slurm: --gpus-per-node: no GPU count")
    environ = {**STEP, "SLURM_STEP_NODELIST": "node[9-"}
    with pytest.raises(ValidationError) as raised:
        ranks(Step({"worker": 4}, gpus_per_node=2), environ)
    said = "--slurm: {}: Invalid hostlist format"
    assert refusal_text(raised.value, from_env=True).startswith(said.format("SLURM_STEP_NODELIST"))
    assert refusal_text(raised.value, from_env=False).startswith(said.format("--nodelist"))


def test_a_refusal_is_said_where_its_value_is_given() -> None:
    """A value given by a directive of a batch script is said at its line, with its own fix."""
    exc = refusal(Step({"worker": 4}, gpus_per_node=1))
    places: dict[tuple[str | int, ...], Place] = {
        ("gpus_per_task",): Place("--gres", "job.sh", 6, 9)
    }
    hints = {"slurm_gpus_per_task_zero": "ask for more GPUs"}
    [found] = refusal_notes(exc, False, places, hints).findings
    assert (found.file, found.line, found.column, found.path) == ("job.sh", 6, 9, "--gres")
    assert refusal_text_with(exc, places, hints).endswith("\nhint: ask for more GPUs\n")
    assert refusal_notes(exc, False, places, {"slurm_gpus_per_task_zero": ""}).hints == []


def refusal_text_with(
    exc: ValidationError, places: dict[tuple[str | int, ...], Place], hints: dict[str, str]
) -> str:
    return write_notes(refusal_notes(exc, False, places, hints))


def test_the_gpus_per_task_given_are_the_resolvers() -> None:
    views, _ = ranks(Step({"worker": 4}, gpus_per_node=4, gpus_per_task=2), STEP)
    assert [view.label.rpartition("=")[2] for view in views] == ["0,1", "2,3", "0,1", "2,3"]
    exc = refusal(Step({"worker": 4}, gpus_per_node=4, gpus_per_task=3))
    said = refusal_text(exc, from_env=False)
    assert said.startswith("--slurm: --gpus-per-node: Requested more GPUs per node than available.")
    assert said.endswith(
        "\nhint: give at most --gpus-per-node // the most tasks on a node as --gpus-per-task\n"
    )


def test_a_refusal_of_the_rank_is_said_at_rank() -> None:
    with pytest.raises(ValidationError) as raised:
        SlurmClusterResolver({"worker": 4}, gpus_per_node=2, environ={**STEP, "SLURM_PROCID": "4"})
    said = "--slurm: {}: SLURM_PROCID is 4 but the cluster has 4 tasks"
    assert refusal_text(raised.value, from_env=False).startswith(said.format("--rank"))
    assert refusal_text(raised.value, from_env=True).startswith(said.format("SLURM_PROCID"))


def test_a_port_past_65535_is_given_its_fix_once() -> None:
    said = refusal_text(refusal(Step({"worker": 4}, 65535, gpus_per_node=2)), from_env=False)
    assert said.count("is not a valid task address") == 2
    assert said.endswith("\nhint: a port above 65535: give a smaller --port-base\n")


def test_a_rank_is_a_value() -> None:
    """A rank's view refuses assignment and hashes by its fields."""
    is_a_value(lambda: Rank(("worker", 0), "{}", "rank 0 on node1: worker:0", 0))


def test_a_step_cannot_be_changed() -> None:
    """A step refuses assignment; it holds its jobs as a dict, so it is not hashed."""
    refuses_assignment(Step({"worker": 2}, gpus_per_node=1))


def test_too_many_tasks_on_a_node_is_said_at_tasks_per_node_with_its_fix() -> None:
    with pytest.raises(ValidationError) as raised:
        step_environ(False, "n1", "2147483648")
    said = refusal_text(raised.value, from_env=False)
    assert said == (
        "--slurm: --tasks-per-node: 2,147,483,648 tasks on the node 'n1', more than the 65,533 "
        "SLURM runs on a node: each rank's TF_CONFIG lists every task's address\n"
        "hint: give the tasks srun starts on each node (srun --ntasks-per-node)\n"
    )


def test_a_gpu_count_of_the_environment_is_said_at_its_variable() -> None:
    environ = {**STEP, "CUDA_VISIBLE_DEVICES": ",".join(map(str, range(2000)))}
    with pytest.raises(ValidationError) as raised:
        ranks(Step({"worker": 4}), environ)
    said = refusal_text(raised.value, from_env=True)
    assert said.startswith(
        "--slurm: CUDA_VISIBLE_DEVICES: the GPU count is 2,000, more than the 1,024 GPUs"
    )
    assert said.endswith("hint: give the GPUs of one node (srun --gres=gpu:N)\n")


def test_other_variables_that_are_not_utf8_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only SLURM's variables and ``CUDA_VISIBLE_DEVICES`` are read, so only they are refused."""
    monkeypatch.setenv("LANG_OF_THE_NODE", b"x\xff".decode("utf-8", "surrogateescape"))
    monkeypatch.setenv("SLURM_STEP_NODELIST", "node1")
    monkeypatch.setenv("SLURM_STEP_TASKS_PER_NODE", "1")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    assert step_environ(True)["SLURM_STEP_NODELIST"] == "node1"


def test_gpus_that_are_not_utf8_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", b"0,\xfe".decode("utf-8", "surrogateescape"))
    with pytest.raises(InputError, match=r"\$CUDA_VISIBLE_DEVICES is not UTF-8 text \(byte 0xfe"):
        step_environ(True)
