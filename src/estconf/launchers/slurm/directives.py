"""The ``#SBATCH`` directives of a batch script, read as ``sbatch`` reads them.

``sbatch`` (SLURM's ``src/sbatch/opt.c``) takes options from the lines of a
script that start with ``#SBATCH``, up to the script's first command: the
first line that is neither blank nor a comment.  Each such line is split
into arguments (quotes group, a backslash escapes the next character, an
unquoted ``#`` starts a comment), and the arguments of every line are read
as sbatch's own command line with ``getopt_long``: a long option takes its
value after ``=`` or as the next argument, any abbreviation that names one
option stands for it, short options go alone or run together (``-N2``,
``-Hv``).  The options and their kinds of argument are those of SLURM
26.05's sbatch.

:func:`read_script` gives each option as a :class:`Directive`, at its line and
column, and every problem as a finding (:class:`estconf.io.errors.FileError`),
each in sbatch's words where it has them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Final, Literal

from estconf.io._positions import Position
from estconf.io.errors import FileError, error

__all__ = [
    "MAX_ARGUMENTS",
    "MAX_DIRECTIVES",
    "OPTIONS",
    "Directive",
    "Script",
    "read_script",
]

MAGIC: Final = "#SBATCH"
OLD_MAGIC: Final = "#SLURM"
"""The prefix sbatch still reads, with a complaint."""

MAX_DIRECTIVES: Final = 10_000
"""The most ``#SBATCH`` lines read: a script of real jobs has a few dozen."""
MAX_ARGUMENTS: Final = 10_000
"""The most arguments of all the directives read."""

Kind = Literal["required", "optional", "none"]

_REQUIRED: Final = """
account acctg-freq array autocomplete batch begin bb bbf chdir cluster cluster-constraint
clusters comment constraint container container-id container-type context core-spec
cores-per-socket cpu-freq cpus-per-gpu cpus-per-task deadline delay-boot dependency
distribution error exclude export export-file extra extra-node-info gid gpu-bind gpu-freq gpus
gpus-per-node gpus-per-socket gpus-per-task gres gres-flags hint input job-name
kill-on-invalid-dep licenses mail-type mail-user mcs-label mem mem-bind mem-per-cpu mem-per-gpu
mem-update mincpus network nodefile nodelist nodes ntasks ntasks-per-core ntasks-per-gpu
ntasks-per-node ntasks-per-socket ntasks-per-tres open-mode output partition prefer priority
profile qos reservation resources segment signal sockets-per-node switches tasks-per-node
thread-spec threads-per-core time time-min tmp tres-bind tres-per-task uid wait-all-nodes wckey
wrap
"""
_OPTIONAL: Final = "exclusive nice no-kill oom-kill-step propagate requeue resv-ports"
_NONE: Final = """
consolidate-segments contiguous external get-user-env help hold ignore-pbs no-requeue
overcommit oversubscribe parsable quiet reboot spread-job spread-segments stepmgr test-only usage
use-min-nodes verbose version wait
"""

OPTIONS: Final[dict[str, Kind]] = {
    **dict.fromkeys(_REQUIRED.split(), "required"),
    **dict.fromkeys(_OPTIONAL.split(), "optional"),
    **dict.fromkeys(_NONE.split(), "none"),
}
"""Each long option of sbatch (SLURM 26.05) and whether it takes an argument."""

_SAME: Final = {"tasks-per-node": "ntasks-per-node"}
"""The options that are another's second name."""
_RENAMED: Final = {"workdir": "sbatch 19.05 dropped --workdir: write --chdir"}
"""The fix of an option sbatch once had."""

_LETTERS: Final = """
A account a array b begin D chdir M clusters C constraint S core-spec c cpus-per-task
d dependency m distribution e error x exclude B extra-node-info G gpus h help H hold i input
J job-name L licenses k no-kill F nodefile w nodelist N nodes n ntasks o output O overcommit
s oversubscribe p partition q qos Q quiet t time v verbose V version W wait
"""
SHORT: Final = dict(zip(_LETTERS.split()[::2], _LETTERS.split()[1::2], strict=True))
"""Each short option of sbatch and the long option it is."""

_SPACE: Final = " \t\n\v\f\r"
"""What C's ``isspace`` counts as space, which separates the arguments of a directive."""
_COMMAND = re.compile(rb"^[ \t\v\f\r]*[^#\s]", re.MULTILINE)
_DIRECTIVE = re.compile(rb"^#(?:SBATCH|SLURM)[^\n]*", re.MULTILINE)
_PIECE = re.compile(
    r"""[^ \t\n\v\f\r"'\\#]+|\\[^\t\n\v\f\r]|\\(?=[\t\n\v\f\r]|\Z)"""
    r"""|"[^"\\]*(?:\\[\s\S][^"\\]*)*"|'[^'\\]*(?:\\[\s\S][^'\\]*)*'"""
)
"""One piece of an argument: plain text, an escaped character, or a quoted string.

A backslash before a space keeps the space; before other space (a tab) it
is dropped and the argument ends there, as in sbatch.
"""
_ESCAPED = re.compile(r"\\([\s\S])?")


@dataclass(frozen=True)
class Directive:
    """One option of a directive: sbatch's name of it, its value, and where it is written.

    Attributes:
        option: sbatch's long name of the option (``nodes`` for ``-N`` and ``--nod``).
        value: its argument; ``None`` for an option given without one.
        written: the option as written (``-N``, ``--nodes``).
        line: the line of the script it is on.
        column: the column its option starts at (counted in characters).
    """

    option: str
    value: str | None
    written: str
    line: int
    column: int

    def __str__(self) -> str:
        """The directive as sbatch's command line would take it: ``--nodes=2``."""
        shown = f"--{self.option}"
        return shown if self.value is None else f"{shown}={self.value}"


@dataclass(frozen=True)
class Script:
    """What sbatch reads of a batch script: its options, and what is wrong with them.

    Attributes:
        file: the script's name, as given.
        directives: every option of its directives, in order (a later one of
            an option wins, as with sbatch).
        findings: what sbatch refuses (errors) or complains of (warnings), in order.
    """

    file: str
    directives: tuple[Directive, ...] = ()
    findings: tuple[FileError, ...] = ()

    @property
    def failed(self) -> bool:
        """Whether sbatch refuses the script, or estconf cannot read its directives."""
        return any(found.severity == "error" for found in self.findings)

    def last(self, *options: str) -> Directive | None:
        """The last directive of any of ``options``: the one sbatch keeps."""
        for directive in reversed(self.directives):
            if directive.option in options:
                return directive
        return None


@dataclass(frozen=True)
class _Argument:
    """One argument of a directive line, its escapes and quotes undone, and where it starts."""

    text: str
    line: int
    column: int


def _found(
    file: str,
    code: str,
    message: str,
    line: int,
    column: int,
    *,
    path: str = "",
    hint: str | None = None,
    severity: Literal["error", "warning", "note"] = "error",
) -> FileError:
    made = error(file, code, message, position=Position(line, column), hint=hint, severity=severity)
    return replace(made, path=path) if path else made


def _check_whole(data: bytes, file: str) -> FileError | None:
    """What sbatch refuses of a script as a whole, in its order and in its words."""
    if not data:
        return _found(file, "sbatch_script", "Batch script is empty!", 1, 1)
    if not data.strip(_SPACE.encode()):
        return _found(file, "sbatch_script", "Batch script contains only whitespace!", 1, 1)
    if not data.startswith(b"#!"):
        return _found(
            file,
            "sbatch_script",
            "This does not look like a batch script. The first line must start with #! "
            "followed by the path to an interpreter.",
            1,
            1,
            hint="start the script with the interpreter that runs it, such as #!/bin/bash",
        )
    for found, message, hint in (
        (
            b"\0",
            "The Slurm controller does not allow scripts that contain a NULL character '\\0'.",
            "a script is text: is it UTF-16? save it as UTF-8",
        ),
        (
            b"\r\n",
            "Batch script contains DOS line breaks (\\r\\n) instead of expected UNIX line "
            "breaks (\\n).",
            "convert its line breaks, with dos2unix SCRIPT",
        ),
    ):
        offset = data.find(found)
        if offset >= 0:
            line = data.count(b"\n", 0, offset) + 1
            column = len(data[data.rfind(b"\n", 0, offset) + 1 : offset].decode("utf-8", "replace"))
            return _found(file, "sbatch_script", message, line, column + 1, hint=hint)
    return None


def read_script(data: bytes | str, file: str) -> Script:
    r"""The directives of the batch script ``data`` (named ``file``), as sbatch reads them.

    Only the lines before the script's first command are read, so a script
    of any length costs what its directives do.  A heterogeneous job's
    directives are read up to its first ``#SBATCH hetjob`` line, which is
    refused (``sbatch_layout``).

    Example:
        >>> script = read_script(b"#!/bin/sh\n#SBATCH -N 2 --gres=gpu:4\nsrun true\n", "a.sh")
        >>> [(d.option, d.value, d.column) for d in script.directives]
        [('nodes', '2', 9), ('gres', 'gpu:4', 14)]
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    whole = _check_whole(data, file)
    if whole is not None:
        return Script(file, findings=(whole,))
    command = _COMMAND.search(data)
    region = data if command is None else data[: command.start()]
    findings: list[FileError] = []
    arguments = list(_arguments(region, file, findings))
    directives = _options(arguments, file, findings)
    return Script(file, tuple(directives), tuple(findings))


def _arguments(region: bytes, file: str, findings: list[FileError]) -> Iterator[_Argument]:
    """The arguments of every directive line of ``region``, until one cannot be read."""
    line_number, counted_to, count = 1, 0, 0
    warned = False
    for lines, match in enumerate(_DIRECTIVE.finditer(region), 1):
        line_number += region.count(b"\n", counted_to, match.start())
        counted_to = match.start()
        text = match.group().decode("utf-8", "surrogateescape")
        if lines > MAX_DIRECTIVES:
            findings.append(
                _found(
                    file,
                    "sbatch_script",
                    f"the script has more than {MAX_DIRECTIVES:,} #SBATCH lines, more than "
                    "estconf reads",
                    line_number,
                    1,
                )
            )
            return
        magic = MAGIC if text.startswith(MAGIC) else OLD_MAGIC
        if magic == OLD_MAGIC and not warned:
            warned = True
            findings.append(
                _found(
                    file,
                    "sbatch_slurm_prefix",
                    "Change from #SLURM to #SBATCH in your script and verify the options are "
                    "valid in sbatch",
                    line_number,
                    1,
                    severity="warning",
                    hint="write #SBATCH",
                )
            )
        rest = text[len(magic) :].lstrip(_SPACE)
        if _separates(rest):
            findings.append(
                _found(
                    file,
                    "sbatch_layout",
                    "the script is a heterogeneous job (#SBATCH hetjob): estconf predicts the "
                    "step of a job of one component",
                    line_number,
                    len(text) - len(rest) + 1,
                    hint="predict each component from a script of its own directives",
                )
            )
            return
        for argument in _split(text, len(magic), line_number, file, findings):
            count += 1
            if count > MAX_ARGUMENTS:
                findings.append(
                    _found(
                        file,
                        "sbatch_script",
                        f"the directives hold more than {MAX_ARGUMENTS:,} arguments, more "
                        "than estconf reads",
                        line_number,
                        argument.column,
                    )
                )
                return
            yield argument
        if findings and findings[-1].severity == "error":
            return


def _separates(text: str) -> bool:
    """Whether ``text`` starts with sbatch's word between two components of a job."""
    for word in ("hetjob", "packjob"):
        if text[: len(word)].lower() == word and text[len(word) : len(word) + 1] in ("", *_SPACE):
            return True
    return False


def _split(
    text: str, start: int, line: int, file: str, findings: list[FileError]
) -> Iterator[_Argument]:
    """The arguments of one directive line after its ``#SBATCH``, as sbatch splits them.

    Quotes group, a backslash escapes the next character (a space too), an
    unquoted ``#`` ends the line; the word ``hetjob`` (``packjob``) is passed
    over.  An argument of nothing but quotes (``""``) ends the line, as it
    ends sbatch's reading of it.
    """
    at = start
    while True:
        while at < len(text) and text[at] in _SPACE:
            at += 1
        if at >= len(text) or text[at] == "#":
            return
        if text[at] == ":":
            findings.append(
                _found(file, "sbatch_syntax", f"Unexpected `:` in [{shown(text)}]", line, at + 1)
            )
            return
        begin = at
        pieces = []
        while at < len(text) and text[at] not in _SPACE and text[at] != "#":
            piece = _PIECE.match(text, at)
            if piece is None:  # a quote that is not closed
                findings.append(
                    _found(
                        file,
                        "sbatch_syntax",
                        f"Unmatched `{text[at]}` in [{shown(text)}]",
                        line,
                        at + 1,
                        hint=f"close the quote, or escape it as \\{text[at]}",
                    )
                )
                return
            pieces.append(piece.group())
            at = piece.end()
        word = "".join(pieces)
        if _separates(word) and len(word) in (6, 7):
            continue
        argument = "".join(_unquoted(piece) for piece in pieces)
        if not argument:
            return
        yield _Argument(argument, line, begin + 1)


def _unquoted(piece: str) -> str:
    """A piece of an argument as sbatch keeps it: quotes taken off, escapes undone."""
    if piece[:1] in ("'", '"'):
        piece = piece[1:-1]
    elif not piece.startswith("\\"):
        return piece
    return _ESCAPED.sub(lambda escaped: escaped.group(1) or "", piece)


def _long_option(name: str) -> list[str]:
    """The options ``name`` stands for: itself, or each option it abbreviates."""
    canonical = _SAME.get(name, name)
    if name in OPTIONS:
        return [canonical]
    found = {_SAME.get(option, option) for option in OPTIONS if option.startswith(name)}
    return sorted(found)


def _options(arguments: list[_Argument], file: str, findings: list[FileError]) -> list[Directive]:
    """The options of the directives' ``arguments``, read as sbatch's ``getopt_long`` reads them.

    Reading stops at the first error, as sbatch stops.
    """
    directives: list[Directive] = []
    if _failed(findings):
        return directives
    index = 0
    while index < len(arguments) and not (findings and findings[-1].severity == "error"):
        argument = arguments[index]
        index += 1
        text = argument.text
        if text == "--":
            if index < len(arguments):
                _not_an_option(arguments[index], file, findings)
            break
        if text.startswith("--"):
            index = _long(argument, arguments, index, file, findings, directives)
        elif text.startswith("-") and len(text) > 1:
            index = _short(argument, arguments, index, file, findings, directives)
        else:
            _not_an_option(argument, file, findings)
    return directives


def _failed(findings: list[FileError]) -> bool:
    return any(found.severity == "error" for found in findings)


def shown(text: str, most: int = 80) -> str:
    """``text`` as a message quotes it: bytes that are not UTF-8 escaped, cut after ``most``."""
    cut = text[:most].encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return cut + ("..." if len(text) > most else "")


def _not_an_option(argument: _Argument, file: str, findings: list[FileError]) -> None:
    findings.append(
        _found(
            file,
            "sbatch_syntax",
            f"Invalid directive found in batch script: {shown(argument.text)}",
            argument.line,
            argument.column,
            hint='a directive holds options alone: quote a value with spaces (--job-name="a b")',
        )
    )


def _long(
    argument: _Argument,
    arguments: list[_Argument],
    index: int,
    file: str,
    findings: list[FileError],
    directives: list[Directive],
) -> int:
    """Read the long option ``argument`` (and its value); the index of the next argument."""
    name, equals, value = argument.text[2:].partition("=")
    written = f"--{name}"
    at = (argument.line, argument.column)
    matches = _long_option(name) if name else []
    if not matches:
        from estconf._suggest import closest

        near = closest(name, OPTIONS) if name and len(name) < 100 else None
        hint = f"did you mean --{near}?" if near else None
        if name in _RENAMED:
            hint = _RENAMED[name]
        findings.append(
            _found(
                file,
                "sbatch_unknown_option",
                f"sbatch does not know the option '{shown(written)}': it refuses the script "
                "unless a plugin of the site adds the option, and estconf passes over it",
                *at,
                path=shown(written),
                hint=hint,
                severity="warning",
            )
        )
        if not equals and index < len(arguments) and not arguments[index].text.startswith("-"):
            index += 1  # its value, if a plugin's option takes one
        return index
    if len(matches) > 1:
        possible = " ".join(f"'--{option}'" for option in matches)
        findings.append(
            _found(
                file,
                "sbatch_option",
                f"option '{shown(written)}' is ambiguous; possibilities: {possible}",
                *at,
                path=written,
                hint="write the option in full",
            )
        )
        return index
    option = matches[0]
    kind = OPTIONS[option]
    if kind == "none" and equals:
        message = f"option '--{option}' doesn't allow an argument"
        findings.append(_found(file, "sbatch_option", message, *at, path=written))
        return index
    if kind == "required" and not equals:
        if index >= len(arguments):
            message = f"option '--{option}' requires an argument"
            findings.append(_found(file, "sbatch_option", message, *at, path=written))
            return index
        value, equals = arguments[index].text, "="
        index += 1
    directives.append(Directive(option, value if equals else None, written, *at))
    return index


def _short(
    argument: _Argument,
    arguments: list[_Argument],
    index: int,
    file: str,
    findings: list[FileError],
    directives: list[Directive],
) -> int:
    """Read the short options of ``argument`` (``-N2``, ``-Hv``); the index of the next argument."""
    text = argument.text
    for offset in range(1, len(text)):
        letter = text[offset]
        at = (argument.line, argument.column + (offset if offset > 1 else 0))
        option = SHORT.get(letter)
        if option is None:
            message = f"invalid option -- '{shown(letter)}'"
            findings.append(_found(file, "sbatch_option", message, *at, path=shown(f"-{letter}")))
            return index
        kind = OPTIONS[option]
        rest = text[offset + 1 :]
        if kind == "none":
            directives.append(Directive(option, None, f"-{letter}", *at))
            continue
        if rest or kind == "optional":
            directives.append(Directive(option, rest or None, f"-{letter}", *at))
            return index
        if index >= len(arguments):
            message = f"option requires an argument -- {letter!r}"
            findings.append(_found(file, "sbatch_option", message, *at, path=f"-{letter}"))
            return index
        directives.append(Directive(option, arguments[index].text, f"-{letter}", *at))
        return index + 1
    return index
