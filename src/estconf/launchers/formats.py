"""The formats a TF_CONFIG per node is written in, and read back in.

``estconf tf-config --format`` writes each task's TF_CONFIG as JSON lines
(``jsonl``, or ``json``), shell ``export`` lines (``shell``), ``TF_CONFIG=``
lines (``env``) or a Kubernetes env list per task (``k8s``): the syntaxes
``estconf check-cluster`` reads (:mod:`estconf.io.reading`), so what one
writes the other reads back, node for node.

    >>> from estconf.launchers.formats import blocks
    >>> print(blocks([(("worker", 0), '{"task": {}}')], "shell"), end="")
    # worker:0
    export TF_CONFIG='{"task": {}}'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

__all__ = ["FORMATS", "SUFFIXES", "Output", "block", "blocks", "label", "written_size"]

FORMATS: Final = ("jsonl", "json", "shell", "env", "k8s")
"""The formats, ``json`` the older name of ``jsonl``."""

SUFFIXES: Final = {"jsonl": ".json", "json": ".json", "shell": ".sh", "env": ".env", "k8s": ".yaml"}
"""The file name suffix of each format, for a file of one TF_CONFIG."""

Output = tuple[tuple[str, int], str]
"""A task ``(type, index)`` and its TF_CONFIG as JSON text."""


def label(task: tuple[str, int]) -> str:
    """``TYPE:INDEX``, the label of a task's TF_CONFIG."""
    return f"{task[0]}:{task[1]}"


def block(label: str | None, text: str, fmt: str) -> str:
    """One task's TF_CONFIG in ``fmt``, after a ``# label`` comment where the format has them."""
    import shlex

    comment = "" if label is None else f"# {label}\n"
    if fmt in ("json", "jsonl"):
        return f"{text}\n"
    if fmt == "shell":
        return f"{comment}export TF_CONFIG={shlex.quote(text)}\n"
    if fmt == "env":
        return f"{comment}TF_CONFIG={text}\n"
    return f"{comment}env:\n  - name: TF_CONFIG\n    value: {_yaml_quoted(text)}\n"


def blocks(outputs: Sequence[Output], fmt: str, labels: Sequence[str] | None = None) -> str:
    """The TF_CONFIGs of ``outputs`` in ``fmt``, each after its label (default ``TYPE:INDEX``).

    ``k8s`` separates its env lists with ``---``: a YAML stream.
    """
    separator = "---\n" if fmt == "k8s" else ""  # YAML documents
    shown = labels or [label(task) for task, _ in outputs]
    return separator.join(
        block(text_label, text, fmt) for text_label, (_, text) in zip(shown, outputs, strict=True)
    )


def _yaml_quoted(text: str) -> str:
    """A YAML single-quoted scalar: any printable text, with ``'`` doubled."""
    return "'" + text.replace("'", "''") + "'"


class Sizes(Protocol):
    """The sizes of the TF_CONFIGs of many tasks, summed over the tasks."""

    @property
    def pods(self) -> int:
        """The tasks that get a TF_CONFIG."""

    @property
    def text_bytes(self) -> int:
        """The UTF-8 bytes of their TF_CONFIG texts."""

    @property
    def label_bytes(self) -> int:
        """The UTF-8 bytes of their ``# type:index`` labels."""

    @property
    def quotes(self) -> int:
        """The ``'`` characters in their TF_CONFIG texts."""


def written_size(size: Sizes, fmt: str, *, files: bool = False) -> int:
    """The bytes :func:`blocks` writes for TF_CONFIGs of these sizes, in ``fmt``.

    Each format wraps a TF_CONFIG in the same bytes, a ``# type:index`` label
    (not in files, one TF_CONFIG each), and quotes its ``'`` characters
    (shell: 4 more bytes each, YAML: 1); ``k8s`` separates its documents with
    ``---``.  JSON lines have no labels.  With ``files``, the bytes of the
    files, one a TF_CONFIG, are counted.
    """
    if not size.pods:
        return 0
    shown = None if files else ""
    around = len(block(shown, "", fmt).encode())
    extra = {"shell": 4, "k8s": 1}.get(fmt, 0)
    total = size.pods * around + size.text_bytes + extra * size.quotes
    if shown is not None and fmt not in ("json", "jsonl"):
        total += size.label_bytes
        if fmt == "k8s":
            total += len("---\n") * (size.pods - 1)
    return total
