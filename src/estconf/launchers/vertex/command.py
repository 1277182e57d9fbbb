"""``estconf tf-config vertex SPEC``: the TF_CONFIG (or CLUSTER_SPEC) of each replica of a job.

The spec file is read as every input is (JSON or YAML, its limits); its
errors, and with ``--profile`` what the reader refuses in the replicas'
``TF_CONFIG``, are reported at the line of the spec field that causes them
(:mod:`estconf.launchers.vertex`).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, Final

from estconf._arguments import UsageError, number_argument, text_argument
from estconf.io.checks import limits_of
from estconf.launchers.base import Notes, Pod, TFConfigs, refuse_larger_output

if TYPE_CHECKING:
    from estconf.io.reading import Document

MAX_TRIAL: Final = 2**31 - 1
"""The largest ``--trial``: ``estconf.vertex.MAX_TRIAL``, known here without importing it."""

_SPEC_HELP: Final = (
    "a CustomJob spec file (gcloud ai custom-jobs create --config; '-': standard "
    "input): the TF_CONFIG Vertex AI gives each replica"
)


class Vertex:
    """``tf-config vertex SPEC``, and ``tf-config --vertex SPEC`` as it was first spelled."""

    spelled: Final = "--vertex"
    takes: Final = frozenset({"task", "profile"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the spec and the options of a CustomJob to ``parser``."""
        title = "a Vertex AI CustomJob"
        vertex = parser.add_argument_group(title if alone else f"{title} (--vertex)")
        if alone:
            vertex.add_argument("vertex", metavar="SPEC", help=_SPEC_HELP)
        else:
            vertex.add_argument("--vertex", metavar="SPEC", help=_SPEC_HELP)
        _add_job_arguments(vertex)

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--vertex SPEC`` is given."""
        return args.vertex is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse a CustomJob's options without ``--vertex``, and ``--cluster-spec`` as pods."""
        if not chosen:
            for flag, given in (
                ("--cluster-spec", args.cluster_spec),
                ("--job-id", args.job_id),
                ("--trial", args.trial is not None),
            ):
                if given:
                    raise UsageError(f"{flag} goes with --vertex")
        elif args.cluster_spec and args.format == "pods":
            raise UsageError(
                "--format pods writes each replica's TF_CONFIG: give --cluster-spec with "
                "another --format"
            )

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """Each replica's ``TF_CONFIG`` (or ``CLUSTER_SPEC``); failed when the spec is refused."""
        return _tf_configs(args)


def _add_job_arguments(vertex: argparse._ArgumentGroup) -> None:
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
    vertex.add_argument(
        "--trial",
        type=number_argument(1, MAX_TRIAL),
        metavar="N",
        help='trial N of a hyperparameter-tuning job: "trial": "N" in each task (from 1)',
    )


def _document(name: str, args: argparse.Namespace) -> Document:
    """The spec file, read and parsed with the command's limits."""
    from estconf.io.sources import InputError
    from estconf.launchers.vertex.reading import vertex_spec

    try:
        return vertex_spec(name, limits_of(args))
    except InputError as exc:
        raise UsageError(f"--vertex {exc}", hint=exc.hint) from None


def _refuse_too_large(args: argparse.Namespace, replicas: dict[str, Any], shown: str) -> None:
    """Refuse, before they are written, TF_CONFIGs of every replica larger than ``--max-size``."""
    if not replicas or args.task is not None:
        return
    one = json.dumps(next(iter(replicas.values())), separators=(",", ":"))
    total = len(replicas) * (len(one.encode()) + 1)
    refuse_larger_output(
        args, f"--vertex {shown}", f"{len(replicas):,} replicas", total, estimated=True
    )


def _tf_configs(args: argparse.Namespace) -> TFConfigs:
    from estconf.io.errors import ConfigFileError
    from estconf.io.sources import shown_as
    from estconf.launchers.vertex.reading import vertex_replicas

    name = args.vertex
    shown = shown_as(name)
    try:
        document = _document(name, args)
    except ConfigFileError as exc:
        return TFConfigs(None, notes=Notes(findings=exc.errors, counted=True), failed=True)
    found = vertex_replicas(
        document,
        shown,
        profile=args.profile,
        cluster_spec=args.cluster_spec,
        job_id=args.job_id,
        trial=args.trial,
        task=args.task,
        before=lambda replicas: _refuse_too_large(args, replicas, shown),
    )
    if found.failed:
        return TFConfigs(None, found.labels, notes=found.notes, failed=True)
    pods = [Pod(name, text) for name, (_, text) in zip(found.names, found.outputs, strict=True)]
    return TFConfigs(found.outputs, found.labels, notes=found.notes, pods=pods)


VERTEX: Final = Vertex()
"""The Vertex AI launcher."""
