"""What ``estconf tf-config`` says on standard error of a launcher's input.

A launcher returns what it found as records (:class:`~estconf.launchers.base.Notes`):
notes, findings, hints.  :func:`write_notes` writes them as text, a line
each: the findings as ``validate`` writes a file's errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estconf.io.errors import FileError
    from estconf.launchers.base import Notes

__all__ = ["write_notes"]


def write_notes(notes: Notes) -> str:
    """The lines, the findings (and their count, if ``counted``), then a ``hint:`` line per hint."""
    from estconf.io.errors import Result
    from estconf.reports.files import write_text

    text = "".join(f"{line}\n" for line in notes.lines)
    if notes.findings:
        by_file: dict[str, list[FileError]] = {}  # counted by file, as validate counts them
        for finding in notes.findings:
            by_file.setdefault(finding.file, []).append(finding)
        found = [Result(file, None, errors) for file, errors in by_file.items()]
        text += write_text(found, quiet=not notes.counted)
    return text + "".join(f"hint: {hint}\n" for hint in notes.hints)
