"""``estconf tf-config jobset`` and ``trainjob``: the TF_CONFIG each pod of a JobSet reads.

``jobset FILE`` takes JobSet manifests; ``trainjob FILE...`` takes TrainJobs
and their runtimes, in one stream or several files (or directories), and
predicts the JobSet Trainer makes of each.  Every pod's TF_CONFIG is
written in pod order, as the pod gets it; what is wrong with one is noted
on standard error, and fails the command (exit 1).  A TrainJob whose
runtime is in no file read is not predicted, and the command exits 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Final

from estconf._arguments import UsageError, text_argument
from estconf.io.checks import limits_of
from estconf.launchers.base import Notes, TFConfigs, refuse_larger_output

if TYPE_CHECKING:
    from estconf.io.errors import FileError
    from estconf.launchers.jobset.predictions import Predicted, Size

_NAME_HELP: Final = "the {}'s name, for a manifest with only generateName"


class JobSetManifest:
    """``tf-config jobset FILE``, and ``tf-config --jobset FILE``."""

    spelled: Final = "--jobset FILE"
    takes: Final = frozenset({"task"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the manifest (and, alone, ``--name``) to ``parser``."""
        group = parser.add_argument_group(
            "a JobSet manifest" if alone else "a JobSet manifest (--jobset)"
        )
        help = "the JobSet manifests ('-': standard input)"
        if alone:
            group.add_argument("jobset", metavar="FILE", help=help)
            group.add_argument(
                "--name", type=text_argument, metavar="NAME", help=_NAME_HELP.format("JobSet")
            )
        else:
            group.add_argument("--jobset", metavar="FILE", help=help)

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--jobset FILE`` is given."""
        return getattr(args, "jobset", None) is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Nothing to refuse: its one option goes with it."""

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """The TF_CONFIG of each pod of the JobSets of the manifest."""
        from estconf.io.sources import shown_as
        from estconf.launchers.jobset.predictions import (
            Predicted,
            jobset_sources,
            predicted,
            read_objects,
        )

        limits = limits_of(args)
        objects, errors, unreadable = read_objects([args.jobset], limits)
        if errors:
            return _unread(errors, unreadable)
        shown = shown_as(args.jobset)
        sources, errors, lines = jobset_sources(objects, shown, getattr(args, "name", None))
        if errors or lines:
            found = Predicted([], [], Notes(lines, errors, counted=bool(errors)), failed=True)
            return _given(found)
        return _given(
            predicted(
                sources,
                fmt=args.format,
                task=args.task,
                before=lambda size: _refuse_too_large(size, args, shown),
            )
        )


class TrainJobManifests:
    """``tf-config trainjob FILE...``, and ``tf-config --trainjob FILE``."""

    spelled: Final = "--trainjob FILE"
    takes: Final = frozenset({"task"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the manifests (and, alone, ``--name``) to ``parser``."""
        group = parser.add_argument_group(
            "TrainJob manifests" if alone else "a TrainJob manifest (--trainjob)"
        )
        help = "the TrainJobs and their runtimes: files, directories, or '-' (standard input)"
        if alone:
            group.add_argument("trainjob", nargs="+", metavar="FILE", help=help)
            group.add_argument(
                "--name", type=text_argument, metavar="NAME", help=_NAME_HELP.format("TrainJob")
            )
        else:
            group.add_argument("--trainjob", action="append", metavar="FILE", help=help)

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--trainjob FILE`` is given."""
        return getattr(args, "trainjob", None) is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse standard input given twice."""
        if chosen and list(args.trainjob).count("-") > 1:
            raise UsageError("standard input ('-') can be given once")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """The TF_CONFIG of each pod of the JobSet Trainer makes of each TrainJob."""
        from estconf.io.sources import shown_as
        from estconf.launchers.jobset.predictions import (
            predicted,
            read_objects,
            trainjob_sources,
        )

        limits = limits_of(args)
        objects, errors, unreadable = read_objects(list(args.trainjob), limits)
        if errors:
            return _unread(errors, unreadable)
        named = ", ".join(shown_as(name) for name in args.trainjob)
        sources, errors, lines, hints = trainjob_sources(
            objects, getattr(args, "name", None), [shown_as(name) for name in args.trainjob]
        )
        if errors:
            return TFConfigs(None, notes=Notes(lines, errors, counted=True), failed=True)
        found = predicted(
            sources,
            fmt=args.format,
            task=args.task,
            before=lambda size: _refuse_too_large(size, args, named),
        )
        notes = Notes([*lines, *found.notes.lines], hints=[*hints, *found.notes.hints])
        missing = bool(hints)
        no_trainjob = bool(lines) and not sources and not hints
        return TFConfigs(
            None if no_trainjob else found.outputs,
            labels=found.labels,
            notes=notes,
            notes_after=True,
            failed=found.failed or no_trainjob,
            unreadable=missing,
            pods=None if no_trainjob else found.pods,
        )


def _unread(errors: list[FileError], unreadable: bool) -> TFConfigs:
    """Nothing written: an input cannot be read (exit 2), or is no stream of documents (1)."""
    notes = Notes(findings=errors, counted=True)
    return TFConfigs(None, notes=notes, failed=not unreadable, unreadable=unreadable)


def _given(found: Predicted) -> TFConfigs:
    """What ``tf-config`` gives of a prediction: the TF_CONFIGs, even when one is wrong."""
    outputs = found.outputs if found.outputs or not found.failed else None
    return TFConfigs(
        outputs,
        labels=found.labels,
        notes=found.notes,
        notes_after=True,
        failed=found.failed,
        unreadable=found.unreadable,
        pods=found.pods,
    )


def _refuse_too_large(size: Size, args: argparse.Namespace, name: str) -> None:
    """Refuse, before anything is written, TF_CONFIGs larger than ``--max-size``."""
    from estconf.launchers.formats import written_size

    total = written_size(size, args.format, files=args.out_dir is not None)
    refuse_larger_output(args, name, f"{size.pods:,} pods", total, estimated=True)


JOBSET: Final = JobSetManifest()
"""The JobSets of a manifest."""

TRAINJOB: Final = TrainJobManifests()
"""The TrainJobs of manifests, with their runtimes."""
