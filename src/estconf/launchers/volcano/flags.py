"""The tensorflow plugin's arguments, read as Volcano reads them: with Go's ``flag`` package.

Volcano v1.15.1 (``pkg/controllers/job/plugins/distributed-framework/tensorflow``)
parses ``spec.plugins.tensorflow`` with a ``flag.FlagSet`` that goes on after
an error: the flags ``--ps``, ``--worker``, ``--chief`` and ``--evaluator``
name the task of each TensorFlow job (defaults ``ps``, ``worker``, ``chief``,
``evaluator``) and ``--port`` the one port (default 2222).  What Go's parser
does, and so what the plugin does:

- a flag is ``-name`` or ``--name``, its value after ``=`` or in the next
  argument (``--ps master`` as one argument is a flag named ``ps master``);
- a flag given twice takes its last value;
- parsing stops, with no error, at the first argument that is no flag
  (``ps=ps``, ``-``) or after ``--``: what follows is never read;
- parsing stops, with an error Volcano only logs, at an unknown flag, a bad
  one (``---ps``, ``-=x``), ``-h`` or ``-help``, a flag with no value, or a
  ``--port`` that is no integer: the flags before it keep their values, those
  after it their defaults; a ``--port`` refused so still becomes what Go's
  ``strconv.ParseInt`` returned, 0 (not a number) or the largest ``int64``
  (too large);
- ``--port`` is read with ``strconv.ParseInt(s, 0, 64)``: ``0x8ae``,
  ``0o4256``, ``2_222`` and ``+2222`` are 2222, ``04256`` is octal, and no
  range is checked: ``--port=70000`` and ``--port=-1`` go into the
  addresses as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

__all__ = ["DEFAULT_PORT", "JOBS", "Flags", "Stop", "parse_flags", "parse_int"]

DEFAULT_PORT: Final = 2222
JOBS: Final = ("ps", "worker", "chief", "evaluator")
"""The jobs the plugin knows, in the order its cluster lists them (and matches a task's name)."""

_INT64: Final = 2**63
_PREFIXES: Final = {"b": 2, "o": 8, "x": 16}


@dataclass(frozen=True)
class Stop:
    """Where the plugin's parser stopped reading its arguments, and why.

    Attributes:
        position: the argument it stopped at (its index in the plugin's list).
        message: Go's error (``flag provided but not defined: -master``), or
            None where it stops without one (an argument that is no flag, ``--``).
        flag: the flag the argument names, where it names one.
        unread: the index of the first argument it never reads (after a
            flag's value it took, after ``--``).
    """

    position: int
    message: str | None
    flag: str | None = None
    unread: int | None = None

    def __post_init__(self) -> None:
        if self.unread is None:  # the argument itself, and what follows
            object.__setattr__(self, "unread", self.position + (self.message is not None))


@dataclass(frozen=True)
class Flags:
    """What the plugin reads of its arguments: each job's task, the port, and where it stopped.

    Example:
        >>> flags = parse_flags(["--worker=trainer", "--port", "0x8ae"])
        >>> flags.names["worker"], flags.port, flags.stop
        ('trainer', 2222, None)
    """

    names: dict[str, str] = field(default_factory=lambda: {job: job for job in JOBS})
    """The task each job's flag names (``{"ps": "ps", "worker": "trainer", ...}``)."""
    port: int = DEFAULT_PORT
    stop: Stop | None = None
    """Where the parser stopped before the last argument, or None: every argument was read."""
    given: dict[str, list[int]] = field(default_factory=dict)
    """The positions of the arguments that set each flag, in order (a flag given twice: two)."""

    def listed_as(self, task: str) -> str | None:
        """The job whose list in the cluster holds the pods of ``task``, or None.

        The plugin goes through its tasks and puts each under the first of
        ``ps``, ``worker``, ``chief`` and ``evaluator`` whose flag names it.
        """
        return next((job for job in JOBS if self.names[job] == task), None)

    def task_type(self, task: str) -> str:
        """The task type a pod of ``task`` gets: its job, or the task's own name.

        The plugin looks ``chief``, ``worker``, ``ps`` and ``evaluator`` up in
        that order, unlike the cluster's: a task two flags name is listed under
        one job and typed as another.
        """
        return next(
            (job for job in ("chief", "worker", "ps", "evaluator") if self.names[job] == task),
            task,
        )


def parse_flags(arguments: Sequence[str]) -> Flags:
    """The plugin's flags, as Go's ``flag.FlagSet.Parse`` reads ``arguments``."""
    names = {job: job for job in JOBS}
    port = DEFAULT_PORT
    given: dict[str, list[int]] = {}
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        if len(argument) < 2 or argument[0] != "-":
            return Flags(names, port, Stop(position, None), given)
        minuses = 2 if argument[1] == "-" else 1
        if argument == "--":
            rest = position + 1 < len(arguments)
            return Flags(
                names, port, Stop(position, None, unread=position + 1) if rest else None, given
            )
        name = argument[minuses:]
        if not name or name[0] in "-=":
            return Flags(names, port, Stop(position, f"bad flag syntax: {argument}"), given)
        start = position
        position += 1
        equals = name.find("=", 1)
        value: str | None = None
        if equals > 0:
            name, value = name[:equals], name[equals + 1 :]
        if name not in names and name != "port":
            said = (
                "flag: help requested"
                if name in ("help", "h")
                else f"flag provided but not defined: -{name}"
            )
            return Flags(names, port, Stop(start, said, name), given)
        if value is None and position < len(arguments):
            value, position = arguments[position], position + 1
        if value is None:
            return Flags(names, port, Stop(start, f"flag needs an argument: -{name}", name), given)
        given.setdefault(name, []).append(start)
        if name != "port":
            names[name] = value
            continue
        port, problem = parse_int(value)
        if problem is not None:
            said = f"invalid value {_quoted(value)} for flag -port: {problem}"
            return Flags(names, port, Stop(start, said, name, position), given)
    return Flags(names, port, None, given)


def parse_int(text: str) -> tuple[int, str | None]:
    """What Go's ``strconv.ParseInt(text, 0, 64)`` returns: the value, and its error, if any.

    The error is what Go's ``flag`` package says of it: ``parse error`` (the
    value is then 0) or ``value out of range`` (the largest or smallest
    ``int64``).

    Example:
        >>> parse_int("0x8ae"), parse_int("010"), parse_int("2_222"), parse_int("22a")
        ((2222, None), (8, None), (2222, None), (0, 'parse error'))
    """
    if not text:
        return 0, "parse error"
    negative = text[0] == "-"
    digits = text[1:] if text[0] in "+-" else text
    magnitude, problem = _parse_uint(digits)
    if problem == "parse error":
        return 0, problem
    if not negative and magnitude >= _INT64:
        return _INT64 - 1, "value out of range"
    if negative and magnitude > _INT64:
        return -_INT64, "value out of range"
    return (-magnitude if negative else magnitude), None


def _parse_uint(text: str) -> tuple[int, str | None]:
    """Go's ``strconv.ParseUint(text, 0, 64)``: the base from the prefix, ``_`` between digits."""
    if not text:
        return 0, "parse error"
    base, digits = 10, text
    if text[0] == "0":
        prefix = text[1:2].lower()
        if len(text) >= 3 and prefix in _PREFIXES:
            base, digits = _PREFIXES[prefix], text[2:]
        else:
            base, digits = 8, text[1:]
    value = 0
    underscores = False
    for char in digits:
        if char == "_":
            underscores = True
            continue
        digit = _digit(char)
        if digit is None or digit >= base:
            return 0, "parse error"
        value = value * base + digit
        if value >= 2**64:
            return 2**64 - 1, "value out of range"
    if underscores and not _underscores_between_digits(text):
        return 0, "parse error"
    return value, None


def _digit(char: str) -> int | None:
    if "0" <= char <= "9":
        return ord(char) - ord("0")
    if "a" <= char.lower() <= "z" and char.isascii():
        return ord(char.lower()) - ord("a") + 10
    return None


def _underscores_between_digits(text: str) -> bool:
    """Go's ``underscoreOK``: each ``_`` between two digits (a base prefix counts as one)."""
    seen = "^"
    position = 0
    hexadecimal = False
    if len(text) >= 2 and text[0] == "0" and text[1].lower() in _PREFIXES:
        position, seen, hexadecimal = 2, "0", text[1].lower() == "x"
    for char in text[position:]:
        if char.isascii() and (char.isdigit() or (hexadecimal and char.lower() in "abcdef")):
            seen = "0"
        elif char == "_":
            if seen != "0":
                return False
            seen = "_"
        elif seen == "_":
            return False
        else:
            seen = "!"
    return seen != "_"


def _quoted(text: str) -> str:
    """``text`` as Go's ``%q`` quotes it, for ASCII text (``"22a"``)."""
    import json

    return json.dumps(text)
