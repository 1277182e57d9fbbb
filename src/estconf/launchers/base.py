"""A launcher of ``estconf tf-config`` (:class:`Launcher`) and what it gives (:class:`TFConfigs`).

A launcher turns what it is given (a cluster file, replica counts, a TFJob
manifest, a SLURM step, a SageMaker job, a Vertex AI spec) into the
``TF_CONFIG`` of each task, as that launcher writes it.  It declares its
options, refuses options that do not fit, and returns the ``TF_CONFIG`` texts
with what it found (:class:`Notes`: records, not text); ``estconf tf-config``
writes them, and :mod:`estconf.reports.launchers` what was found.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from estconf._arguments import UsageError
from estconf.io.checks import limits_of

if TYPE_CHECKING:
    from estconf.io.errors import FileError

__all__ = ["COMMON", "Launcher", "Notes", "Output", "Pod", "TFConfigs", "refuse_larger_output"]

Output = tuple[tuple[str, int], str]
"""A task ``(type, index)`` and its TF_CONFIG as JSON text."""

COMMON: Final = frozenset({"task", "profile"})
"""The options of ``tf-config`` a launcher may take besides its own: ``--task`` and ``--profile``.

``--format``, ``--out-dir`` and the limits of reading (``--max-size``, ...)
go with every launcher.
"""


@dataclass(frozen=True)
class Notes:
    """What a launcher found of its input and its TF_CONFIGs, for standard error.

    :func:`estconf.reports.launchers.write_notes` writes it in this order:
    the lines, a line per finding (``file:line:column: path: message``), their
    count when ``counted``, then a ``hint:`` line per hint.

    Attributes:
        lines: the notes, and the problems that are not a check's findings,
            a line each, as said.
        findings: what a check of the input found (the file pipeline's errors).
        counted: whether the findings are counted after them, as ``validate``
            counts a file's errors (``2 errors in 1 of 1 file``).
        hints: how to fix what was found, each once.
    """

    lines: Sequence[str] = ()
    findings: Sequence[FileError] = ()
    counted: bool = False
    hints: Sequence[str] = ()

    @property
    def empty(self) -> bool:
        """Whether there is nothing to say."""
        return not (self.lines or self.findings or self.hints)


class Pod(NamedTuple):
    """One pod of a job (or its rank, host or replica), and the TF_CONFIG its program reads.

    ``tf-config --format pods`` writes a line of each
    (:func:`estconf.launchers.formats.pod_lines`).
    """

    name: str
    """What the launcher names it: the pod (``mnist-worker-0``), rank, host or replica."""
    tf_config: str | None
    """The TF_CONFIG text it gets, as it gets it; None where it gets none."""


@dataclass(frozen=True)
class TFConfigs:
    """What a launcher gives: each task's TF_CONFIG, and what it found.

    Attributes:
        outputs: each task and its TF_CONFIG text, to write; ``None``: nothing
            is written (not even an empty ``--out-dir``).
        labels: the comment written before each TF_CONFIG (default ``TYPE:INDEX``).
        notes: the findings, notes and hints, for standard error.
        notes_after: whether ``notes`` are written after the TF_CONFIGs, which they are about.
        failed: whether the input is not valid, or a task would not run (exit 1).
        unreadable: whether the input cannot be read at all (exit 2).
        pods: every pod in order, those that get no TF_CONFIG too, for
            ``--format pods``; None: each output is a pod, named by its label
            (:meth:`every_pod`).
    """

    outputs: Sequence[Output] | None
    labels: Sequence[str] | None = None
    notes: Notes = field(default_factory=Notes)
    notes_after: bool = False
    failed: bool = False
    unreadable: bool = False
    pods: Sequence[Pod] | None = None

    @property
    def any_pod(self) -> bool:
        """Whether :meth:`every_pod` lists a pod, told without listing them."""
        return bool(self.pods if self.pods is not None else self.outputs)

    def every_pod(self) -> list[Pod]:
        """Each pod and the TF_CONFIG it gets, for ``--format pods``, in the launcher's order.

        A launcher that gives no :attr:`pods` has a pod for each output, named
        by its label (``TYPE:INDEX`` by default); one that gives no outputs
        either has none to write.
        """
        if self.pods is not None:
            return list(self.pods)
        if self.outputs is None:
            return []
        from estconf.launchers.formats import label

        labels = self.labels or [label(task) for task, _ in self.outputs]
        return [Pod(name, text) for name, (_, text) in zip(labels, self.outputs, strict=True)]


class Launcher(Protocol):
    """One launcher of ``estconf tf-config``: its options, its usage checks, its TF_CONFIGs.

    Its name and its line in ``estconf tf-config --help`` are in the registry
    (:data:`estconf.launchers.LAUNCHERS`), so that help lists every launcher
    without importing one.
    """

    @property
    def spelled(self) -> str:
        """How the older ``tf-config`` command line names it: ``--slurm``, ``CLUSTER_FILE``."""

    @property
    def takes(self) -> frozenset[str]:
        """Which of :data:`COMMON` it takes (``tf-config NAME --help`` lists only these)."""

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add its options to ``parser``.

        ``alone``: the parser is ``tf-config NAME``'s, and the input is its
        positional argument (if it has one); else it is the older parser, which
        every launcher shares, and the launcher adds the option that chooses it.
        """

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether the older command line ``args`` chooses this launcher."""

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse its options without it (not ``chosen``), or options that do not fit.

        Raises:
            UsageError: the options do not fit.
        """

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """Each task's TF_CONFIG for the options ``args``.

        Raises:
            UsageError: the options do not fit, or ask for more than ``--max-size``.
        """


def refuse_larger_output(
    args: argparse.Namespace,
    source: str,
    tasks: str,
    total: int,
    *,
    estimated: bool = False,
    one: str | None = "--task TYPE:INDEX",
) -> None:
    """Refuse, before anything is written, the TF_CONFIGs of a job larger than ``--max-size``.

    Each task's TF_CONFIG lists every task's address, so a launcher's output
    grows as the square of its tasks; a job of a few lines could ask for
    terabytes.

    Args:
        args: the command's options (``--max-size``).
        source: what the tasks come from, first in the message (a file, ``--slurm``).
        tasks: how many tasks, and what they are (``"1,000 ranks"``).
        total: the bytes the TF_CONFIGs would take.
        estimated: whether ``total`` is worked out from one task's size.
        one: the option that writes one task's TF_CONFIG, if the launcher has one.

    Raises:
        UsageError: ``total`` is larger than ``--max-size``.
    """
    limit = limits_of(args).max_size
    if total <= limit:
        return
    noun = tasks.rpartition(" ")[2]
    task = noun.removesuffix("s")
    about = "about " if estimated else ""
    also = f", or {one} for one {task}" if one else ""
    raise UsageError(
        f"{source}: the TF_CONFIGs of its {tasks} would take {about}{total:,} bytes, "
        f"more than --max-size {limit:,}",
        hint=f"each {task}'s TF_CONFIG lists every {task}'s address, so the output grows as "
        f"the square of the {noun}: give a larger --max-size BYTES{also}",
    )
