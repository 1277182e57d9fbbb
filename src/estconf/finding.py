"""One located finding: what every check of estconf reports, wherever it looked.

A :class:`Finding` is one problem with one input: its stable ``code`` (listed
in ``docs/errors.md``), a ``severity``, the ``message`` (in TensorFlow's words
where it has them), a ``hint`` when the fix is plain, the input it is about as
given (a file name, ``<stdin>``), the ``line`` and ``column`` there when they
are known, and the path inside the document (``cluster.worker[1]``).  The file
pipeline's errors (:class:`estconf.io.errors.FileError`), a profile's problems
with a ``TF_CONFIG`` (:class:`estconf.deployment.Problem`), the checks of a
TFJob (:func:`estconf.kubeflow.check`) and the whole-cluster checks, once
placed in their input, are all findings, and every report format (text, JSON,
GitHub annotations, SARIF) is written from them.  A finding the launcher
refuses before it runs (what ``kubectl apply`` refuses of a TFJob) is an
``error`` that is ``refused``.  A finding of the whole-job check
(:func:`estconf.deployment.check_cluster`) names the ``nodes`` it is about,
and holds what else that check knows of it (the task, the differing
addresses, the values nodes disagree on) as its ``cross_node`` record.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar, get_args

from estconf._path import format_nodes, format_path

if TYPE_CHECKING:
    from estconf._cross_node import CrossNode as _CrossNode
else:  # read as any value at run time, so that this module needs no pydantic
    _CrossNode = Any

__all__ = ["NO_VALUE", "SEVERITIES", "Finding", "Loc", "Severity", "hint_of", "show_value"]

Loc = tuple[str | int, ...]
"""A path into a document: mapping keys and list positions, outermost first."""

Severity = Literal["error", "warning", "note"]
"""How bad a finding is: ``error`` fails the check; ``warning`` fails it only when
asked to (``validate --strict``); ``note`` never does."""

SEVERITIES: Final[tuple[Severity, ...]] = get_args(Severity)
"""The severities, the worst first."""


class _NoValue(enum.Enum):
    """The one value of :data:`NO_VALUE`: copied, pickled and written in a JSON Schema as itself."""

    NO_VALUE = "NO_VALUE"

    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue.NO_VALUE
"""The :attr:`Finding.value` of a finding that is not about one value."""

_Found = TypeVar("_Found", bound="Finding")


@dataclass(frozen=True)
class Finding:
    """One problem with one input, and where it is.

    Attributes:
        file: the input, as given (a file name, ``<stdin>``); empty when it
            is about no input in particular.
        path: where in the input, as text (``tf_config.cluster.worker[3]``);
            empty for the input as a whole.
        loc: the same path as a tuple of keys and indices.
        code: a stable error type (``syntax``, ``depth``, ``unknown_key``,
            ``address``, ...; see ``docs/errors.md``).
        message: what is wrong, in TensorFlow's words where it has them.
        line: the 1-based line, where the format tells it, else ``None``.
        column: the 1-based column (in characters), with ``line``.
        value: the bad value, or :data:`NO_VALUE` when it is not about one.
        on_key: whether it is about the key at ``loc`` (an unknown key, a bad
            job name) rather than its value; it is placed at the key.
        severity: ``error`` (the default), ``warning`` or ``note``.
        hint: how to fix it, when the fix is plain.
        refused: the launcher refuses the input before it runs, as the
            operator's admission webhook does; such a finding is an ``error``.
        nodes: the nodes of a job it is about (a file name, ``FILE:LINE`` for
            a JSON line), for a finding of the whole-job check.
        cross_node: what the whole-job check knows of it besides its nodes
            (an :class:`estconf.deployment.CrossNode`); ``None`` for a
            finding of any other check.
    """

    file: str
    path: str
    loc: Loc
    code: str
    message: str
    line: int | None = None
    column: int | None = None
    value: Any = NO_VALUE
    on_key: bool = False
    severity: Severity = "error"
    hint: str | None = None
    refused: bool = False
    nodes: tuple[str, ...] = ()
    cross_node: _CrossNode | None = None

    @classmethod
    def at(
        cls: type[_Found],
        code: str,
        message: str,
        loc: Loc = (),
        *,
        file: str = "",
        line: int | None = None,
        column: int | None = None,
        value: Any = NO_VALUE,
        on_key: bool = False,
        severity: Severity = "error",
        hint: str | None = None,
        refused: bool = False,
        nodes: tuple[str, ...] = (),
        cross_node: _CrossNode | None = None,
    ) -> _Found:
        """A finding at ``loc`` (of ``file``, or of ``nodes``), with its path written out.

        Example:
            >>> Finding.at("address", "bad address", ("cluster", "worker", 1)).path
            'cluster.worker[1]'
        """
        path = format_path(loc)
        return cls(
            file,
            path,
            loc,
            code,
            message,
            line,
            column,
            value,
            on_key,
            severity,
            hint,
            refused,
            nodes,
            cross_node,
        )

    @classmethod
    def of_error(
        cls: type[_Found],
        detail: Mapping[str, Any],
        *,
        file: str = "",
        root: Loc = (),
        prefix: str = "",
        loc: Loc | None = None,
        value: bool = False,
    ) -> _Found:
        """The finding of one error of a pydantic ``ValidationError``, an entry of ``errors()``.

        Its ``type`` is the code and its ``msg`` the message, after ``prefix``;
        a ``hint`` in its ``ctx`` is the finding's hint.
        It is at its ``loc``, less ``root`` where the location starts with it
        (where the document sits in the model that raised), or at ``loc`` when
        given; with ``value``, its ``input`` is the finding's value.

        Example:
            >>> detail = {"type": "address", "msg": "bad", "loc": ("tf_config", "cluster")}
            >>> Finding.of_error(detail, root=("tf_config",)).path
            'cluster'
        """
        if loc is None:
            loc = tuple(detail["loc"])
            if root and loc[: len(root)] == root:
                loc = loc[len(root) :]
        found_value = detail["input"] if value else NO_VALUE
        hint = hint_of(detail)
        message = prefix + detail["msg"]
        return cls.at(detail["type"], message, loc, file=file, value=found_value, hint=hint)

    @property
    def label(self) -> str:
        """How bad it is, as a report's text says it: ``refused`` for a refusal, else the severity.

        Example:
            >>> Finding.at("tfjob_no_image", "no image", refused=True).label
            'refused'
        """
        return "refused" if self.refused else self.severity

    def __str__(self) -> str:
        """``file:line:column: path: message (got value)``, leaving out what is not known.

        A finding of the whole-job check is ``nodes: path: message``, its
        first few nodes named, or ``cluster: path: message`` when it names no node.
        """
        if self.nodes or self.cross_node is not None:
            return f"{format_nodes(self.nodes) or 'cluster'}: {self.describe()}"
        if not self.file:
            return self.describe()
        where = self.file if self.line is None else f"{self.file}:{self.line}:{self.column}"
        return f"{where}: {self.describe()}"

    def describe(self) -> str:
        """``path: message (got value)`` on one line, without the file and position."""
        message = " ".join(self.message.split())
        if self.value is not NO_VALUE and not _names_value(message, self.value):
            message += f" (got {show_value(self.value)})"
        return f"{self.path}: {message}" if self.path else message


def hint_of(detail: Mapping[str, Any]) -> str | None:
    """The fix an error of a pydantic ``ValidationError`` carries: the ``hint`` of its ``ctx``.

    A rule that knows the fix puts it there, beside the message, so that a
    report writes it on a line of its own.  A ``hint`` the message already
    says (a rule that writes its fix into its sentence) is no hint of its own.

    Example:
        >>> hint_of({"type": "x", "msg": "bad", "ctx": {"hint": "write 1"}})
        'write 1'
        >>> hint_of({"type": "x", "msg": "bad. Fix: write 1", "ctx": {"hint": " Fix: write 1"}})
    """
    hint = (detail.get("ctx") or {}).get("hint")
    if not isinstance(hint, str) or not hint.strip():
        return None
    return None if hint.strip() in str(detail.get("msg", "")) else hint


def _names_value(message: str, value: Any) -> bool:
    """Whether a message already shows the value it is about."""
    if isinstance(value, str):  # '' too
        quoted = f"'{value}'" in message or f'"{value}"' in message
        return quoted or (bool(value) and message.startswith(f"{value} "))
    return f"got {value}" in message or f"({value!r})" in message or message.startswith(f"{value} ")


def show_value(value: Any, limit: int = 60) -> str:
    """Write a value as JSON, cut to ``limit`` characters.

    Values that JSON cannot hold (a TOML or YAML date) are written the way
    the file wrote them, or as their ``repr``.
    """
    if hasattr(value, "isoformat"):
        text = str(value.isoformat())
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
