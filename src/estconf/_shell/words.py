r"""The words of a shell script, read as a POSIX shell splits them, without running it.

Single quotes keep their text as it is and may span lines; double quotes may
span lines, and a backslash in them escapes only ``$``, a backquote, ``"``, a
backslash and a newline; outside quotes a backslash keeps the next
character, and a backslash before a newline joins the lines.  Nothing is
expanded: a word with ``$VAR``, ``${...}``, ``$(...)``, a backquote or ``~``
is known only when the script runs, and says so (:class:`Expansion`).  What
``$(...)`` and the like hold is passed over in one pass, its nesting counted
on a stack, so that a word is read in time linear in its length.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Final, Literal

__all__ = [
    "Assignment",
    "Expansion",
    "ExpansionKind",
    "ShellSyntaxError",
    "Word",
    "Words",
    "not_closed",
    "position",
]

ExpansionKind = Literal[
    "command", "parameter", "tilde", "dollar_quote", "brace", "append", "environment"
]
"""What makes a value known only at run time: a command substitution (``$(...)``,
a backquote, ``$((...))``), a parameter (``$VAR``, ``${...}``), a tilde, ``$'...'``
or ``$"..."`` (read otherwise by each shell), braces bash expands, ``+=``, or (in an
env file) a name given without a value, taken from the environment."""


@dataclass(frozen=True)
class Expansion:
    """What a value holds that the shell expands when the script runs.

    Attributes:
        offset: where it starts in the text.
        text: how it is written, cut short past 60 characters.
        kind: what it is (:data:`ExpansionKind`).
    """

    offset: int
    text: str
    kind: ExpansionKind


class ShellSyntaxError(ValueError):
    """Text the shell cannot read: a quote, ``$(`` or ``${`` that nothing closes.

    Attributes:
        offset: where the construct that is not closed starts in the text.
        message: what is wrong, in one sentence.
        hint: how to fix it.
    """

    def __init__(self, offset: int, message: str, hint: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class Assignment:
    """One value a script or env file assigns to a variable, and where each character is.

    Attributes:
        offset: where the variable's name starts in the text.
        value_offset: where the value starts, just after ``=``.
        value: the value, its quotes removed (what the variable holds);
            incomplete when ``expansion`` is set.
        expansion: the first part of the value the shell expands when it
            runs, or None.
        quoted: whether the value is written with quotes or backslashes.
    """

    offset: int
    value_offset: int
    value: str
    expansion: Expansion | None = None
    quoted: bool = False
    starts: array[int] = field(default_factory=lambda: array("q"), repr=False, compare=False)
    """The index in ``value`` where each run of characters copied from one place begins."""
    origins: array[int] = field(default_factory=lambda: array("q"), repr=False, compare=False)
    """Where in the text each run of ``starts`` comes from."""

    def origin(self, index: int) -> int:
        """Where in the text the character ``index`` of the value is written.

        The end of the value (``index == len(value)``) is just after its
        last character: the closing quote, when it has one.
        """
        if not self.starts:
            return self.value_offset
        run = max(bisect_right(self.starts, index) - 1, 0)
        return self.origins[run] + index - self.starts[run]


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


# -- words -----------------------------------------------------------------------------

_ASSIGNMENT_WORD: Final = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLAIN: Final = re.compile(r"[^ \t\n;&|()<>'\"\\$`~:{},]+")
_IN_DOUBLE_QUOTES: Final = re.compile(r'["\\$`]')
_TILDE_PREFIX: Final = re.compile(r"~[A-Za-z0-9._-]*")
_METACHARACTERS: Final = frozenset(" \t\n;&|()<>")
_SPECIAL_PARAMETERS: Final = frozenset("@*#?$!-0123456789")
# what ends or nests inside each construct being passed over: a command substitution
# (``)``), a parameter expansion (``}``), double quotes, backquotes
_PASSED_OVER: Final = {
    ")": re.compile(r"[\\'\"`$()#]"),
    "}": re.compile(r"[\\'\"`$}]"),
    '"': re.compile(r'[\\"`$]'),
    "`": re.compile(r"[\\`]"),
}
_OPENERS: Final = {")": "$(", "}": "${", '"': '"', "`": "`"}
_SHOWN: Final = 60


@dataclass
class Word:
    """A word being read: its value, where each of its characters is, what it expands."""

    start: int
    name: str | None = None
    append: bool = False
    value_offset: int = 0
    pieces: list[str] = field(default_factory=list)
    length: int = 0
    starts: array[int] = field(default_factory=lambda: array("q"))
    origins: array[int] = field(default_factory=lambda: array("q"))
    expansion: Expansion | None = None
    quoted: bool = False
    braces: int = 0
    """0, 1 after an unquoted ``{``, 2 after a ``,`` past it, 3 after a ``}`` past that."""
    brace_at: int = 0
    """Where the first unquoted ``{`` is."""
    end: int = 0
    """Where the word ends, once read."""

    def extend(self, piece: str, origin: int) -> None:
        """Add ``piece``, written from ``origin`` on in the text."""
        if not piece:
            return
        if not self.starts or self.origins[-1] + self.length - self.starts[-1] != origin:
            self.starts.append(self.length)
            self.origins.append(origin)
        self.pieces.append(piece)
        self.length += len(piece)

    def expands(self, text: str, start: int, end: int, kind: ExpansionKind) -> None:
        """Note the expansion ``text[start:end]``, if it is the word's first."""
        if self.expansion is None:
            shown = text[start:end]
            if len(shown) > _SHOWN:
                shown = shown[:_SHOWN] + "..."
            self.expansion = Expansion(start, shown, kind)

    @property
    def value(self) -> str:
        return "".join(self.pieces)

    def assignment(self) -> Assignment:
        """The assignment this word, read as ``NAME=value``, makes."""
        return Assignment(
            offset=self.start,
            value_offset=self.value_offset,
            value=self.value,
            expansion=self.expansion,
            quoted=self.quoted,
            starts=self.starts,
            origins=self.origins,
        )

    @property
    def literal(self) -> str | None:
        """The word as written when nothing in it is quoted or expanded (a command's name)."""
        if self.quoted or self.expansion is not None or self.name is not None:
            return None
        return self.value


class Words:
    """Reads the words of a text, one at a time, from any offset."""

    def __init__(self, text: str) -> None:
        self.text = text

    def word(self, start: int, *, assignment: bool) -> tuple[Word, int]:
        """The word starting at ``start``, and the offset just after it.

        With ``assignment``, a word that starts ``NAME=`` is read as an
        assignment: a ``~`` after its ``=`` or after a ``:`` is a tilde expansion.
        """
        text = self.text
        size = len(text)
        word = Word(start)
        i = start
        match = _ASSIGNMENT_WORD.match(text, i) if assignment else None
        if match is not None:
            word.name, word.append = match[1], bool(match[2])
            i = word.value_offset = match.end()
            if word.append:
                word.expands(text, match.start(2), i, "append")
        tilde_at = i if match is not None else -1
        while i < size:
            char = text[i]
            if char in _METACHARACTERS:
                break
            if char == "'":
                end = text.find("'", i + 1)
                if end < 0:
                    raise not_closed(i, "'")
                word.extend(text[i + 1 : end], i + 1)
                word.quoted = True
                i = end + 1
            elif char == '"':
                i = self._double_quoted(word, i)
                word.quoted = True
            elif char == "\\":
                if i + 1 == size:  # a backslash that ends the text stays, as in bash
                    word.extend("\\", i)
                    i += 1
                elif text[i + 1] == "\n":
                    i += 2
                else:
                    word.extend(text[i + 1], i + 1)
                    word.quoted = True
                    i += 2
            elif char == "$":
                i = self._dollar(word, i, quoted=False)
            elif char == "`":
                end = self.passed_over(i, i + 1, "`")
                word.expands(text, i, end, "command")
                i = end
            elif char == "~" and i == tilde_at:
                prefix = _TILDE_PREFIX.match(text, i)
                assert prefix is not None
                end = prefix.end()
                if end == size or text[end] in "/:" or text[end] in _METACHARACTERS:
                    word.expands(text, i, end, "tilde")
                    i = end
                else:
                    word.extend("~", i)
                    i += 1
            else:
                plain = _PLAIN.match(text, i)
                if plain is not None:
                    word.extend(plain[0], i)
                    i = plain.end()
                    continue
                word.extend(char, i)  # one of ~ : { } ,
                if char == ":" and match is not None:
                    tilde_at = i + 1
                elif char == "{" and word.braces == 0:
                    word.braces, word.brace_at = 1, i
                elif (char, word.braces) in ((",", 1), ("}", 2)):
                    word.braces += 1
                i += 1
        word.end = i
        return word, i

    def _double_quoted(self, word: Word, start: int) -> int:
        """Read ``"..."`` from its opening quote into ``word``; the offset after it."""
        text = self.text
        i = start + 1
        while True:
            special = _IN_DOUBLE_QUOTES.search(text, i)
            if special is None:
                raise not_closed(start, '"')
            at = special.start()
            word.extend(text[i:at], i)
            char = text[at]
            if char == '"':
                return at + 1
            if char == "\\":
                escaped = text[at + 1 : at + 2]
                if not escaped:
                    raise not_closed(start, '"')
                if escaped == "\n":
                    i = at + 2
                elif escaped in '$`"\\':
                    word.extend(escaped, at + 1)
                    i = at + 2
                else:  # the backslash stays, and the next character is read as it is
                    word.extend("\\", at)
                    i = at + 1
            elif char == "$":
                i = self._dollar(word, at, quoted=True)
            else:
                end = self.passed_over(at, at + 1, "`")
                word.expands(text, at, end, "command")
                i = end

    def _dollar(self, word: Word, at: int, *, quoted: bool) -> int:
        """Read what starts with the ``$`` at ``at``; the offset after it."""
        text = self.text
        after = at + 1
        while text.startswith("\\\n", after):  # the shell joins the lines first: $\ then (
            after += 2
        following = text[after : after + 1]
        if following == "(":
            end = self.passed_over(at, after + 1, ")")
            word.expands(text, at, end, "command")
            return end
        if following == "{":
            end = self.passed_over(at, after + 1, "}")
            word.expands(text, at, end, "parameter")
            return end
        name = _NAME.match(text, after)
        if name is not None:
            word.expands(text, at, name.end(), "parameter")
            return name.end()
        if following and following in _SPECIAL_PARAMETERS:
            word.expands(text, at, after + 1, "parameter")
            return after + 1
        if following == "'" and not quoted:
            end = _dollar_single_quoted_end(text, after)
            word.expands(text, at, end, "dollar_quote")
            return end
        if following == '"' and not quoted:
            end = self.passed_over(at, after + 1, '"')
            word.expands(text, at, end, "dollar_quote")
            return end
        word.extend("$", at)
        return at + 1

    def passed_over(self, opener: int, start: int, closer: str) -> int:
        """The offset just after the construct opened at ``opener`` (``$(``, ``${``, ...).

        What it holds is not read for values, only passed over: nested
        substitutions, quotes and comments are counted on a stack, so that
        text nested however deep is read in one pass.

        Raises:
            ShellSyntaxError: the construct is not closed.
        """
        text = self.text
        stack = [closer]
        i = start
        while stack:
            top = stack[-1]
            found = _PASSED_OVER[top].search(text, i)
            if found is None:
                raise not_closed(opener, _OPENERS[closer])
            at = found.start()
            char = text[at]
            i = at + 1
            if char == "\\":
                i = at + 2
            elif char == top:
                stack.pop()
            elif char == "'":
                end = text.find("'", at + 1)
                if end < 0:
                    raise not_closed(opener, _OPENERS[closer])
                i = end + 1
            elif char in '"`':
                stack.append(char)
            elif char == "$":
                following = text[at + 1 : at + 2]
                if following in ("(", "{"):
                    stack.append(")" if following == "(" else "}")
                    i = at + 2
            elif char == "(":
                stack.append(")")
            elif char == "#" and (at == start or text[at - 1] in " \t\n;&|("):
                newline = text.find("\n", at)
                i = len(text) if newline < 0 else newline
        return i


def _dollar_single_quoted_end(text: str, quote: int) -> int:
    r"""The offset after ``$'...'`` whose quote is at ``quote`` (``\'`` does not close it)."""
    at = quote - 1
    i = quote + 1
    while True:
        quote = text.find("'", i)
        if quote < 0:
            raise not_closed(at, "$'")
        backslashes = 0
        while text[quote - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return quote + 1
        i = quote + 1


def not_closed(offset: int, opener: str) -> ShellSyntaxError:
    what = {
        "'": "single quote",
        '"': "double quote",
        "`": "backquote",
        "$'": "$' quote",
    }.get(opener, opener)
    if opener == "'":
        hint = (
            "close the quote; a ' cannot be written inside single quotes: end them, "
            "write \\', and open them again ('it'\\''s')"
        )
    elif opener == '"':
        hint = 'close the quote; write a " inside double quotes as \\"'
    else:
        hint = f"close the {what} that starts here"
    return ShellSyntaxError(
        offset, f"the {what} opened here is not closed before the end of the file", hint
    )
