"""Write ``src/estconf/io/error_codes.json``: each error code of docs/errors.md, described.

``python tools/error_codes.py`` (``make error-codes``) reads the tables of
``docs/errors.md`` and writes, for each code, the meaning its row gives (as
plain text) and the anchor of the section that lists it, as the documentation
site names it.  SARIF reports (``--format sarif``) take each rule's short
description and help address from it; a test checks the file is up to date.
A code listed twice is described by its first row.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ERRORS = ROOT / "docs" / "errors.md"
OUTPUT = ROOT / "src" / "estconf" / "io" / "error_codes.json"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ROW = re.compile(r"^\|\s*`([a-z0-9_]+)`\s*\|")
_CELL = re.compile(r"(?<!\\)\|")
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


def codes(text: str) -> dict[str, dict[str, str]]:
    """Each code of the tables of ``text``: its meaning and its section's anchor."""
    found: dict[str, dict[str, str]] = {}
    anchors: dict[str, int] = {}
    section = ""
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading is not None:
            anchor = slug(heading.group(2))
            seen = anchors.get(anchor, 0)
            anchors[anchor] = seen + 1
            section = anchor if not seen else f"{anchor}_{seen}"
            continue
        row = _ROW.match(line)
        if row is None or row.group(1) in found:
            continue
        cells = _CELL.split(line.strip().strip("|"))
        found[row.group(1)] = {"description": plain(cells[1]), "anchor": section}
    return found


def render(text: str) -> str:
    """The JSON file written for ``text``."""
    return json.dumps(codes(text), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main() -> int:
    """Write the file; with ``--check``, say whether it is up to date instead."""
    wanted = render(ERRORS.read_text(encoding="utf-8"))
    if "--check" in sys.argv[1:]:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != wanted:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run make error-codes")
            return 1
        return 0
    OUTPUT.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
