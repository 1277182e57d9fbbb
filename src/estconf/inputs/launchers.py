"""The inputs of the launchers: a Vertex AI CustomJob spec, SageMaker's JSON files.

Each is read by :func:`estconf.inputs.readers.read_config`, with the checks
of a config file's values, under the command's limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from estconf.inputs.readers import read_config
from estconf.inputs.sources import STDIN, STDIN_NAME, InputError, format_of, read_file, read_stdin
from estconf.io import parse
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError

if TYPE_CHECKING:
    from estconf.io.parse import Document

__all__ = ["json_object", "vertex_spec"]


def vertex_spec(name: str, limits: Limits, stdin: bytes | str | None = None) -> Document:
    """A Vertex AI CustomJob spec (``gcloud ai custom-jobs create --config``), YAML or JSON.

    Args:
        name: the spec file.
        limits: the limits of reading.
        stdin: standard input's content, when the spec is given there as
            ``-`` (read here if None): JSON when its text starts as an object
            does, else YAML.

    Raises:
        ConfigFileError: the spec cannot be read, or holds what no config may.
        InputError: the file's name says it is TOML.
    """
    if name == STDIN:
        given = read_stdin(limits.max_size) if stdin is None else stdin
        [read] = read_config(given, STDIN_NAME, None, limits)
    else:
        text = parse.decode(read_file(name, limits.max_size), name)
        fmt = format_of(name) or "yaml"
        if fmt == "toml":
            raise InputError(f"{name}: a CustomJob spec is YAML or JSON")
        [read] = read_config(text, name, fmt, limits)
    assert read.document is not None
    return read.document


def json_object(path: str, limits: Limits) -> dict[str, Any]:
    """The JSON object of ``path``: a host's ``resourceconfig.json``, a job's hyperparameters.

    Raises:
        InputError: the file cannot be read, or holds no JSON object: its
            first problem, after the file's name.
    """
    try:
        [read] = read_config(read_file(path, limits.max_size), path, "json", limits)
    except ConfigFileError as exc:
        raise InputError(f"{path}: {exc.errors[0].message}") from None
    if not isinstance(read.data, dict):
        raise InputError(f"{path}: expected a JSON object")
    return read.data
