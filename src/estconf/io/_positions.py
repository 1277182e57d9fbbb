"""Places in a config file: paths into its data, and lines and columns in its text."""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

__all__ = ["Lines", "Loc", "Position", "Span", "position"]

Loc = tuple[str | int, ...]
"""A path into a file's data: object keys and array indices, from the top."""


class Position(NamedTuple):
    """A place in a text: 1-based line and column (counted in characters)."""

    line: int
    column: int


class Span(NamedTuple):
    """Where a value is: its key (``None`` for array items and the top level) and itself."""

    key: Position | None
    value: Position


class Lines:
    """Where each line of a text starts, found once: every position after is a binary search.

    Placing all the values of a file with :func:`position` would read the
    text from its start once per value; a file with thousands of errors
    would take time in the square of its size.
    """

    def __init__(self, text: str) -> None:
        """Find the start of every line of ``text``."""
        starts = [0]
        find = text.find
        newline = find("\n")
        while newline >= 0:
            starts.append(newline + 1)
            newline = find("\n", newline + 1)
        self._starts = starts

    def position(self, offset: int) -> Position:
        """Return the line and column of character ``offset``, as :func:`position` does."""
        line = bisect_right(self._starts, offset)
        return Position(line, offset - self._starts[line - 1] + 1)

    def offset(self, place: Position) -> int:
        """Return the character offset of ``place``, the inverse of :meth:`position`.

        A line past the last is taken as the last.
        """
        line = min(max(place.line, 1), len(self._starts))
        return self._starts[line - 1] + max(place.column, 1) - 1


def position(text: str, offset: int) -> Position:
    """Return the line and column of character ``offset`` of ``text``.

    It reads the text up to ``offset``: to place many values of one text,
    use :class:`Lines`.
    """
    line = text.count("\n", 0, offset) + 1
    return Position(line, offset - text.rfind("\n", 0, offset))
