"""The config files a command is given: files, directories walked, standard input."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from estconf.io.parse import SUFFIXES

__all__ = ["STDIN", "Input", "expand"]

STDIN = "-"
"""The argument that stands for standard input."""


@dataclass(frozen=True)
class Input:
    """One config file to read: ``path``, or standard input when ``path`` is :data:`STDIN`.

    ``empty_directory`` is set for a directory given that holds no config file.
    ``directory`` is the directory given under which the file was found, None for
    a file given by name: a file found in a directory may be one of another
    tool's, which a command passes over rather than refuses.
    """

    path: str
    empty_directory: bool = False
    directory: str | None = None


def _config_files(directory: str) -> Iterator[str]:
    """The config files under ``directory``, sorted; hidden directories are not entered.

    Only regular files count: reading a named pipe found there would wait for a
    writer that never comes.
    """
    for root, folders, names in os.walk(directory):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in sorted(names):
            path = os.path.join(root, name)
            named = Path(name).suffix.lower() in SUFFIXES and not name.startswith(".")
            if named and os.path.isfile(path):
                yield path


def expand(arguments: list[str]) -> list[Input]:
    """The files the arguments name: a directory stands for its config files."""
    found: list[Input] = []
    for argument in arguments:
        if argument != STDIN and os.path.isdir(argument):
            files = [Input(path, directory=argument) for path in _config_files(argument)]
            found.extend(files or [Input(argument, empty_directory=True)])
        else:
            found.append(Input(argument))
    return found
