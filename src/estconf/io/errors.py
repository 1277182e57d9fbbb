"""What is wrong with a config file: one record, :class:`FileError`, for every stage.

Reading, decoding, parsing, the shared checks, the key checks and the
models' validation all report what they find as :class:`FileError` entries
with a stable ``code`` (listed in ``docs/errors.md``), and raise them
together in a :class:`ConfigFileError`.  An error is made with :func:`error`,
which writes its path; one found in the data before its line and column are
known gets them when the file's text is searched for every such error at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from estconf._path import format_path
from estconf.io._positions import Loc, Position

__all__ = [
    "NO_VALUE",
    "ConfigFileError",
    "FileError",
    "error",
    "format_path",
    "refused",
    "show_value",
]


class _NoValue:
    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()
"""The :attr:`FileError.value` of an error that is not about one value."""


@dataclass(frozen=True)
class FileError:
    """One problem with a config file.

    Attributes:
        file: the file's name, as given.
        path: where in the file, as text (``tf_config.cluster.worker[3]``);
            empty for the file as a whole.
        loc: the same path as a tuple of keys and indices.
        code: a stable error type (``syntax``, ``depth``, ``unknown_key``,
            ``address``, ...; see ``docs/errors.md``).
        message: what is wrong, in TensorFlow's words where it has them.
        line: the 1-based line, where the format tells it (JSON, YAML), else ``None``.
        column: the 1-based column (in characters), with ``line``.
        value: the bad value, or :data:`NO_VALUE` when the error is not about one.
        on_key: whether the error is about the key at ``loc`` (an unknown key,
            a bad job name) rather than its value; it is placed at the key.
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

    def __str__(self) -> str:
        """``file:line:column: path: message (got value)``, leaving out what is not known."""
        where = self.file if self.line is None else f"{self.file}:{self.line}:{self.column}"
        return f"{where}: {self.describe()}"

    def describe(self) -> str:
        """``path: message (got value)`` on one line, without the file and position."""
        message = " ".join(self.message.split())
        if self.value is not NO_VALUE and not _names_value(message, self.value):
            message += f" (got {show_value(self.value)})"
        return f"{self.path}: {message}" if self.path else message


def error(
    file: str,
    code: str,
    message: str,
    loc: Loc = (),
    *,
    position: Position | None = None,
    value: Any = NO_VALUE,
    on_key: bool = False,
) -> FileError:
    """Make a :class:`FileError` at ``loc`` of ``file``, with its path written out."""
    line, column = (None, None) if position is None else position
    return FileError(file, format_path(loc), loc, code, message, line, column, value, on_key)


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


def refused(
    file: str, code: str, message: str, position: Position | None = None
) -> ConfigFileError:
    """The exception for a file refused as a whole, for one reason."""
    return ConfigFileError(file, [error(file, code, message, position=position)])


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
