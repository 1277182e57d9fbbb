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
from typing import TYPE_CHECKING, Any

from estconf.cli._common import (
    EXIT_INVALID,
    UsageError,
    limit_args,
    out,
    reading_limits,
    refuse_larger_output,
    text_argument,
)

if TYPE_CHECKING:
    from estconf.inputs.readers import Document

Writer = Callable[[list[tuple[tuple[str, int], str]], argparse.Namespace, list[str]], int]
"""``tf-config``'s writer: each task's text in ``--format``, after its label."""


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
        type=text_argument,
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
    from estconf.cli._common import say_unreadable
    from estconf.inputs.launchers import vertex_replicas
    from estconf.inputs.sources import shown_as
    from estconf.io.errors import ConfigFileError

    name = args.vertex
    shown = shown_as(name)
    try:
        document = _document(name, args)
    except ConfigFileError as exc:
        say_unreadable(shown, exc.errors)
        return EXIT_INVALID
    found = vertex_replicas(
        document,
        shown,
        profile=args.profile,
        cluster_spec=args.cluster_spec,
        job_id=args.job_id,
        task=args.task,
        before=lambda replicas: _refuse_too_large(args, replicas, shown),
    )
    out(found.said, sys.stderr)
    return EXIT_INVALID if found.failed else write(found.outputs, args, found.labels)
