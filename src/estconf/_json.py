"""Strict JSON reading shared by ``TF_CONFIG`` parsing and the file loaders.

The standard library keeps the last of two equal keys and reads ``NaN``;
both hide mistakes in a config.  :func:`loads` refuses duplicate keys, and
``NaN``/``Infinity`` unless asked to keep them, and turns every failure
(including input nested too deep to parse) into :class:`JSONInputError`.
:func:`scan` goes over the text again to tell where values are (line and
column, for error messages) and to find every refused construct, not just
the first.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import sys
from collections.abc import Iterable
from typing import Any, NamedTuple, NoReturn

__all__ = [
    "INT_DIGITS",
    "Finding",
    "JSONInputError",
    "Position",
    "Scan",
    "loads",
    "position",
    "scan",
    "too_many_digits",
    "type_name",
]


class JSONInputError(ValueError):
    """JSON text that cannot be read; ``code`` is a stable error type."""

    def __init__(
        self, code: str, message: str, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.column = column


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def _refuse_constant(name: str) -> NoReturn:
    raise JSONInputError(
        "json_constant", f"{name} is not valid JSON; write a number or a string instead"
    )


def type_name(value: Any) -> str:
    """Name the JSON type of a parsed value: ``null``, ``a boolean``, ``an array``, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"  # a TOML or YAML date, YAML bytes


def loads(text: str | bytes, *, allow_nan: bool = False) -> Any:
    """Parse ``text`` as JSON, refusing duplicate keys and, unless allowed, NaN/Infinity.

    Raises:
        JSONInputError: the text is not JSON, repeats a key, holds a constant
            that is refused, or is nested too deep to parse.
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_object,
            parse_constant=None if allow_nan else _refuse_constant,
        )
    except _DuplicateKey as exc:
        raise JSONInputError(
            "duplicate_key", f"duplicate key {exc.key!r}: each key may appear once in an object"
        ) from None
    except json.JSONDecodeError as exc:
        raise JSONInputError(
            "json_invalid", f"invalid JSON: {exc.msg}", exc.lineno, exc.colno
        ) from None
    except RecursionError:
        raise JSONInputError("json_depth", "JSON is nested too deep to read") from None
    except UnicodeDecodeError as exc:
        raise JSONInputError("json_invalid", f"invalid UTF-8: {exc.reason}") from None
    except JSONInputError:
        raise
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise JSONInputError("json_invalid", f"invalid JSON: {exc}") from None


Loc = tuple[str | int, ...]


class Position(NamedTuple):
    """A place in a text: 1-based line and column (counted in characters)."""

    line: int
    column: int


def position(text: str, offset: int) -> Position:
    """Return the line and column of character ``offset`` of ``text``."""
    line = text.count("\n", 0, offset) + 1
    return Position(line, offset - text.rfind("\n", 0, offset))


class Finding(NamedTuple):
    """Something :func:`scan` found wrong with a value: where, and what."""

    code: str
    message: str
    path: Loc
    offset: int


class Scan(NamedTuple):
    """The result of :func:`scan`.

    ``offsets`` maps the path of each value it looked at to the offset of the
    value and, for object members, of the key (``None`` for array items and
    the top-level value).
    """

    offsets: dict[Loc, tuple[int | None, int]]
    findings: list[Finding]


_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORD = re.compile(r"true|false|null|NaN|-?Infinity")
INT_DIGITS = sys.get_int_max_str_digits() or 4300
"""The most decimal digits Python converts to an ``int``."""


def too_many_digits(digits: int) -> str:
    """Say that an integer has more digits than can be converted."""
    return f"the integer has {digits} digits, more than the {INT_DIGITS} that can be converted"


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
    def __init__(self, text: str, want: dict[str | int, Any] | None, max_depth: int) -> None:
        self.text = text
        self.want = want
        self.max_depth = max_depth
        self.offsets: dict[Loc, tuple[int | None, int]] = {}
        self.findings: list[Finding] = []
        self._skipper = json.JSONDecoder()

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
                self.findings.append(Finding("depth", "JSON is nested too deep to read", path, i))
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
                self.findings.append(
                    Finding(
                        "json_constant",
                        f"{match[0]} is not valid JSON; write a number or a string instead",
                        path,
                        i,
                    )
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
                self.findings.append(
                    Finding("json_number", too_many_digits(digits), path, match.start())
                )
        elif math.isinf(float(match[0])):
            self.findings.append(
                Finding(
                    "json_number",
                    f"the number {match[0]} is too large to represent",
                    path,
                    match.start(),
                )
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
                self.findings.append(
                    Finding(
                        "duplicate_key",
                        f"duplicate key {key!r}: each key may appear once in an object",
                        (*path, key),
                        key_offset,
                    )
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


def scan(text: str, paths: Iterable[Loc] | None = None, *, max_depth: int = 512) -> Scan:
    """Find where values are in JSON ``text``, and what :func:`loads` would refuse.

    With ``paths``, only the values on those paths (and their ancestors) are
    located, and the rest of the text is skipped at the speed of the C parser.
    Without, every value is located and every refused construct is reported:
    repeated keys, NaN/Infinity, integers too long to convert, numbers too
    large for a float, nesting deeper than ``max_depth``.  Scanning stops
    quietly where the text stops being JSON (:func:`loads` says why).
    """
    scanner = _Scanner(text, None if paths is None else _trie(paths), max_depth)
    with contextlib.suppress(_Stop, RecursionError):
        scanner.value(0, (), None, scanner.want, 0)
    return Scan(scanner.offsets, scanner.findings)
