"""Reading TF_CONFIGs a line each, as ``estconf tf-config`` writes them.

``--format jsonl`` writes one TF_CONFIG per line; ``--format shell`` and
``--format env`` write them as assignments (``export TF_CONFIG='...'``,
``TF_CONFIG=...``), each a line; a start script written by hand sets one
the shell's way, over lines if it likes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import AnyStr

__all__ = ["read_env_lines", "read_json_lines"]

_VARIABLE = "TF_CONFIG"


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
    """Yield ``(name, value)`` for each TF_CONFIG the env file or shell script ``text`` sets.

    The name is ``SOURCE:LINE``, the line where the assignment starts.  An
    env file (``shell=False``) is read by the common dotenv rules, a shell
    script (``shell=True``) by the POSIX shell's, its words unquoted as the
    shell would (nothing is run); in either a value may span lines (see
    :mod:`estconf._shell`).  Blank lines, comments and other variables are
    passed over.  The value's JSON is not parsed here: a line and column of
    an error in it are of the value.

    Raises:
        ValueError: a quote or ``$(`` that the text does not close, or a
            TF_CONFIG whose value the shell makes when it runs (``$(hostname)``),
            said as ``SOURCE:LINE:COLUMN: what``.
    """
    from estconf._shell import ShellSyntaxError, env_assignments, position, script_assignments

    read = script_assignments if shell else env_assignments
    try:
        found = read(text, _VARIABLE)
    except ShellSyntaxError as exc:
        line, column = position(text, exc.offset)
        raise ValueError(f"{source}:{line}:{column}: {exc.message}") from None
    for assignment in found:
        line, _ = position(text, assignment.offset)
        if assignment.expansion is not None:
            at, column = position(text, assignment.expansion.offset)
            raise ValueError(
                f"{source}:{at}:{column}: {_VARIABLE} depends on the shell at run time: "
                f"{assignment.expansion.text}"
            )
        yield f"{source}:{line}", assignment.value
