r"""The values an env file (``.env``) assigns to one variable, read by the common dotenv rules.

The rules are those Docker Compose documents for its env files, which
python-dotenv shares: a line ``NAME=value`` (``export NAME=value`` too, and
blanks around ``=``); lines that start with ``#``, blank lines and lines that
assign nothing are passed over.  A value is

- unquoted: the rest of the line, without a comment (``#`` after a blank)
  and without the blanks that end it; a backslash is kept as it is;
- single-quoted: the text as written, which may span lines; ``\'`` stands
  for a quote and ``\\`` for a backslash;
- double-quoted: may span lines; ``\n``, ``\r`` and ``\t`` stand for a
  newline, a carriage return and a tab, ``\"``, ``\'``, ``\\`` and ``\$`` for
  the character after the backslash; any other backslash is kept.

After a closing quote only blanks and a comment may follow.  ``$NAME`` and
``${...}`` in an unquoted or double-quoted value are expanded by Compose
(python-dotenv expands ``${...}``), so such a value is known only when the
file is read, as is a line that names the variable with no ``=`` (Compose
takes its value from the environment).  Every assignment of the variable is
kept, in order: what ``estconf tf-config --format env`` writes is one line a
task.
"""

from __future__ import annotations

import re
from typing import Final

from estconf._shell.words import Assignment, ShellSyntaxError, Word, not_closed

__all__ = ["assignments"]

_LINE: Final = re.compile(
    r"[ \t]*(?:export[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*(?:(?P<equals>=)[ \t]*)?"
)
_COMMENT: Final = re.compile(r"[ \t]+#|[ \t]*\r?$")
_INTERPOLATION: Final = re.compile(r"\$(?:[A-Za-z_]|\{)")
_DOUBLE_QUOTED_SPECIAL: Final = re.compile(r'["\\$]')
_DOUBLE_QUOTED_ESCAPES: Final = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "'": "'"}
_DOUBLE_QUOTED_ESCAPES.update({"\\": "\\", "$": "$"})
_SINGLE_QUOTED_SPECIAL: Final = re.compile(r"['\\]")
_AFTER_QUOTE: Final = re.compile(r"[ \t]*(?:#[^\n]*)?\r?(?:\n|$)")


def assignments(text: str, variable: str) -> list[Assignment]:
    """Every assignment of ``variable`` in the env file ``text``, in order.

    Raises:
        ShellSyntaxError: a quote that nothing closes, or text after a closing quote.
    """
    found = []
    size = len(text)
    i = 0
    while i < size:
        newline = text.find("\n", i)
        end = size if newline < 0 else newline
        line = _LINE.match(text, i, end)
        if line is None or (_COMMENT.match(text, line.end(), end) is None and not line["equals"]):
            i = end + 1  # a blank line, a comment, or a line that assigns nothing
            continue
        name = line["name"]
        if not line["equals"]:
            if name == variable:  # NAME alone: Compose passes the environment's value
                word = Word(line.start("name"), value_offset=line.end("name"))
                word.expands(text, line.start("name"), line.end("name"), "environment")
                found.append(word.assignment())
            i = end + 1
            continue
        word = Word(line.start("name"), name=name, value_offset=line.end())
        start = line.end()
        if start < end and text[start] in "'\"":
            after = (_single_quoted if text[start] == "'" else _double_quoted)(text, start, word)
            rest = _AFTER_QUOTE.match(text, after)
            if rest is None:
                raise ShellSyntaxError(
                    after,
                    "text follows the closing quote of the value",
                    "end the line after the closing quote, or start a comment there with ' #'",
                )
            i = rest.end()
        else:
            _unquoted(text, start, end, word)
            i = end + 1
        if name == variable:
            found.append(word.assignment())
    return found


def _unquoted(text: str, start: int, end: int, word: Word) -> None:
    comment = _COMMENT.search(text, start, end)
    stop = end if comment is None else comment.start()
    value = text[start:stop]
    word.extend(value, start)
    interpolated = _INTERPOLATION.search(value)
    if interpolated is not None:
        at = start + interpolated.start()
        closing = text.find("}", at, stop) if text[at + 1] == "{" else -1
        word.expands(text, at, closing + 1 if closing >= 0 else at + 2, "parameter")


def _single_quoted(text: str, start: int, word: Word) -> int:
    word.quoted = True
    i = start + 1
    while True:
        special = _SINGLE_QUOTED_SPECIAL.search(text, i)
        if special is None:
            raise not_closed(start, "'")
        at = special.start()
        word.extend(text[i:at], i)
        if text[at] == "'":
            return at + 1
        escaped = text[at + 1 : at + 2]
        if escaped in ("'", "\\"):
            word.extend(escaped, at + 1)
            i = at + 2
        else:
            word.extend("\\", at)
            i = at + 1


def _double_quoted(text: str, start: int, word: Word) -> int:
    word.quoted = True
    i = start + 1
    while True:
        special = _DOUBLE_QUOTED_SPECIAL.search(text, i)
        if special is None:
            raise not_closed(start, '"')
        at = special.start()
        word.extend(text[i:at], i)
        char = text[at]
        if char == '"':
            return at + 1
        if char == "$":
            interpolated = _INTERPOLATION.match(text, at)
            if interpolated is not None:
                closing = text.find("}", at) if text[at + 1] == "{" else -1
                word.expands(text, at, closing + 1 if closing >= 0 else at + 2, "parameter")
            word.extend("$", at)
            i = at + 1
            continue
        escaped = text[at + 1 : at + 2]
        if escaped in _DOUBLE_QUOTED_ESCAPES:
            word.extend(_DOUBLE_QUOTED_ESCAPES[escaped], at + 1)
            i = at + 2
        else:
            word.extend("\\", at)
            i = at + 1
