"""Reading YAML: every document of a stream, where each value is, every failure a ``FileError``.

YAML is read as YAML 1.2 with the safe loader (no tag builds a Python
object).  The documents of a stream are composed one at a time, and each is
walked before it is built: scalars are built one by one, so that one the safe
constructor cannot build (``!!int abc``, ``!!bool 2``, a 13th month) is
reported where it is; a key given twice and a key that is a mapping or a
sequence (``? {a: 1}``), which no config and no Kubernetes object can hold,
are refused at their place.  Whatever else the YAML library raises on hostile
text becomes a ``syntax`` error at the document it was reading.

A text is read by rapidyaml first, where it is installed and the text is
known to read alike (:mod:`estconf.io._yaml_native`), at the speed of JSON;
every other text, and every text with an error, by ruamel.yaml.

A text the library cannot read that holds ``{{ ... }}`` marks is a Helm (Go)
template (:func:`estconf.io.kinds.helm_template` tells one), and is refused
as one (``helm_template``): it is YAML only once rendered.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from estconf.io._positions import Loc, Position, Span, position
from estconf.io.checks import (
    INT_DIGITS,
    Limits,
    parser_depth,
    too_deep,
    too_dense,
    too_many_digits,
)
from estconf.io.errors import ConfigFileError, FileError, error, refused
from estconf.io.kinds import helm_template

if TYPE_CHECKING:
    from ruamel.yaml.constructor import SafeConstructor
    from ruamel.yaml.nodes import Node

__all__ = ["HELM_TEMPLATE", "Read", "read_documents"]

_MERGE_TAG: Final = "tag:yaml.org,2002:merge"
_INT_TAG: Final = "tag:yaml.org,2002:int"
_NULL_TAG: Final = "tag:yaml.org,2002:null"
_POWER_OF_TWO: Final = ("0x", "0o", "0b")
_COLLECTION_TAGS: Final = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("map", "seq", "set", "omap", "pairs")
)

HELM_TEMPLATE: Final = "helm_template"
"""The code of a text that is a Helm template, not YAML."""

# what YAML refuses in a template; other failures (depth, limits) are said as they are
_TEMPLATE_FAILURES: Final = frozenset({"syntax", "duplicate_key", "tag"})


class Read(NamedTuple):
    """One document read: its data, where each of its values is, and where it starts."""

    data: Any
    spans: Mapping[Loc, Span]
    start: Position


def read_documents(text: str, file: str, limits: Limits, stop_at: int | None = None) -> list[Read]:
    """Read the documents of a YAML stream that are not empty, at most ``stop_at`` of them.

    An empty document (nothing but comments, or ``null``) is passed over, as
    ``kubectl`` passes it over; it counts towards ``limits.max_documents``.

    Raises:
        ConfigFileError: the text is not YAML (or is a Helm template), a
            document holds a value that cannot be built, is nested too deep
            to read, or the stream holds more documents than the limit.
    """
    try:
        return _native(text, file, limits, stop_at) or _read(text, file, limits, stop_at)
    except ConfigFileError as exc:
        template = helm_template(text)
        if template is None or not {e.code for e in exc.errors} <= _TEMPLATE_FAILURES:
            raise
        raise refused(
            file,
            "helm_template",
            f"a Helm template ({template[0][:40]}), not YAML: render it first and check "
            "the manifests it renders (helm template CHART | estconf validate "
            "--input-format yaml -)",
            position(text, template.start()),
        ) from None


def _native(text: str, file: str, limits: Limits, stop_at: int | None) -> list[Read] | None:
    """The documents rapidyaml reads as ruamel.yaml does, where each is found when asked."""
    from estconf.io._yaml_native import LazySpans, read

    documents = read(text, limits, stop_at)
    if documents is None:
        return None
    split: list[list[str]] = []  # the text's lines, split when a document is first read again

    def spans(
        first: int, last: int | None, place: Callable[[list[Loc]], dict[Loc, Span] | None]
    ) -> LazySpans:
        # the lines the document is alone in, and the next one's ``---`` (which ends it where
        # the whole text ends it), read again when a value is to be placed
        def find() -> dict[Loc, Span]:
            if not split:
                split.append(text.split("\n"))
            lines = split[0]
            for alone in (lines[first - 1 : last], lines[first - 1 : last and last - 1]):
                try:
                    return _spans_of("\n".join(alone), first - 1, file, limits)
                except Exception:  # the next document's first line may be bad: without it
                    continue
            return {}  # not placed rather than a traceback

        return LazySpans(find, place)

    return [
        Read(
            document.data,
            spans(document.first_line, document.last_line, document.place),
            document.start,
        )
        for document in documents
    ]


def _spans_of(text: str, lines_before: int, file: str, limits: Limits) -> dict[Loc, Span]:
    """Where each value of the one document of ``text`` is, ``lines_before`` lines down."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.max_depth = parser_depth(limits.max_depth)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a reused anchor name is valid YAML
        node = next(iter(yaml.compose_all(text)))
    walk = _Walk(yaml.constructor, file)
    walk.node(node, (), None)
    return {
        path: Span(
            None if key is None else Position(key.line + lines_before, key.column),
            Position(value.line + lines_before, value.column),
        )
        for path, (key, value) in walk.spans.items()
    }


def _read(text: str, file: str, limits: Limits, stop_at: int | None) -> list[Read]:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from estconf.io._yaml_composer import TooManyValues, ValueCountingComposer

    yaml = YAML(typ="safe", pure=True)
    yaml.max_depth = parser_depth(limits.max_depth)
    yaml.Composer = ValueCountingComposer
    yaml.composer.limit = limits.written_values_for(len(text))
    documents: list[Read] = []
    count = 0
    start = Position(1, 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a reused anchor name is valid YAML
            for node in yaml.compose_all(text):
                count += 1
                if count > limits.max_documents:
                    raise refused(
                        file,
                        "too_many_documents",
                        f"the stream holds more than {limits.max_documents} YAML documents",
                        start,
                    )
                if not _empty(node):
                    documents.append(_document(yaml.constructor, node, file, start))
                    if stop_at is not None and len(documents) >= stop_at:
                        break
                following = yaml.parser.peek_event()
                start = Position(following.start_mark.line + 1, following.start_mark.column + 1)
    except ConfigFileError:
        raise
    except TooManyValues as exc:
        raise too_dense(file, exc.limit, Position(exc.mark.line + 1, exc.mark.column + 1)) from None
    except RecursionError:
        raise ConfigFileError(file, [too_deep(file, None, position=start)]) from None
    except MarkedYAMLError as exc:
        raise _marked_error(exc, file, limits.max_depth) from None
    except YAMLError as exc:
        raise refused(file, "syntax", f"invalid YAML: {exc}", start) from None
    except Exception as exc:  # the library raises what Python raises on bad text
        raise refused(file, "syntax", f"invalid YAML: {exc}", start) from None
    if not documents:
        raise refused(file, "empty", "the file holds no YAML document")
    return documents


def _empty(node: Node) -> bool:
    """Whether a document is empty: nothing, comments only, or ``null``."""
    from ruamel.yaml.nodes import ScalarNode

    return isinstance(node, ScalarNode) and node.tag == _NULL_TAG


def _document(constructor: SafeConstructor, node: Node, file: str, start: Position) -> Read:
    """Build one composed YAML document, recording where each of its values is."""
    walk = _Walk(constructor, file)
    walk.node(node, (), None)
    if walk.errors:
        raise ConfigFileError(file, walk.errors)
    return Read(constructor.construct_document(node), walk.spans, start)


def _marked_error(exc: Any, file: str, max_depth: int) -> ConfigFileError:
    from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError

    mark = exc.problem_mark or exc.context_mark
    at = None if mark is None else Position(mark.line + 1, mark.column + 1)
    problem = exc.problem or "invalid YAML"
    if type(exc).__name__ == "MaxDepthExceededError":
        return ConfigFileError(file, [too_deep(file, max_depth, position=at)])
    if isinstance(exc, DuplicateKeyError):
        return refused(file, "duplicate_key", f"duplicate key: {problem}", at)
    if isinstance(exc, ConstructorError) and "constructor for the tag" in problem:
        return refused(
            file,
            "tag",
            f"{problem}: only plain YAML values (mappings, sequences, strings, numbers, "
            "booleans, null) are read",
            at,
        )
    said = " ".join(part for part in (exc.context, exc.problem) if part)
    return refused(file, "syntax", f"invalid YAML: {said}" if said else "invalid YAML", at)


class _Walk:
    """Go over a composed YAML node graph: record spans, find repeated keys and bad scalars.

    Scalars are built here, one by one, so that a scalar the safe constructor
    cannot build (``!!int abc``, a 13th month, an integer too long) is
    reported where it is; building the document afterwards reuses them.
    Each mapping and sequence is walked once, however many aliases name it.
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
        except Exception as exc:  # the constructors raise what their types raise
            tag = str(node.tag).rpartition(":")[2]
            reason = "" if isinstance(exc, KeyError) else f": {exc}"  # a KeyError names the value
            self.errors.append(
                error(
                    self.file,
                    "syntax",
                    f"invalid YAML {tag} {str(node.value)[:40]!r}{reason}",
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
                if key_node.tag not in _COLLECTION_TAGS:  # the constructor refuses its tag
                    self.constructor.construct_object(key_node)
                what = "a mapping" if isinstance(key_node, MappingNode) else "a sequence"
                self.errors.append(
                    error(
                        self.file,
                        "syntax",
                        f"invalid YAML: a key is {what}; a key is a string (or a number, "
                        "a boolean, null)",
                        path,
                        position=_mark(key_node),
                    )
                )
                continue
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
