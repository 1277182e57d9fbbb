r"""Reading YAML with rapidyaml, a parser in C++, where it reads a text as ruamel.yaml does.

The YAML reader of :mod:`estconf.io._yaml` composes each document with
ruamel.yaml, in Python, at tens of microseconds a value.  rapidyaml
(``pip install rapidyaml``, module ``ryml``) parses the same text a hundred
times faster; each document it parses is written out as JSON by rapidyaml
and read back by :func:`json.loads`, both in C.  rapidyaml is not fully a
YAML 1.2 reader, so :func:`read` gives the documents only when what it read
is known to be what ruamel.yaml reads, and ``None`` otherwise, for the text
to be read by ruamel.yaml as before.  It gives ``None`` when:

- rapidyaml is not installed, or ``ESTCONF_YAML=ruamel`` is set;
- the text holds a construct rapidyaml reads differently or drops: a tab,
  a line break other than ``\n`` (``\r``, NEL, U+2028, U+2029), a
  byte-order mark, a character ruamel.yaml refuses, a directive (``%YAML``),
  a document end marker (``...``), anything that may be a tag (``!``);
- rapidyaml refuses the text (ruamel.yaml then says why, in its words);
- a document holds a string that, written plain, YAML 1.2 reads as another
  type (``~``, ``True``, ``0x10``, ``.inf``, ``2001-12-14``): rapidyaml's
  JSON writes a plain and a quoted scalar alike, so which one it was is not
  known; an alias (``*name``), a merge key (``<<``), a null key; a number
  with an exponent; a key written twice;
- a document is nested deeper than rapidyaml writes (64 levels), holds more
  values than the limits allow, or the stream holds more documents.

Errors are rare and speed matters for valid input: a text with anything
wrong is read again by ruamel.yaml, so every error is today's, word for word.

Where each value is written is known only once asked (an error to place, a
finding): :class:`LazySpans` reads that document again with ruamel.yaml then.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from estconf.io._positions import Loc, Position, Span
from estconf.io._yaml_places import Source
from estconf.io.checks import Limits

__all__ = ["ENVIRONMENT", "LazySpans", "Native", "read"]

ENVIRONMENT: Final = "ESTCONF_YAML"
"""The environment variable that, set to ``ruamel``, turns the native reader off."""

# Where a token may start, these may be read differently: a tag, a plain scalar starting
# with an indicator YAML reserves (rapidyaml reads it) or with ``?`` or ``:`` not followed
# by a space (ruamel.yaml reads a key in flow), an anchor or alias of other characters
# than letters, digits, ``-`` and ``_``
_TOKEN_STARTS: Final = " \n[]{},:"
_NAMED: Final = re.compile(r"[A-Za-z0-9_-]+(?:[\s,\[\]{}]|$)")
_HAZARDS: Final = "!%@`?:&*"
_SURROGATE_ESCAPE: Final = re.compile(r"\\(?:u[dD][89a-fA-F]|U0000[dD][89a-fA-F])")

# A JSON string rapidyaml writes for a scalar that, written plain, YAML 1.2 reads as
# something else than a string (the implicit resolvers of ruamel.yaml for YAML 1.2), an
# alias (``*a``), or a null key (rapidyaml writes it ``""``).
_RESOLVED: Final = r"""
    (?:true|True|TRUE|false|False|FALSE)
    |[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN)
    |[-+]?0b[0-1_]+
    |[-+]?0o?[0-7_]+
    |[-+]?[0-9_]+
    |[-+]?0x[0-9a-fA-F_]+
    |<<
    |~|null|Null|NULL
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
     (?:[Tt]|[\ \t]+)[0-9][0-9]?
     :[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
     (?:[\ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?
    |=|!|&|\*
"""
# rapidyaml writes these plain scalars as JSON numbers, booleans and null (checked for every
# one of up to six characters): a JSON string of them was quoted, and is a string
_WRITTEN_AS_JSON: Final = r"(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?|true|false|null)\""
# a key (JSON writes every key as a string), a value that may have been plain, an alias,
# a null key
# (the lookahead first: most strings start with none of these, and are passed over fast)
_AMBIGUOUS: Final = re.compile(
    rf'"(?=[-+0-9.tTfFnN~<=!&*"])'
    rf'(?:(?P<key>{_RESOLVED})"\s*:|(?!{_WRITTEN_AS_JSON})(?P<value>{_RESOLVED})"|\*|"\s*:)',
    re.VERBOSE,
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
    if os.environ.get(ENVIRONMENT) == "ruamel" or not _proven(text):
        return None
    if not text.endswith("\n") and ("|" in text or ">" in text):
        return None  # rapidyaml ends a last block scalar with a line break the text lacks
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return None
    try:
        import ryml
    except ImportError:  # no wheel for this platform: ruamel.yaml reads every text
        return None
    with _quiet():
        try:
            buffer = bytearray(raw)
            tree = ryml.parse_in_place(buffer)
            return _documents(Source(ryml, raw, buffer, tree), text, limits, stop_at)
        except (_Unproven, ValueError, RecursionError, ryml.ExceptionBasic):
            return None


_null: int | None = None
"""The null device, opened once, which the standard error stream is while rapidyaml parses."""


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Close the standard error stream, where rapidyaml writes what it refuses before it raises."""
    global _null
    sys.stderr.flush()
    try:
        saved = os.dup(2)
        if _null is None:
            _null = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no standard error stream to close
        yield
        return
    try:
        os.dup2(_null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _proven(text: str) -> bool:
    r"""Whether ``text`` holds none of what rapidyaml may read differently.

    Anywhere: a tab, a line break other than ``\n``, a byte-order mark, a
    character ruamel.yaml refuses (any that Python does not print: a few it
    accepts too), an escape of half a surrogate pair (``\ud800``), a
    directive, a document end marker.  Where a token may
    start: see :data:`_HAZARDS`.  Each is looked for with ``str`` methods,
    which read a text much faster than a regular expression.
    """
    if not text.replace("\n", " ").isprintable():
        return False
    if ("\\u" in text or "\\U" in text) and _SURROGATE_ESCAPE.search(text):
        return False  # rapidyaml writes half a surrogate pair as bytes that are not UTF-8
    for marker in ("%", "..."):
        if text.startswith(marker) or "\n" + marker in text:
            return False
    if text.startswith(":") and _hazard_at(text, 0):
        return False
    # a ``:`` is a hazard only after a character a token starts after: look for the pairs
    for hazard in (*_HAZARDS.replace(":", ""), *(start + ":" for start in _TOKEN_STARTS)):
        at = text.find(hazard)
        while at >= 0:
            if _hazard_at(text, at + len(hazard) - 1):
                return False
            at = text.find(hazard, at + 1)
    return True


def _hazard_at(text: str, at: int) -> bool:
    """Whether the hazard at ``at`` may start a token (not in a comment, see :data:`_HAZARDS`)."""
    if at > 0 and text[at - 1] not in _TOKEN_STARTS:
        return False  # within a scalar
    after = text[at + 1 : at + 2]
    char = text[at]
    if char in "?:" and after in ("", " ", "\n"):
        return False  # an indicator: a key or a value
    if char in "&*" and _NAMED.match(text, at + 1):
        return False  # an anchor or alias named as ruamel.yaml names them
    # in a comment: after a ``#`` starting the line or after a space, to the end of a line
    # holding no quote (the ``#`` may be within quotes, then so is the hazard)
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[start : len(text) if end < 0 else end]
    sharp = line.find("#")
    while 0 <= sharp < at - start:
        if (sharp == 0 or line[sharp - 1] == " ") and not any(q in line[sharp:] for q in "'\""):
            return False
        sharp = line.find("#", sharp + 1)
    return True


def _documents(
    source: Source, text: str, limits: Limits, stop_at: int | None
) -> list[Native] | None:
    ryml, tree = source.ryml, source.tree
    root = tree.root_id()
    if tree.is_stream(root):
        nodes = list(ryml.children(tree, root))
    elif tree.type_has_any(root, ryml.MAP | ryml.SEQ | ryml.VAL):
        nodes = [root]
    else:  # nothing but comments: ruamel.yaml says it is empty
        return None
    if len(nodes) > limits.max_documents:
        return None
    lines = _starts(text, len(nodes))
    if lines is None:
        return None
    limit = limits.written_values_for(len(text))
    count_values = tree.size() > limit
    documents: list[Native] = []
    quoted: dict[str, bool] = {}
    flow = "{" in text
    for index, node in enumerate(nodes):
        written = ryml.emit_json(tree, node)
        if written is None or not _quoted(written, text, quoted):
            return None
        if flow and _COMMENT_LIKE.search(written):
            return None  # rapidyaml reads ``{a: b #c}``'s comment into the scalar
        data = json.loads(written, object_pairs_hook=_mapping, parse_float=_float, strict=False)
        if data is None:  # an empty document, passed over
            continue
        if count_values and _values(data) > limit:
            return None
        first = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else None
        start = Position(1, 1) if index == 0 else Position(first, 1)
        documents.append(
            Native(data, start, first, following, functools.partial(source.place, node))
        )
        if stop_at is not None and len(documents) >= stop_at:
            break
    return documents or None


def _starts(text: str, documents: int) -> list[int] | None:
    """The line each document's text starts on (the first at line 1); ``None`` if unsure.

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
            markers.append(line)
        at = text.find("\n---", start + 1)
    if _FIRST_MARKED.match(text):
        markers = markers[1:]
    if len(markers) != documents - 1:
        return None
    return [1, *markers]


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


def _mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) < len(pairs):  # a key written twice: ruamel.yaml says where
        raise _Unproven
    return mapping


def _float(written: str) -> float:
    # rapidyaml writes ``.1e1`` as a number, which YAML 1.2 reads as a string
    if "e" in written or "E" in written:
        raise _Unproven
    return float(written)


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
