"""What ``validate`` found of each file: for people, for programs, for GitHub Actions, as SARIF.

Each of the four formats of :data:`FORMATS`: ``text`` (a line per finding,
then a summary), ``json``, ``github`` (workflow annotations) and ``sarif``
(SARIF 2.1.0).  Every finding they write is a :class:`~estconf.finding.Finding`,
placed once.  :func:`write` turns a list of :class:`~estconf.io.errors.Result`
(what validating one file gave: its kind, if known, how the kind was told,
and its errors) into text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from estconf.finding import SEVERITIES
from estconf.io import REPORT_FORMATS
from estconf.io.errors import NO_VALUE, FileError

if TYPE_CHECKING:
    from estconf.finding import Finding
    from estconf.io.errors import Result

__all__ = [
    "FORMATS",
    "github_annotations",
    "kind_note",
    "plural",
    "sarif",
    "summary",
    "write",
    "write_github",
    "write_json",
    "write_sarif",
    "write_text",
]

FORMATS: Final = REPORT_FORMATS
"""The formats of every report: for people, programs, GitHub Actions and SARIF readers."""


def plural(count: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(results: list[Result]) -> str:
    """One line: the files checked, their errors, and how many other files were passed over."""
    checked = [r for r in results if r.skipped is None]
    skipped = len(results) - len(checked)
    passed_over = f", {plural(skipped, 'other file')} passed over" if skipped else ""
    with_findings = [r for r in checked if r.errors]
    if not with_findings:
        return f"{plural(len(checked), 'file')} valid{passed_over}"
    counts = [(sum(r.count(s) for r in with_findings), s) for s in SEVERITIES]
    found = ", ".join(plural(count, severity) for count, severity in counts if count)
    return f"{found} in {len(with_findings)} of {plural(len(checked), 'file')}{passed_over}"


_BOLD, _RED, _GREEN, _CYAN, _RESET = "\033[1m", "\033[31m", "\033[32m", "\033[36m", "\033[0m"


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


def kind_note(result: Result) -> str | None:
    """For an invalid file whose kind was told from its keys: which kind, and how to state it."""
    if result.valid or result.kind_from != "keys" or result.kind is None:
        return None
    from estconf.io.kinds import KINDS

    kind = KINDS.get(result.kind)
    ways = 'use --kind, a "$schema" key or a file name such as prod.run_config.json'
    if kind is not None and not kind.named:  # no file name tells a cluster
        ways = 'use --kind or a "$schema" key'
    told = f"{result.file}: note: read as {result.kind}, told from its keys"
    return f"{told}; to say its kind, {ways}"


def _described(result: Result) -> str:
    parts = [f"kind {result.kind or 'unknown'}"]
    if result.kind_from is not None:
        parts[0] += f" (from {result.kind_from})"
    if result.profile is not None:
        parts.append(f"profile {result.profile}")
    return ", ".join(parts)


def write_text(
    results: list[Result], *, quiet: bool = False, verbose: bool = False, color: bool = False
) -> str:
    """One ``file:line:column: path: message`` line per error, then a summary line.

    An error with a hint is followed by a ``hint: ...`` line.

    Args:
        results: the files' results.
        quiet: errors only: no notes, no summary.
        verbose: also a line per file with its kind (and how it was told) and profile.
        color: mark the places, notes and summary with ANSI colors.
    """
    lines = []
    for result in results:
        if result.skipped is not None:
            if verbose:
                lines.append(f"{result.file}: passed over, {result.skipped}")
            continue
        if verbose:
            state = "valid" if result.valid else "invalid"
            lines.append(f"{result.file}: {state}, {_described(result)}")
        for item in result.errors:
            text = str(item)
            if color:
                where, _, rest = text.partition(": ")
                text = f"{_paint(where, _BOLD, color)}: {rest}"
            lines.append(text)
            if item.hint:
                lines.append(f"hint: {item.hint}")
        note = None if quiet else kind_note(result)
        if note is not None:
            lines.append(_paint(note, _CYAN, color))
    if not quiet:
        valid = all(r.valid for r in results)
        lines.append(_paint(summary(results), _GREEN if valid else _RED, color))
    return "".join(line + "\n" for line in lines)


def _error_json(error: FileError) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": error.path,
        "loc": list(error.loc),
        "line": error.line,
        "column": error.column,
        "code": error.code,
        "severity": error.severity,
        "message": error.message,
    }
    if error.hint:
        data["hint"] = error.hint
    if error.value is not NO_VALUE:
        try:
            json.dumps(error.value)
            data["value"] = error.value
        except (TypeError, ValueError):
            data["value"] = str(error.value)
    return data


def write_json(results: list[Result]) -> str:
    """A JSON object: ``valid``; for each file checked its ``kind``, ``valid`` and ``errors``.

    The files of a directory passed over are under ``skipped``, each with the reason.
    """
    document = {
        "valid": all(r.valid for r in results),
        "files": [
            {
                "file": r.file,
                "kind": r.kind,
                "kind_from": r.kind_from,
                "valid": r.valid,
                "errors": [_error_json(e) for e in r.errors],
            }
            for r in results
            if r.skipped is None
        ],
        "skipped": [{"file": r.file, "reason": r.skipped} for r in results if r.skipped],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_COMMANDS: Final = {"error": "error", "warning": "warning", "note": "notice"}
"""The GitHub Actions workflow command of each severity."""


def github_annotations(findings: Sequence[Finding]) -> list[str]:
    """One GitHub Actions annotation per finding, at its file, line and column.

    An error is an ``::error``, a warning a ``::warning``, a note a ``::notice``.
    """
    lines = []
    for error in findings:
        properties = [f"file={_escape_property(error.file)}"]
        if error.line is not None:
            properties.append(f"line={error.line}")
            properties.append(f"col={error.column}")
        properties.append(f"title={_escape_property(f'estconf {error.code}')}")
        text = error.describe() + (f"\nhint: {error.hint}" if error.hint else "")
        command = _GITHUB_COMMANDS[error.severity]
        lines.append(f"::{command} {','.join(properties)}::{_escape_data(text)}")
    return lines


def write_github(results: list[Result]) -> str:
    """One GitHub Actions annotation per finding: ``::error``, ``::warning`` or ``::notice``."""
    lines = []
    for result in results:
        lines.extend(github_annotations(result.errors))
        note = kind_note(result)
        if note is not None:
            file = _escape_property(result.file)
            lines.append(f"::notice file={file},title=estconf kind::{_escape_data(note)}")
    return "".join(line + "\n" for line in lines)


def sarif(findings: Sequence[Finding]) -> str:
    """The findings as a SARIF 2.1.0 log, as JSON text."""
    from estconf.reports.sarif import sarif_log

    return json.dumps(sarif_log(findings), indent=2, ensure_ascii=False) + "\n"


def write_sarif(results: list[Result]) -> str:
    """A SARIF 2.1.0 log: one result per error of every file checked, at its line and column."""
    return sarif([error for result in results for error in result.errors])


def write(
    results: list[Result],
    format: str = "text",
    *,
    quiet: bool = False,
    verbose: bool = False,
    color: bool = False,
) -> str:
    """The results in one of :data:`FORMATS` (``quiet``, ``verbose``, ``color``: text only)."""
    if format == "json":
        return write_json(results)
    if format == "github":
        return write_github(results)
    if format == "sarif":
        return write_sarif(results)
    return write_text(results, quiet=quiet, verbose=verbose, color=color)
