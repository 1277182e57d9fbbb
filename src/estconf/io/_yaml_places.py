"""Where rapidyaml found a scalar: its line and column, as ruamel.yaml gives them.

rapidyaml's tree holds no line and column, but each scalar it reads in place
is a slice of the text it was given: the scalar's offset is its address less
the text's.  A scalar is placed only where that is known to be ruamel.yaml's
place for it: a plain scalar written as it is read (on one line, at its
first character), a quoted one written as it is read (at its opening quote),
neither with an anchor or a tag before it.  Any other (a block scalar, a
scalar with escapes or over several lines, a mapping, a sequence) is not
placed here: ruamel.yaml reads the document again to place it.

The address of a scalar is read through the buffer protocol (``ctypes``),
which CPython has; elsewhere nothing is placed here.
"""

from __future__ import annotations

import ctypes
import functools
from bisect import bisect_right
from typing import Any

from estconf.io._positions import Loc, Position, Span

__all__ = ["Source", "bound"]


class _Buffer(ctypes.Structure):
    """CPython's ``Py_buffer``."""

    _fields_ = [
        ("buf", ctypes.c_void_p),
        ("obj", ctypes.py_object),
        ("len", ctypes.c_ssize_t),
        ("itemsize", ctypes.c_ssize_t),
        ("readonly", ctypes.c_int),
        ("ndim", ctypes.c_int),
        ("format", ctypes.c_char_p),
        ("shape", ctypes.c_void_p),
        ("strides", ctypes.c_void_p),
        ("suboffsets", ctypes.c_void_p),
        ("internal", ctypes.c_void_p),
    ]


_get_buffer: Any = getattr(ctypes, "pythonapi", None) and ctypes.pythonapi.PyObject_GetBuffer
_release_buffer: Any = _get_buffer and ctypes.pythonapi.PyBuffer_Release
if _get_buffer:  # CPython: the functions' arguments declared once (a buffer by its address)
    _get_buffer.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
    _release_buffer.argtypes = [ctypes.c_void_p]


class _Addresses:
    """Where the bytes of buffers are in memory, told by the buffer protocol."""

    def __init__(self) -> None:
        self._buffer = _Buffer()
        self._at = ctypes.addressof(self._buffer)

    def of(self, view: Any) -> int | None:
        """Where the bytes of ``view`` are, or ``None`` when that cannot be told."""
        if not _get_buffer or _get_buffer(view, self._at, 0) != 0:  # pragma: no cover - CPython
            return None
        address: int | None = self._buffer.buf
        _release_buffer(self._at)
        return address


def bound(ryml: Any, tree: Any, name: str) -> Any:
    """The tree's method ``name``, as rapidyaml's C function bound to it where it has one."""
    return functools.partial(method(ryml, name), tree)


def method(ryml: Any, name: str) -> Any:
    """The tree's method ``name``, called with the tree first: rapidyaml's C function if any."""
    function = getattr(getattr(ryml, "_ryml", None), f"Tree_{name}", None)
    return getattr(ryml.Tree, name) if function is None else function


_METHODS: dict[Any, tuple[Any, ...]] = {}
"""The methods a place asks of a tree, by the rapidyaml module they are of."""


class Source:
    """A text rapidyaml parsed in place: its bytes as written, its tree, its buffer."""

    def __init__(self, ryml: Any, raw: bytes, buffer: bytearray, tree: Any) -> None:
        self.ryml = ryml
        self.raw = raw
        self.buffer = buffer  # the tree's scalars are slices of it: kept while the tree is
        self.tree = tree
        self._addresses: _Addresses | None = None
        self._base: int | None = None
        self._lines: list[tuple[int, int]] = [(0, 1)]  # offsets placed, and their lines

    def _address(self, view: Any) -> int | None:
        if self._addresses is None:
            self._addresses = _Addresses()
            self._base = self._addresses.of(self.buffer)
        return self._addresses.of(view)

    def offset(self, view: Any) -> int | None:
        """Where the scalar ``view`` starts in the buffer; ``None`` if it is not in it."""
        at = self._address(view)
        if at is None or self._base is None:  # pragma: no cover - not CPython
            return None
        offset = at - self._base
        return offset if 0 <= offset <= len(self.buffer) - len(view) else None

    def place(self, document: int, paths: list[Loc]) -> dict[Loc, Span] | None:
        """The span of each of ``paths`` of a document, or ``None`` if one cannot be placed."""
        spans = {}
        for path in paths:
            span = self._span(document, path) if path else None
            if span is None:
                return None
            spans[path] = span
        return spans

    def _span(self, document: int, path: Loc) -> Span | None:
        ryml, tree = self.ryml, self.tree
        calls = _METHODS.get(ryml)
        if calls is None:
            calls = _METHODS[ryml] = tuple(
                method(ryml, name) for name in ("type", "find_child", "val")
            )
        kind_of, find_child, val = calls
        node = document
        for step in path:
            kind = kind_of(tree, node)
            if isinstance(step, str) and kind & ryml.MAP:
                node = find_child(tree, node, step.encode("utf-8"))
            elif isinstance(step, int) and kind & ryml.SEQ and step >= 0:
                node = tree.child(node, step) if step < tree.num_children(node) else ryml.NONE
            else:
                return None
            if node == ryml.NONE:
                return None
        kind = kind_of(tree, node)
        if kind & (ryml.MAP | ryml.SEQ) or not kind & ryml.VAL:
            return None  # a container, or a key without a value
        if kind & (ryml.VALANCH | ryml.VALTAG | ryml.VALREF):
            return None  # placed where the anchor or alias is, by ruamel.yaml
        value = self._scalar(val(tree, node), kind & ryml.VAL_PLAIN, kind & ryml.VALQUO)
        if value is None:
            return None
        if not kind & ryml.KEY:  # an item of a sequence
            return Span(None, value)
        if kind & (ryml.KEYANCH | ryml.KEYTAG):
            return None
        key = self._scalar(tree.key(node), kind & ryml.KEY_PLAIN, kind & ryml.KEYQUO)
        return None if key is None else Span(key, value)

    def _scalar(self, view: Any, plain: int, quoted: int) -> Position | None:
        """Where a scalar read as it is written starts (at its quote, if quoted)."""
        if view is None or not len(view) or not (plain or quoted):
            return None
        at = self._address(view)
        if at is None or self._base is None:
            return None
        offset = at - self._base
        written = bytes(view)
        if offset < 0 or self.raw[offset : offset + len(written)] != written:
            return None  # filtered (escapes, folded lines) or not in the text
        if not plain:
            offset -= 1
            quote = self.raw[offset : offset + 1]
            # a block scalar is quoted too, for rapidyaml; its first character is no quote
            if quote not in (b"'", b'"') or self.raw[offset + 1 + len(written) :][:1] != quote:
                return None
        elif b"\n" in written:
            return None
        return self._position(offset)

    def _position(self, offset: int) -> Position:
        """The line and column (in characters) of byte ``offset``.

        Lines are counted from the nearest offset already placed before it:
        a document's values are asked for in order, each near the last.
        """
        lines = self._lines
        nearest = bisect_right(lines, (offset, 1 << 62)) - 1
        known, line = lines[nearest]
        line += self.raw.count(b"\n", known, offset)
        start = self.raw.rfind(b"\n", 0, offset) + 1
        if offset != known:  # kept in order, for the next offset to count from
            lines.insert(nearest + 1, (offset, line))
        return Position(line, len(self.raw[start:offset].decode("utf-8")) + 1)
