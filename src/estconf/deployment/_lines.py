"""Reading TF_CONFIGs a line each, as ``estconf tf-config`` writes them.

``--format jsonl`` writes one TF_CONFIG per line; ``--format shell`` and
``--format env`` write them as assignments (``export TF_CONFIG='...'``,
``TF_CONFIG=...``), each a line.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from itertools import takewhile
from typing import AnyStr

__all__ = ["read_env_lines", "read_json_lines"]

_VARIABLE = "TF_CONFIG="


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
    try:
        words = shlex.split(line, comments=True)
    except ValueError:  # a quote that does not close
        start = line.find(_VARIABLE)
        return None if start < 0 else line[start + len(_VARIABLE) :]
    # after export every word is an assignment; else only the NAME=value words before a command
    exported = words[:1] == ["export"]
    assignments = words[1:] if exported else list(takewhile(_is_assignment, words))
    found = [word[len(_VARIABLE) :] for word in assignments if word.startswith(_VARIABLE)]
    return found[-1] if found else None  # of two, the last is the one set


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.isidentifier()
