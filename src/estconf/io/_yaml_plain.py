"""A plain YAML scalar's value as the YAML reader builds it: YAML 1.2's core types.

A scalar written without quotes (plain) is typed by what it looks like.
The YAML reader reads YAML 1.2 with ruamel.yaml's safe loader, whose
implicit types are: booleans (``true``, ``True``, ``TRUE`` and the three
``false``), null (``~``, ``null``, ``Null``, ``NULL``, nothing), integers
(decimal with ``_`` between digits and leading zeros, ``0o``/``0``-led
octal digits read as decimal, ``0x``, ``0b``), floats (``1.``, ``.5`` and
``+.5``, exponents, ``.inf``), a merge key (``<<``), timestamps, ``=``.
Anything else is a string.  :func:`resolve` builds the first four as the
safe loader builds them; for the others (a merge key, a timestamp, ``=``,
``.nan``, an integer too long to convert, a scalar the loader fails to
build) it raises :class:`Unresolved`, and ruamel.yaml reads the text.
"""

from __future__ import annotations

import re
from typing import Final

from estconf.io.checks import INT_DIGITS

__all__ = [
    "BOOLEAN",
    "FLOAT",
    "INTEGER",
    "KEYS",
    "NAN",
    "NULL",
    "RESOLVED",
    "TIMESTAMP",
    "Unresolved",
    "resolve",
]

_MAYBE_TYPED: Final = frozenset("-+0123456789.~nNtTfF<=")
"""The first characters of a plain scalar that may be of another type than a string."""

# The implicit types of YAML 1.2 as ruamel.yaml's resolvers match them, each declared once
# here: the patterns below, and :data:`RESOLVED` (all of them) that the native reader uses.
BOOLEAN: Final = r"[tT]rue|TRUE|[fF]alse|FALSE"
NULL: Final = r"~|[nN]ull|NULL"
"""Null written as a word; a scalar with nothing written is null too."""
FLOAT: Final = (
    r"[-+]?(?:"
    r"[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?"  # digits, a point, maybe an exponent
    r"|[0-9][0-9_]*[eE][-+]?[0-9]+"  # digits and an exponent
    r"|\.[0-9_]+(?:[eE][-+][0-9]+)?"  # a point first: an exponent is signed
    r"|\.(?:inf|Inf|INF))"
)
NAN: Final = r"\.(?:nan|NaN|NAN)"
INTEGER: Final = r"[-+]?(?:0b[01_]+|0o?[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)"
KEYS: Final = r"<<|="
"""A merge key and a value key."""
TIMESTAMP: Final = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"  # a date
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"  # a time
    r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"  # a fraction, a zone
)
"""A timestamp, exactly as ruamel.yaml's resolver matches one."""
RESOLVED: Final = "|".join(
    f"(?:{pattern})" for pattern in (BOOLEAN, FLOAT, NAN, INTEGER, KEYS, NULL, TIMESTAMP)
)
"""Every plain scalar that YAML 1.2 reads as another type than a string (but nothing written)."""

_BOOLEAN: Final = re.compile(BOOLEAN)
_NULL: Final = re.compile(f"{NULL}|")
_FLOAT: Final = re.compile(FLOAT)
_NAN: Final = re.compile(NAN)
_INTEGER: Final = re.compile(INTEGER)
_OTHER: Final = re.compile(
    # a merge key, a value key, a timestamp or what looks like one (ruamel.yaml says which)
    rf"{KEYS}|[0-9]{{4}}-[0-9]{{1,2}}-[0-9]{{1,2}}(?:(?:[Tt]|[ \t]+)[0-9])?.*"
)
_BASES: Final = {"0b": 2, "0x": 16, "0o": 8}


class Unresolved(Exception):
    """A plain scalar the YAML reader builds otherwise than as a boolean, null, number or string."""


def resolve(text: str) -> object:
    """The value of the plain scalar ``text``.

    Raises:
        Unresolved: a merge key, a timestamp, ``=``, ``.nan``, an integer
            with too many digits, or a scalar of a type it fails to build.
    """
    if text and text[0] not in _MAYBE_TYPED:
        return text
    if _NULL.fullmatch(text):
        return None
    if _BOOLEAN.fullmatch(text):
        return text[0] in "tT"
    if _FLOAT.fullmatch(text):
        return _float(text)
    if _NAN.fullmatch(text) or _OTHER.fullmatch(text):
        raise Unresolved(text)
    if _INTEGER.fullmatch(text):
        return _integer(text)
    return text


def _float(text: str) -> float:
    digits = text.replace("_", "").lower()
    negative = digits.startswith("-")
    digits = digits.lstrip("+-")
    if digits == ".inf":
        return -float("inf") if negative else float("inf")
    try:
        value = float(digits)
    except ValueError:  # ``._``: the loader fails on it too
        raise Unresolved(text) from None
    return -value if negative else value


def _integer(text: str) -> int:
    digits = text.replace("_", "")
    negative = digits.startswith("-")
    digits = digits[1:] if digits[:1] in ("-", "+") else digits
    base = _BASES.get(digits[:2], 10)
    if base == 10 and sum(char.isdigit() for char in digits) > INT_DIGITS:
        raise Unresolved(text)  # the reader says where, as too many digits
    try:
        value = int(digits[2:] if base != 10 else digits, base)
    except ValueError:  # nothing but ``_`` and a sign: the loader fails on it too
        raise Unresolved(text) from None
    return -value if negative else value
