"""The TF_CONFIGs a shell script or env file sets, each checked as a TF_CONFIG file is.

``estconf validate start.sh`` reads the file as :mod:`estconf.io.shell`
reads it (a script by the shell's rules, an env file by the dotenv rules)
and checks each TF_CONFIG it sets under the profile, as the text of a
TF_CONFIG file: every error is at its line and column in the file, under
``TF_CONFIG`` (``TF_CONFIG.cluster.worker[1]``).  A file that sets no
TF_CONFIG is an error (``no_tf_config``): the script may read it from
elsewhere, but there is nothing to check.  A TF_CONFIG the shell makes when
the script runs (``$(...)``, ``$INDEX``) cannot be checked before the job
runs: that error (``shell_expansion``) makes the file unreadable (exit 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from estconf.io.errors import ConfigFileError, FileError, Result, error

if TYPE_CHECKING:
    from estconf.io.checks import Limits

__all__ = ["KINDS", "SUFFIXES", "check_file", "format_of"]

SUFFIXES: Final = {".sh": "shell", ".env": "env"}
"""The format of each file name suffix: a shell script, an env file (``validate`` and
``check-cluster`` read both; what reads them is imported only for such a file)."""
KINDS: Final = {"shell": "shell", "env": "env"}
"""The kind ``validate`` reports for a shell script and for an env file."""
_EMPTY: Final = "set but empty; unset it or give a JSON object"


def format_of(path: str) -> str | None:
    """``shell`` or ``env`` for a file name with that suffix (``.sh``, ``.env``); else None."""
    return SUFFIXES.get(Path(path).suffix.lower())


def check_file(raw: bytes, fmt: str, name: str, profile: str | None, limits: Limits) -> Result:
    """Check each TF_CONFIG the shell script (``shell``) or env file (``env``) ``raw`` sets.

    Returns:
        The result: its errors in the order of the file, each at its line
        and column there; warnings beside them.
    """
    from estconf.io.shell import read_shell

    kind = KINDS[fmt]
    try:
        shell = read_shell(raw, name, fmt)
    except ConfigFileError as exc:
        return Result(name, kind, exc.errors, "file name", profile)
    if not shell.values and not shell.unknown:
        message = "no line of the file sets TF_CONFIG"
        return Result(name, kind, [error(name, "no_tf_config", message)], "file name", profile)
    found = [*shell.unknown, *shell.warnings]
    checked: dict[str, list[FileError]] = {}  # a value set again is checked once
    for value in shell.values:
        if value.text not in checked:
            checked[value.text] = _errors(value.text, shell.file, profile, limits)
        found.extend(shell.placed(checked[value.text], value))
    found.sort(key=lambda e: (e.line or 0, e.column or 0))
    return Result(name, kind, found, "file name", profile)


def _errors(text: str, file: str, profile: str | None, limits: Limits) -> list[FileError]:
    """What a TF_CONFIG file holding ``text`` breaks under ``profile``, placed in the text."""
    from estconf.io.files import load_file

    if not text.strip():
        return [error(file, "tf_config_empty", _EMPTY)]
    try:
        load_file(
            file,
            "tf_config",
            format="json",
            content=text.encode("utf-8"),
            profile=profile,
            max_size=limits.max_size,
            max_depth=limits.max_depth,
            max_values=limits.max_values,
            max_documents=limits.max_documents,
        )
    except ConfigFileError as exc:
        return exc.errors
    return []
