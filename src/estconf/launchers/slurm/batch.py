"""The step ``srun`` starts in a batch script, worked out from the script's ``#SBATCH`` directives.

A plain ``srun`` in a batch script runs one task per task of the job, on
the job's nodes, laid out in blocks.  What the job is comes from the
directives sbatch reads (:mod:`~estconf.launchers.slurm.directives`), as
sbatch and SLURM's step layout (``src/sbatch/opt.c``,
``src/common/slurm_step_layout.c``) work it out:

- the nodes: ``--nodes``, else the hosts of ``--nodelist``, else one;
  without them ``--ntasks`` and ``--ntasks-per-node`` give
  ``ceil(ntasks / ntasks-per-node)`` nodes;
- the tasks: ``--ntasks-per-node`` on every node, else ``--ntasks`` spread
  evenly, the first nodes one more each (SLURM's block layout when every
  node has the CPUs for them), else one a node;
- the GPUs each task sees in ``CUDA_VISIBLE_DEVICES``, which
  ``SlurmClusterResolver`` counts as the GPUs of its node: ``--gres=gpu:N``
  or ``--gpus-per-node=N``, all of the node's; with ``--gpus-per-task=N``,
  SLURM binds each task to its own ``N``;
- the hosts: ``--nodelist``, each once and in the order of their names, as
  SLURM lists a job's nodes; else placeholders, ``node1`` to ``nodeN``
  (padded to one width), which SLURM chooses when the job starts.

Options given on the command line win over the directive of the same name,
as sbatch's own do (:func:`batch_step`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from estconf.distribute._hostlist import MAX_RANGE
from estconf.distribute._slurm_step import MAX_GPUS, MAX_TASKS, NODELIST, TASKS_PER_NODE, host_tasks
from estconf.io._positions import Position
from estconf.io.errors import FileError, error
from estconf.launchers.slurm._sbatch_values import (
    Refused,
    gpu_counts,
    gres_gpus,
    hosts,
    node_counts,
    positive,
    refuse,
)
from estconf.launchers.slurm.directives import Directive, Script, shown
from estconf.launchers.slurm.steps import Place

__all__ = ["BatchStep", "batch_step", "placeholders", "spread"]

_NOT_READ: Final = {
    "distribution": "lays the tasks out otherwise than in blocks",
    "nodefile": "names the hosts in a file, which estconf does not read",
    "ntasks-per-core": "bounds a node's tasks by its cores",
    "ntasks-per-socket": "bounds a node's tasks by its sockets",
    "ntasks-per-gpu": "sets the tasks by the GPUs",
    "ntasks-per-tres": "sets the tasks by the GPUs",
    "gpus": "asks for the job's GPUs, spread over its nodes as SLURM chooses",
    "gpus-per-socket": "asks for GPUs by the socket",
    "gpu-bind": "binds each task to some of its node's GPUs",
    "tres-bind": "binds each task to some of its node's GPUs",
    "tres-per-task": "asks for each task's resources, GPUs among them",
}
"""The directives estconf does not read that can change where ranks run or the GPUs they see."""


@dataclass(frozen=True)
class BatchStep:
    """The step a plain ``srun`` starts in a batch script, as ``tf-config slurm`` takes one.

    Attributes:
        nodelist: the step's hosts, as ``SLURM_STEP_NODELIST`` lists them.
        tasks_per_node: the tasks of each host, as ``SLURM_STEP_TASKS_PER_NODE`` says (``2(x3),1``).
        gpus: how many GPUs each task sees in ``CUDA_VISIBLE_DEVICES``; ``None``
            when the job asks for none.
        places: where each variable of the step comes from (a directive, an
            option), by the resolver's location of it, for its errors.
        findings: what is wrong with the directives (errors stop the
            prediction), and the notes of what estconf does not read.
        lines: notes on the step: its hosts are placeholders, its GPUs are bound.
        bound_gpus: whether SLURM binds each task to its own GPUs (``--gpus-per-task``).
    """

    nodelist: str = ""
    tasks_per_node: str = ""
    gpus: int | None = None
    places: dict[tuple[str | int, ...], Place] = field(default_factory=dict)
    findings: tuple[FileError, ...] = ()
    lines: tuple[str, ...] = ()
    bound_gpus: bool = False

    @property
    def failed(self) -> bool:
        """Whether the directives give no step."""
        return any(found.severity == "error" for found in self.findings)

    @property
    def environ(self) -> dict[str, str]:
        """``CUDA_VISIBLE_DEVICES`` as SLURM sets it in each task (empty without GPUs)."""
        if not self.gpus:
            return {}
        return {"CUDA_VISIBLE_DEVICES": ",".join(map(str, range(self.gpus)))}


def _place(directive: Directive, file: str) -> Place:
    return Place(directive.written, file, directive.line, directive.column)


def placeholders(count: int) -> str:
    """The hostlist of ``count`` placeholder hosts: ``node1``, ``node[1-4]``, ``node[01-16]``.

    A range names at most 65,536 hosts, as in SLURM's own hostlists.
    """
    if count == 1:
        return "node1"
    width = len(str(count))
    return ",".join(
        f"node[{start:0{width}d}-{min(start + MAX_RANGE - 1, count):0{width}d}]"
        for start in range(1, count + 1, MAX_RANGE)
    )


def spread(tasks: int, nodes: int) -> str:
    """``tasks`` spread over ``nodes`` as SLURM's block layout spreads them, written as SLURM does.

    Each node gets ``tasks // nodes``, the first ``tasks % nodes`` one more:
    ``spread(5, 3)`` is ``2(x2),1``.
    """
    most, more = divmod(tasks, nodes)
    runs = [(most + 1, more), (most, nodes - more)]
    return ",".join(
        f"{count}(x{times})" if times > 1 else str(count) for count, times in runs if times
    )


@dataclass
class _Sizes:
    """What the directives (and the options over them) ask of the job's size."""

    nodes: tuple[int, int] | None = None
    ntasks: int | None = None
    per_node: int | None = None
    hosts: list[str] | None = None
    at: dict[str, Directive | Place] = field(default_factory=dict)


def _layout(sizes: _Sizes, file: str) -> tuple[int, str, list[str]]:
    """The node count, the tasks per node (SLURM's list) and notes, as sbatch works them out."""
    lines: list[str] = []
    nodes, ntasks, per_node, hosts = sizes.nodes, sizes.ntasks, sizes.per_node, sizes.hosts
    at = sizes.at

    def directive(name: str) -> Directive | None:
        found = at.get(name)
        return found if isinstance(found, Directive) else None

    if nodes is None and hosts is not None:
        nodes = (len(hosts), len(hosts))
    if nodes is not None and ntasks is not None:
        least, most = nodes
        if ntasks < most:
            most = ntasks
        if ntasks < least:
            lines.append(
                f"note: {file}: sbatch: can't run {ntasks} processes on {least} nodes, setting "
                f"nnodes to {ntasks}"
            )
            least = most = ntasks
        nodes = (least, most)
    if nodes is None:
        if ntasks is None or ntasks == 1:
            count = 1
        elif per_node is not None:
            count = -(-ntasks // per_node)
        else:
            raise refuse(
                file,
                "sbatch_layout",
                f"--ntasks={ntasks} without --nodes: SLURM puts the tasks on as few nodes as "
                "their CPUs need, which estconf does not know",
                directive("ntasks"),
                hint="give the node count (#SBATCH --nodes=N) or the hosts (--nodelist HOSTLIST)",
            )
        nodes = (count, count)
    least, most = nodes
    if least != most:
        given = directive("nodes")
        raise refuse(
            file,
            "sbatch_layout",
            f"--nodes={shown(given.value or '') if given else f'{least}-{most}'} lets SLURM "
            "choose the node count when the job starts",
            given,
            hint="give one count (#SBATCH --nodes=N), or the hosts it ran on (--nodelist HOSTLIST)",
        )
    if least == 0:
        raise refuse(
            file, "sbatch_layout", "--nodes=0 asks for no node: no step runs", directive("nodes")
        )
    if hosts is not None and len(hosts) != least:
        named = at.get("nodelist")
        label = named.label if isinstance(named, Place) else "--nodelist"
        more = "more" if len(hosts) > least else "fewer"
        raise refuse(
            file,
            "sbatch_layout",
            f"{label} names {len(hosts)} hosts, {more} than the job's {least} nodes: SLURM "
            + ("refuses the job" if more == "more" else "adds hosts of its choice"),
            directive("nodes") or directive("ntasks") or directive("nodelist"),
            hint="name every host of the job, and only those, in --nodelist",
        )
    if ntasks is not None and per_node is not None and ntasks > least * per_node:
        source = at.get("per_node")
        label = source.label if isinstance(source, Place) else "--ntasks-per-node"
        raise refuse(
            file,
            "sbatch_layout",
            f"--ntasks={ntasks} is more than {least} nodes times {label}={per_node}",
            directive("ntasks"),
        )
    if ntasks is not None:
        return least, spread(ntasks, least), lines
    each = 1 if per_node is None else per_node
    return least, f"{each}(x{least})" if least > 1 else str(each), lines


def batch_step(
    script: Script,
    *,
    nodelist: str | None = None,
    tasks_per_node: int | None = None,
) -> BatchStep:
    r"""The step a plain ``srun`` starts in ``script``, the options given over its directives.

    Args:
        script: the batch script's directives (:func:`.directives.read_script`).
        nodelist: ``--nodelist``: the job's hosts, in SLURM's order; over
            the script's ``--nodelist`` (and its placeholders).
        tasks_per_node: ``--tasks-per-node``, as ``sbatch --ntasks-per-node``
            takes it; over the script's ``--ntasks-per-node``.

    Raises:
        pydantic.ValidationError: TensorFlow cannot read ``nodelist``
            (``slurm_hostlist``, at ``("environ", "SLURM_STEP_NODELIST")``).

    Example:
        >>> from estconf.launchers.slurm.directives import read_script
        >>> script = read_script(b"#!/bin/sh\n#SBATCH -N 2 -n 3 --gres=gpu:2\n", "job.sh")
        >>> step = batch_step(script)
        >>> step.nodelist, step.tasks_per_node, step.gpus
        ('node[1-2]', '2,1', 2)
    """
    file = script.file
    findings = list(script.findings)
    if script.failed:
        return BatchStep(findings=tuple(findings))
    try:
        sizes = _sizes(script, nodelist, tasks_per_node)
        count, tasks, lines = _layout(sizes, file)
        gpus, gpu_lines, gpu_place = _gpus(script, file)
    except Refused as refused:
        return BatchStep(findings=(*findings, refused.found))
    findings += _not_read(script)
    if sizes.hosts is not None:
        hosts = nodelist if nodelist is not None else ",".join(sizes.hosts)
    else:
        hosts = placeholders(count)
        lines.append(
            f"note: {file} names no host: {hosts} stands for the host SLURM chooses when the job "
            "starts; --nodelist HOST gives the real one"
            if count == 1
            else f"note: {file} names no host: {hosts} stand for the hosts SLURM chooses when the "
            "job starts; --nodelist HOSTLIST gives the real ones, which TensorFlow sorts as strings"
        )
    places: dict[tuple[str | int, ...], Place] = {}
    for name, locs in (
        ("nodelist", [("environ", NODELIST)]),
        ("tasks", [("environ", TASKS_PER_NODE), ("tasks_per_node",)]),
    ):
        source = sizes.at.get(name)
        if source is not None:
            for loc in locs:
                places[loc] = source if isinstance(source, Place) else _place(source, file)
    if gpu_place is not None:
        for loc in [("environ", "CUDA_VISIBLE_DEVICES"), ("gpus_per_task",)]:
            places[loc] = gpu_place
    bound = script.last("gpus-per-task") is not None
    return BatchStep(hosts, tasks, gpus, places, tuple(findings), (*lines, *gpu_lines), bound)


def _sizes(
    script: Script,
    nodelist: str | None,
    tasks_per_node: int | None,
) -> _Sizes:
    """What the directives ask of the job's size, the options given over them."""
    file = script.file
    sizes = _Sizes()
    given = script.last("nodes")
    if given is not None:
        sizes.nodes = node_counts(given, file)
        sizes.at["nodes"] = given
    given = script.last("ntasks")
    if given is not None:
        sizes.ntasks = positive(given, file)
        sizes.at["ntasks"] = given
    if sizes.ntasks is not None and sizes.ntasks > MAX_TASKS:
        raise refuse(
            file,
            "sbatch_value",
            f"--ntasks={sizes.ntasks:,}, more than the {MAX_TASKS:,} tasks of the largest step "
            "estconf builds",
            given,
        )
    if tasks_per_node is not None:
        sizes.per_node = tasks_per_node
        sizes.at["per_node"] = Place("--tasks-per-node")
    else:
        given = script.last("ntasks-per-node")
        if given is not None:
            sizes.per_node = positive(given, file)
            sizes.at["per_node"] = given
    if nodelist is not None:
        sizes.hosts = [host for host, _ in host_tasks(1, {NODELIST: nodelist})]
        sizes.at["nodelist"] = Place("--nodelist")
    else:
        given = script.last("nodelist", "nodefile")
        if given is not None and given.option == "nodelist":
            sizes.hosts = hosts(given, file)
            sizes.at["nodelist"] = given
    tasks = sizes.at.get("per_node") or sizes.at.get("ntasks") or sizes.at.get("nodes")
    if tasks is not None:
        sizes.at["tasks"] = tasks
    return sizes


def _gpus(script: Script, file: str) -> tuple[int | None, list[str], Place | None]:
    """The GPUs each task sees, a note when SLURM binds them to tasks, and where they come from."""
    gres = script.last("gres")
    per_node = script.last("gpus-per-node")
    per_task = script.last("gpus-per-task")
    of_gres = gres_gpus(gres, file) if gres is not None else None
    if of_gres is not None and per_node is not None:
        message = "--gpus-per-node and --gres=gpu are mutually exclusive."
        raise refuse(file, "sbatch_option", message, per_node)
    count, source = of_gres, gres if of_gres is not None else None
    if per_node is not None:
        count, source = gpu_counts(per_node, file), per_node
    lines = []
    if per_task is not None:
        count, source = gpu_counts(per_task, file), per_task
        gpus = f"{count} GPU" + ("" if count == 1 else "s")
        lines.append(
            f"note: {file}:{per_task.line}: SLURM binds each task to its own {gpus} "
            f"(--gpus-per-task), so CUDA_VISIBLE_DEVICES lists {count} in each task, which "
            "SlurmClusterResolver takes for the GPUs of the node"
        )
    if count is not None and count > MAX_GPUS:
        assert source is not None
        raise refuse(
            file,
            "sbatch_value",
            f"{count:,} GPUs, more than the {MAX_GPUS:,} of any node",
            source,
        )
    place = None if source is None or not count else _place(source, file)
    return count or None, lines, place


def _not_read(script: Script) -> list[FileError]:
    """A note at each directive estconf does not read that can place ranks or GPUs otherwise."""
    found = []
    last = [script.last(option) for option in _NOT_READ]
    for directive in sorted(
        (given for given in last if given is not None), key=lambda d: (d.line, d.column)
    ):
        reason = _NOT_READ[directive.option]
        if directive.option == "distribution" and (directive.value or "").startswith("block"):
            continue
        made = error(
            script.file,
            "sbatch_not_read",
            f"estconf does not read {shown(str(directive))}: it {reason}, so SLURM may place "
            "the ranks or their GPUs otherwise than shown",
            position=Position(directive.line, directive.column),
            severity="note",
        )
        found.append(replace(made, path=directive.written))
    return found
