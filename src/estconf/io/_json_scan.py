"""Where values are in JSON text, and every construct strict JSON reading refuses.

The standard parser stops at the first problem and tells no positions.
:func:`scan` goes over the text to find the line and column of the values
on given paths (for error messages), or of every value and every refused
construct: repeated keys, NaN and Infinity, integers too long to convert,
numbers too large for a float, nesting deeper than the limit.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from estconf.io._positions import Lines, Loc, Position
from estconf.io.checks import INT_DIGITS, MAX_DEPTH, too_deep, too_many_digits
from estconf.io.errors import FileError, error

__all__ = ["Scan", "scan"]


class Scan(NamedTuple):
    """The result of :func:`scan`.

    ``offsets`` maps the path of each value it looked at to the offset of the
    value and, for object members, of the key (``None`` for array items and
    the top-level value); ``errors`` are the refused constructs, placed.
    """

    offsets: dict[Loc, tuple[int | None, int]]
    errors: list[FileError]


_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORD = re.compile(r"true|false|null|NaN|-?Infinity")


class _Stop(Exception):
    """The text is not JSON where the scan stands; there is nothing more to find."""


def _trie(paths: Iterable[Loc]) -> dict[str | int, Any]:
    root: dict[str | int, Any] = {}
    for path in paths:
        node = root
        for step in path:
            node = node.setdefault(step, {})
    return root


class _Scanner:
    def __init__(
        self, text: str, file: str, want: dict[str | int, Any] | None, max_depth: int
    ) -> None:
        self.text = text
        self.file = file
        self.want = want
        self.max_depth = max_depth
        self.offsets: dict[Loc, tuple[int | None, int]] = {}
        self.errors: list[FileError] = []
        self._skipper = json.JSONDecoder()
        self._lines: Lines | None = None

    def at(self, offset: int) -> Position:
        if self._lines is None:  # only a scan that finds errors places them
            self._lines = Lines(self.text)
        return self._lines.position(offset)

    def found(self, code: str, message: str, path: Loc, offset: int) -> None:
        self.errors.append(error(self.file, code, message, path, position=self.at(offset)))

    def space(self, i: int) -> int:
        end = _SPACE.match(self.text, i)
        return end.end() if end else i

    def expect(self, i: int, char: str) -> int:
        if not self.text.startswith(char, i):
            raise _Stop
        return i + 1

    def skip(self, i: int) -> int:
        try:
            return self._skipper.raw_decode(self.text, i)[1]
        except (ValueError, RecursionError):
            raise _Stop from None

    def value(self, i: int, path: Loc, key: int | None, want: Any, depth: int) -> int:
        i = self.space(i)
        self.offsets[path] = (key, i)
        char = self.text[i : i + 1]
        if char in ("{", "["):
            if want is not None and not want:
                return self.skip(i)
            if depth >= self.max_depth:
                self.errors.append(too_deep(self.file, self.max_depth, path, self.at(i)))
                raise _Stop
            if char == "{":
                return self.object(i, path, want, depth + 1)
            return self.array(i, path, want, depth + 1)
        if char == '"':
            match = _STRING.match(self.text, i)
            if match is None:
                raise _Stop
            return match.end()
        match = _WORD.match(self.text, i)
        if match is not None:
            if match[0] not in ("true", "false", "null") and want is None:
                self.found(
                    "number",
                    f"{match[0]} is not valid JSON; write a number or a string instead",
                    path,
                    i,
                )
            return match.end()
        match = _NUMBER.match(self.text, i)
        if match is None:
            raise _Stop
        if want is None:
            self.number(match, path)
        return match.end()

    def number(self, match: re.Match[str], path: Loc) -> None:
        if match[1] is None and match[2] is None:
            digits = len(match[0].lstrip("-"))
            if digits > INT_DIGITS:
                self.found("number", too_many_digits(digits), path, match.start())
        elif math.isinf(float(match[0])):
            self.found(
                "number", f"the number {match[0]} is too large to represent", path, match.start()
            )

    def object(self, i: int, path: Loc, want: Any, depth: int) -> int:
        i = self.space(i + 1)
        seen: set[str] = set()
        if self.text.startswith("}", i):
            return i + 1
        while True:
            match = _STRING.match(self.text, i)
            if match is None:
                raise _Stop
            key_offset = i
            key: str = json.loads(match[0])
            if key in seen and want is None:
                self.found(
                    "duplicate_key",
                    f"duplicate key {key!r}: each key may appear once in an object",
                    (*path, key),
                    key_offset,
                )
            seen.add(key)
            i = self.expect(self.space(match.end()), ":")
            if want is None:
                i = self.value(i, (*path, key), key_offset, None, depth)
            elif key in want:
                i = self.value(i, (*path, key), key_offset, want[key], depth)
            else:
                i = self.skip(self.space(i))
            i = self.space(i)
            if self.text.startswith("}", i):
                return i + 1
            i = self.space(self.expect(i, ","))

    def array(self, i: int, path: Loc, want: Any, depth: int) -> int:
        i = self.space(i + 1)
        if self.text.startswith("]", i):
            return i + 1
        index = 0
        while True:
            if want is None:
                i = self.value(i, (*path, index), None, None, depth)
            elif index in want:
                i = self.value(i, (*path, index), None, want[index], depth)
            else:
                i = self.skip(i)
            i = self.space(i)
            if self.text.startswith("]", i):
                return i + 1
            i = self.space(self.expect(i, ","))
            index += 1


def scan(
    text: str, file: str, paths: Iterable[Loc] | None = None, *, max_depth: int = MAX_DEPTH
) -> Scan:
    """Find where values are in JSON ``text``, and what strict reading refuses.

    With ``paths``, only the values on those paths (and their ancestors) are
    located, and the rest of the text is skipped at the speed of the C parser.
    Without, every value is located and every refused construct is reported
    as an error of ``file``: repeated keys, NaN/Infinity, integers too long
    to convert, numbers too large for a float, nesting deeper than
    ``max_depth``.  Scanning stops quietly where the text stops being JSON
    (the parser says why).
    """
    scanner = _Scanner(text, file, None if paths is None else _trie(paths), max_depth)
    with contextlib.suppress(_Stop, RecursionError):
        scanner.value(0, (), None, scanner.want, 0)
    return Scan(scanner.offsets, scanner.errors)
