r"""Reading YAML with rapidyaml, a parser in C++, where it reads a text as ruamel.yaml does.

The YAML reader of :mod:`estconf.io._yaml` composes each document with
ruamel.yaml, in Python, at tens of microseconds a value.  rapidyaml
(``pip install rapidyaml``, module ``ryml``) parses the same text a hundred
times faster; each document it parses is written out as JSON by rapidyaml
and read back by :func:`json.loads`, both in C.  rapidyaml is not fully a
YAML 1.2 reader, so :func:`read` gives the documents only when what it read
is known to be what ruamel.yaml reads, and ``None`` otherwise, for the text
to be read by ruamel.yaml as before.

Each document is read one of two ways.  Most are written out as JSON, on
one line, and read by :func:`json.loads`: fast, but the JSON does not say
how a scalar was written.  A document whose JSON holds a string that,
written plain, YAML 1.2 reads as another type (``~``, ``True``, ``0x10``,
``.inf``) and is not within quotes wherever the text holds it, an alias
(``*name``), a string starting with a flow indicator, a number JSON does
not write (``+.5``) or a number with an exponent, and a document whose
text holds a hazard of :mod:`estconf.io._yaml_hazards` (``a && b``, a tab
within quotes, a long line), is built from rapidyaml's tree instead,
node by node (:mod:`estconf.io._yaml_tree`).  :func:`read` gives ``None``
when:

- rapidyaml is not installed, or ``ESTCONF_YAML=ruamel`` is set;
- the text holds a construct :func:`estconf.io._yaml_hazards.scan` sends
  to ruamel.yaml (a line break ``\r`` alone, a directive, ...), or the tree
  shows one :func:`estconf.io._yaml_tree.build` does not build (a tag, a
  merge key, a timestamp, a key that is not a string, a recursive alias);
- rapidyaml refuses the text (ruamel.yaml then says why, in its words);
- a document holds a key written twice, is nested deeper than rapidyaml
  writes (64 levels), holds more values than the limits allow (aliases
  expanded), or the stream holds more documents.

CRLF line ends are read as ``\n``, as ruamel.yaml reads them.

Errors are rare and speed matters for valid input: a text with anything
wrong is read again by ruamel.yaml, so every error is today's, word for word.

Where each value is written is known only once asked (an error to place, a
finding): :class:`LazySpans` reads that document again with ruamel.yaml then.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from estconf.io._positions import Loc, Position, Span
from estconf.io._yaml_hazards import Hazard, scan
from estconf.io._yaml_places import Source, method
from estconf.io._yaml_plain import RESOLVED
from estconf.io._yaml_tree import Unbuilt, build
from estconf.io.checks import Limits

__all__ = ["ENVIRONMENT", "LazySpans", "Native", "read"]

ENVIRONMENT: Final = "ESTCONF_YAML"
"""The environment variable that, set to ``ruamel``, turns the native reader off."""

# A JSON string rapidyaml writes for a scalar that, written plain, YAML 1.2 reads as
# something else than a string (:data:`estconf.io._yaml_plain.RESOLVED`), or an indicator
# alone (``!``, ``&``, ``*``), which no plain scalar is.
_RESOLVED: Final = rf"{RESOLVED}|!|&|\*"
# rapidyaml writes these plain scalars as JSON numbers, booleans and null (checked for every
# one of up to six characters): a JSON string of them was quoted, and is a string
_WRITTEN_AS_JSON: Final = r"(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?|true|false|null)\""
# a key (JSON writes every key as a string), a value that may have been plain, an alias,
# a null key, a string starting with a flow indicator (first, or after a ``[``, ``{``, ``,``,
# ``:`` or a space: a quote that opens a string)
# (the lookahead first: most strings start with none of these, and are passed over fast);
# a plain scalar cannot start with a flow indicator, which rapidyaml reads in block context
_AMBIGUOUS: Final = re.compile(
    r'"(?=[-+0-9.~<=!&*"\[{]|[\]},](?<![^\[{,:\s]"[\]},])|[tT]rue"|TRUE"|[fF]alse"|FALSE"|[nN]ull"|NULL")'
    rf'(?:(?P<key>{_RESOLVED})"\s*:|(?!{_WRITTEN_AS_JSON})(?P<value>{_RESOLVED})"|[\[\]{{}},*]|"\s*:)'
)
_COMMENT_LIKE: Final = re.compile(r"\s#")
"""What a plain scalar cannot hold: in a JSON string, a scalar quoted or a comment read in."""
_INFINITE: Final = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_MOST_AMBIGUOUS: Final = 64
"""The most strings a text may hold that could have been plain, each looked for in the text."""

_FIRST_MARKED: Final = re.compile(r"(?:[ ]*(?:#.*)?\n)*---(?=\s|$)")
"""A text whose first document starts with ``---``, after blank lines and comments only."""


class _Unproven(Exception):
    """What rapidyaml read is not known to be what ruamel.yaml reads."""


class LazySpans(Mapping[Loc, Span]):
    """Where each value of a document is, found when first asked by ``find``.

    :meth:`locate` asks ``place`` first, which places scalars without ``find``.
    """

    def __init__(
        self,
        find: Callable[[], dict[Loc, Span]],
        place: Callable[[list[Loc]], dict[Loc, Span] | None] | None = None,
    ) -> None:
        self._find = find
        self._place = place
        self._spans: dict[Loc, Span] | None = None

    def locate(self, paths: list[Loc]) -> dict[Loc, Span]:
        """The spans of ``paths``, and of the values around them (all found by ``find``).

        When ``place`` places every path (scalars all), those spans are all.
        """
        if self._spans is None and self._place is not None:
            placed = self._place(paths)
            if placed is not None:
                return placed
        spans = self._all()
        prefixes = {path[:end] for path in paths for end in range(len(path) + 1)}
        return {path: spans[path] for path in prefixes if path in spans}

    def _all(self) -> dict[Loc, Span]:
        if self._spans is None:
            self._spans = self._find()
        return self._spans

    def __getitem__(self, path: Loc) -> Span:
        return self._all()[path]

    def __iter__(self) -> Iterator[Loc]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class Native:
    """One document read by rapidyaml: its data, the lines of its text, where it starts."""

    __slots__ = ("data", "first_line", "last_line", "place", "start")

    def __init__(
        self,
        data: Any,
        start: Position,
        first_line: int,
        last_line: int | None,
        place: Callable[[list[Loc]], dict[Loc, Span] | None],
    ) -> None:
        self.data = data
        self.place = place
        """The spans of the scalars at some paths, if rapidyaml can place each of them."""
        self.start = start
        self.first_line = first_line
        """The first line of the text the document is alone in (1-based)."""
        self.last_line = last_line
        """The line of the next document's ``---`` (part of the text: it ends this document
        where the whole text ends it), ``None`` at the end of the text."""


def read(text: str, limits: Limits, stop_at: int | None = None) -> list[Native] | None:
    """The documents of ``text`` that are not empty, as ruamel.yaml reads them; or ``None``.

    ``None`` when the text is to be read by ruamel.yaml: rapidyaml is not
    installed or turned off, the text is not known to read alike, or it
    breaks a limit or holds an error (for ruamel.yaml to say).
    """
    if os.environ.get(ENVIRONMENT) == "ruamel":
        return None
    length = len(text)  # the limits are those of the text as written
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return None  # a line break of ``\r`` alone
        text = text.replace("\r\n", "\n")  # as ruamel.yaml reads CRLF: one line break
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return None
    hazards = scan(text, raw)
    if hazards is None:
        return None
    if not text.endswith("\n") and ("|" in text or ">" in text):
        return None  # rapidyaml ends a last block scalar with a line break the text lacks
    try:
        import ryml
    except ImportError:  # no wheel for this platform: ruamel.yaml reads every text
        return None
    saved = _silence()
    try:
        buffer = bytearray(raw)
        tree = ryml.parse_in_place(buffer)
        source = Source(ryml, raw, buffer, tree)
        return _documents(source, text, _Stream(hazards, length, limits), stop_at)
    except (_Unproven, Unbuilt, ValueError, RecursionError, ryml.ExceptionBasic):
        return None
    finally:
        if saved is not None:
            os.dup2(saved, 2)
            os.close(saved)


_null: int | None = None
"""The null device, opened once, which the standard error stream is while rapidyaml parses."""


def _silence() -> int | None:
    """Close the standard error stream, where rapidyaml writes what it refuses before it raises.

    Gives the stream's file descriptor, duplicated, to restore it with; ``None``
    when there is no standard error stream to close.
    """
    global _null
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no standard error stream to close
        return None
    try:
        if _null is None:
            _null = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # pragma: no cover - no null device
        os.close(saved)
        return None
    os.dup2(_null, 2)
    return saved


class _Stream:
    """What is known of a text before its documents are read: its hazards, its limits."""

    def __init__(self, hazards: list[Hazard], length: int, limits: Limits) -> None:
        self.hazards = hazards
        self.limits = limits
        self.written = limits.written_values_for(length)
        self.expanded = limits.values_for(length)


def _documents(
    source: Source, text: str, stream: _Stream, stop_at: int | None
) -> list[Native] | None:
    ryml, tree = source.ryml, source.tree
    root = tree.root_id()
    if tree.is_stream(root):
        nodes = list(ryml.children(tree, root))
    elif tree.type_has_any(root, ryml.MAP | ryml.SEQ | ryml.VAL):
        nodes = [root]
    else:  # nothing but comments: ruamel.yaml says it is empty
        return None
    if len(nodes) > stream.limits.max_documents:
        return None
    starts = _starts(text, len(nodes))
    if starts is None:
        return None
    hazards = _by_document(text, stream.hazards, [offset for _, offset in starts])
    count_values = tree.size() > stream.written
    documents: list[Native] = []
    quoted: dict[str, bool] = {}
    flow = "{" in text
    flow_style = ryml.FLOW_SL
    is_container = method(ryml, "is_container")
    set_style = method(ryml, "set_container_style")
    emit = getattr(ryml, "_ryml", ryml).emit_json_malloc
    for index, node in enumerate(nodes):
        data: Any = _WALK
        if not hazards[index]:
            if is_container(tree, node):  # written on one line: half the JSON to read
                set_style(tree, node, flow_style)
            data = _fast(emit(tree, node), text, quoted, flow)
        if data is _WALK:
            data, _ = build(source, node, hazards[index], stream.written, stream.expanded)
        elif count_values and _values(data) > stream.written:
            return None
        if data is None:  # an empty document, passed over
            continue
        first = starts[index][0]
        following = starts[index + 1][0] if index + 1 < len(starts) else None
        start = Position(1, 1) if index == 0 else Position(first, 1)
        documents.append(
            Native(data, start, first, following, functools.partial(source.place, node))
        )
        if stop_at is not None and len(documents) >= stop_at:
            break
    return documents or None


_WALK: Final = object()
"""What :func:`_fast` gives for a document to be built from the tree instead."""


def _fast(written: str | None, text: str, quoted: dict[str, bool], flow: bool) -> Any:
    """A document's data read from rapidyaml's JSON, or :data:`_WALK` if not known to be right."""
    if written is None:
        return _WALK
    if flow and "#" in written and _COMMENT_LIKE.search(written):
        raise _Unproven  # rapidyaml reads ``{a: b #c}``'s comment into the scalar
    if not _quoted(written, text, quoted):
        return _WALK
    try:
        return _DECODER.decode(written)
    except _Exponent:
        return _WALK
    except ValueError:  # a number JSON does not write (``+1``, ``012.5``)
        return _WALK


def _by_document(text: str, hazards: list[Hazard], starts: list[int]) -> list[list[Hazard]]:
    """The hazards of each document's text, each at its byte offset in the text."""
    found: list[list[Hazard]] = [[] for _ in starts]
    if not hazards:
        return found
    ascii = text.isascii()
    byte, char = 0, 0
    for hazard in hazards:
        if not ascii:  # the byte offset, counted on from the last
            byte += len(text[char : hazard.at].encode("utf-8"))
            char = hazard.at
        at = hazard.at if ascii else byte
        found[bisect_right(starts, hazard.at) - 1].append(Hazard(at, hazard.kind))
    return found


def _starts(text: str, documents: int) -> list[tuple[int, int]] | None:
    """The line and offset each document's text starts at (the first at 1, 0); ``None`` if unsure.

    Each document after the first starts at a ``---`` at the start of a line;
    the first starts at the text's start, its ``---`` (if written) included.
    A ``---`` more than the documents need is within a scalar: unsure.
    """
    markers = []
    line, counted = 1, 0  # the line of offset ``counted``
    at = 0 if text.startswith("---") else text.find("\n---")
    while at >= 0:
        start = at if at == 0 and text.startswith("---") else at + 1
        if text[start + 3 : start + 4] in ("", " ", "\n"):
            line += text.count("\n", counted, start)
            counted = start
            markers.append((line, start))
        at = text.find("\n---", start + 1)
    if _FIRST_MARKED.match(text):
        markers = markers[1:]
    if len(markers) != documents - 1:
        return None
    return [(1, 0), *markers]


def _quoted(written: str, text: str, known: dict[str, bool]) -> bool:
    """Whether each string of ``written`` that YAML 1.2 reads as another type when plain was quoted.

    rapidyaml's JSON writes ``"True"`` for a ``True`` written plain (a boolean)
    and for a ``"True"`` written quoted (a string).  A plain scalar without
    spaces is written as it is read, and no quote is right before it (it
    would be a quoted scalar then): so when each place of the text that holds
    the string is within quotes, each was quoted.  ``known`` keeps the
    answer for each string, for the next document.
    """
    for found in _AMBIGUOUS.finditer(written):
        string = found["key"] or found["value"]
        if string is None:  # an alias, a null key
            return False
        if string not in known:
            if len(known) >= _MOST_AMBIGUOUS:
                return False
            known[string] = _within_quotes(string, text)
        if not known[string]:
            return False
    return True


def _within_quotes(string: str, text: str) -> bool:
    """Whether each place of ``text`` that holds ``string`` is right within quotes."""
    if not string or any(char.isspace() for char in string):  # plain scalars fold lines
        return False
    if _INFINITE.fullmatch(string):  # rapidyaml writes ``.Inf`` as ``".inf"``: not as written
        return False
    size = len(string)
    at = text.find(string)
    if at < 0:
        return False
    while at >= 0:
        before = text[at - 1 : at]
        if before not in ("'", '"') or text[at + size : at + size + 1] != before:
            return False
        at = text.find(string, at + 1)
    return True


class _Exponent(Exception):
    """rapidyaml's JSON holds a number with an exponent, which YAML 1.2 may read as a string."""


def _mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) < len(pairs):  # a key written twice: ruamel.yaml says where
        raise _Unproven
    return mapping


def _float(written: str) -> float:
    # rapidyaml writes ``.1e1`` as a number, which YAML 1.2 reads as a string
    if "e" in written or "E" in written:
        raise _Exponent
    return float(written)


_DECODER: Final = json.JSONDecoder(object_pairs_hook=_mapping, parse_float=_float, strict=False)


def _values(data: Any) -> int:
    """How many values a document holds as ruamel.yaml counts them: the root and each item."""
    count = 1
    stack = [data] if isinstance(data, (dict, list)) else []
    while stack:
        value = stack.pop()
        items = value.values() if isinstance(value, dict) else value
        count += len(value)
        stack.extend(item for item in items if isinstance(item, (dict, list)))
    return count
