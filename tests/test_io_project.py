"""estconf.io.project: ``[tool.estconf]`` in the nearest ``pyproject.toml``."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

from estconf.io.project import Project, ProjectError, find, may_hold_settings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]


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


HOLDING = [
    "[tool.estconf]\n",
    '[tool.estconf.kinds]\n"*.json" = "tf_config"\n',
    "[ tool . estconf ]\n",
    '[tool."estconf"]\n',
    "[tool.'estconf']\n",
    "[tool]\nestconf = { kinds = {} }\n",
    "tool.estconf.kinds = {}\n",
    "tool = { estconf = { kinds = {} } }\n",
    '[tool."\\u0065stconf"]\n',
    '[tool."\\U00000065stconf"]\n',
    "# estconf's settings\n[tool.estconf]\n",
    'x = """a \\""" b"""\n[tool.estconf]\n',
    'x = """a"""""\n[tool.estconf]\n',
    "x = '''a'''''\n[tool.estconf]\n",
    'x = "it\'s"\n[tool.estconf]\n',
]
"""Texts whose ``tool.estconf`` table TOML finds."""

NOT_HOLDING = [
    '[project]\ndependencies = ["estconf>=0.2", "tensorflow"]\n',
    "# checked by estconf\n[tool.ruff]\n",
    "x = 'estconf.cli'\n",
    'x = "say \\"estconf\\""\n',
    'x = """\n[tool.estconf]\n"""\n',
    "x = '''\n[tool.estconf]\n'''\n",
    "[tool.estconfx]\n",
    "[tool.my-estconf]\n",
    "[tool.estconf_2]\n",
    "[tool.other]\n",
]
"""Texts that name estconf, or not, and hold no ``tool.estconf``."""


@pytest.mark.parametrize("text", HOLDING)
def test_settings_are_read_where_estconf_is_a_key(text: str) -> None:
    assert "estconf" in tomllib.loads(text)["tool"]
    assert may_hold_settings(text) is True


@pytest.mark.parametrize("text", NOT_HOLDING)
def test_a_project_that_only_names_estconf_is_not_read(text: str) -> None:
    assert "estconf" not in tomllib.loads(text).get("tool", {})
    assert may_hold_settings(text) is False


@pytest.mark.parametrize(
    "text",
    [
        'x = "abc\n[tool.estconf]\n',
        'x = """abc\n[tool.estconf]\n',
        "x = '''abc\n[tool.estconf]\n",
        "x = 'abc\n[tool.estconf]\n",
    ],
)
def test_a_string_left_open_hides_no_key(text: str) -> None:
    assert may_hold_settings(text) is True


@pytest.mark.parametrize(
    "rest",
    [
        'x = "abc\n',
        "x = 'abc\n",
        'x = """',
        "x = '''",
        'x = """a\\"""',
        'x = """a""',
        "x = '''a''",
    ],
)
def test_a_text_with_a_string_left_open_is_read_for_the_parser_to_refuse(rest: str) -> None:
    text = '[project]\ndependencies = ["estconf>=0.2"]\n' + rest
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    assert may_hold_settings(text) is True


def test_a_broken_file_that_only_names_estconf_is_let_be(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["estconf>=0.2"]\n[tool.other\n', encoding="utf-8"
    )
    assert find(tmp_path) is None


class TestPatterns:
    """A pattern matches the path relative to the project, or the name when it has no ``/``."""

    def project(self, root: Path, *kinds: tuple[str, str]) -> Project:
        return Project(root / "pyproject.toml", kinds=kinds)

    def test_a_path_pattern_matches_below_the_project_only(self, tmp_path: Path) -> None:
        project = self.project(tmp_path, ("deploy/*.json", "tf_config"))
        assert project.kind_of(tmp_path / "deploy" / "a.json") == "tf_config"
        assert project.kind_of(tmp_path / "other" / "a.json") is None
        assert project.kind_of(tmp_path.parent / "deploy" / "a.json") is None

    def test_a_name_pattern_matches_the_name_anywhere(self, tmp_path: Path) -> None:
        project = self.project(tmp_path, ("trainer.json", "run_config"))
        assert project.kind_of(tmp_path / "deploy" / "trainer.json") == "run_config"
        assert project.kind_of(tmp_path.parent / "trainer.json") == "run_config"
        assert project.kind_of(tmp_path / "deploy" / "worker.json") is None

    def test_the_first_pattern_that_matches_wins(self, tmp_path: Path) -> None:
        project = self.project(tmp_path, ("deploy/*", "tf_config"), ("*.json", "run_config"))
        assert project.kind_of(tmp_path / "deploy" / "a.json") == "tf_config"
        assert project.kind_of(tmp_path / "a.json") == "run_config"
        assert project.profile_of(tmp_path / "a.json") is None


class TestFind:
    def test_settings_are_frozen(self, tmp_path: Path) -> None:
        (tmp_path / "pyproject.toml").write_text("[tool.estconf]\n", encoding="utf-8")
        project = find(tmp_path)
        assert project == Project(tmp_path / "pyproject.toml")
        with pytest.raises(dataclasses.FrozenInstanceError):
            project.kinds = ()  # type: ignore[misc]

    def test_a_project_that_names_estconf_without_settings_is_passed_for_the_one_above(
        self, tmp_path: Path
    ) -> None:
        (tmp_path / "pyproject.toml").write_text(
            '[tool.estconf.kinds]\n"*.json" = "tf_config"\n', encoding="utf-8"
        )
        inner = tmp_path / "inner"
        inner.mkdir()
        (inner / "pyproject.toml").write_text(
            '[project.scripts]\nestconf = "estconf.__main__:run"\n', encoding="utf-8"
        )
        assert find(inner) == Project(tmp_path / "pyproject.toml", kinds=(("*.json", "tf_config"),))

    def test_a_file_that_cannot_be_read_is_passed_over(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        (tmp_path / "pyproject.toml").write_text("[tool.estconf]\n", encoding="utf-8")

        def unreadable(self: Path, *args: object, **kwargs: object) -> str:
            raise PermissionError(13, "Permission denied", str(self))

        monkeypatch.setattr(Path, "read_text", unreadable)
        assert find(tmp_path / "sub") is None

    @pytest.mark.parametrize("text", ["[tool]\nestconf = 1\n", 'tool.estconf = "mwms"\n'])
    def test_settings_that_are_not_a_table_are_refused(self, tmp_path: Path, text: str) -> None:
        file = tmp_path / "pyproject.toml"
        file.write_text(text, encoding="utf-8")
        message = f"{file}: [tool.estconf] is a table"
        with pytest.raises(ProjectError, match=f"^{re.escape(message)}$"):
            find(tmp_path)
