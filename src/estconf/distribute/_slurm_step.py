"""What a SLURM step's variables tell TensorFlow's ``SlurmClusterResolver``, read as it reads them.

``srun`` sets ``SLURM_PROCID``, ``SLURM_STEP_NUM_TASKS``, ``SLURM_STEP_NODELIST``
and ``SLURM_STEP_TASKS_PER_NODE`` for each task; ``CUDA_VISIBLE_DEVICES``
gives the GPU count.  A variable TensorFlow would read and cannot is raised
as a located error (``("environ", name)``) with TensorFlow's sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from estconf._errors import fail
from estconf.distribute._hostlist import ListFormatError, expand_hostlist, expand_tasks_per_node

__all__ = [
    "CUDA_VISIBLE_DEVICES",
    "MAX_GPUS",
    "MAX_TASKS",
    "MAX_TASKS_PER_NODE",
    "NODELIST",
    "NUM_TASKS",
    "PROCID",
    "SLURM_VARIABLES",
    "TASKS_PER_NODE",
    "TITLE",
    "check_gpus",
    "check_task_count",
    "check_tasks",
    "gpu_count",
    "host_tasks",
    "integer_variable",
    "task_configuration",
]

TITLE: Final = "SlurmClusterResolver"
PROCID: Final = "SLURM_PROCID"
NUM_TASKS: Final = "SLURM_STEP_NUM_TASKS"
NODELIST: Final = "SLURM_STEP_NODELIST"
TASKS_PER_NODE: Final = "SLURM_STEP_TASKS_PER_NODE"
CUDA_VISIBLE_DEVICES: Final = "CUDA_VISIBLE_DEVICES"

SLURM_VARIABLES: Final = (PROCID, NUM_TASKS, NODELIST, TASKS_PER_NODE, CUDA_VISIBLE_DEVICES)
"""Every variable the resolver may read; no other is kept."""

MAX_TASKS_PER_NODE: Final = 65_533
"""The most tasks a node may run: the largest ``MaxTasksPerNode`` SLURM accepts."""
MAX_TASKS: Final = 100_000
"""The most tasks of a step, and hosts of its nodelist: as many as a TFJob's pods or a
Vertex AI pool's replicas.  Each rank's ``TF_CONFIG`` lists every task's address."""
MAX_GPUS: Final = 1_024
"""The most GPUs of a node, or of a task: more than any node holds (a few dozen at most)."""


def _variable(environ: Mapping[str, str], name: str) -> str:
    """The variable ``name``; its absence raised in TensorFlow's words."""
    try:
        return environ[name]
    except KeyError:
        raise fail(
            TITLE,
            "slurm_variable_missing",
            "{name} not found in environment. Not running inside a SLURM step?",
            ("environ", name),
            None,
            {
                "name": name,
                "hint": "run it in a task srun starts: srun sets the SLURM_STEP_* variables of "
                "each task, and SLURM_JOB_* are never read",
            },
        ) from None


def integer_variable(environ: Mapping[str, str], name: str) -> int:
    """A variable TensorFlow reads with ``int()``; only ASCII digits (``int_type``, stricter)."""
    text = _variable(environ, name)
    if text.isascii() and text.lstrip("-").isdigit() and text.count("-") <= 1:
        return int(text)
    raise fail(
        TITLE,
        "int_type",
        "{name} should be an integer written in ASCII digits, got '{text}'",
        ("environ", name),
        text,
        {"name": name, "text": text, "hint": f"give {name} a whole number, as srun sets it"},
    )


def _hosts(environ: Mapping[str, str]) -> list[str]:
    text = _variable(environ, NODELIST)
    try:
        return expand_hostlist(text, MAX_TASKS)
    except ListFormatError as exc:
        raise fail(
            TITLE,
            "slurm_hostlist",
            'Invalid hostlist format "{text}": {reason}',
            ("environ", NODELIST),
            text,
            {
                "text": text,
                "reason": str(exc),
                "hint": "write the nodelist as SLURM does: hosts separated by commas, a run of "
                "numbered hosts in brackets (node[01-04,07],gpu1)",
            },
        ) from None


def host_tasks(
    tasks_per_node: int | Mapping[str, int] | None, environ: Mapping[str, str]
) -> list[tuple[str, int]]:
    """Each host and its number of tasks, in SLURM's order, a host named twice kept twice.

    ``tasks_per_node`` as TensorFlow takes it: a count for every host of the
    nodelist, or each host's count by name; ``None`` reads
    ``SLURM_STEP_TASKS_PER_NODE``, zipped with the hosts as TensorFlow zips
    them (the longer list is cut).
    """
    if isinstance(tasks_per_node, Mapping):
        return list(tasks_per_node.items())
    hosts = _hosts(environ)
    if tasks_per_node is not None:
        return [(host, tasks_per_node) for host in hosts]
    text = _variable(environ, TASKS_PER_NODE)
    try:
        counts = expand_tasks_per_node(text, len(hosts))
    except ListFormatError as exc:
        raise fail(
            TITLE,
            "slurm_tasks_per_node",
            'Invalid tasks-per-node list format "{text}": {reason}',
            ("environ", TASKS_PER_NODE),
            text,
            {
                "text": text,
                "reason": str(exc),
                "hint": "write the tasks per node as SLURM does: counts separated by commas, "
                "a count of several nodes in a row as N(xM) (2(x3),1)",
            },
        ) from None
    return list(zip(hosts, counts, strict=False))


def task_configuration(
    tasks_per_node: int | Mapping[str, int] | None, environ: Mapping[str, str]
) -> dict[str, int]:
    """Each host and its number of tasks; a host named twice keeps its last count."""
    return dict(host_tasks(tasks_per_node, environ))


def check_tasks(
    placed: Iterable[tuple[str, float]], loc: tuple[str, ...] = ("environ", TASKS_PER_NODE)
) -> None:
    """Refuse too many tasks on a node, or in a step, before any address is built.

    A node may run :data:`MAX_TASKS_PER_NODE` tasks, a step :data:`MAX_TASKS`.
    ``placed`` is each host and its tasks; ``loc`` where the counts come from.

    Raises:
        pydantic.ValidationError: ``slurm_too_many_tasks``.
    """
    most: tuple[float, str] = (0, "")
    total: float = 0
    for host, count in placed:
        most = max(most, (count, host))
        total += count
    if most[0] > MAX_TASKS_PER_NODE:
        value = most[0]
        what = (
            f"{_shown(value)} tasks on the node {most[1]!r}, more than the "
            f"{MAX_TASKS_PER_NODE:,} SLURM runs on a node"
        )
    elif total > MAX_TASKS:
        value = total
        what = f"{_shown(total)} tasks in the step, more than the {MAX_TASKS:,} estconf builds"
    else:
        return
    raise fail(
        TITLE,
        "slurm_too_many_tasks",
        "{what}: each rank's TF_CONFIG lists every task's address",
        loc,
        value,
        {
            "what": what,
            "hint": "give the step fewer tasks: srun --ntasks for the step, --ntasks-per-node "
            "for each node",
        },
    )


def check_gpus(count: float, loc: tuple[str, ...], name: str) -> None:
    """Refuse ``count`` GPUs (of a node or of a task, ``name``) above :data:`MAX_GPUS`.

    Raises:
        pydantic.ValidationError: ``slurm_too_many_gpus``.
    """
    if count > MAX_GPUS:
        raise fail(
            TITLE,
            "slurm_too_many_gpus",
            "{name} is {count}, more than the {most} GPUs of any node",
            loc,
            count,
            {
                "name": name,
                "count": _shown(count),
                "most": f"{MAX_GPUS:,}",
                "hint": "give the GPUs of one node"
                + (", listed in CUDA_VISIBLE_DEVICES (0,1,...)" if name == "the GPU count" else ""),
            },
        )


def _shown(count: float) -> str:
    """A count as said in a message: with thousands separators, a float as it is."""
    return f"{count:,}" if isinstance(count, int) else repr(count)


def gpu_count(environ: Mapping[str, str]) -> int:
    """The GPU count TensorFlow finds when ``gpus_per_node`` is not given."""
    visible = environ.get(CUDA_VISIBLE_DEVICES)
    if visible is not None:
        return len(visible.split(","))  # an empty value counts one
    raise fail(
        TITLE,
        "gpu_count_unknown",
        "no GPU count: TensorFlow would run nvidia-smi --list-gpus here, and estconf runs no "
        "program",
        ("gpus_per_node",),
        None,
        {"hint": "give gpus_per_node (the GPUs of each node), or set CUDA_VISIBLE_DEVICES"},
    )


def check_task_count(jobs: Mapping[str, float], assigned: float) -> None:
    """Refuse jobs whose sizes do not add up to the step's ``assigned`` tasks, as TensorFlow does.

    Raises:
        pydantic.ValidationError: ``slurm_tasks``.
    """
    requested = sum(jobs.values())
    if requested != assigned:
        raise fail(
            TITLE,
            "slurm_tasks",
            "Requested {requested} tasks but only {assigned} were assigned. (the jobs' sizes "
            "must add up to the step's tasks, {assigned})",
            ("jobs",),
            dict(jobs),
            {
                "requested": requested,
                "assigned": assigned,
                "hint": f"give jobs whose sizes add up to {_shown(assigned)}, or run the step "
                f"with {_shown(requested)} tasks (srun --ntasks)",
            },
        )
