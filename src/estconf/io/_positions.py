"""Places in a config file: paths into its data, and lines and columns in its text."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Loc", "Position", "Span", "position"]

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


def position(text: str, offset: int) -> Position:
    """Return the line and column of character ``offset`` of ``text``."""
    line = text.count("\n", 0, offset) + 1
    return Position(line, offset - text.rfind("\n", 0, offset))
