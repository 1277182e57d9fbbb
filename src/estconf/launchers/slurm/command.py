"""``estconf tf-config slurm``: each rank's view of a SLURM step, TensorFlow's or a correct one.

Without ``--write``, every rank's ``TF_CONFIG`` describes exactly what
TensorFlow's ``SlurmClusterResolver`` gives it
(:class:`estconf.distribute.SlurmClusterResolver`), its master and
``CUDA_VISIBLE_DEVICES`` in the label, and the ranks it gives an address on
another host are reported.  With ``--write``, each rank's ``TF_CONFIG`` is
:func:`estconf.launchers.slurm.placement.slurm_tf_configs`'s, at the host
SLURM runs it on.
"""

from __future__ import annotations

import argparse
from typing import Final

from estconf._arguments import UsageError, number_argument, text_argument
from estconf.launchers.base import Pod, TFConfigs, refuse_larger_output

MAX_PORT: Final = 65535
MAX_GPUS: Final = 1024
"""The most GPUs of a node (``estconf.distribute._slurm_step.MAX_GPUS``)."""
MAX_RANK: Final = 99_999
"""The last rank of the largest step (``estconf.distribute._slurm_step.MAX_TASKS`` tasks)."""


def _jobs(text: str) -> dict[str, int]:
    text_argument(text)
    jobs: dict[str, int] = {}
    for part in text.split(","):
        name, sep, size = part.partition("=")
        too_many = size.isdigit() and (len(size) > 6 or int(size) > MAX_RANK + 1)
        if not sep or not name or not size.isdigit() or name in jobs or too_many:
            raise argparse.ArgumentTypeError(
                "expected JOB=N,JOB=N (such as ps=1,worker=7), each job once and of at most "
                f"{MAX_RANK + 1:,} tasks, not {text!r}"
            )
        jobs[name] = int(size)
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
        given = [f"--{name.replace('_', '-')}" for name in _OPTIONS if getattr(args, name)]
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
        "--rank", type=number_argument(0, MAX_RANK), metavar="R", help="only this rank"
    )
    slurm.add_argument(
        "--write",
        action="store_true",
        help="a correct TF_CONFIG per rank instead: its address on the host SLURM runs it "
        "on, the jobs in the order of --jobs, no GPU needed",
    )


_OPTIONS: Final = ("nodelist", "tasks_per_node", "from_env", "jobs", "gpus_per_node", "rank")


def _check_step(args: argparse.Namespace) -> None:
    """Refuse a step given twice or not at all."""
    if args.from_env == (args.nodelist is not None or args.tasks_per_node is not None):
        raise UsageError(
            "--slurm reads the step from --nodelist HOSTLIST --tasks-per-node N, or from "
            "the environment with --from-env (inside srun): give one"
        )
    if not args.from_env and (args.nodelist is None or args.tasks_per_node is None):
        raise UsageError("--slurm needs both --nodelist HOSTLIST and --tasks-per-node N")


def _tf_configs(args: argparse.Namespace) -> TFConfigs:
    from pydantic import ValidationError

    from estconf.io.sources import InputError
    from estconf.launchers.slurm.steps import (
        Step,
        misplaced_notes,
        ranks,
        refusal_notes,
        step_environ,
    )

    _check_step(args)
    step = Step(args.jobs, args.port_base, args.gpus_per_node, args.rank)
    try:
        try:
            environ = step_environ(args.from_env, args.nodelist, args.tasks_per_node)
        except InputError as exc:
            raise UsageError(f"--from-env: {exc}", hint=exc.hint) from None
        views, misplaced = ranks(
            step,
            environ,
            write=args.write,
            before=lambda wanted, one: _refuse_too_large(args, wanted, one),
        )
    except ValidationError as exc:
        return TFConfigs(None, notes=refusal_notes(exc, args.from_env), failed=True)
    return TFConfigs(
        [(view.task, view.text) for view in views],
        [view.label for view in views],
        notes=misplaced_notes(misplaced),
        notes_after=True,
        failed=bool(misplaced),
        pods=[Pod(view.name, view.text) for view in views],
    )


def _refuse_too_large(args: argparse.Namespace, ranks: range, one: str) -> None:
    """Refuse, before they are built, TF_CONFIGs of every rank larger than ``--max-size``."""
    total = len(ranks) * (len(one.encode()) + 1)
    refuse_larger_output(
        args, "--slurm", f"{len(ranks):,} ranks", total, estimated=True, one="--rank R"
    )


SLURM: Final = Slurm()
"""The SLURM launcher."""
