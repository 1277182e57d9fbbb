"""The values of sbatch's options, read as SLURM reads them: counts, node counts, GPUs, hosts.

Each reader takes a :class:`~estconf.launchers.slurm.directives.Directive`
and raises :class:`Refused`, with the finding at the directive, for a value
SLURM refuses (in its words where it has them), one estconf cannot read, or
one above the bounds of a step (100,000 nodes or tasks).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from estconf.distribute._hostlist import ListFormatError, expand_hostlist
from estconf.distribute._slurm_step import MAX_TASKS
from estconf.io._positions import Position
from estconf.io.errors import FileError, error
from estconf.launchers.slurm.directives import Directive, shown

__all__ = [
    "INT_MAX",
    "Refused",
    "gpu_counts",
    "gres_gpus",
    "hosts",
    "node_counts",
    "positive",
    "refuse",
]

INT_MAX: Final = 2**31 - 1
"""The largest count SLURM reads (a C ``int``)."""

_COUNT = re.compile(r"[ \t\n\v\f\r]*([-+]?)([0-9]+)")
"""A number as C's ``strtol`` reads it: space, a sign, digits."""
_SUFFIXES: Final = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
"""The multiples of 1,024 a count of generic resources may end in."""
_SPACE: Final = " \t\n\v\f\r"


class Refused(Exception):
    """The directives give no step: ``found`` says why."""

    def __init__(self, found: FileError) -> None:
        super().__init__(found.message)
        self.found = found


def refuse(
    file: str, code: str, message: str, at: Directive | None, hint: str | None = None
) -> Refused:
    """The exception for directives that give no step, its finding at the directive ``at``."""
    where = Position(at.line, at.column) if at is not None else None
    made = error(file, code, message, position=where, hint=hint)
    return Refused(replace(made, path=at.written) if at is not None else made)


def _strtol(text: str) -> tuple[int, str] | None:
    """The number at the start of ``text`` and what follows it; ``None`` without digits.

    A number of more digits than any count is kept as ``INT_MAX + 1``, so
    that it is refused as too large without being converted.
    """
    match = _COUNT.match(text)
    if match is None:
        return None
    digits = match[2].lstrip("0") or "0"
    value = INT_MAX + 1 if len(digits) > 10 else int(digits)
    return (-value if match[1] == "-" else value), text[match.end() :]


def positive(directive: Directive, file: str) -> int:
    """A count as SLURM's ``parse_int`` reads it: all of the text, above 0, below ``INT_MAX``."""
    text = directive.value or ""
    read = _strtol(text)
    if read is None or read[1] or read[0] <= 0:
        raise refuse(
            file,
            "sbatch_value",
            f'Invalid numeric value "{shown(text)}" for --{directive.option}.',
            directive,
            hint=f"give a count of 1 or more: --{directive.option}=N",
        )
    if read[0] >= INT_MAX:
        raise refuse(
            file,
            "sbatch_value",
            f"Numeric argument ({shown(text.strip())}) too large for --{directive.option}.",
            directive,
        )
    return read[0]


def _node_count(text: str, *, empty: int | None = None) -> int | None:
    """One node count as SLURM reads it (``str_to_nodes``): a number, ``k`` and ``m`` multiples.

    ``empty`` is the count of a text of no digits (the missing least count
    of ``-4``), if SLURM takes one.
    """
    read = _strtol(text)
    if read is None:
        return empty if empty is not None and not text.strip(_SPACE) else None
    value, rest = read
    for suffix, times in (("k", 1024), ("m", 1024 * 1024)):
        if rest[:1].lower() == suffix:
            value, rest = value * times, rest[1:]
    if rest.strip(_SPACE) or not 0 <= value <= INT_MAX:
        return None
    return value


def node_counts(directive: Directive, file: str) -> tuple[int, int]:
    """The least and most nodes of ``--nodes``, as SLURM's ``verify_node_count`` reads them.

    ``2``; a range, ``2-4`` (``-4``: from 1); a list of sizes, ``2,4,8``.
    """
    text = directive.value or ""
    counts: list[int | None]
    if "," in text or ":" in text:
        counts = [
            int(part) if part.isascii() and part.isdigit() and len(part) < 10 else None
            for part in re.split(r"[,:-]", text)
            if part
        ]
    elif "-" in text:
        low, _, high = text.partition("-")
        counts = [_node_count(low, empty=1), _node_count(high)]
    else:
        counts = [_node_count(text)]
    if not counts or None in counts:
        raise refuse(
            file,
            "sbatch_value",
            f'"{shown(text)}" is not a valid node count',
            directive,
            hint="give the node count: --nodes=N",
        )
    known = [count for count in counts if count is not None]
    least, most = min(known), max(known)
    if least > MAX_TASKS:
        raise refuse(
            file,
            "sbatch_value",
            f"{least:,} nodes, more than the {MAX_TASKS:,} of the largest step estconf builds",
            directive,
        )
    return least, most


def _count_of(text: str, *, suffixes: bool) -> int | None:
    """A count of GPUs: digits, with a multiple of 1,024 after them where ``suffixes``."""
    match = re.fullmatch(r"([0-9]+)([kKmMgGtTpP]?)", text)
    if match is None or (match[2] and not suffixes) or len(match[1].lstrip("0")) > 10:
        return None
    count: int = int(match[1]) * 1024 ** _SUFFIXES.get(match[2].lower(), 0)
    return count


def gres_gpus(directive: Directive, file: str) -> int | None:
    """The GPUs a node gets of ``--gres`` (``gpu:4``, ``gpu:a100:4``, ``gpu``, ``none``)."""
    text = directive.value or ""
    if text.lower() == "none":
        return None
    total: int | None = None
    for entry in text.split(","):
        fields = entry.removeprefix("gres/").split(":")
        if fields[0] != "gpu":
            continue
        count = 1
        if len(fields) > 1 and fields[-1][:1].isdigit():
            found = _count_of(fields[-1], suffixes=True)
            if found is None or len(fields) > 3:
                raise refuse(
                    file,
                    "sbatch_value",
                    f"'{shown(entry)}' is not a generic resource of GPUs: name[[:type]:count]",
                    directive,
                    hint="give the GPUs of a node as gpu:N or gpu:TYPE:N",
                )
            count = found
        total = (total or 0) + count
    return total


def gpu_counts(directive: Directive, file: str) -> int:
    """The GPUs of ``--gpus-per-node`` or ``--gpus-per-task`` (``4``, ``a100:4``, ``a:1,b:2``)."""
    total = 0
    for entry in (directive.value or "").split(","):
        count = _count_of(entry.rpartition(":")[2], suffixes=False)
        if count is None:
            raise refuse(
                file,
                "sbatch_value",
                f"'{shown(entry)}' is not a count of GPUs: [type:]number",
                directive,
                hint=f"give the GPUs as --{directive.option}=N or --{directive.option}=TYPE:N",
            )
        total += count
    return total


def hosts(directive: Directive, file: str) -> list[str]:
    """The hosts of ``--nodelist``, each once, in the order of their names and numbers."""
    text = directive.value or ""
    if "/" in text:
        raise refuse(
            file,
            "sbatch_layout",
            f"--nodelist={shown(text)} names a file of hosts, which estconf does not read",
            directive,
            hint="give the hosts with --nodelist HOSTLIST",
        )
    try:
        hosts = expand_hostlist(text, MAX_TASKS)
    except ListFormatError as exc:
        raise refuse(
            file,
            "sbatch_value",
            f"estconf reads a nodelist as TensorFlow does, and cannot read "
            f"'{shown(text)}': {shown(str(exc))}",
            directive,
            hint="write it as TensorFlow reads it: one bracket group at the end of each part, "
            "as in gpu[01-04],cpu7",
        ) from None
    if not hosts or "" in hosts:
        raise refuse(file, "sbatch_value", "the nodelist names no host", directive)
    return sorted(set(hosts), key=_name_order)


def _name_order(host: str) -> tuple[str, int, int]:
    """A host's place in SLURM's order: its name, then its number (``node9`` before ``node10``)."""
    name = host.rstrip("0123456789")
    number = host[len(name) :]
    return name, int(number) if number else -1, len(number)
