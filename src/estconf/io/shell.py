r"""The TF_CONFIGs of a shell script (``.sh``) or an env file (``.env``), placed in the file.

:func:`read_shell` reads a script by the POSIX shell's rules and an env file
by the common dotenv rules (:mod:`estconf._shell` says both), without
running anything, and gives each TF_CONFIG it sets with where each of its
characters is written: an error found in a TF_CONFIG (a JSON syntax error,
a rule it breaks) is placed at its line and column in the file
(:meth:`ShellFile.placed`), even in a value that spans lines.

What cannot be read is an error at its place: a quote the file does not
close, at the quote (``shell_syntax``); a value the shell would expand
when the script runs (``$(hostname)``, ``$INDEX``), at the expansion
(``shell_expansion``), since its value is not known before the job runs.
An env file's quoted value is read without its quotes, as Docker Compose
and python-dotenv read it; ``docker run --env-file`` keeps them, which a
warning says (``env_file_quoted``).

    >>> found = read_shell(b"#!/bin/sh\nexport TF_CONFIG='{\n  \"task\": 1,\n}'\n", "run.sh")
    >>> [(value.name, value.text) for value in found.values]
    [('run.sh:2', '{\n  "task": 1,\n}')]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from estconf._path import format_path
from estconf._shell import (
    Assignment,
    Expansion,
    ShellSyntaxError,
    env_assignments,
    script_assignments,
)
from estconf.io import parse
from estconf.io._positions import Lines, Position, position
from estconf.io.errors import ConfigFileError, FileError, error

if TYPE_CHECKING:
    from estconf.io.checks import Limits

__all__ = ["VARIABLE", "ShellFile", "Value", "read_shell", "tf_config_of"]

VARIABLE: Final = "TF_CONFIG"


def _expanded(expansion: Expansion, env_file: bool) -> str:
    """What the shell (or Docker Compose, reading an env file) makes of ``expansion``."""
    text, kind = expansion.text, expansion.kind
    if kind == "command":
        return f"{text} is a command the shell runs when the script runs"
    if kind == "parameter" and env_file:
        return f"{text} is a variable Docker Compose expands when it reads the file"
    if kind == "parameter":
        return f"{text} is a variable the shell expands when the script runs"
    if kind == "tilde":
        return f"{text} is a home directory the shell puts there when the script runs"
    if kind == "dollar_quote":
        return f"bash and dash (sh) read {text} differently"
    if kind == "brace":
        return (
            f"bash expands the braces of {text} in an argument of a command (export, env) "
            "into several words, sh does not"
        )
    if kind == "append":
        return f"+= appends to the value {VARIABLE} has when the script runs"
    return (
        f"{VARIABLE} is named without a value: Docker Compose takes the value of the "
        "environment it runs in"
    )


_EXPANSION_HINT: Final = (
    "estconf reads the file without running it: write the value out in single quotes, or "
    "check the value where the job runs: printenv TF_CONFIG | estconf validate -"
)
_QUOTED: Final = (
    "the value is quoted: Docker Compose and python-dotenv remove the quotes, but docker run "
    "--env-file keeps them, and TensorFlow then reads no JSON"
)
_QUOTED_HINT: Final = (
    "for docker run --env-file, write the value on one line without quotes, as "
    "estconf tf-config --format env writes it"
)


@dataclass(frozen=True)
class Value:
    """One TF_CONFIG a file sets.

    Attributes:
        name: ``FILE:LINE``, the line where the assignment starts: the name
            of the node ``check-cluster`` reads.
        text: the value, its quotes removed.
        assignment: where the value and each of its characters are written.
    """

    name: str
    text: str
    assignment: Assignment


@dataclass
class ShellFile:
    """A shell script or env file, read: the TF_CONFIGs it sets, and what is wrong with them.

    Attributes:
        file: the file's name.
        format: ``shell`` or ``env``.
        text: the file's text.
        values: each TF_CONFIG whose value is known, in order.
        unknown: an error for each TF_CONFIG that depends on the shell at
            run time (``shell_expansion``), at the expansion.
        warnings: what a reader of the file may read otherwise (``env_file_quoted``).
    """

    file: str
    format: str
    text: str
    values: list[Value] = field(default_factory=list)
    unknown: list[FileError] = field(default_factory=list)
    warnings: list[FileError] = field(default_factory=list)
    _lines: Lines | None = field(default=None, repr=False)

    def position(self, offset: int) -> Position:
        """The line and column of ``offset`` in the file."""
        if self._lines is None:
            self._lines = Lines(self.text)
        return self._lines.position(offset)

    def placed(self, errors: list[FileError], value: Value) -> list[FileError]:
        """``errors`` found in the text of ``value``, each placed in the file, under ``TF_CONFIG``.

        An error at a line and column of the value is at the line and
        column of the file where that character is written; one with no
        place in the value is at the value's start.
        """
        lines: Lines | None = None
        placed = []
        for found in errors:
            if found.line is None:
                offset = value.assignment.value_offset
            else:
                lines = lines or Lines(value.text)
                index = lines.offset(Position(found.line, found.column or 1))
                offset = value.assignment.origin(min(index, len(value.text)))
            line, column = self.position(offset)
            loc = (VARIABLE, *found.loc)
            placed.append(
                dataclasses.replace(
                    found, file=self.file, loc=loc, path=format_path(loc), line=line, column=column
                )
            )
        return placed


def read_shell(raw: bytes, file: str, format: str = "shell") -> ShellFile:
    """The TF_CONFIGs the shell script (``shell``) or env file (``env``) ``raw`` sets.

    Raises:
        ConfigFileError: the bytes are not UTF-8 text, or the file cannot be
            read as a shell script or env file (``shell_syntax``).
    """
    text = parse.decode(raw, file)
    read = env_assignments if format == "env" else script_assignments
    try:
        found = read(text, VARIABLE)
    except ShellSyntaxError as exc:
        where = position(text, exc.offset)
        found_error = error(file, "shell_syntax", exc.message, position=where, hint=exc.hint)
        raise ConfigFileError(file, [found_error]) from None
    shell = ShellFile(file, format, text)
    for assignment in found:
        line, _ = shell.position(assignment.offset)
        if assignment.expansion is not None:
            shell.unknown.append(_unknown(shell, assignment.expansion))
            continue
        shell.values.append(Value(f"{file}:{line}", assignment.value, assignment))
        if format == "env" and assignment.quoted:
            shell.warnings.append(
                error(
                    file,
                    "env_file_quoted",
                    _QUOTED,
                    (VARIABLE,),
                    position=shell.position(assignment.value_offset),
                    severity="warning",
                    hint=_QUOTED_HINT,
                )
            )
    return shell


def _unknown(shell: ShellFile, expansion: Expansion) -> FileError:
    """The error of a TF_CONFIG whose value depends on the shell (or Compose) at run time."""
    what = _expanded(expansion, shell.format == "env")
    when = "the environment the file is read in" if shell.format == "env" else "the shell"
    return error(
        shell.file,
        "shell_expansion",
        f"the value depends on {when} at run time: {what}",
        (VARIABLE,),
        position=shell.position(expansion.offset),
        hint=_EXPANSION_HINT,
    )


def tf_config_of(shell: ShellFile, value: Value, limits: Limits | None = None) -> object:
    """The data of ``value``'s JSON text, or its text when it is blank (a node set empty).

    Raises:
        ConfigFileError: the text is not JSON, or holds a value no
            TF_CONFIG file may hold; each error is placed in the file.
    """
    if not value.text.strip():
        return value.text
    try:
        return parse.document_of(value.text, "json", shell.file, limits).data
    except ConfigFileError as exc:
        raise ConfigFileError(shell.file, shell.placed(exc.errors, value)) from None
