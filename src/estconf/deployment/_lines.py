"""Reading TF_CONFIGs a line each, as ``estconf tf-config`` writes them.

``--format jsonl`` writes one TF_CONFIG per line; ``--format shell`` and
``--format env`` write them as assignments (``export TF_CONFIG='...'``,
``TF_CONFIG=...``), each a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import takewhile
from typing import AnyStr

__all__ = ["read_env_lines", "read_json_lines"]

_VARIABLE = "TF_CONFIG="
# A shell word's pieces: blanks, '...', "..." (backslash escapes inside), \x, plain text;
# "lone" is a quote or a backslash that nothing closes.
_TOKEN = re.compile(r"""[ \t]+|'[^']*'|"[^"\\]*(?:\\.[^"\\]*)*"|\\.|[^ \t'"\\]+|(?P<lone>.)""")
_ESCAPED_IN_DOUBLE_QUOTES = re.compile(r'\\([$`"\\])')
# export TF_CONFIG='...' alone on its line: the value is the text between the quotes
_SINGLE_QUOTED = re.compile(r"(?:export[ \t]+)?TF_CONFIG='([^']*)'(?:[ \t]+#.*)?")


def read_json_lines(data: AnyStr, source: str = "<stdin>") -> Iterator[tuple[str, AnyStr]]:
    """Yield ``(name, line)`` for each non-blank line of ``data``, one at a time.

    The name is ``SOURCE:LINE`` (lines counted from 1), which locates a
    node's findings.  Lines are not parsed here:
    :func:`~estconf.deployment.check_cluster` parses each, so that a bad line
    becomes a finding at its line.  Lines are cut as they are asked for, so
    a large input is never held twice.
    """
    newline = "\n" if isinstance(data, str) else b"\n"
    start = 0
    number = 0
    size = len(data)
    while start < size:
        end = data.find(newline, start)
        if end < 0:
            end = size
        number += 1
        line = data[start:end]
        start = end + 1
        if line and not line.isspace():
            yield f"{source}:{number}", line


def read_env_lines(text: str, source: str, *, shell: bool = False) -> Iterator[tuple[str, str]]:
    """Yield ``(name, value)`` for each line of ``text`` that sets ``TF_CONFIG``.

    The name is ``SOURCE:LINE``, as for JSON lines.  An env file
    (``shell=False``) sets ``TF_CONFIG=<value>``, the value taken as written,
    as ``docker run --env-file`` takes it; a shell script (``shell=True``)
    sets it with ``TF_CONFIG=<word>`` or ``export TF_CONFIG=<word>``, the word
    unquoted as the shell would (nothing is run).  Blank lines, comments and
    other variables are passed over; a shell line whose quotes do not close
    yields the rest of its text, which then fails as JSON where it is checked.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if shell:
            value = _shell_value(stripped)
        else:
            value = stripped[len(_VARIABLE) :] if stripped.startswith(_VARIABLE) else None
        if value is not None:
            yield f"{source}:{number}", value


def _shell_value(line: str) -> str | None:
    """The value a shell line assigns to ``TF_CONFIG``, or ``None`` if it assigns none."""
    if _VARIABLE not in line:
        return None
    plain = _SINGLE_QUOTED.fullmatch(line)
    if plain is not None:  # what tf-config writes: read without splitting the line into words
        return plain[1]
    words = _words(line)
    if words is None:  # a quote that does not close
        return line[line.find(_VARIABLE) + len(_VARIABLE) :]
    # after export every word is an assignment; else only the NAME=value words before a command
    exported = words[:1] == ["export"]
    assignments = words[1:] if exported else list(takewhile(_is_assignment, words))
    found = [word[len(_VARIABLE) :] for word in assignments if word.startswith(_VARIABLE)]
    return found[-1] if found else None  # of two, the last is the one set


def _words(line: str) -> list[str] | None:
    """Split a line into words as a POSIX shell does, or ``None`` if a quote does not close.

    Quotes are removed ('...' keeps its text as it is; "..." drops the
    backslash before $, `, " and a backslash), a backslash keeps the next character,
    and a # that starts a word starts a comment.  Nothing is expanded.
    """
    words: list[str] = []
    word: str | None = None
    for token in _TOKEN.finditer(line):
        text = token[0]
        if token["lone"] is not None:
            return None
        if text[0] in " \t":
            if word is not None:
                words.append(word)
            word = None
            continue
        if text[0] == "#" and word is None:
            break
        if text[0] == "'":
            part = text[1:-1]
        elif text[0] == '"':
            part = _ESCAPED_IN_DOUBLE_QUOTES.sub(r"\1", text[1:-1])
        elif text[0] == "\\":
            part = text[1]
        else:
            part = text
        word = part if word is None else word + part
    if word is not None:
        words.append(word)
    return words


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.isidentifier()
