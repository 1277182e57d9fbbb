"""A project's settings for estconf: ``[tool.estconf]`` in ``pyproject.toml``.

As ruff and mypy do, the settings are found from the working directory
upward: the nearest ``pyproject.toml`` with a ``[tool.estconf]`` table.  They
map glob patterns of file paths to kinds and to profiles::

    [tool.estconf.kinds]
    "deploy/*.json" = "tf_config"
    "training/**.yaml" = "run_config"

    [tool.estconf.profiles]
    "deploy/mwms-*.json" = "mwms"

A pattern is matched against the file's path relative to the directory of
``pyproject.toml`` (``*`` also matches ``/``); a pattern without ``/`` is also
matched against the file's name.  The first pattern that matches wins.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from estconf.io import kinds
from estconf.io.checks import Limits, too_deep, too_deep_to_parse, too_dense
from estconf.io.errors import ConfigFileError

__all__ = ["FILE", "Project", "ProjectError", "find", "may_hold_settings"]

FILE = "pyproject.toml"


class ProjectError(ValueError):
    """Settings that cannot be read or that name no kind or profile."""


@dataclass(frozen=True)
class Project:
    """The settings of one project: where they were found, and its patterns."""

    file: Path
    kinds: tuple[tuple[str, str], ...] = ()
    profiles: tuple[tuple[str, str], ...] = ()

    def kind_of(self, path: str | PathLike[str]) -> str | None:
        """Return the kind the settings give the file at ``path``, or ``None``."""
        return self._match(self.kinds, path)

    def profile_of(self, path: str | PathLike[str]) -> str | None:
        """Return the profile the settings give the file at ``path``, or ``None``."""
        return self._match(self.profiles, path)

    def _match(self, table: tuple[tuple[str, str], ...], path: str | PathLike[str]) -> str | None:
        absolute = Path(os.path.abspath(path))
        try:
            relative = absolute.relative_to(self.file.parent.absolute()).as_posix()
        except ValueError:
            relative = None
        for pattern, value in table:
            if relative is not None and fnmatch.fnmatchcase(relative, pattern):
                return value
            if "/" not in pattern and fnmatch.fnmatchcase(absolute.name, pattern):
                return value
        return None


def _read_toml(path: Path) -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
    from estconf.io._toml_values import first_over

    try:
        text = path.read_bytes().decode("utf-8")
        limits = Limits()
        limit = limits.written_values_for(len(text))
        found = first_over(text, limit, limits.max_depth)
        if found is not None and found[0] == "depth":
            raise ConfigFileError(str(path), [too_deep(str(path), limits.max_depth)])
        if found is not None:
            raise too_dense(str(path), limit, None, option=False)
        with too_deep_to_parse(str(path)):
            return tomllib.loads(text)
    except ConfigFileError as exc:  # nested deeper than the parser can read, or too dense
        raise ProjectError(f"{path}: cannot be read: {exc.errors[0].message}") from None
    except (OSError, ValueError) as exc:
        raise ProjectError(f"{path}: cannot be read: {exc}") from None


def _text(path: Path) -> str:
    """The text of ``path``, or ``""`` when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


# What can hide the word "estconf" from TOML's keys: strings and comments.  A
# multi-line string may end in two quotes more; a string left open matches as
# its opening quotes alone.
_TOML_TOKENS = re.compile(
    r'''"""(?:\\[\s\S]|[^\\])*?"{3,5}
    |\'\'\'[\s\S]*?'{3,5}
    |"(?P<basic>(?:\\.|[^"\\\n])*)"
    |'(?P<literal>[^'\n]*)'
    |(?P<left_open>"""|\'\'\'|["'])
    |\#[^\n]*
    |(?P<bare>(?<![\w-])estconf(?![\w-]))''',
    re.VERBOSE | re.ASCII,
)
_SPELLING_ESCAPE = re.compile(r"\\[uUx]")
"""An escape that may spell a letter: ``\\u0065``, ``\\U00000065``, ``\\x65`` (TOML 1.1)."""


def may_hold_settings(text: str) -> bool:
    """Whether ``text`` may hold ``[tool.estconf]``: ``estconf`` may be one of its keys.

    A key is bare or quoted, so the file is read when ``estconf`` stands
    outside strings and comments, or is a whole string, or a basic string
    has an escape that may spell it.  A project that names estconf only in
    its dependencies or other tools' settings is not read; one with a string
    left open is, so that the parser says what is wrong with it.  The text
    is scanned once: a string left open ends the scan.
    """
    if "estconf" not in text and _SPELLING_ESCAPE.search(text) is None:
        return False
    for token in _TOML_TOKENS.finditer(text):
        basic = token["basic"]
        if token["left_open"] or token["bare"]:
            return True
        if basic == "estconf" or token["literal"] == "estconf":
            return True
        if basic is not None and _SPELLING_ESCAPE.search(basic) is not None:
            return True
    return False


def _table(settings: dict[str, Any], name: str, allowed: tuple[str, ...], file: Path) -> Any:
    table = settings.get(name, {})
    if not isinstance(table, dict):
        raise ProjectError(f"{file}: [tool.estconf.{name}] maps glob patterns to names")
    for pattern, value in table.items():
        if value not in allowed:
            raise ProjectError(
                f"{file}: [tool.estconf.{name}] {pattern!r} = {value!r}: "
                f"expected one of {', '.join(allowed)}"
            )
    return tuple(table.items())


def find(start: str | PathLike[str] | None = None) -> Project | None:
    """Return the settings nearest ``start`` (the working directory) or above, if any.

    Raises:
        ProjectError: the settings found cannot be read, or name an unknown kind or profile.
    """
    directory = Path.cwd() if start is None else Path(start)
    for folder in (directory, *directory.absolute().parents):
        file = folder / FILE
        if not file.is_file() or not may_hold_settings(_text(file)):
            continue
        tool = _read_toml(file).get("tool", {})
        settings = tool.get("estconf") if isinstance(tool, dict) else None
        if settings is None:
            continue
        if not isinstance(settings, dict):
            raise ProjectError(f"{file}: [tool.estconf] is a table")
        unknown = sorted(set(settings) - {"kinds", "profiles"})
        if unknown:
            raise ProjectError(f"{file}: unknown key {unknown[0]!r} of [tool.estconf]")
        from estconf.profiles.registry import NAMES

        return Project(
            file,
            _table(settings, "kinds", tuple(kinds.KINDS), file),
            _table(settings, "profiles", NAMES, file),
        )
    return None
