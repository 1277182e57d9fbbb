"""``estconf tf-config``: write the TF_CONFIG of each task, as a launcher would write it.

``estconf tf-config LAUNCHER ...`` takes the options of one launcher of
:data:`estconf.launchers.LAUNCHERS`; ``estconf tf-config --help`` lists them.
The older command line, which names its launcher by an option
(``--slurm``, ``--job NAME``) or gives a cluster file, takes every
launcher's options, and works as it always has.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from estconf._arguments import UsageError, task_argument
from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    PROFILES,
    Parser,
    add_limits,
    out,
)
from estconf.launchers import LAUNCHERS, launcher, named
from estconf.launchers.formats import CHOICES, PODS

if TYPE_CHECKING:
    from estconf.launchers.base import Launcher, Notes, TFConfigs

NAME = "tf-config"

_DESCRIPTION: Final = "Write the TF_CONFIG of every task of a job, as its launcher would write it."

_EPILOG: Final = """Run 'estconf tf-config LAUNCHER --help' for the options of a launcher.

The older command line still works: it names the launcher by an option, or
gives a cluster file, and takes every launcher's options:
  estconf tf-config CLUSTER_FILE      is  estconf tf-config cluster CLUSTER_FILE
  estconf tf-config --job NAME        is  estconf tf-config job NAME
  estconf tf-config --tfjob FILE      is  estconf tf-config tfjob FILE
  estconf tf-config --slurm           is  estconf tf-config slurm
  estconf tf-config --sagemaker       is  estconf tf-config sagemaker
  estconf tf-config --vertex SPEC     is  estconf tf-config vertex SPEC
  estconf tf-config --volcano FILE    is  estconf tf-config volcano FILE

--format jsonl (or json, its older name) writes one TF_CONFIG per line, which
'estconf check-cluster -' reads; env writes TF_CONFIG=... lines for an env
file; pods writes a JSON line per pod, {"pod": NAME, "TF_CONFIG": ...}, null
where the pod gets none.  With --out-dir each task's goes to its own file,
TYPE-INDEX.json (.sh, .env, .yaml).  --max-size also bounds what is written:
each task's TF_CONFIG lists every task's address, so the output grows as the
square of the tasks, and a larger output is refused, with its size, before
anything is written.

examples:
  estconf tf-config cluster cluster.json
  estconf tf-config cluster cluster.yaml --task worker:1 --format shell
  estconf tf-config job mnist --namespace ml --chief 1 --worker 4 --ps 2
  estconf tf-config job mnist --worker 4 --profile mwms --out-dir tf_configs/
  estconf tf-config tfjob tfjob.yaml | estconf check-cluster --allow-empty -
  estconf tf-config slurm --nodelist 'node[1-4]' --tasks-per-node 2 --write
  estconf tf-config vertex custom_job.yaml --profile mwms
  estconf tf-config volcano job.yaml --format pods"""


def register(tf_config: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """Describe the command and add the options of the launcher ``words`` start with.

    Without a launcher's name first, help lists the launchers, and anything
    else is the older command line, with every launcher's options.
    """
    tf_config.description = _DESCRIPTION
    tf_config.epilog = _EPILOG
    names = [entry.name for entry in LAUNCHERS]
    if words and words[0] in names:
        chosen = named(words[0])
        launchers = tf_config.add_subparsers(
            dest="launcher", metavar="LAUNCHER", parser_class=Parser
        )
        sub = launchers.add_parser(
            chosen.name,
            help=chosen.summary,
            description=chosen.summary,
            epilog=f"example:\n  {chosen.example}",
            formatter_class=FORMATTER,
        )
        own = launcher(chosen)
        own.add_arguments(sub, alone=True)
        _add_common(sub, own.takes)
    elif any(word in ("-h", "--help") for word in words):
        listed = tf_config.add_subparsers(dest="launcher", metavar="LAUNCHER")
        for entry in LAUNCHERS:
            listed.add_parser(entry.name, help=entry.summary, add_help=False)
    else:
        tf_config.set_defaults(launcher=None)
        every = [launcher(entry) for entry in LAUNCHERS]
        every[0].add_arguments(tf_config, alone=False)  # the cluster file, the one positional
        from estconf.launchers.base import COMMON  # loaded with the launchers

        _add_common(tf_config, COMMON, limits=False)
        for each in every[1:]:
            each.add_arguments(tf_config, alone=False)
        add_limits(tf_config)


def _add_common(
    parser: argparse.ArgumentParser, takes: frozenset[str], *, limits: bool = True
) -> None:
    """Add the options every launcher shares, and of ``--task`` and ``--profile`` those it takes.

    One it does not take keeps its default (no task, the estimator's profile).
    """
    parser.set_defaults(task=None, profile="estimator")
    if "task" in takes:
        parser.add_argument(
            "--task",
            type=task_argument,
            metavar="TYPE:INDEX",
            help="only this task (evaluator:0 works for any cluster file)",
        )
    parser.add_argument(
        "--format",
        choices=CHOICES,
        default="jsonl",
        help="jsonl (json: the same): one TF_CONFIG per line (default); shell: export "
        "lines; env: TF_CONFIG= lines; k8s: a Kubernetes env list per task; pods: a JSON "
        "line per pod, its name and TF_CONFIG (null where it gets none)",
    )
    parser.add_argument(
        "--out-dir", metavar="DIR", help="write each task's TF_CONFIG to its own file in DIR"
    )
    if "profile" in takes:
        parser.add_argument(
            "--profile",
            choices=PROFILES,
            default="estimator",
            help="the reader the TF_CONFIGs are for: tf.estimator.RunConfig (default), "
            "MultiWorkerMirroredStrategy, ParameterServerStrategy, a TF1 program's "
            "tf.train.Server",
        )
    if limits:
        add_limits(parser)


def run(args: argparse.Namespace) -> int:
    """Write the TF_CONFIG of each task; 1 when the input is not valid, 2 on a usage error."""
    if args.format == PODS and args.out_dir is not None:
        raise UsageError(
            "--format pods writes one stream of JSON lines, a line per pod: give --out-dir "
            "with another --format"
        )
    if args.launcher is not None:
        chosen = launcher(named(args.launcher))
        chosen.check_usage(args, chosen=True)
    else:
        chosen = _older(args)
    found = chosen.tf_configs(args)
    return _finish(found, args)


def _older(args: argparse.Namespace) -> Launcher:
    """The launcher the older command line ``args`` names, its options checked."""
    every = [launcher(entry) for entry in LAUNCHERS]
    given = [each for each in every if each.chosen(args)]
    for each in every:
        if each not in given:
            each.check_usage(args, chosen=False)
    if len(given) != 1:
        spelled = [each.spelled for each in every]
        raise UsageError(f"give one of {', '.join(spelled[:-1])} or {spelled[-1]}")
    given[0].check_usage(args, chosen=True)
    return given[0]


def _finish(found: TFConfigs, args: argparse.Namespace) -> int:
    """Write what the launcher found and its TF_CONFIGs; the exit status."""
    _refuse_a_task_of_no_pod(found, args)
    if not found.notes_after:
        _say(found.notes)
    status = EXIT_OK
    if args.format == PODS:
        from estconf.launchers.formats import pod_lines

        out(pod_lines(found.every_pod()))
    elif found.outputs is not None:
        status = _write(list(found.outputs), args, list(found.labels) if found.labels else None)
    if found.notes_after:
        _say(found.notes)
    if found.unreadable:
        return EXIT_USAGE
    return EXIT_INVALID if found.failed else status


def _refuse_a_task_of_no_pod(found: TFConfigs, args: argparse.Namespace) -> None:
    """Refuse ``--task`` when no pod of the job runs that task.

    The launcher then has nothing to write, and an empty output with exit
    status 0 would pass for a TF_CONFIG in a script.  A cluster file's task
    need not be in its cluster (an evaluator), so the cluster launcher always
    writes one; there the reader refuses what it must.
    """
    if args.task is None or found.failed or found.unreadable or found.any_pod:
        return
    task_type, index = args.task
    raise UsageError(
        f"--task {task_type}:{index}: no pod of the job runs this task",
        hint="give a task the job has: --format pods, without --task, lists every pod",
    )


def _say(notes: Notes) -> None:
    """Write what the launcher found on standard error (its reporter is loaded only then)."""
    if notes.empty:
        return
    import sys

    from estconf.reports.launchers import write_notes

    out(write_notes(notes), sys.stderr)


def _write(
    outputs: list[tuple[tuple[str, int], str]],
    args: argparse.Namespace,
    labels: list[str] | None = None,
) -> int:
    """Write the TF_CONFIGs to stdout, or each to its own file under ``--out-dir``.

    ``labels`` are the comments before each (default ``TYPE:INDEX``).
    """
    from estconf.launchers.formats import SUFFIXES, block, blocks

    if args.out_dir is None:
        out(blocks(outputs, args.format, labels))
        return EXIT_OK
    directory = Path(args.out_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for (task_type, index), text in outputs:
            path = directory / f"{task_type}-{index}{SUFFIXES[args.format]}"
            path.write_text(block(None, text, args.format), encoding="utf-8")
            out(f"{path}\n")
    except OSError as exc:
        raise UsageError(
            f"cannot write to --out-dir {args.out_dir}: {exc.strerror or exc}"
        ) from None
    return EXIT_OK
