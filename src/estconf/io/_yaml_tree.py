"""A document built from rapidyaml's tree, node by node, as ruamel.yaml's safe loader builds it.

rapidyaml's JSON (the fast path of :mod:`estconf.io._yaml_native`) does not
say how a scalar was written, and writes an alias as a string.  The tree
does: :func:`build` walks it, types each plain scalar as YAML 1.2 does
(:mod:`estconf.io._yaml_plain`), and expands each alias to the value its
anchor names, the same object each time (as the safe loader builds it).
The expanded values are counted as they are met, against the values limit,
so that a text of aliases of aliases (a billion laughs) costs no more than
its length to refuse.

What it cannot build as ruamel.yaml does raises :class:`Unbuilt`: a tag, a
key that is not a string (``1:``, ``<<``, an alias, null), an anchor on a
key, an alias of an anchor not yet defined (or defined in another
document) or being built (recursive), a key written twice, a key of 1000
bytes or more (ruamel.yaml refuses an implicit key of over 1024
characters), a plain scalar holding a comment (rapidyaml reads ``{a: b #c}``
so), nesting deeper than rapidyaml writes, more values than the limits
allow, and a character :mod:`estconf.io._yaml_hazards` found that is not
within a scalar.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Final

from estconf.io._yaml_hazards import INSIDE, NOT_PLAIN, Hazard
from estconf.io._yaml_places import Source, bound
from estconf.io._yaml_plain import Unresolved, resolve

__all__ = ["DEEPEST", "Unbuilt", "build"]

DEEPEST: Final = 64
"""The deepest nesting rapidyaml writes as JSON; deeper is read by ruamel.yaml."""
_NOT_PLAIN: Final = frozenset("[]{},#|>'\"%@`!&*")
"""The characters a plain scalar cannot start with, as ruamel.yaml reads them."""
_LONGEST_KEY: Final = 1000
"""The longest key (in bytes) read natively; ruamel.yaml refuses implicit keys over 1024."""


class Unbuilt(Exception):
    """The document holds what is not built here as ruamel.yaml builds it."""


def build(
    source: Source, node: int, hazards: list[Hazard], written: int, expanded: int
) -> tuple[Any, int]:
    """The data of the document at ``node``, and how many values it holds as written.

    ``hazards`` are those of the document's text (byte offsets), each to be
    found within a scalar; ``written`` and ``expanded`` are the most values
    the document may hold as written and once its aliases are expanded.

    Raises:
        Unbuilt: the document is to be read by ruamel.yaml.
    """
    builder = _Builder(source, bool(hazards))
    data, _ = builder.node(node, 0)
    if builder.written > written or builder.expanded > expanded:
        raise Unbuilt
    if hazards:
        _covered(hazards, builder.scalars)
    return data, builder.written


class _Builder:
    def __init__(self, source: Source, ranges: bool) -> None:
        ryml, tree = source.ryml, source.tree
        self.source = source
        self.ranges = ranges
        self.scalars: list[tuple[int, int, bool]] = []
        """Where each scalar is in the buffer, and whether it is plain (when hazards are)."""
        self.anchors: dict[bytes, tuple[Any, int]] = {}
        self.building: set[bytes] = set()
        self.written = 0
        self.expanded = 0
        self.none = ryml.NONE
        self.unbuilt = ryml.KEYTAG | ryml.VALTAG | ryml.KEYREF | ryml.KEYANCH
        self.flags = (ryml.VALREF, ryml.VALANCH, ryml.MAP, ryml.SEQ, ryml.VAL_PLAIN, ryml.KEY_PLAIN)
        self.type, self.key, self.val, self.first_child, self.next_sibling = (
            bound(ryml, tree, name)
            for name in ("type", "key", "val", "first_child", "next_sibling")
        )
        self.val_ref = bound(ryml, tree, "val_ref")
        self.val_anchor = bound(ryml, tree, "val_anchor")

    def node(self, node: int, depth: int, kind: int | None = None) -> tuple[Any, int]:
        """A node's value and how many values it expands to (itself and all within it)."""
        if kind is None:
            kind = self.type(node)
        ref, anchor, mapping, sequence, plain, _ = self.flags
        if kind & self.unbuilt or depth > DEEPEST:
            raise Unbuilt
        self.written += 1
        if kind & ref:
            name = bytes(self.val_ref(node))
            if name not in self.anchors or name in self.building:
                raise Unbuilt  # undefined here (ruamel.yaml says so), or recursive
            alias, count = self.anchors[name]
            self.expanded += count
            return alias, count
        anchored = bytes(self.val_anchor(node)) if kind & anchor else None
        if anchored is not None:
            self.building.add(anchored)
        value: Any
        if kind & mapping:
            value, count = self.mapping(node, depth)
        elif kind & sequence:
            value, count = self.sequence(node, depth)
        else:
            value, count = self.scalar(self.val(node), bool(kind & plain)), 1
            self.expanded += 1
        if anchored is not None:
            self.building.discard(anchored)
            self.anchors[anchored] = (value, count)
        return value, count

    def sequence(self, node: int, depth: int) -> tuple[list[Any], int]:
        value: list[Any] = []
        count = 1
        self.expanded += 1
        child = self.first_child(node)
        while child != self.none:
            item, counted = self.node(child, depth + 1)
            value.append(item)
            count += counted
            child = self.next_sibling(child)
        return value, count

    def mapping(self, node: int, depth: int) -> tuple[dict[str, Any], int]:
        plain = self.flags[5]
        value: dict[str, Any] = {}
        count = 1
        self.expanded += 1
        child = self.first_child(node)
        while child != self.none:
            view = self.key(child)
            if view is None or len(view) >= _LONGEST_KEY:
                raise Unbuilt  # a null key; a key ruamel.yaml may refuse as too long
            kind = self.type(child)
            key = self.scalar(view, bool(kind & plain))
            if type(key) is not str or key in value:
                raise Unbuilt  # a key of another type; a key written twice (ruamel.yaml says)
            value[key], counted = self.node(child, depth + 1, kind)
            count += counted
            child = self.next_sibling(child)
        return value, count

    def scalar(self, view: Any, plain: bool) -> Any:
        if view is None:  # nothing written: null
            return None
        if self.ranges:
            start = self.source.offset(view)
            if start is not None:
                self.scalars.append((start, start + len(view), plain))
        try:
            text = str(view, "utf-8")
        except UnicodeDecodeError:  # an escape of half a surrogate pair
            raise Unbuilt from None
        if not plain:
            return text
        if text[:1] in _NOT_PLAIN:
            raise Unbuilt  # what ruamel.yaml reads as an indicator (``a: }``, ``- ]``)
        if "#" in text and (" #" in text or "\t#" in text):
            raise Unbuilt  # a comment read into the scalar
        try:
            return resolve(text)
        except Unresolved:
            raise Unbuilt from None


def _covered(hazards: list[Hazard], scalars: list[tuple[int, int, bool]]) -> None:
    """Check that each hazard is within a scalar (after the first character of a plain one)."""
    scalars.sort()
    starts = [start for start, _, _ in scalars]
    for at, kind in hazards:
        if kind not in (INSIDE, NOT_PLAIN):
            continue
        index = bisect_right(starts, at) - 1
        # scalars do not overlap: the one starting last at or before ``at`` holds it, if any
        if index < 0:
            raise Unbuilt
        start, end, plain = scalars[index]
        if not start <= at < end or (plain and (kind == NOT_PLAIN or at == start)):
            raise Unbuilt
