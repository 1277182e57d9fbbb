"""How long a message line is, as a reader meets it: without its place and the values it quotes.

A message is the problem in one sentence, then the fix as its own hint; no
line of it is longer than :data:`LONGEST` characters beyond the file and
path it is at and the values it quotes: quoted text, Markdown code spans,
names of things (a word with a digit, or with ``-``, ``.``, ``/``, ``:`` or
``_`` inside it: pods, hosts, keys, versions, options) and lists of names
(``a, b and c``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Final

LONGEST: Final = 200
"""The most characters of a message line, beyond its place and the values it quotes."""

_QUOTED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\"|`[^`\n]*`")
_NAMED = re.compile(r"\S*(?:\d|\w[-./:_]\w)\S*")
_LISTED = re.compile(r"(?:[^\s,()]+, ){2,}(?:(?:and|or) )?[^\s,()]+")
_PLACE = re.compile(r"^[\s:,]*(?:[^\s:]+: )?")
"""What is left of the place once the file is out: the path inside the document."""


@functools.cache
def _files(files: tuple[str, ...]) -> re.Pattern[str] | None:
    """The names of ``files``, each with the line and column that may follow it."""
    if not files:
        return None
    names = "|".join(re.escape(file) for file in sorted(files, key=len, reverse=True))
    return re.compile(f"(?:{names})(?::\\d+){{0,2}}")


def measured(line: str, files: Iterable[str] = ()) -> str:
    """``line`` without ``files`` (and their line and column), its path and what it quotes."""
    named = _files(tuple(files))
    if named is not None:
        line = named.sub("", line)
    line = _QUOTED.sub("", line)
    line = _NAMED.sub("", line)
    line = _LISTED.sub("", line)
    return _PLACE.sub("", line, count=1)


def too_long(text: str, files: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` longer than :data:`LONGEST`, measured as :func:`measured` says."""
    files = tuple(files)
    return [line for line in text.splitlines() if len(measured(line, files)) > LONGEST]
