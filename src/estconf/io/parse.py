"""Reading a config file into plain data, and knowing where each value came from.

Reading goes bytes -> text -> data, each step refusing what it cannot read
with a :class:`~estconf.io.errors.FileError` (a stable code, a message, and
a line and column where the format tells them) instead of an exception from
deep inside a parser:

- :func:`read` refuses missing, unreadable and oversized files;
- :func:`decode` drops a UTF-8 byte-order mark and refuses any other
  encoding than UTF-8;
- :func:`parse` reads JSON, TOML or YAML (YAML 1.2 with the safe loader:
  no tags that build Python objects, see :mod:`estconf.io._yaml`) and
  refuses repeated keys and what each format cannot read;
  :func:`parse_documents` reads every document of a YAML stream.  Both then
  apply the checks every format shares (depth, NaN, lone surrogates, YAML
  aliases expanded too far: :mod:`estconf.io.checks`) to every document, so
  that no path reads data that a config file may not hold.

:func:`document_of` (a config file's bytes), :func:`documents_of` (the bytes
of a stream in a known format) and :func:`stream_of` (a stream of YAML or
JSON) put the steps together under one set of limits.

A parsed :class:`Document` can tell the line and column of the value (and
key) at a path, for error messages; JSON positions are found only when asked.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from estconf import _json
from estconf.io._positions import Lines, Loc, Position, Span, position
from estconf.io.checks import (
    INT_DIGITS,
    MAX_DEPTH,
    MAX_DOCUMENTS,
    MAX_SIZE,
    Limits,
    check_size,
    check_values,
    read_stream,
    too_deep,
    too_deep_to_parse,
    too_dense,
    too_many_digits,
)
from estconf.io.errors import ConfigFileError, FileError, refused

__all__ = [
    "SUFFIXES",
    "Document",
    "decode",
    "document_of",
    "documents_of",
    "format_of",
    "parse",
    "parse_documents",
    "read",
    "stream_of",
]

SUFFIXES = {".json": "json", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml"}
"""File name suffixes and the format they mean."""


_FIRST_LINE = Position(1, 1)


@dataclass
class Document:
    """Data read from a file, and a way to find where its values are.

    ``start`` is where the document starts (its ``---`` in a YAML stream).
    """

    data: Any
    format: str
    _locate: Callable[[list[Loc]], dict[Loc, Span]] = field(repr=False)
    start: Position = _FIRST_LINE

    def locate(self, paths: Iterable[Loc]) -> dict[Loc, Span]:
        """Return the span of each of ``paths`` that the format can place."""
        return self._locate(list(paths))

    def place(self, errors: list[FileError]) -> list[FileError]:
        """The errors with the line and column of what each is about, in the order of the text.

        An error about a key the document leaves out is placed at the object
        that lacks it; one ``on_key`` at the key of the value it is about (of
        the nearest enclosing value the document has).  An error placed
        already keeps its place.
        """
        if not errors:  # a valid file: nothing to place, no scan of its text
            return []
        spans = self.locate(e.loc for e in errors if e.line is None)
        placed = []
        for item in errors:
            at = None if item.line is not None else _position(spans, item.loc, item.on_key)
            placed.append(
                item if at is None else dataclasses.replace(item, line=at.line, column=at.column)
            )
        placed.sort(key=lambda e: (e.line is None, e.line or 0, e.column or 0))
        return placed


def _position(spans: Mapping[Loc, Span], path: Loc, on_key: bool) -> Position | None:
    """Where the nearest enclosing value the text has starts: at its key, if ``on_key``."""
    for end in range(len(path), -1, -1):
        span = spans.get(path[:end])
        if span is not None:
            return span.key if on_key and span.key is not None else span.value
    return None


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


def parse(
    text: str,
    format: str,
    file: str,
    max_depth: int = MAX_DEPTH,
    *,
    max_size: int = MAX_SIZE,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> Document:
    """Read ``text`` in ``format`` (``json``, ``toml`` or ``yaml``) into a :class:`Document`.

    The data read has passed :func:`~estconf.io.checks.check_values` (depth,
    NaN, lone surrogates, aliases expanded beyond ``max_values``).  Empty YAML
    documents around the one a file holds (a stream ending in ``---``) are
    passed over.  The limits are those of :class:`~estconf.io.checks.Limits`.

    Raises:
        ConfigFileError: the text is not valid in its format, repeats a key,
            holds more than one YAML document, breaks a limit or holds a value
            no config may hold, each error placed at its line and column.
    """
    limits = Limits(max_size, max_depth, max_values, max_documents)
    if format == "yaml":
        documents = _yaml_documents(text, file, limits, stop_at=2)
        if len(documents) > 1:
            second = documents[1].start
            raise refused(file, "documents", "the file holds more than one YAML document", second)
        return documents[0]
    check_size(file, len(text), max_size)  # a character is at least a byte
    with too_deep_to_parse(file):
        if format == "json":
            document = _parse_json(text, file, max_depth)
        elif format == "toml":
            document = _parse_toml(text, file, limits)
        else:
            raise ValueError(f"unknown format {format!r}")
    _check(document, file, limits, len(text))
    return document


def parse_documents(
    text: str,
    format: str,
    file: str,
    max_depth: int = MAX_DEPTH,
    *,
    max_size: int = MAX_SIZE,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> list[Document]:
    """Read every document of a YAML stream (``---`` between them), each able to place its values.

    Kubernetes manifests come as streams of documents of several kinds; a
    config file holds one document, and :func:`parse` refuses more.  Lines
    and columns are those of the whole text.  JSON and TOML hold one
    document: the list has the one :func:`parse` reads.  Empty documents
    (nothing, comments, or ``null``) are passed over, as ``kubectl`` passes
    them over; each other one is checked as :func:`parse` checks a file.

    Raises:
        ConfigFileError: as :func:`parse`, for the first document that fails;
            ``empty`` when the stream holds no document but empty ones;
            ``too_many_documents`` past ``max_documents`` documents.
    """
    if format != "yaml":
        return [parse(text, format, file, max_depth, max_size=max_size, max_values=max_values)]
    return _yaml_documents(text, file, Limits(max_size, max_depth, max_values, max_documents))


def _yaml_documents(
    text: str, file: str, limits: Limits, stop_at: int | None = None
) -> list[Document]:
    """The documents of a YAML text that are not empty, each checked as a file is."""
    from estconf.io._yaml import read_documents
    from estconf.io._yaml_native import LazySpans

    check_size(file, len(text), limits.max_size)
    documents = []
    with _collector_paused(len(text) >= PAUSE_COLLECTOR_FROM):
        for read in read_documents(text, file, limits, stop_at):
            spans = read.spans

            def locate(paths: list[Loc], spans: Mapping[Loc, Span] = spans) -> dict[Loc, Span]:
                if isinstance(spans, LazySpans):  # read by rapidyaml: scalars placed by it
                    return spans.locate(paths)
                prefixes = {path[:end] for path in paths for end in range(len(path) + 1)}
                return {path: spans[path] for path in prefixes if path in spans}

            document = Document(read.data, "yaml", locate, read.start)
            _check(document, file, limits, len(text))
            documents.append(document)
    return documents


PAUSE_COLLECTOR_FROM: Final = 256 * 1024
"""The characters of a YAML text from which its documents are built with the collector paused."""


@contextlib.contextmanager
def _collector_paused(pause: bool) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a YAML stream's documents are built.

    A stream's documents are all built in one call, and each collection walks
    every object built so far: on a stream of 5,000 TFJobs the collector took
    more time than reading the YAML.  What is built holds no reference cycle,
    so there is nothing for the collector to free.  It is turned back on after,
    if it was on.
    """
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def documents_of(
    raw: str | bytes, format: str, file: str, limits: Limits | None = None
) -> list[Document]:
    """Read every document of ``raw``, under ``limits`` (the defaults if None).

    The bytes of a stream of Kubernetes manifests, of a TFJob, of a node file:
    :func:`decode` then :func:`parse_documents`, with the same limits
    everywhere.  Text (``str``) is read as it is.

    Raises:
        ConfigFileError: as :func:`decode` and :func:`parse_documents`.
    """
    return _under_limits(parse_documents, raw, format, file, limits)


def document_of(raw: str | bytes, format: str, file: str, limits: Limits | None = None) -> Document:
    """Read the one document of ``raw``, under ``limits`` (the defaults if None).

    The bytes of a config file: :func:`decode` then :func:`parse`.  Text
    (``str``) is read as it is.

    Raises:
        ConfigFileError: as :func:`decode` and :func:`parse`.
    """
    return _under_limits(parse, raw, format, file, limits)


Parsed = TypeVar("Parsed", Document, list[Document])


def _under_limits(
    read: Callable[..., Parsed], raw: str | bytes, format: str, file: str, limits: Limits | None
) -> Parsed:
    limits = limits or Limits()
    if isinstance(raw, bytes):
        check_size(file, len(raw), limits.max_size)
        raw = decode(raw, file)
    return read(
        raw,
        format,
        file,
        limits.max_depth,
        max_size=limits.max_size,
        max_values=limits.max_values,
        max_documents=limits.max_documents,
    )


def stream_of(raw: str | bytes, file: str, limits: Limits | None = None) -> list[Document]:
    """Every document of a YAML stream that is not empty, or of a JSON text, by what it holds.

    A text that starts as JSON does (``{`` or ``[``) is read by the JSON
    reader, much faster than YAML's; one that is no JSON after all is read as
    the YAML it may be (``{kind: TFJob}``).  Text (rather than bytes) is read
    as its UTF-8 bytes: lone surrogates, from bytes that were not UTF-8,
    are refused as bad UTF-8 at their place.

    Raises:
        ConfigFileError: as :func:`documents_of`.
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if raw.lstrip()[:1] in (b"{", b"["):
        try:
            return documents_of(raw, "json", file, limits)
        except ConfigFileError as exc:
            if any(found.code != "syntax" for found in exc.errors):
                raise  # JSON, and what is wrong with it is not its syntax
    return documents_of(raw, "yaml", file, limits)


def _check(document: Document, file: str, limits: Limits, length: int) -> None:
    """Refuse the values no config may hold, each placed in the text."""
    errors = check_values(file, document.data, limits.max_depth, limits.values_for(length))
    if errors:
        raise ConfigFileError(file, document.place(errors))


def _parse_json(text: str, file: str, max_depth: int) -> Document:
    try:
        data = _json.loads(text, allow_lone_surrogates=True)  # refused with their place below
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


def _parse_toml(text: str, file: str, limits: Limits) -> Document:
    from estconf.io._toml_values import first_over

    limit = limits.written_values_for(len(text))
    found = first_over(text, limit, limits.max_depth)
    if found is not None:
        what, offset = found
        if what == "depth":
            raise ConfigFileError(
                file, [too_deep(file, limits.max_depth, position=position(text, offset))]
            )
        raise too_dense(file, limit, position(text, offset))
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
