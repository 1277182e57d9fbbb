"""How many values a TOML text holds as written, counted before the TOML parser reads it.

The standard library's TOML parser is written in Python and has no hook to
stop it part way, so a text denser than any config (``a = [1,1,1,...]``) is
counted first: every ``=``, ``,``, ``[`` and ``{`` outside strings and
comments, one per value at most (a key's value, an item, an array or a table).
On the way, the nesting of brackets is followed: a text that the count reads
whole and that nests deeper than the depth limit is said to be too deep, as
the parser would have found it.
"""

from __future__ import annotations

import re
from typing import Final, Literal

__all__ = ["first_over"]

_OPEN: Final = frozenset("[{")
_CLOSE: Final = frozenset("]}")

_SEPARATORS: Final = ",=[{"
# strings and comments are passed over whole; a separator is the only group kept
_TOKEN: Final = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|([,=\[{\]}])'
)


def first_over(
    text: str, limit: int, max_depth: int
) -> tuple[Literal["values", "depth"], int] | None:
    """Where ``text`` first holds more than ``limit`` values or nests deeper than ``max_depth``.

    Returns:
        ``("values", offset)`` or ``("depth", offset)`` for the first of the two
        found, or ``None`` when the text holds at most ``limit`` values.
    """
    if sum(text.count(separator) for separator in _SEPARATORS) <= limit:
        return None  # fewer even with the separators inside strings counted
    count = depth = 0
    for match in _TOKEN.finditer(text):
        separator = match.group(1)
        if separator is None:
            continue
        if separator in _CLOSE:
            depth -= 1
            continue
        if separator in _OPEN:
            depth += 1
            if depth > max_depth:
                return "depth", match.start()
        count += 1
        if count > limit:
            return "values", match.start()
    return None
