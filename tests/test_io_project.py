"""estconf.io.project: ``[tool.estconf]`` in the nearest ``pyproject.toml``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from estconf.io.project import ProjectError, find


@pytest.mark.parametrize("table", ["kinds", "profiles"])
@pytest.mark.parametrize("value", ['"mwms"', '["deploy/*.json"]', "1"])
def test_a_kinds_or_profiles_setting_that_is_not_a_table_is_refused(
    tmp_path: Path, table: str, value: str
) -> None:
    file = tmp_path / "pyproject.toml"
    file.write_text(f"[tool.estconf]\n{table} = {value}\n", encoding="utf-8")
    message = f"{file}: [tool.estconf.{table}] maps glob patterns to names"
    with pytest.raises(ProjectError, match=f"^{re.escape(message)}$"):
        find(tmp_path)
