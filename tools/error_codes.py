"""Write the code tables of docs/errors.md and ``src/estconf/io/error_codes.json`` from the codes.

``python tools/error_codes.py`` (``make error-codes``) reads the declarations
of :mod:`estconf.codes` and writes:

- each table of ``docs/errors.md``, between a ``<!-- codes: ANCHOR -->`` line
  and the ``<!-- end codes -->`` line after it (blank lines around the table),
  from the rows of the section with that anchor (a section with two tables
  has two such markers); the rest of the page is written by hand;
- ``src/estconf/io/error_codes.json``: for each code, its summary as plain
  text and the anchor of the section declaring it, as the documentation site
  names it.  SARIF reports (``--format sarif``) take each rule's short
  description and help address from it.

With ``--check`` it writes nothing and fails when either file differs from
what it would write; a test checks the same.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from estconf.codes import DECLARED, ROWS, Row  # noqa: E402

ERRORS = ROOT / "docs" / "errors.md"
OUTPUT = ROOT / "src" / "estconf" / "io" / "error_codes.json"

MARKER = re.compile(r"^<!-- codes: (\S+) -->$")
END = "<!-- end codes -->"
HEADER = ["| code | meaning | example |", "|---|---|---|"]
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def slug(heading: str) -> str:
    """The anchor Python-Markdown's ``toc`` extension gives a heading (its default ``slugify``)."""
    text = _LINK.sub(r"\1", heading).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def plain(markdown: str) -> str:
    """A table cell as plain text: no code marks, links as their text, ``\\|`` as ``|``."""
    text = _LINK.sub(r"\1", markdown).replace("\\|", "|").replace("`", "")
    return " ".join(text.split())


def tables(rows: Iterable[Row]) -> list[tuple[str, list[str]]]:
    """The tables of ``rows``: each one's section anchor and lines."""
    found: list[tuple[str, list[str]]] = []
    last = None
    for row in rows:
        if row.table != last:
            found.append((row.section, [*HEADER]))
            last = row.table
        lines = found[-1][1]
        example = f" {row.example} " if row.example else " "
        lines.append(f"| `{row.code}` | {row.summary} |{example}|")
    return found


def render_page(text: str, rows: Iterable[Row] = ROWS) -> str:
    """``text`` (docs/errors.md) with each marked table written from ``rows``."""
    pending = tables(rows)
    out: list[str] = []
    lines = iter(text.splitlines())
    for line in lines:
        out.append(line)
        marker = MARKER.match(line)
        if marker is None:
            continue
        if not pending or pending[0][0] != marker.group(1):
            expected = pending[0][0] if pending else "no more tables"
            raise ValueError(f"docs/errors.md: table {marker.group(1)}: the codes give {expected}")
        out += ["", *pending.pop(0)[1], ""]
        for skipped in lines:
            if skipped == END:
                out.append(END)
                break
        else:
            raise ValueError(f"docs/errors.md: table {marker.group(1)} has no {END!r} line")
    if pending:
        raise ValueError(f"docs/errors.md has no marker for the table of {pending[0][0]}")
    return "\n".join(out) + "\n"


def render_json() -> str:
    """The JSON file: each declared code's summary as plain text and its section's anchor."""
    codes = {
        code.name: {"description": plain(code.summary), "anchor": code.section} for code in DECLARED
    }
    return json.dumps(codes, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main() -> int:
    """Write both files; with ``--check``, say whether they are up to date instead."""
    wanted = {ERRORS: render_page(ERRORS.read_text(encoding="utf-8")), OUTPUT: render_json()}
    if "--check" in sys.argv[1:]:
        stale = [path for path, text in wanted.items() if path.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run make error-codes")
        return 1 if stale else 0
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
