"""``estconf tf-config slurm``: each rank's view of a SLURM step, TensorFlow's or a correct one.

The step is given by ``--nodelist`` and ``--tasks-per-node``, read from the
environment inside ``srun`` (``--from-env``), or worked out from the
``#SBATCH`` directives of a batch script (``--sbatch``,
:mod:`~estconf.launchers.slurm.batch`), the options given with it winning
over the directives.  Without ``--write``, every rank's ``TF_CONFIG``
describes exactly what TensorFlow's ``SlurmClusterResolver`` gives it
(:class:`estconf.distribute.SlurmClusterResolver`), its master and
``CUDA_VISIBLE_DEVICES`` in the label, and the ranks it gives an address on
another host are reported.  With ``--write``, each rank's ``TF_CONFIG`` is
:func:`estconf.launchers.slurm.placement.slurm_tf_configs`'s, at the host
SLURM runs it on.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from estconf._arguments import UsageError, number_argument, text_argument
from estconf.launchers.base import Notes, Pod, TFConfigs, refuse_larger_output

if TYPE_CHECKING:
    from estconf.launchers.slurm.batch import BatchStep
    from estconf.launchers.slurm.steps import Place

MAX_PORT: Final = 65535
MAX_GPUS: Final = 1024
"""The most GPUs of a node (``estconf.distribute._slurm_step.MAX_GPUS``)."""
MAX_TASKS_PER_NODE: Final = 65_533
"""The most tasks of a node (``estconf.distribute._slurm_step.MAX_TASKS_PER_NODE``)."""
MAX_RANK: Final = 99_999
"""The last rank of the largest step (``estconf.distribute._slurm_step.MAX_TASKS`` tasks)."""


def _jobs(text: str) -> dict[str, int]:
    text_argument(text)
    jobs: dict[str, int] = {}
    for part in text.split(","):
        name, sep, size = part.partition("=")
        digits = size.lstrip("0") or "0"
        number = size.isascii() and size.isdigit()
        too_many = number and (len(digits) > 6 or int(digits) > MAX_RANK + 1)
        if not sep or not name or not number or name in jobs or too_many:
            raise argparse.ArgumentTypeError(
                "expected JOB=N,JOB=N (such as ps=1,worker=7), each job once and of at most "
                f"{MAX_RANK + 1:,} tasks, not {text!r}"
            )
        jobs[name] = int(digits)
    return jobs


class Slurm:
    """``tf-config slurm``, and ``tf-config --slurm`` as it was first spelled."""

    spelled: Final = "--slurm"
    takes: Final = frozenset[str]()

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the options of a SLURM step to ``parser``."""
        slurm = parser.add_argument_group("a SLURM step" if alone else "a SLURM step (--slurm)")
        if not alone:
            slurm.add_argument(
                "--slurm",
                action="store_true",
                help="what TensorFlow's SlurmClusterResolver gives each rank of a step",
            )
        _add_step_arguments(slurm)

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--slurm`` is given."""
        return bool(args.slurm)

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse the options of a SLURM step without ``--slurm``."""
        given = [
            f"--{name.replace('_', '-')}"
            for name in _OPTIONS
            if getattr(args, name) is not None and getattr(args, name) is not False
        ]
        given += ["--write"] if args.write else []
        given += ["--port-base"] if args.port_base != 8888 else []
        if given and not chosen:
            raise UsageError(f"{given[0]} goes with --slurm")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """Each rank's ``TF_CONFIG``; failed on an error or a rank given another host's address.

        TensorFlow's view is written even when it gives ranks addresses on
        other hosts, as it is what they would get; the status says it is not usable.
        """
        return _tf_configs(args)


def _add_step_arguments(slurm: argparse._ArgumentGroup) -> None:
    slurm.add_argument(
        "--nodelist", type=text_argument, metavar="HOSTLIST", help="the step's hosts: node[01-04]"
    )
    slurm.add_argument(
        "--tasks-per-node",
        type=text_argument,
        metavar="N|LIST",
        help="the tasks on every host, or SLURM's list of them: 2(x3),1",
    )
    slurm.add_argument(
        "--from-env",
        action="store_true",
        help="read the step from SLURM_STEP_NODELIST and SLURM_STEP_TASKS_PER_NODE "
        "(inside srun), and the GPUs from CUDA_VISIBLE_DEVICES",
    )
    slurm.add_argument(
        "--sbatch",
        type=text_argument,
        metavar="SCRIPT",
        help="the step a plain srun starts in this batch script, worked out from its #SBATCH "
        "directives ('-': standard input); --nodelist and --tasks-per-node win over them",
    )
    slurm.add_argument(
        "--jobs",
        type=_jobs,
        metavar="JOB=N,...",
        help="each job's tasks (ps=1,worker=7); default: every task a worker",
    )
    slurm.add_argument(
        "--port-base",
        type=number_argument(0, MAX_PORT),
        default=8888,
        metavar="P",
        help="default: 8888",
    )
    slurm.add_argument(
        "--gpus-per-node",
        type=number_argument(0, MAX_GPUS),
        metavar="N",
        help="GPUs on each node",
    )
    slurm.add_argument(
        "--gpus-per-task",
        type=number_argument(0, MAX_GPUS),
        metavar="N",
        help="GPUs of each task (the resolver's gpus_per_task); default: the GPUs per node "
        "// the most tasks on a node",
    )
    slurm.add_argument(
        "--rank", type=number_argument(0, MAX_RANK), metavar="R", help="only this rank"
    )
    slurm.add_argument(
        "--write",
        action="store_true",
        help="a correct TF_CONFIG per rank instead: its address on the host SLURM runs it "
        "on, the jobs in the order of --jobs, no GPU needed",
    )


_OPTIONS: Final = (
    "nodelist",
    "tasks_per_node",
    "from_env",
    "sbatch",
    "jobs",
    "gpus_per_node",
    "gpus_per_task",
    "rank",
)


def _check_step(args: argparse.Namespace) -> None:
    """Refuse a step given twice or not at all."""
    if args.sbatch is not None:
        if args.from_env:
            raise UsageError("--sbatch and --from-env each give the step: give one")
        if not args.sbatch:
            raise UsageError("--sbatch takes the batch script's file, or - for standard input")
        tasks = args.tasks_per_node
        digits = tasks.lstrip("0") if tasks is not None and tasks.isascii() else ""
        if tasks is not None and not (
            digits.isdigit() and len(digits) <= 6 and int(digits) <= MAX_TASKS_PER_NODE
        ):
            raise UsageError(
                f"with --sbatch, --tasks-per-node takes one count, from 1 to "
                f"{MAX_TASKS_PER_NODE:,} as sbatch --ntasks-per-node does, not "
                f"{tasks[:20]!r}{'...' if len(tasks) > 20 else ''}"
            )
        return
    if args.from_env == (args.nodelist is not None or args.tasks_per_node is not None):
        raise UsageError(
            "--slurm reads the step from --nodelist HOSTLIST --tasks-per-node N, from a batch "
            "script with --sbatch SCRIPT, or from the environment with --from-env (inside "
            "srun): give one"
        )
    if not args.from_env and (args.nodelist is None or args.tasks_per_node is None):
        raise UsageError("--slurm needs both --nodelist HOSTLIST and --tasks-per-node N")


def _tf_configs(args: argparse.Namespace) -> TFConfigs:
    from pydantic import ValidationError

    from estconf.io.sources import InputError
    from estconf.launchers.slurm.steps import (
        Place,
        Step,
        misplaced_notes,
        ranks,
        refusal_notes,
        step_environ,
    )

    _check_step(args)
    step = Step(args.jobs, args.port_base, args.gpus_per_node, args.rank, args.gpus_per_task)
    places: dict[tuple[str | int, ...], Place] = {}
    hints: Mapping[str, str] = {}
    said = Notes()
    environ: Mapping[str, str]
    try:
        if args.sbatch is not None:
            batch = _batch_step(args)
            if isinstance(batch, TFConfigs):
                return batch
            said = Notes(batch.lines, batch.findings, counted=batch.failed)
            if batch.failed:
                return TFConfigs(None, notes=said, failed=True)
            places.update(batch.places)
            if args.gpus_per_node is not None:  # the resolver's argument, over what the job sees
                places.pop(("gpus_per_task",), None)
            hints = _script_hints(batch)
            environ = {**step_environ(False, batch.nodelist, batch.tasks_per_node), **batch.environ}
        else:
            try:
                environ = step_environ(args.from_env, args.nodelist, args.tasks_per_node)
            except InputError as exc:
                raise UsageError(f"--from-env: {exc}", hint=exc.hint) from None
        if args.gpus_per_task is not None:
            places[("gpus_per_task",)] = Place("--gpus-per-task")
        views, misplaced = ranks(
            step,
            environ,
            write=args.write,
            before=lambda wanted, one: _refuse_too_large(args, wanted, one),
        )
    except ValidationError as exc:
        refused = refusal_notes(exc, args.from_env, places, hints)
        return TFConfigs(None, notes=_joined(said, refused), failed=True)
    return TFConfigs(
        [(view.task, view.text) for view in views],
        [view.label for view in views],
        notes=_joined(said, misplaced_notes(misplaced)),
        notes_after=True,
        failed=bool(misplaced),
        pods=[Pod(view.name, view.text) for view in views],
    )


def _batch_step(args: argparse.Namespace) -> BatchStep | TFConfigs:
    """The step of the batch script ``--sbatch``, the options over its directives.

    What cannot be read at all (no such file) is given back as its ``TFConfigs``.

    Raises:
        pydantic.ValidationError: TensorFlow cannot read ``--nodelist``.
    """
    from estconf.io.checks import limits_of
    from estconf.io.errors import UNREADABLE_CODES, ConfigFileError
    from estconf.io.sources import read_given, shown_as
    from estconf.launchers.slurm.batch import batch_step
    from estconf.launchers.slurm.directives import read_script

    try:
        data = read_given(args.sbatch, limits_of(args).max_size)
    except ConfigFileError as exc:
        unreadable = any(error.code in UNREADABLE_CODES for error in exc.errors)
        notes = Notes(findings=exc.errors, counted=True)
        return TFConfigs(None, notes=notes, failed=True, unreadable=unreadable)
    script = read_script(data, shown_as(args.sbatch))
    tasks = None if args.tasks_per_node is None else int(args.tasks_per_node)
    return batch_step(script, nodelist=args.nodelist, tasks_per_node=tasks)


def _script_hints(batch: BatchStep) -> dict[str, str]:
    """The fixes of the resolver's errors that a batch script's directives cause."""
    hints = {
        "gpu_count_unknown": "the script asks for no GPU: give each node's in the script "
        "(#SBATCH --gres=gpu:N) or here (--gpus-per-node N), or --write, which needs none",
        "slurm_too_many_tasks": "",  # the count is the script's, said at its directive
    }
    if batch.bound_gpus:
        hints["slurm_gpus_per_task_zero"] = (
            "ask for each node's GPUs instead (#SBATCH --gres=gpu:N), which every task of a "
            "node sees and SlurmClusterResolver shares out; or --write, which needs no GPU"
        )
    return hints


def _joined(first: Notes, second: Notes) -> Notes:
    """The notes of the script, then those of the step."""
    return Notes(
        [*first.lines, *second.lines],
        [*first.findings, *second.findings],
        first.counted or second.counted,
        [*first.hints, *(hint for hint in second.hints if hint not in first.hints)],
    )


def _refuse_too_large(args: argparse.Namespace, ranks: range, one: str) -> None:
    """Refuse, before they are built, TF_CONFIGs of every rank larger than ``--max-size``."""
    total = len(ranks) * (len(one.encode()) + 1)
    refuse_larger_output(
        args, "--slurm", f"{len(ranks):,} ranks", total, estimated=True, one="--rank R"
    )


SLURM: Final = Slurm()
"""The SLURM launcher."""
