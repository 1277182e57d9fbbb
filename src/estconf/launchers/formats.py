"""The formats a TF_CONFIG per node is written in, and read back in.

``estconf tf-config --format`` writes each task's TF_CONFIG as JSON lines
(``jsonl``, or ``json``), shell ``export`` lines (``shell``), ``TF_CONFIG=``
lines (``env``) or a Kubernetes env list per task (``k8s``): the syntaxes
``estconf check-cluster`` reads (:mod:`estconf.io.reading`), so what one
writes the other reads back, node for node.  ``--format pods`` writes a JSON
line per pod instead (:func:`pod_lines`): its name and the TF_CONFIG it
gets, ``null`` where it gets none.

    >>> from estconf.launchers.formats import blocks
    >>> print(blocks([(("worker", 0), '{"task": {}}')], "shell"), end="")
    # worker:0
    export TF_CONFIG='{"task": {}}'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Final, Protocol

from estconf._json import loads

__all__ = [
    "CHOICES",
    "FORMATS",
    "PODS",
    "SUFFIXES",
    "Output",
    "block",
    "blocks",
    "label",
    "pod_line",
    "pod_lines",
    "written_size",
]

FORMATS: Final = ("jsonl", "json", "shell", "env", "k8s")
"""The formats, ``json`` the older name of ``jsonl``."""

SUFFIXES: Final = {"jsonl": ".json", "json": ".json", "shell": ".sh", "env": ".env", "k8s": ".yaml"}
"""The file name suffix of each format, for a file of one TF_CONFIG."""

PODS: Final = "pods"
"""The format of a JSON line per pod (:func:`pod_lines`), which writes no TF_CONFIG alone."""

CHOICES: Final = (*FORMATS, PODS)
"""What ``tf-config --format`` takes."""

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


def pod_line(name: str, text: str | None) -> str:
    """One pod's JSON line: ``{"pod": NAME, "TF_CONFIG": OBJECT}``.

    ``"TF_CONFIG": null`` where the pod gets none (``text`` None), and also
    where what it gets is no JSON object, with ``"text"`` then holding it as
    it is.  A TF_CONFIG's JSON is written as the pod gets it, on one line.

        >>> print(pod_line("job-ps-0", '{"task":{"type":"ps","index":0}}'), end="")
        {"pod": "job-ps-0", "TF_CONFIG": {"task":{"type":"ps","index":0}}}
        >>> print(pod_line("job-worker-0", "$(CONFIG)"), end="")
        {"pod": "job-worker-0", "TF_CONFIG": null, "text": "$(CONFIG)"}
    """
    head = '{"pod": ' + json.dumps(name, ensure_ascii=False) + ', "TF_CONFIG": '
    if text is None:
        return head + "null}\n"
    try:
        value = loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        return head + 'null, "text": ' + json.dumps(text, ensure_ascii=False) + "}\n"
    if "\n" in text or "\r" in text:  # a TF_CONFIG written on many lines
        text = json.dumps(value, ensure_ascii=False)
    return head + text.strip(" \t") + "}\n"


def pod_lines(pods: Iterable[tuple[str, str | None]]) -> str:
    """A JSON line per pod, ``(name, TF_CONFIG text or None)``, in order (:func:`pod_line`)."""
    return "".join(pod_line(name, text) for name, text in pods)


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


def written_size(
    size: Sizes, fmt: str, *, files: bool = False, name_bytes: int | None = None
) -> int:
    """The bytes :func:`blocks` writes for TF_CONFIGs of these sizes, in ``fmt``.

    Each format wraps a TF_CONFIG in the same bytes, a ``# type:index`` label
    (not in files, one TF_CONFIG each), and quotes its ``'`` characters
    (shell: 4 more bytes each, YAML: 1); ``k8s`` separates its documents with
    ``---``.  JSON lines have no labels.  With ``files``, the bytes of the
    files, one a TF_CONFIG, are counted.  ``pods`` (:func:`pod_lines`) wraps
    each in its pod's name, of ``name_bytes`` in all (default: the labels'),
    names and TF_CONFIGs that need no escape and fit on one line.
    """
    if not size.pods:
        return 0
    if fmt == PODS:
        around = len(pod_line("", "{}").encode()) - 2
        names = size.label_bytes if name_bytes is None else name_bytes
        return size.pods * around + names + size.text_bytes
    shown = None if files else ""
    around = len(block(shown, "", fmt).encode())
    extra = {"shell": 4, "k8s": 1}.get(fmt, 0)
    total = size.pods * around + size.text_bytes + extra * size.quotes
    if shown is not None and fmt not in ("json", "jsonl"):
        total += size.label_bytes
        if fmt == "k8s":
            total += len("---\n") * (size.pods - 1)
    return total
