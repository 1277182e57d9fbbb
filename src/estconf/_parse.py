"""Reading a config file into plain data, and knowing where each value came from.

Reading goes bytes -> text -> data, each step refusing what it cannot read
with a :class:`Problem` (a stable code, a message, and a line and column where
the format tells them) instead of an exception from deep inside a parser:

- :func:`read` refuses missing, unreadable and oversized files;
- :func:`decode` drops a UTF-8 byte-order mark and refuses any other
  encoding than UTF-8;
- :func:`parse` reads JSON, TOML or YAML (YAML 1.2 with the safe loader:
  no tags that build Python objects) and refuses repeated keys;
- :func:`check_values` refuses nesting deeper than a cap, NaN and infinite
  numbers, and YAML aliases that expand into a huge document.

A parsed :class:`Document` can tell the line and column of the value (and
key) at a path, for error messages; JSON positions are found only when asked.
"""

from __future__ import annotations

import math
import re
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from estconf import _json
from estconf._json import Position

if TYPE_CHECKING:
    from ruamel.yaml.constructor import SafeConstructor
    from ruamel.yaml.nodes import Node

__all__ = [
    "FORMATS",
    "MAX_DEPTH",
    "MAX_SIZE",
    "Document",
    "Loc",
    "ParseError",
    "Position",
    "Problem",
    "Span",
    "check_values",
    "decode",
    "format_of",
    "parse",
    "read",
    "read_stream",
]

Loc = tuple[str | int, ...]

MAX_SIZE = 64 * 1024 * 1024
"""The largest file read by default, in bytes (64 MiB)."""

MAX_DEPTH = 64
"""The deepest nesting of objects and arrays read by default."""

_DEPTH_PATH_SHOWN = 8
"""How much of the path to a value nested too deep is shown."""

FORMATS = {".json": "json", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml"}
"""File name suffixes and the format they mean."""


class Span(NamedTuple):
    """Where a value is: its key (``None`` for array items and the top level) and itself."""

    key: Position | None
    value: Position


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, before any model looks at it."""

    code: str
    message: str
    path: Loc = ()
    position: Position | None = None


class ParseError(ValueError):
    """A file that cannot be read into data; ``problems`` says why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = problems


@dataclass
class Document:
    """Data read from a file, and a way to find where its values are."""

    data: Any
    format: str
    _locate: Callable[[list[Loc]], dict[Loc, Span]] = field(repr=False)

    def locate(self, paths: Iterable[Loc]) -> dict[Loc, Span]:
        """Return the span of each of ``paths`` that the format can place."""
        return self._locate(list(paths))


def format_of(path: str | Path) -> str | None:
    """Return the format a file name says (``json``, ``toml``, ``yaml``), or ``None``."""
    return FORMATS.get(Path(path).suffix.lower())


def read(path: Path, max_size: int = MAX_SIZE) -> bytes:
    """Read the bytes of ``path``, refusing files larger than ``max_size``.

    Raises:
        ParseError: the file is missing, a directory, unreadable or too large.
    """
    try:
        with path.open("rb") as file:
            return read_stream(file, max_size)
    except FileNotFoundError:
        raise _one("file", "no such file") from None
    except IsADirectoryError:
        raise _one("file", "is a directory, not a file") from None
    except PermissionError:
        raise _one("file", "cannot be read: permission denied") from None
    except OSError as exc:
        raise _one("file", f"cannot be read: {exc.strerror or exc}") from None


_CHUNK = 1 << 20


def read_stream(stream: BinaryIO, max_size: int = MAX_SIZE) -> bytes:
    """Read a binary stream to its end, refusing more than ``max_size`` bytes.

    The stream is read in chunks, so a large limit costs no memory up front
    and a stream larger than the limit is read no further than it.

    Raises:
        ParseError: the stream holds more than ``max_size`` bytes.
    """
    chunks: list[bytes] = []
    total = 0
    while chunk := stream.read(_CHUNK):
        total += len(chunk)
        if total > max_size:
            raise _one("file_too_large", f"the file is larger than the limit of {max_size} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


_BOMS = [
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
]


def decode(raw: bytes) -> str:
    """Decode UTF-8 ``raw``, dropping a UTF-8 byte-order mark.

    Raises:
        ParseError: the bytes are UTF-16 or UTF-32 (by their byte-order mark),
            not UTF-8, hold a NUL character, or no content at all.
    """
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            raise _one(
                "encoding",
                f"the file is {encoding} (it starts with a {encoding} byte-order mark); "
                "save it as UTF-8",
            )
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise _one(
            "encoding",
            f"invalid UTF-8: byte 0x{raw[exc.start]:02x} at byte offset {exc.start} "
            f"({exc.reason}); save the file as UTF-8",
            position=Position(line, column),
        ) from None
    if "\x00" in text:
        offset = text.index("\x00")
        raise _one(
            "encoding",
            "the file holds a NUL character: is it UTF-16 without a byte-order mark? "
            "save it as UTF-8",
            position=_json.position(text, offset),
        )
    if not text.strip():
        raise _one("empty", "the file is empty")
    return text


def parse(text: str, format: str, max_depth: int = MAX_DEPTH) -> Document:
    """Read ``text`` in ``format`` (``json``, ``toml`` or ``yaml``) into a :class:`Document`.

    Raises:
        ParseError: the text is not valid in its format, or repeats a key.
    """
    if format == "json":
        return _parse_json(text, max_depth)
    if format == "toml":
        return _parse_toml(text)
    if format == "yaml":
        return _parse_yaml(text, max_depth)
    raise ValueError(f"unknown format {format!r}")


def check_values(
    data: Any, max_depth: int = MAX_DEPTH, max_values: int | None = None
) -> list[Problem]:
    r"""Find what no format should let through.

    That is nesting deeper than ``max_depth``, NaN and infinite numbers, and
    strings holding lone surrogates (which escapes such as ``\ud800`` make).
    ``max_values`` caps how many values the data holds once YAML aliases are
    expanded; a cap reached stops the walk.

    Only objects and arrays go on the walk's stack; the scalars of each are
    checked together, so that long lists of addresses cost little.
    """
    problems: list[Problem] = []
    count = 0
    stack: list[tuple[Loc, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if not isinstance(value, (dict, list)):
            continue  # a scalar document, which no kind of file takes: files says so
        count += len(value) + 1
        if max_values is not None and count > max_values:
            problems.append(
                Problem(
                    "too_many_values",
                    f"the document expands to more than {max_values} values, more than "
                    "its text could hold: are YAML aliases repeating a large value?",
                )
            )
            break
        if len(path) >= max_depth:
            problems.append(
                Problem(
                    "depth",
                    f"the document is nested deeper than {max_depth} levels",
                    path[:_DEPTH_PATH_SHOWN],
                )
            )
            continue
        items: list[tuple[str | int, Any]]
        if isinstance(value, dict):
            lone = _with_surrogates([key for key in value if type(key) is str])
            problems.extend(_surrogate(key, path, "key") for key in lone)
            if not lone and _all_plain_strings(value.values()):
                continue
            items = [(key, child) for key, child in value.items() if key not in lone]
        else:
            if _all_plain_strings(value):
                continue
            items = list(enumerate(value))
        scalars = [(key, child) for key, child in items if not isinstance(child, (dict, list))]
        problems.extend(_scalar_problems(scalars, path))
        if len(scalars) < len(items):
            stack.extend(
                ((*path, key), child)
                for key, child in reversed(items)
                if isinstance(child, (dict, list))
            )
    return problems


def _all_plain_strings(values: Iterable[Any]) -> bool:
    """Whether every value is a string without lone surrogates (as a job's addresses are)."""
    try:
        joined = "".join(values)
    except TypeError:
        return False
    return not _SURROGATE.search(joined)


def _with_surrogates(strings: list[str]) -> list[str]:
    """The strings holding a lone surrogate, found with one search in the common case."""
    if not strings or not _SURROGATE.search("".join(strings)):
        return []
    return [text for text in strings if _SURROGATE.search(text)]


def _scalar_problems(items: list[tuple[str | int, Any]], path: Loc) -> list[Problem]:
    """The strings with lone surrogates and the NaN or infinite numbers among ``items``."""
    lone = set(_with_surrogates([child for _, child in items if type(child) is str]))
    problems = []
    for key, child in items:
        if type(child) is str and child in lone:
            problems.append(_surrogate(child, (*path, key), "string"))
        elif type(child) is float and not math.isfinite(child):
            problems.append(
                Problem(
                    "number",
                    "NaN and infinite numbers are not allowed; write a finite number",
                    (*path, key),
                )
            )
    return problems


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate(text: str, path: Loc, what: str) -> Problem:
    r"""A string holding half of a UTF-16 surrogate pair, from an escape such as ``\ud800``."""
    found = _SURROGATE.search(text)
    escape = "" if found is None else found[0].encode("unicode_escape").decode("ascii")
    return Problem(
        "encoding",
        f"a {what} holds {escape}, half of a UTF-16 surrogate pair, which is not a character",
        path,
    )


def _one(code: str, message: str, position: Position | None = None) -> ParseError:
    return ParseError([Problem(code, message, (), position)])


def _parse_json(text: str, max_depth: int) -> Document:
    try:
        data = _json.loads(text)
    except _json.JSONInputError as exc:
        if exc.line is not None and exc.column is not None:
            raise _one(exc.code, exc.message, Position(exc.line, exc.column)) from None
        findings = _json.scan(text, max_depth=max_depth).findings
        if not findings:
            raise _one(exc.code, exc.message) from None
        raise ParseError(
            [Problem(f.code, f.message, f.path, _json.position(text, f.offset)) for f in findings]
        ) from None

    def locate(paths: list[Loc]) -> dict[Loc, Span]:
        offsets = _json.scan(text, paths, max_depth=max_depth).offsets
        return {
            path: Span(
                None if key is None else _json.position(text, key),
                _json.position(text, value),
            )
            for path, (key, value) in offsets.items()
        }

    return Document(data, "json", locate)


_LONG_NUMBER = re.compile(rf"[0-9][0-9_]{{{_json.INT_DIGITS},}}")
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")


def _parse_toml(text: str) -> Document:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc.args[0]) if exc.args else str(exc)
        where = _TOML_WHERE.search(message)
        position = None
        if where is not None:
            message = message[: where.start()]
            position = (
                _json.position(text, len(text))
                if where[1] is None
                else Position(int(where[1]), int(where[2]))
            )
        raise _one("toml_invalid", f"invalid TOML: {message}", position) from None
    except RecursionError:
        raise _one("depth", "the document is nested too deep to read") from None
    except ValueError:  # an integer too long to convert
        digits = _LONG_NUMBER.search(text)
        count = 0 if digits is None else len(digits[0].replace("_", ""))
        at = None if digits is None else _json.position(text, digits.start())
        raise _one("number", _json.too_many_digits(count), at) from None
    return Document(data, "toml", lambda paths: {})


_MERGE_TAG = "tag:yaml.org,2002:merge"
_INT_TAG = "tag:yaml.org,2002:int"
_POWER_OF_TWO = ("0x", "0o", "0b")


def _parse_yaml(text: str, max_depth: int) -> Document:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    # The composer recurses: a limit of its own keeps input far too deep from exhausting
    # the stack; the walk over the data reports the rest with a path.
    limit = 2 * max_depth + 2
    yaml = YAML(typ="safe", pure=True)
    yaml.max_depth = limit
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a reused anchor name is valid YAML
            node = yaml.compose(text)
        if node is None:
            raise _one("empty", "the file holds no YAML document")
        walk = _YAMLWalk(yaml.constructor)
        walk.node(node, (), None)
        if walk.problems:
            raise ParseError(walk.problems)
        data = yaml.constructor.construct_document(node)
    except ParseError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError) as exc:  # a value no scalar check saw
        raise _one("yaml_value", f"invalid YAML value: {exc}") from None
    except MarkedYAMLError as exc:
        raise _yaml_error(exc) from None
    except YAMLError as exc:
        raise _one("yaml_invalid", f"invalid YAML: {exc}") from None
    except RecursionError:
        raise _one("depth", "the document is nested too deep to read") from None
    spans = walk.spans

    def locate(paths: list[Loc]) -> dict[Loc, Span]:
        prefixes = {path[:end] for path in paths for end in range(len(path) + 1)}
        return {path: spans[path] for path in prefixes if path in spans}

    return Document(data, "yaml", locate)


def _yaml_error(exc: Any) -> ParseError:
    from ruamel.yaml.composer import ComposerError
    from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError

    mark = exc.problem_mark or exc.context_mark
    position = None if mark is None else Position(mark.line + 1, mark.column + 1)
    problem = exc.problem or "invalid YAML"
    if type(exc).__name__ == "MaxDepthExceededError":
        return _one("depth", "the document is nested too deep to read", position)
    if isinstance(exc, DuplicateKeyError):
        return _one("duplicate_key", f"duplicate key: {problem}", position)
    if isinstance(exc, ConstructorError) and "constructor for the tag" in problem:
        return _one(
            "yaml_tag",
            f"{problem}: only plain YAML values (mappings, sequences, strings, numbers, "
            "booleans, null) are read",
            position,
        )
    if isinstance(exc, ComposerError) and "another document" in problem:
        return _one("yaml_documents", "the file holds more than one YAML document", position)
    context = f" {exc.context}" if exc.context else ""
    return _one("yaml_invalid", f"invalid YAML:{context} {problem}".replace("  ", " "), position)


class _YAMLWalk:
    """Go over a composed YAML node graph: record spans, find repeated keys and bad scalars.

    Scalars are built here, one by one, so that a scalar the safe constructor
    cannot build (``!!int abc``, a 13th month, an integer too long) is
    reported where it is; building the document afterwards reuses them.
    """

    def __init__(self, constructor: SafeConstructor) -> None:
        self.constructor = constructor
        self.spans: dict[Loc, Span] = {}
        self.problems: list[Problem] = []
        self.seen: set[int] = set()

    def scalar(self, node: Node, path: Loc) -> tuple[bool, Any]:
        """Build a scalar; on failure record the problem and return ``(False, None)``."""
        from ruamel.yaml.error import MarkedYAMLError

        if node.tag == _INT_TAG and isinstance(node.value, str):
            digits = sum(char.isdigit() for char in node.value)
            # only decimal integers are limited; 0x, 0o and 0b ones convert at any length
            if digits > _json.INT_DIGITS and node.value.lstrip("+-")[:2] not in _POWER_OF_TWO:
                self.problems.append(
                    Problem("number", _json.too_many_digits(digits), path, _mark(node))
                )
                return False, None
        try:
            return True, self.constructor.construct_object(node)
        except MarkedYAMLError:
            raise  # a tag the safe loader refuses: reported with the parser's own mark
        except Exception as exc:  # the constructors raise what their Python types raise
            tag = str(node.tag).rpartition(":")[2]
            self.problems.append(
                Problem(
                    "yaml_value",
                    f"invalid YAML {tag} {str(node.value)[:40]!r}: {exc}",
                    path,
                    _mark(node),
                )
            )
            return False, None

    def node(self, node: Node, path: Loc, key: Position | None) -> None:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        self.spans.setdefault(path, Span(key, _mark(node)))
        if isinstance(node, ScalarNode):
            self.scalar(node, path)
            return
        if not isinstance(node, (MappingNode, SequenceNode)) or id(node) in self.seen:
            return
        self.seen.add(id(node))
        if isinstance(node, SequenceNode):
            for index, item in enumerate(node.value):
                self.node(item, (*path, index), None)
            return
        self.mapping(node, path)

    def mapping(self, node: Node, path: Loc) -> None:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        keys: set[tuple[Any, Any]] = set()
        merged: list[Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                if isinstance(value_node, SequenceNode):
                    merged.extend(value_node.value)
                else:
                    merged.append(value_node)
                continue
            if not isinstance(key_node, ScalarNode):
                continue  # the constructor says what is wrong with a complex key
            identity = (key_node.tag, key_node.value)
            if identity in keys:
                self.problems.append(
                    Problem(
                        "duplicate_key",
                        f"duplicate key {key_node.value!r}: each key may appear once in a mapping",
                        (*path, key_node.value),
                        _mark(key_node),
                    )
                )
                continue
            keys.add(identity)
            built, key = self.scalar(key_node, (*path, str(key_node.value)))
            if built:
                self.node(value_node, (*path, key), _mark(key_node))
        for source in merged:
            if isinstance(source, MappingNode) and id(source) not in self.seen:
                self.seen.add(id(source))
                self.mapping(source, path)


def _mark(node: Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)
