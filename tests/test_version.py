"""estconf._version: the version the build and ``estconf --version`` read."""

from __future__ import annotations

import re
from pathlib import Path

from estconf._version import __version__

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"


def test_the_version_is_the_release_the_changelog_describes_first() -> None:
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", __version__)
    releases = [
        line
        for line in CHANGELOG.read_text(encoding="utf-8").splitlines()
        if line.startswith("## ")
    ]
    assert releases[0].split()[1] == __version__
