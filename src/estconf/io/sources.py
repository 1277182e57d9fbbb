"""What a command is given: files, directories walked, standard input, the environment.

A file may be ``<(command)``, whose name tells no format: ``--input-format``
tells it (:func:`format_for`).  The bytes of each are read here, refused past
the size limit; :mod:`estconf.io.reading` reads what they hold.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from estconf._arguments import UsageError
from estconf.io import kinds, parse
from estconf.io.checks import MAX_SIZE, read_stream
from estconf.io.errors import ConfigFileError
from estconf.io.parse import SUFFIXES

__all__ = [
    "STDIN",
    "STDIN_NAME",
    "Input",
    "InputError",
    "NotThisInput",
    "environ_bytes",
    "expand",
    "format_for",
    "format_of",
    "manifest_bytes",
    "read_file",
    "read_given",
    "read_stdin",
    "shown_as",
]

STDIN = "-"
"""The argument that stands for standard input."""

STDIN_NAME = "<stdin>"
"""Standard input's name in what is said about it."""


class InputError(UsageError, ValueError):
    """An input given where a command cannot take it: its message says why.

    It is a usage error: a command that raises it exits 2, its ``hint``
    (how to fix it, when the fix is plain) on a line of its own.  It is a
    ``ValueError`` for the Python API.
    """


class NotThisInput(ValueError):
    """An input that is not what it was given as: its message says what it is instead."""


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


def format_of(path: str) -> str | None:
    """The format a file name says (``json``, ``toml``, ``yaml``), or ``None``."""
    return parse.format_of(path)


def format_for(path: str, input_format: str | None) -> str | None:
    """The format to read ``path`` in: ``--input-format`` when its name tells none, else None.

    A name's suffix wins (``.yaml`` is YAML whatever ``--input-format`` says);
    standard input is JSON unless ``--input-format`` says otherwise.
    """
    if path == STDIN:
        return input_format or "json"
    return None if parse.format_of(path) is not None else input_format


def read_file(name: str, max_size: int = MAX_SIZE) -> bytes:
    """The bytes of the file ``name``, refused past ``max_size``.

    Raises:
        ConfigFileError: the file is missing, a directory, unreadable or too large.
    """
    return parse.read(Path(name), name, max_size)


def read_stdin(max_size: int = MAX_SIZE) -> str | bytes:
    """Standard input's bytes (its text, if it has no bytes), refused past ``max_size``.

    Raises:
        ConfigFileError: standard input holds more than ``max_size`` bytes.
    """
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    return read_stream(buffer, STDIN_NAME, max_size)


def shown_as(name: str) -> str:
    """The name the input ``name`` is said under: :data:`STDIN_NAME` for :data:`STDIN`."""
    return STDIN_NAME if name == STDIN else name


def read_given(name: str, max_size: int = MAX_SIZE) -> str | bytes:
    """The bytes of the file ``name``, or of standard input when it is :data:`STDIN`.

    Raises:
        ConfigFileError: the input cannot be read, or is larger than ``max_size``.
    """
    return read_stdin(max_size) if name == STDIN else read_file(name, max_size)


def environ_bytes(name: str) -> bytes:
    """An environment variable's bytes, as the process got them (not necessarily UTF-8)."""
    environb = getattr(os, "environb", None)
    if environb is not None:
        value: bytes = environb[name.encode()]
        return value
    return os.environ[name].encode("utf-8", "surrogateescape")


def manifest_bytes(
    name: str, content: bytes | None, input_format: str | None, max_size: int = MAX_SIZE
) -> tuple[bytes, str] | None:
    """The bytes and format (``json``, ``yaml``) of an input that may hold Kubernetes manifests.

    ``content`` is standard input's bytes (``None`` for a file, read here).
    ``None`` when the input cannot hold manifests (another format) or cannot
    be read: the config file pipeline reports that.
    """
    if content is not None:
        return None if input_format not in kinds.MANIFEST_FORMATS else (content, input_format)
    fmt = parse.format_of(name) or input_format
    if fmt not in kinds.MANIFEST_FORMATS:
        return None
    try:
        return read_file(name, max_size), fmt
    except ConfigFileError:
        return None
