"""``estconf tf-config --vertex SPEC``: the TF_CONFIG (or CLUSTER_SPEC) of each replica of a job.

The spec file is read as every input is (JSON or YAML, its limits); its
errors, and with ``--profile`` what the reader refuses in the replicas'
``TF_CONFIG``, are reported at the line of the spec field that causes them
(:mod:`estconf.vertex`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from estconf.cli._common import (
    EXIT_INVALID,
    UsageError,
    limit_args,
    out,
    reading_limits,
    refuse_larger_output,
)

if TYPE_CHECKING:
    from estconf.inputs.readers import Document

Writer = Callable[[list[tuple[tuple[str, int], str]], argparse.Namespace, list[str]], int]
"""``tf-config``'s writer: each task's text in ``--format``, after its label."""

_DEFAULT_PROFILE: Final = "estimator"


def register(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``--vertex`` to the ``tf-config`` command's ``parser``."""
    vertex = parser.add_argument_group("a Vertex AI CustomJob (--vertex)")
    vertex.add_argument(
        "--vertex",
        metavar="SPEC",
        help="a CustomJob spec file (gcloud ai custom-jobs create --config; '-': standard "
        "input): the TF_CONFIG Vertex AI gives each replica",
    )
    vertex.add_argument(
        "--cluster-spec",
        action="store_true",
        help="each replica's CLUSTER_SPEC instead (the pools as workerpool0..3)",
    )
    vertex.add_argument(
        "--job-id",
        metavar="ID",
        help="the job's id in the host names, known once the job is created (default: ab)",
    )


def check_usage(args: argparse.Namespace) -> None:
    """Refuse the options of ``--vertex`` without it."""
    if args.vertex is None:
        for flag, given in (("--cluster-spec", args.cluster_spec), ("--job-id", args.job_id)):
            if given:
                raise UsageError(f"{flag} goes with --vertex")


def _document(name: str, args: argparse.Namespace) -> Document:
    """The spec file, read and parsed with the command's limits."""
    from estconf.inputs.launchers import vertex_spec
    from estconf.inputs.sources import InputError

    try:
        return vertex_spec(name, reading_limits(limit_args(args)))
    except InputError as exc:
        raise UsageError(f"--vertex {exc}") from None


def _refuse_too_large(args: argparse.Namespace, replicas: dict[str, Any], shown: str) -> None:
    """Refuse, before they are written, TF_CONFIGs of every replica larger than ``--max-size``."""
    if not replicas or args.task is not None:
        return
    one = json.dumps(next(iter(replicas.values())), separators=(",", ":"))
    total = len(replicas) * (len(one.encode()) + 1)
    refuse_larger_output(
        args, f"--vertex {shown}", f"{len(replicas):,} replicas", total, estimated=True
    )


def run(args: argparse.Namespace, write: Writer) -> int:
    """Write each replica's ``TF_CONFIG`` (or ``CLUSTER_SPEC``); 1 when the spec is refused."""
    from pydantic import ValidationError

    from estconf import vertex
    from estconf.cli._common import errors_of, say_unreadable
    from estconf.io import report
    from estconf.io.errors import ConfigFileError

    name = args.vertex
    shown = "<stdin>" if name == "-" else name
    try:
        document = _document(name, args)
    except ConfigFileError as exc:
        say_unreadable(shown, exc.errors)
        return EXIT_INVALID
    data = document.data
    if not isinstance(data, dict):
        print(f"{shown}: a CustomJob spec holds an object with workerPoolSpecs", file=sys.stderr)
        return EXIT_INVALID
    job_id = vertex.DEFAULT_JOB_ID if args.job_id is None else args.job_id
    try:
        if args.profile != _DEFAULT_PROFILE or not args.cluster_spec:
            vertex.check_profile(data, args.profile)
        build = vertex.cluster_specs if args.cluster_spec else vertex.tf_configs
        replicas = build(data, job_id=job_id)
    except ValidationError as exc:
        errors = document.place(errors_of(exc, shown))
        out(report.write_text([report.Result(shown, None, errors)], quiet=True), sys.stderr)
        return EXIT_INVALID
    _refuse_too_large(args, replicas, shown)
    if args.job_id is None:
        print(
            f"note: Vertex AI names each replica's host after the job's id, chosen when the "
            f"job is created; these use {job_id!r} (--job-id ID for another)",
            file=sys.stderr,
        )
    outputs = []
    labels = []
    for replica, config in replicas.items():
        task = config["task"]
        if args.task is not None and args.task != (task["type"], task["index"]):
            continue
        outputs.append(((task["type"], task["index"]), json.dumps(config, separators=(",", ":"))))
        labels.append(
            replica if args.cluster_spec else f"{replica}: {task['type']}:{task['index']}"
        )
    return write(outputs, args, labels)
