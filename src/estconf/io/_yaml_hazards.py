r"""What in a YAML text rapidyaml may read otherwise than ruamel.yaml, found in the text.

:func:`scan` sorts what it finds in two.  Some constructs send the whole
text to ruamel.yaml (``None``): a line break other than ``\n`` and CRLF, a
byte-order mark, a character ruamel.yaml refuses (any Python does not print
but the tab), an escape of half a surrogate pair (``\ud800``), a directive
(``%YAML``), a document end marker (``...``), a plain scalar starting with
``?`` or ``:`` not followed by a space (ruamel.yaml reads a key in flow).
Others are read by rapidyaml when its tree shows them within a scalar
(:class:`Hazard`): a tab (a separator or indentation otherwise, which the
two read differently), and ``!``, ``%``, ``@``, `````, ``&``, ``*`` where a
token may start (a tag, a reserved indicator, an anchor or alias of other
characters than letters, digits, ``-`` and ``_`` otherwise); ``a && b`` and
``sh -c "x && y"`` are read natively that way.  A line of 1024 characters
or more has the tree's keys measured: ruamel.yaml refuses an implicit key
that long.  Each is looked for with ``str`` methods, which read a text much
faster than a regular expression.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

__all__ = ["INSIDE", "LONG_LINE", "NOT_PLAIN", "Hazard", "scan"]

INSIDE: Final = "inside"
"""A character that must be within a scalar, after its first character if it is plain."""
NOT_PLAIN: Final = "not plain"
"""A character that must be within a quoted or block scalar (a tab)."""
LONG_LINE: Final = "long line"
"""A line long enough to hold a key ruamel.yaml refuses: the keys of its document are measured."""

_TOKEN_STARTS: Final = " \n[]{},:"
"""The characters after which a token may start."""
_NAMED: Final = re.compile(r"[A-Za-z0-9_-]+(?:[\s,\[\]{}]|$)")
_SOFT: Final = "!%@`&*"
"""What is read natively where rapidyaml's tree shows it within a scalar."""
_SOFT_BYTES: Final = tuple((char, char.encode()) for char in _SOFT)
_CHARS: Final = "!%@`&*?\t"
"""The characters looked for one by one (the tab and ``?`` among them)."""
_PASSED: Final = bytes(
    byte for byte in range(128) if (32 <= byte < 127 or byte == 10) and chr(byte) not in _CHARS
)
"""The bytes no hazard is: printable ASCII, the line feed, but :data:`_CHARS`."""
_COLON: Final = re.compile(r":(?:(?<=[ \n\[\]{},:]:)|[,\]}])")
"""A ``:`` where a token may start, or before a flow indicator."""
_SURROGATE_ESCAPE: Final = re.compile(r"\\(?:u[dD][89a-fA-F]|U0000[dD][89a-fA-F])")
_LONG: Final = 1000
"""A line this long or longer may hold a key too long for ruamel.yaml (1024 characters)."""


class Hazard(NamedTuple):
    """A character (by its offset in the text) rapidyaml's tree must show within a scalar."""

    at: int
    kind: str


def scan(text: str, raw: bytes) -> list[Hazard] | None:
    r"""The hazards of ``text`` in order, or ``None`` if it is to be read by ruamel.yaml.

    ``text`` has its CRLF line ends made ``\n`` already; ``raw`` is its UTF-8.
    """
    present = raw.translate(None, _PASSED)  # each byte of a hazard, and those beyond ASCII
    beyond = present.translate(None, _CHARS.encode())  # beyond printable ASCII
    if beyond and not text.replace("\n", " ").replace("\t", " ").isprintable():
        return None
    if "\\" in text and ("\\u" in text or "\\U" in text) and _SURROGATE_ESCAPE.search(text):
        return None  # rapidyaml writes half a surrogate pair as bytes that are not UTF-8
    if text.startswith(("%", "...", ":")) and (text[0] != ":" or _token_at(text, 0)):
        return None
    if (b"%" in present and "\n%" in text) or "\n..." in text:
        return None
    hazards = []
    for found in _COLON.finditer(text):
        at = found.start()
        if at > 0 and text[at - 1] in _TOKEN_STARTS and _token_at(text, at):
            return None
        if text[at + 1 : at + 2] in (",", "]", "}") and not _in_comment(text, at):
            hazards.append(Hazard(at, INSIDE))  # ruamel.yaml reads ``[b:, c]``'s ``b:`` alone
    if b"?" in present:
        at = text.find("?")
        while at >= 0:
            if _token_at(text, at):
                return None
            at = text.find("?", at + 1)
    for char, byte in _SOFT_BYTES:
        if byte not in present:
            continue
        at = text.find(char)
        while at >= 0:
            if _token_at(text, at):
                hazards.append(Hazard(at, INSIDE))
            at = text.find(char, at + 1)
    if b"\t" in present:
        at = text.find("\t")
        while at >= 0:
            if not _in_comment(text, at):
                hazards.append(Hazard(at, NOT_PLAIN))
            at = text.find("\t", at + 1)
    hazards.extend(Hazard(start, LONG_LINE) for start in _long_lines(text))
    return sorted(hazards)


def _long_lines(text: str) -> list[int]:
    """Where each line of :data:`_LONG` characters or more starts.

    Such a line holds a whole stretch of ``_LONG // 2`` characters starting
    at a multiple of it: only stretches without a line break are looked at.
    """
    step = _LONG // 2
    starts: list[int] = []
    for at in range(0, len(text) - step + 1, step):
        if text.find("\n", at, at + step) < 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            if (len(text) if end < 0 else end) - start >= _LONG and start not in starts[-1:]:
                starts.append(start)
    return starts


def _token_at(text: str, at: int) -> bool:
    """Whether a token may start at ``at`` (not within a scalar, not in a comment)."""
    if at > 0 and text[at - 1] not in _TOKEN_STARTS:
        return False  # within a scalar
    after = text[at + 1 : at + 2]
    char = text[at]
    if char in "?:" and after in ("", " ", "\n"):
        return False  # an indicator: a key or a value
    if char in "&*" and _NAMED.match(text, at + 1):
        return False  # an anchor or alias named as ruamel.yaml names them
    return not _in_comment(text, at)


def _in_comment(text: str, at: int) -> bool:
    """Whether ``at`` is in a comment: after a ``#`` that starts the line or follows a space.

    A line holding a quote after its ``#`` may hold it within quotes: not a comment then.
    """
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[start : len(text) if end < 0 else end]
    sharp = line.find("#")
    while 0 <= sharp < at - start:
        if (sharp == 0 or line[sharp - 1] == " ") and not any(q in line[sharp:] for q in "'\""):
            return True
        sharp = line.find("#", sharp + 1)
    return False
