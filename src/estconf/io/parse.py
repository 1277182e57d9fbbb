"""Reading a config file into plain data, and knowing where each value came from.

Reading goes bytes -> text -> data, each step refusing what it cannot read
with a :class:`~estconf.io.errors.FileError` (a stable code, a message, and
a line and column where the format tells them) instead of an exception from
deep inside a parser:

- :func:`read` refuses missing, unreadable and oversized files;
- :func:`decode` drops a UTF-8 byte-order mark and refuses any other
  encoding than UTF-8;
- :func:`parse` reads JSON, TOML or YAML (YAML 1.2 with the safe loader:
  no tags that build Python objects) and refuses repeated keys and what
  each format cannot read; the checks every format shares (depth, NaN, ...)
  are :mod:`estconf.io.checks`'.

A parsed :class:`Document` can tell the line and column of the value (and
key) at a path, for error messages; JSON positions are found only when asked.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from estconf import _json
from estconf.io._positions import Lines, Loc, Position, Span, position
from estconf.io.checks import (
    INT_DIGITS,
    MAX_DEPTH,
    MAX_SIZE,
    parser_depth,
    read_stream,
    too_deep,
    too_deep_to_parse,
    too_many_digits,
)
from estconf.io.errors import ConfigFileError, FileError, error, refused

if TYPE_CHECKING:
    from ruamel.yaml.constructor import SafeConstructor
    from ruamel.yaml.nodes import Node

__all__ = ["SUFFIXES", "Document", "decode", "format_of", "parse", "parse_documents", "read"]

SUFFIXES = {".json": "json", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml"}
"""File name suffixes and the format they mean."""


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
    return SUFFIXES.get(Path(path).suffix.lower())


def read(path: Path, file: str, max_size: int = MAX_SIZE) -> bytes:
    """Read the bytes of ``path`` (called ``file`` in errors), refusing more than ``max_size``.

    Raises:
        ConfigFileError: the file is missing, a directory, unreadable or too large.
    """
    try:
        with path.open("rb") as stream:
            return read_stream(stream, file, max_size)
    except FileNotFoundError:
        raise refused(file, "file", "no such file") from None
    except IsADirectoryError:
        raise refused(file, "file", "is a directory, not a file") from None
    except PermissionError:
        raise refused(file, "file", "cannot be read: permission denied") from None
    except OSError as exc:
        raise refused(file, "file", f"cannot be read: {exc.strerror or exc}") from None


_BOMS = [
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
]


def decode(raw: bytes, file: str) -> str:
    """Decode UTF-8 ``raw``, dropping a UTF-8 byte-order mark.

    Raises:
        ConfigFileError: the bytes are UTF-16 or UTF-32 (by their byte-order
            mark), not UTF-8, hold a NUL character, or no content at all.
    """
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            raise refused(
                file,
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
        raise refused(
            file,
            "encoding",
            f"invalid UTF-8: byte 0x{raw[exc.start]:02x} at byte offset {exc.start} "
            f"({exc.reason}); save the file as UTF-8",
            Position(line, column),
        ) from None
    if "\x00" in text:
        raise refused(
            file,
            "encoding",
            "the file holds a NUL character: is it UTF-16 without a byte-order mark? "
            "save it as UTF-8",
            position(text, text.index("\x00")),
        )
    if not text.strip():
        raise refused(file, "empty", "the file is empty")
    return text


def parse(text: str, format: str, file: str, max_depth: int = MAX_DEPTH) -> Document:
    """Read ``text`` in ``format`` (``json``, ``toml`` or ``yaml``) into a :class:`Document`.

    Raises:
        ConfigFileError: the text is not valid in its format, repeats a key,
            or is nested deeper than its parser can read.
    """
    with too_deep_to_parse(file):
        if format == "json":
            return _parse_json(text, file, max_depth)
        if format == "toml":
            return _parse_toml(text, file)
        if format == "yaml":
            return _parse_yaml(text, file, max_depth)
    raise ValueError(f"unknown format {format!r}")


def _parse_json(text: str, file: str, max_depth: int) -> Document:
    try:
        data = _json.loads(text)
    except _json.JSONInputError as exc:
        if exc.line is not None and exc.column is not None:  # not JSON at all
            raise refused(file, "syntax", exc.message, Position(exc.line, exc.column)) from None
        from estconf.io._json_scan import scan  # only for a file with errors

        # JSON that strict reading refuses: find every refused construct, placed; what a
        # scan cannot find is nesting deeper than the scan itself can go
        errors = scan(text, file, max_depth=max_depth).errors
        raise ConfigFileError(file, errors or [too_deep(file, None)]) from None

    def locate(paths: list[Loc]) -> dict[Loc, Span]:
        from estconf.io._json_scan import scan  # only for a file with errors

        offsets = scan(text, file, paths, max_depth=max_depth).offsets
        at = Lines(text).position
        return {
            path: Span(None if key is None else at(key), at(value))
            for path, (key, value) in offsets.items()
        }

    return Document(data, "json", locate)


_LONG_NUMBER = re.compile(rf"[0-9][0-9_]{{{INT_DIGITS},}}")
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")


def _parse_toml(text: str, file: str) -> Document:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc.args[0]) if exc.args else str(exc)
        where = _TOML_WHERE.search(message)
        at = None
        if where is not None:
            message = message[: where.start()]
            at = (
                position(text, len(text))
                if where[1] is None
                else Position(int(where[1]), int(where[2]))
            )
        raise refused(file, "syntax", f"invalid TOML: {message}", at) from None
    except ValueError:  # an integer too long to convert
        digits = _LONG_NUMBER.search(text)
        count = 0 if digits is None else len(digits[0].replace("_", ""))
        at = None if digits is None else position(text, digits.start())
        raise refused(file, "number", too_many_digits(count), at) from None

    def locate(paths: list[Loc]) -> dict[Loc, Span]:
        from estconf.io._toml_scan import scan  # only for a file with errors

        wanted = set(paths)
        at = Lines(text).position
        return {
            path: Span(None if key is None else at(key), at(value))
            for path, (key, value) in scan(text).items()
            if path in wanted
        }

    return Document(data, "toml", locate)


_MERGE_TAG = "tag:yaml.org,2002:merge"
_INT_TAG = "tag:yaml.org,2002:int"
_POWER_OF_TWO = ("0x", "0o", "0b")


def _parse_yaml(text: str, file: str, max_depth: int) -> Document:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="safe", pure=True)
    yaml.max_depth = parser_depth(max_depth)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a reused anchor name is valid YAML
            node = yaml.compose(text)
        if node is None:
            raise refused(file, "empty", "the file holds no YAML document")
        return _yaml_document(yaml, node, file)
    except ConfigFileError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError) as exc:  # a value no scalar check saw
        raise refused(file, "syntax", f"invalid YAML value: {exc}") from None
    except MarkedYAMLError as exc:
        raise _yaml_error(exc, file, max_depth) from None
    except YAMLError as exc:
        raise refused(file, "syntax", f"invalid YAML: {exc}") from None


def parse_documents(
    text: str, format: str, file: str, max_depth: int = MAX_DEPTH
) -> list[Document]:
    """Read every document of a YAML stream (``---`` between them), each able to place its values.

    Kubernetes manifests come as streams of documents of several kinds; a
    config file holds one document, and :func:`parse` refuses more.  Lines
    and columns are those of the whole text.  JSON and TOML hold one
    document: the list has the one :func:`parse` reads.  Empty documents are
    left out.

    Raises:
        ConfigFileError: as :func:`parse`, for the first document that fails.
    """
    if format != "yaml":
        return [parse(text, format, file, max_depth)]
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="safe", pure=True)
    yaml.max_depth = parser_depth(max_depth)
    documents = []
    with too_deep_to_parse(file):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a reused anchor name is valid YAML
                for node in yaml.compose_all(text):
                    if node is not None:
                        documents.append(_yaml_document(yaml, node, file))
        except ConfigFileError:
            raise
        except (ValueError, TypeError, KeyError, OverflowError) as exc:
            raise refused(file, "syntax", f"invalid YAML value: {exc}") from None
        except MarkedYAMLError as exc:
            raise _yaml_error(exc, file, max_depth) from None
        except YAMLError as exc:
            raise refused(file, "syntax", f"invalid YAML: {exc}") from None
    if not documents:
        raise refused(file, "empty", "the file holds no YAML document")
    return documents


def _yaml_document(yaml: Any, node: Node, file: str) -> Document:
    """Build one composed YAML document, recording where each of its values is."""
    walk = _YAMLWalk(yaml.constructor, file)
    walk.node(node, (), None)
    if walk.errors:
        raise ConfigFileError(file, walk.errors)
    data = yaml.constructor.construct_document(node)
    spans = walk.spans

    def locate(paths: list[Loc]) -> dict[Loc, Span]:
        prefixes = {path[:end] for path in paths for end in range(len(path) + 1)}
        return {path: spans[path] for path in prefixes if path in spans}

    return Document(data, "yaml", locate)


def _yaml_error(exc: Any, file: str, max_depth: int) -> ConfigFileError:
    from ruamel.yaml.composer import ComposerError
    from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError

    mark = exc.problem_mark or exc.context_mark
    position = None if mark is None else Position(mark.line + 1, mark.column + 1)
    problem = exc.problem or "invalid YAML"
    if type(exc).__name__ == "MaxDepthExceededError":
        return ConfigFileError(file, [too_deep(file, max_depth, position=position)])
    if isinstance(exc, DuplicateKeyError):
        return refused(file, "duplicate_key", f"duplicate key: {problem}", position)
    if isinstance(exc, ConstructorError) and "constructor for the tag" in problem:
        return refused(
            file,
            "tag",
            f"{problem}: only plain YAML values (mappings, sequences, strings, numbers, "
            "booleans, null) are read",
            position,
        )
    if isinstance(exc, ComposerError) and "another document" in problem:
        return refused(file, "documents", "the file holds more than one YAML document", position)
    context = f" {exc.context}" if exc.context else ""
    return refused(file, "syntax", f"invalid YAML:{context} {problem}".replace("  ", " "), position)


class _YAMLWalk:
    """Go over a composed YAML node graph: record spans, find repeated keys and bad scalars.

    Scalars are built here, one by one, so that a scalar the safe constructor
    cannot build (``!!int abc``, a 13th month, an integer too long) is
    reported where it is; building the document afterwards reuses them.
    """

    def __init__(self, constructor: SafeConstructor, file: str) -> None:
        self.constructor = constructor
        self.file = file
        self.spans: dict[Loc, Span] = {}
        self.errors: list[FileError] = []
        self.seen: set[int] = set()

    def scalar(self, node: Node, path: Loc) -> tuple[bool, Any]:
        """Build a scalar; on failure record the problem and return ``(False, None)``."""
        from ruamel.yaml.error import MarkedYAMLError

        if node.tag == _INT_TAG and isinstance(node.value, str):
            digits = sum(char.isdigit() for char in node.value)
            # only decimal integers are limited; 0x, 0o and 0b ones convert at any length
            if digits > INT_DIGITS and node.value.lstrip("+-")[:2] not in _POWER_OF_TWO:
                self.errors.append(
                    error(self.file, "number", too_many_digits(digits), path, position=_mark(node))
                )
                return False, None
        try:
            return True, self.constructor.construct_object(node)
        except MarkedYAMLError:
            raise  # a tag the safe loader refuses: reported with the parser's own mark
        except Exception as exc:  # the constructors raise what their Python types raise
            tag = str(node.tag).rpartition(":")[2]
            self.errors.append(
                error(
                    self.file,
                    "syntax",
                    f"invalid YAML {tag} {str(node.value)[:40]!r}: {exc}",
                    path,
                    position=_mark(node),
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
                self.errors.append(
                    error(
                        self.file,
                        "duplicate_key",
                        f"duplicate key {key_node.value!r}: each key may appear once in a mapping",
                        (*path, key_node.value),
                        position=_mark(key_node),
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
