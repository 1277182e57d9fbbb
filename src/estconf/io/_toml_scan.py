"""Where each value of a TOML document is: a scan of text that the TOML parser accepted.

The standard library's TOML parser gives data without positions.  This scan
walks the same text once more and records, for every path into the data, the
offset of its key and of its value: table headers (``[a.b]``, ``[[a]]``),
keys (bare, quoted, dotted), and the items of arrays and inline tables.  It
runs only on text already parsed, for a file with errors, so it need not
report syntax errors of its own.
"""

from __future__ import annotations

from estconf.io._positions import Loc

__all__ = ["scan"]

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}

Offsets = dict[Loc, tuple[int | None, int]]


class _Scan:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.offsets: Offsets = {}
        self.tables: dict[Loc, int] = {}  # how many [[x]] tables each array has

    def record(self, path: Loc, key: int | None, value: int) -> None:
        self.offsets.setdefault(path, (key, value))

    def peek(self, count: int = 1) -> str:
        return self.text[self.at : self.at + count]

    def blank(self, newlines: bool) -> None:
        """Skip white space and comments (and newlines, if ``newlines``)."""
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char in " \t" or (newlines and char in "\r\n"):
                self.at += 1
            elif char == "#":
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
            else:
                return

    def string(self) -> str:
        """Read a string at the cursor and return its value (for keys)."""
        text = self.text
        quote = text[self.at]
        multi = text.startswith(quote * 3, self.at)
        delimiter = quote * 3 if multi else quote
        self.at += len(delimiter)
        value = []
        while self.at < len(text):
            if text.startswith(delimiter, self.at):
                self.at += len(delimiter)
                while multi and self.peek() == quote:  # up to two quotes may end the content
                    value.append(quote)
                    self.at += 1
                return "".join(value)
            char = text[self.at]
            if char == "\\" and quote == '"':
                value.append(self._escape())
                continue
            value.append(char)
            self.at += 1
        return "".join(value)

    def _escape(self) -> str:
        text = self.text
        code = text[self.at + 1 : self.at + 2]
        if code in _ESCAPES:
            self.at += 2
            return _ESCAPES[code]
        if code in ("u", "U"):
            size = 4 if code == "u" else 8
            digits = text[self.at + 2 : self.at + 2 + size]
            self.at += 2 + size
            return chr(int(digits, 16))
        self.at += 1  # a line-ending backslash: the white space after it is dropped
        while self.at < len(text) and text[self.at] in " \t\r\n":
            self.at += 1
        return ""

    def key(self) -> list[tuple[str, int]]:
        """Read a (dotted) key; return each part with its offset."""
        parts = []
        while True:
            self.blank(newlines=False)
            start = self.at
            if self.peek() in ('"', "'"):
                parts.append((self.string(), start))
            else:
                while self.at < len(self.text) and self.text[self.at] in _BARE:
                    self.at += 1
                parts.append((self.text[start : self.at], start))
            self.blank(newlines=False)
            if self.peek() != ".":
                return parts
            self.at += 1

    def value(self, path: Loc) -> None:
        """Skip the value at the cursor, recording the places of what it holds."""
        char = self.peek()
        if char == "[":
            self.at += 1
            index = 0
            while True:
                self.blank(newlines=True)
                if self.peek() in ("]", ""):
                    self.at += 1
                    return
                self.record((*path, index), None, self.at)
                self.value((*path, index))
                self.blank(newlines=True)
                if self.peek() == ",":
                    self.at += 1
                index += 1
        elif char == "{":
            self.at += 1
            while True:
                self.blank(newlines=False)
                if self.peek() in ("}", ""):
                    self.at += 1
                    return
                self.pair(path)
                self.blank(newlines=False)
                if self.peek() == ",":
                    self.at += 1
        elif char in ('"', "'"):
            self.string()
        else:
            text = self.text
            while self.at < len(text) and text[self.at] not in ",]}#\r\n":
                self.at += 1

    def pair(self, table: Loc) -> None:
        """Read ``key = value`` in ``table``."""
        parts = self.key()
        path = table
        for name, start in parts:
            path = (*path, name)
            self.record(path, start, start)
        self.blank(newlines=False)
        self.at += 1  # =
        self.blank(newlines=False)
        key_offset = parts[-1][1]
        self.offsets[path] = (key_offset, self.at)
        self.value(path)

    def header(self) -> Loc:
        """Read ``[a.b]`` or ``[[a.b]]``; return the table's path."""
        start = self.at
        array = self.text.startswith("[[", self.at)
        self.at += 2 if array else 1
        parts = self.key()
        self.at += 2 if array else 1
        path: Loc = ()
        for name, offset in parts[:-1]:
            path = (*path, name)
            if path in self.tables:
                path = (*path, self.tables[path] - 1)
            self.record(path, offset, start)
        name, offset = parts[-1]
        path = (*path, name)
        if array:
            count = self.tables.get(path, 0)
            self.tables[path] = count + 1
            self.record(path, offset, start)
            path = (*path, count)
            self.record(path, None, start)
        else:
            self.record(path, offset, start)
        return path

    def document(self) -> Offsets:
        table: Loc = ()
        self.record((), None, 0)
        while True:
            self.blank(newlines=True)
            if self.at >= len(self.text):
                return self.offsets
            if self.peek() == "[":
                table = self.header()
            else:
                self.pair(table)


def scan(text: str) -> Offsets:
    """Return the offsets of the key and the value of every path of the TOML ``text``.

    A table's value offset is that of its header; an array item's key is ``None``.
    """
    return _Scan(text).document()
