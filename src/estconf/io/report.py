"""Writing validation results: for people, for programs, and for GitHub Actions.

A :class:`Result` is what validating one file gave: its kind, if known, and
its errors.  Each ``write_*`` function turns a list of results into text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from estconf.io.errors import NO_VALUE, FileError

__all__ = ["Result", "plural", "summary", "write_github", "write_json", "write_text"]


@dataclass
class Result:
    """The outcome of validating one file."""

    file: str
    kind: str | None = None
    errors: list[FileError] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """Whether the file is valid."""
        return not self.errors


def plural(count: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(results: list[Result]) -> str:
    """One line: how many files were checked, and how many errors they have."""
    invalid = [r for r in results if not r.valid]
    if not invalid:
        return f"{plural(len(results), 'file')} valid"
    errors = sum(len(r.errors) for r in invalid)
    return f"{plural(errors, 'error')} in {len(invalid)} of {plural(len(results), 'file')}"


def write_text(results: list[Result]) -> str:
    """One ``file:line:column: path: message`` line per error, then a summary line."""
    lines = [str(error) for result in results for error in result.errors]
    lines.append(summary(results))
    return "\n".join(lines) + "\n"


def _error_json(error: FileError) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": error.path,
        "loc": list(error.loc),
        "line": error.line,
        "column": error.column,
        "code": error.code,
        "message": error.message,
    }
    if error.value is not NO_VALUE:
        try:
            json.dumps(error.value)
            data["value"] = error.value
        except (TypeError, ValueError):
            data["value"] = str(error.value)
    return data


def write_json(results: list[Result]) -> str:
    """A JSON object: ``valid``, and for each file its ``kind``, ``valid`` and ``errors``."""
    document = {
        "valid": all(r.valid for r in results),
        "files": [
            {
                "file": r.file,
                "kind": r.kind,
                "valid": r.valid,
                "errors": [_error_json(e) for e in r.errors],
            }
            for r in results
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(results: list[Result]) -> str:
    """One GitHub Actions ``::error`` workflow command per error."""
    lines = []
    for result in results:
        for error in result.errors:
            properties = [f"file={_escape_property(error.file)}"]
            if error.line is not None:
                properties.append(f"line={error.line}")
                properties.append(f"col={error.column}")
            properties.append(f"title={_escape_property(f'estconf {error.code}')}")
            lines.append(f"::error {','.join(properties)}::{_escape_data(error.describe())}")
    return "".join(line + "\n" for line in lines)
