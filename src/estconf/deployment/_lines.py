"""Reading JSON lines: one TF_CONFIG per line, as ``estconf tf-config --format jsonl`` writes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import AnyStr

__all__ = ["read_json_lines"]


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
