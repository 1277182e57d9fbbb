"""A SLURM step, as ``estconf tf-config --slurm`` is given it, and the view of each rank.

A step is given by its hosts and tasks per node (``--nodelist``,
``--tasks-per-node``: the variables SLURM sets, worked out by
:func:`estconf.launchers.slurm.placement.step_environ`) or by the environment of a
task inside ``srun``.  Each rank's view is TensorFlow's
(:class:`estconf.distribute.SlurmClusterResolver`, and the ranks it places on
another host than SLURM runs them on), or a correct ``TF_CONFIG`` at the
rank's own host (:func:`estconf.distribute.slurm_tf_configs`).  What is
found of a step, as ``--slurm`` reports it: the ranks placed elsewhere
(:func:`misplaced_notes`), the resolver's errors at the flags that cause them
(:func:`refusal_notes`), each with its fix.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from estconf.io.sources import InputError
from estconf.launchers.base import Notes

if TYPE_CHECKING:
    from pydantic import ValidationError

    from estconf.launchers.slurm.placement import Misplaced

__all__ = [
    "Place",
    "Rank",
    "Step",
    "misplaced_notes",
    "ranks",
    "refusal_notes",
    "step_environ",
]

_SHOWN: Final = 10
"""The misplaced ranks listed one by one; the others are counted."""

_FLAGS: Final[dict[tuple[str | int, ...], str]] = {
    ("environ", "SLURM_STEP_NODELIST"): "--nodelist",
    ("environ", "SLURM_STEP_TASKS_PER_NODE"): "--tasks-per-node",
    ("environ", "SLURM_PROCID"): "--rank",
    ("tasks_per_node",): "--tasks-per-node",
    ("gpus_per_node",): "--gpus-per-node",
    ("gpus_per_task",): "--gpus-per-node",  # worked out from it, unless --gpus-per-task is given
    ("jobs",): "--jobs",
    ("port_base",): "--port-base",
}
"""The flag that gives each argument of the resolver, for its errors."""

_HINTS: Final = {
    "slurm_gpus_per_task_zero": "--write writes each rank a TF_CONFIG that needs no GPU",
    "gpu_count_unknown": "give --gpus-per-node N, or --write, which needs no GPU count",
    "address": "a port above 65535: give a smaller --port-base",
    "slurm_port": "give a smaller --port-base",
    "slurm_tasks": "the sizes of --jobs add up to the step's tasks",
    "slurm_too_many_tasks": "give the tasks srun starts on each node (srun --ntasks-per-node)",
    "slurm_too_many_gpus": "give the GPUs of one node (srun --gres=gpu:N)",
    "slurm_no_tasks": "give each node a task: --tasks-per-node 1 or more",
    "slurm_gpus": "give at most --gpus-per-node // the most tasks on a node as --gpus-per-task",
}
"""The fix of each of the resolver's errors, by error code, in the words of the flags.

It stands for the resolver's own hint, which names its arguments (``gpus_per_node``).
"""


@dataclass(frozen=True)
class Step:
    """What a step is asked for: its jobs, ports, GPUs, and the ranks wanted."""

    jobs: dict[str, int] | None
    port_base: int = 8888
    gpus_per_node: int | None = None
    rank: int | None = None
    """One rank's view alone, or every rank's (None)."""
    gpus_per_task: int | None = None
    """The resolver's ``gpus_per_task``: None works it out from the GPUs per node."""


@dataclass(frozen=True)
class Place:
    """Where a value of the step is given, for the errors the resolver raises about it.

    Attributes:
        label: the option or directive that gives it (``--nodelist``, ``--gres``).
        file: the file it is written in (a batch script); empty for an option.
        line: its line in ``file``.
        column: its column there.
    """

    label: str
    file: str = ""
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Rank:
    """One rank's view: its task, its ``TF_CONFIG`` as JSON text, its label and its rank."""

    task: tuple[str, int]
    text: str
    label: str
    rank: int

    @property
    def name(self) -> str:
        """The rank as ``tf-config --format pods`` names it: ``rank 3``."""
        return f"rank {self.rank}"


def step_environ(
    from_env: bool, nodelist: str | None = None, tasks_per_node: str | None = None
) -> Mapping[str, str]:
    """The variables of the step: the environment's (``from_env``), or those SLURM would set.

    Raises:
        InputError: a ``SLURM_*`` or ``CUDA_VISIBLE_DEVICES`` variable of the
            environment is not UTF-8 text.
    """
    from estconf.launchers.slurm.placement import step_environ as made

    if from_env:
        _refuse_undecodable(os.environ)
        return os.environ
    tasks: int | str = tasks_per_node or ""
    if isinstance(tasks, str) and tasks.isascii() and tasks.isdigit():
        tasks = int(tasks)
    return made(nodelist or "", tasks)


def _refuse_undecodable(environ: Mapping[str, str]) -> None:
    """Refuse a ``SLURM_*`` or ``CUDA_VISIBLE_DEVICES`` variable whose bytes are not UTF-8.

    Python keeps such bytes as lone surrogates, which no error report can print.
    """
    for name in sorted(environ):
        if not (name.startswith("SLURM") or name == "CUDA_VISIBLE_DEVICES"):
            continue
        data = environ[name].encode("utf-8", "surrogateescape")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"${name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start})"
            ) from None


def _wanted(step: Step, count: int) -> range:
    if step.rank is None:
        return range(count)
    if step.rank >= count:
        raise InputError(f"--rank {step.rank}: the step has {count} tasks, ranks 0 to {count - 1}")
    return range(step.rank, step.rank + 1)


def ranks(
    step: Step,
    environ: Mapping[str, str],
    *,
    write: bool = False,
    before: Callable[[range, str], object] = lambda ranks, one: None,
) -> tuple[list[Rank], list[Misplaced]]:
    """Each rank's view (``write``: a correct ``TF_CONFIG``), and the ranks placed elsewhere.

    ``before`` is given the ranks and the first one's ``TF_CONFIG`` text before
    the others are built: a job of many ranks may be refused there.

    Raises:
        InputError: ``step.rank`` is not a rank of the step.
        pydantic.ValidationError: the resolver refuses the step.
    """
    if write:
        return _written(step, environ, before), []
    return _tensorflow_view(step, environ, before)


def _written(
    step: Step, environ: Mapping[str, str], before: Callable[[range, str], object]
) -> list[Rank]:
    from estconf.launchers.slurm.placement import rank_hosts, slurm_tf_configs

    configs = slurm_tf_configs(step.jobs, step.port_base, environ=environ)
    hosts = rank_hosts(environ=environ)
    wanted = _wanted(step, len(configs))
    before(wanted, json.dumps(configs[wanted[0]], separators=(",", ":")))
    written = []
    for rank in wanted:
        task = configs[rank]["task"]
        text = json.dumps(configs[rank], separators=(",", ":"))
        label = f"rank {rank} on {hosts[rank]}: {task['type']}:{task['index']}"
        written.append(Rank((task["type"], task["index"]), text, label, rank))
    return written


def _tensorflow_view(
    step: Step, environ: Mapping[str, str], before: Callable[[range, str], object]
) -> tuple[list[Rank], list[Misplaced]]:
    from estconf.distribute import SlurmClusterResolver
    from estconf.launchers.slurm.placement import misplaced_ranks, rank_hosts

    def resolver(rank: int) -> SlurmClusterResolver:
        return SlurmClusterResolver(
            step.jobs,
            step.port_base,
            step.gpus_per_node,
            step.gpus_per_task,
            environ={**environ, "SLURM_PROCID": str(rank)},
        )

    hosts = rank_hosts(environ=environ)
    wanted = _wanted(step, len(hosts))
    first = resolver(wanted[0] if wanted else 0)
    before(wanted, json.dumps(first.tf_config, separators=(",", ":")))
    views = []
    for rank in wanted:
        view = first if rank == wanted[0] else resolver(rank)
        task = (view.task_type or "", view.task_id or 0)
        text = json.dumps(view.tf_config, separators=(",", ":"))
        label = (
            f"rank {rank} on {hosts[rank]}: {task[0]}:{task[1]}, master {view.master()}, "
            f"CUDA_VISIBLE_DEVICES={view.cuda_visible_devices}"
        )
        views.append(Rank(task, text, label, rank))
    return views, misplaced_ranks(first)


def misplaced_notes(misplaced: list[Misplaced]) -> Notes:
    """The ranks TensorFlow gives an address on another host, and the fix; empty when none."""
    if not misplaced:
        return Notes()
    lines = [
        f"--slurm: rank {m.rank} runs on {m.host}, but TensorFlow's SlurmClusterResolver gives "
        f"it {m.task[0]}:{m.task[1]} at {m.address} (it sorts the hosts as strings)"
        for m in misplaced[:_SHOWN]
    ]
    if len(misplaced) > _SHOWN:
        lines.append(f"--slurm: and {len(misplaced) - _SHOWN} more ranks given another host")
    hint = (
        "add --write for a TF_CONFIG per rank at the host SLURM runs it on, "
        "and export it in each task (see the SLURM page of the docs)"
    )
    return Notes(lines, hints=[hint])


def refusal_notes(
    exc: ValidationError,
    from_env: bool,
    places: Mapping[tuple[str | int, ...], Place] | None = None,
    hints: Mapping[str, str] | None = None,
) -> Notes:
    """The resolver's errors at the flags (``from_env``: the variables) that cause them.

    ``places`` says where a value is given otherwise than by its flag (by the
    resolver's location of it: a directive of a batch script, ``--gpus-per-task``),
    and ``hints`` a fix of an error code other than the flags' own (``""``:
    none).  Each error is followed, once, by its fix (the hints): the flags'
    fix where there is one (:data:`_HINTS`), else the resolver's own, after
    the error.
    """
    import dataclasses

    from estconf.io.errors import FileError

    errors = []
    found_hints = []
    for detail in exc.errors(include_url=False):
        found = FileError.of_error(detail, file="--slurm")
        flag = _FLAGS.get(found.loc)
        if from_env and found.loc[:1] == ("environ",):
            flag = str(found.loc[-1])  # the variable
        elif found.loc[:1] == ("jobs",):
            flag = "--jobs"
        place = (places or {}).get(found.loc)
        if place is not None:
            found = dataclasses.replace(
                found, file=place.file or found.file, line=place.line, column=place.column
            )
            flag = place.label
        hint = (hints or {}).get(found.code, _HINTS.get(found.code))
        if found.code == "address" and not _port_too_large(detail.get("input")):
            hint = None
        own = found.hint if hint is None else None
        errors.append(dataclasses.replace(found, path=flag or found.path, hint=own))
        if hint and hint not in found_hints:
            found_hints.append(hint)
    return Notes(findings=errors, hints=found_hints)


def _port_too_large(address: object) -> bool:
    port = str(address).rpartition(":")[2]
    return port.isascii() and port.isdigit() and int(port) > 65535
