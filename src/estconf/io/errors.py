"""What is wrong with a config file: :class:`FileError`, the finding of every stage.

Reading, decoding, parsing, the shared checks, the key checks and the
models' validation all report what they find as :class:`FileError` entries
(each a :class:`~estconf.finding.Finding`) with a stable ``code`` (listed in
``docs/errors.md``), and raise them together in a :class:`ConfigFileError`.
An error is made with :func:`error`, which writes its path; one found in the
data before its line and column are known gets them when the file's text is
searched for every such error at once.  What checking one file gave (its
kind, how the kind was told, its errors) is a :class:`Result`, the record
the reporters of :mod:`estconf.reports` write.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypedDict

from estconf._path import format_path
from estconf.finding import NO_VALUE, Finding, Severity, show_value
from estconf.io._positions import Loc, Position

if TYPE_CHECKING:
    from pydantic import ValidationError
    from typing_extensions import Unpack

__all__ = [
    "NO_VALUE",
    "UNREADABLE_CODES",
    "ConfigFileError",
    "Details",
    "FileError",
    "Result",
    "error",
    "error_again",
    "error_of",
    "errors_of",
    "format_path",
    "refused",
    "show_value",
]


UNREADABLE_CODES: Final = ("file", "helm_template", "shell_expansion")
"""The codes of an input that cannot be read at all: missing, a template to render first, or
a script whose TF_CONFIG the shell makes when it runs."""


class FileError(Finding):
    """One problem with a config file: a :class:`~estconf.finding.Finding` of the file pipeline.

    Reading, decoding, parsing, the shared checks, the key checks and the
    models' validation each report what they find as one; ``file`` is the
    file's name as given, and ``line`` is known where the format tells it
    (JSON, YAML, TOML).
    """


class Details(TypedDict, total=False):
    """What an error says besides its file, code, message and place (:func:`error_again`)."""

    position: Position | None
    value: Any
    on_key: bool
    severity: Severity
    hint: str | None
    refused: bool


def error(
    file: str, code: str, message: str, loc: Loc = (), **details: Unpack[Details]
) -> FileError:
    """Make a :class:`FileError` at ``loc`` of ``file``, with its path written out.

    Raises:
        KeyError: ``code`` is not declared in :mod:`estconf.codes`.
    """
    from estconf.codes import declaration  # imported when an error is first raised

    declaration(code)
    return error_again(file, code, message, loc, **details)


def error_again(
    file: str,
    code: str,
    message: str,
    loc: Loc = (),
    *,
    position: Position | None = None,
    value: Any = NO_VALUE,
    on_key: bool = False,
    severity: Severity = "error",
    hint: str | None = None,
    refused: bool = False,
) -> FileError:
    """:func:`error` for an error raised before, as a model's: its code may be pydantic's own."""
    line, column = (None, None) if position is None else position
    return FileError.at(
        code,
        message,
        loc,
        file=file,
        line=line,
        column=column,
        value=value,
        on_key=on_key,
        severity=severity,
        hint=hint,
        refused=refused,
    )


def error_of(
    finding: Finding, file: str, loc: Loc | None = None, *, on_key: bool | None = None
) -> FileError:
    """A check's ``finding`` as an error of ``file``, its message led by its label.

    The label (``error``, ``warning``, ``note`` or ``refused``) goes first so
    that a report's line says how bad it is; the hint stays apart.  ``loc``
    places it elsewhere than the finding's own place (the finding is about a
    part of the file), and ``on_key`` says it is about the key there.

    Example:
        >>> str(error_of(Finding.at("port_zero", "port 0", ("cluster",)), "c.json"))
        'c.json: cluster: error: port 0'
    """
    return FileError.at(
        finding.code,
        f"{finding.label}: {finding.message}",
        finding.loc if loc is None else loc,
        file=file,
        value=finding.value,
        on_key=finding.on_key if on_key is None else on_key,
        severity=finding.severity,
        hint=finding.hint,
        refused=finding.refused,
    )


def errors_of(invalid: ValidationError, file: str = "") -> list[FileError]:
    """The errors of a pydantic ``ValidationError`` of no text in particular, in ``file``.

    Each is at its location in the model, without a line and column: the
    input was built, not read from a file's text (a cluster's task, a
    launcher's options).
    """
    return [FileError.of_error(detail, file=file) for detail in invalid.errors(include_url=False)]


class ConfigFileError(ValueError):
    """A config file that cannot be read or is not valid; ``errors`` lists every problem.

    ``kind`` is the kind the file was read as, if it got that far, and
    ``kind_from`` how that kind was told (``given``, ``$schema``, ``file name``,
    ``keys``).
    """

    def __init__(
        self,
        file: str,
        errors: list[FileError],
        kind: str | None = None,
        kind_from: str | None = None,
    ) -> None:
        super().__init__(file)
        self.file = file
        self.errors = errors
        self.kind = kind
        self.kind_from = kind_from

    def __str__(self) -> str:
        """Every error on a line of its own, written when asked for (a file may have thousands)."""
        return "\n".join(str(error) for error in self.errors)


@dataclass
class Result:
    """The outcome of validating one file."""

    file: str
    kind: str | None = None
    errors: list[FileError] = field(default_factory=list)
    kind_from: str | None = None
    """How the kind was told: ``--kind``, ``$schema``, ``file name``, ``keys``, ..."""
    profile: str | None = None
    """The profile the file was checked under, if one was named."""
    skipped: str | None = None
    """Why a file found in a directory was passed over (another tool's file), else None."""

    @property
    def valid(self) -> bool:
        """Whether the file is valid: no finding of it is an error (warnings and notes pass)."""
        return all(found.severity != "error" for found in self.errors)

    def count(self, severity: Severity) -> int:
        """How many findings of the file are of ``severity``."""
        return sum(found.severity == severity for found in self.errors)

    def fails(self, *, strict: bool = False) -> bool:
        """Whether the file fails the check: an error, or with ``strict`` a warning too."""
        return not self.valid or (strict and self.count("warning") > 0)


def refused(
    file: str, code: str, message: str, position: Position | None = None
) -> ConfigFileError:
    """The exception for a file refused as a whole, for one reason."""
    return ConfigFileError(file, [error(file, code, message, position=position)])
