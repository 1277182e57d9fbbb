r"""The readers of every input's bytes, each applying the checks of a config file's values.

An input is written in one of a few syntaxes, and :data:`READERS` names
the reader of each: a config file's one document (JSON, TOML, YAML), a
stream of YAML or JSON documents (Kubernetes manifests, TFJobs, env lists),
JSON lines (a TF_CONFIG a line), and the TF_CONFIGs shell scripts and env
files set.  Every document and
every TF_CONFIG text they read passes the size, depth and value checks of
:mod:`estconf.io.checks` (NaN, infinite numbers, lone surrogates, nesting,
aliases expanded too far) under one set of :class:`~estconf.io.checks.Limits`,
and what the checks refuse is said as the file pipeline says it.

A command reads its inputs through these readers alone; the tests read each
reader of :data:`READERS` with every value no config may hold.

    >>> from estconf.io.reading import read_json_lines
    >>> [(read.name, read.data) for read in read_json_lines(b'{"task": {}}\n', "nodes.jsonl")]
    [('nodes.jsonl:1', {'task': {}})]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from estconf.io import parse
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError, refused
from estconf.io.parse import Document
from estconf.io.sources import InputError, read_file

if TYPE_CHECKING:
    from estconf.io.shell import ShellFile

__all__ = [
    "READERS",
    "Document",
    "Read",
    "Reader",
    "documents",
    "json_document",
    "json_object",
    "read_config",
    "read_env_lines",
    "read_json_lines",
    "read_stream",
    "shell_reads",
    "tf_config_text",
]


@dataclass(frozen=True)
class Read:
    """What a reader read: one document, or one node's TF_CONFIG.

    Attributes:
        name: where it is: the input's name, or ``NAME:LINE`` for a line's.
        data: the data read; for a line whose text is no JSON object, its
            text, which :func:`estconf.deployment.check_cluster` reports at
            the node.
        document: the document, which places its values in the text (None for a line).
    """

    name: str
    data: Any
    document: Document | None = None


Reader = Callable[[bytes, str, str, Limits], list[Read]]
"""A reader: ``(bytes, name, format, limits)`` to what they hold."""


def read_config(
    raw: bytes | str, name: str, format: str | None, limits: Limits | None = None
) -> list[Read]:
    """The one document of a config file in ``format`` (``json``, ``toml``, ``yaml``).

    Text (``str``: standard input that gave no bytes) is read as it is.  With no
    ``format``, the text tells it: JSON when it starts as a JSON object does,
    else YAML (a spec given on standard input).

    Raises:
        ConfigFileError: as :func:`estconf.io.parse.document_of`.
    """
    if format is None:
        raw = raw if isinstance(raw, str) else parse.decode(raw, name)
        format = "json" if raw.lstrip().startswith("{") else "yaml"
    document = parse.document_of(raw, format, name, limits)
    return [Read(name, document.data, document)]


def read_stream(
    raw: bytes | str, name: str, format: str | None, limits: Limits | None = None
) -> list[Read]:
    """Every document of a stream in ``format`` (``json``, ``yaml``) that is not empty.

    With no ``format``, the text tells it: JSON when it starts as JSON does,
    else YAML (:func:`estconf.io.parse.stream_of`, as a TFJob is read).

    Raises:
        ConfigFileError: as :func:`estconf.io.parse.documents_of`.
    """
    if format is None:
        found = parse.stream_of(raw, name, limits)
    else:
        raw = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        found = parse.documents_of(raw, format, name, limits)
    return [Read(name, document.data, document) for document in found]


def documents(reads: Iterable[Read]) -> list[Document]:
    """The documents of what a reader read, each able to place its values."""
    return [read.document for read in reads if read.document is not None]


def read_json_lines(
    raw: bytes | str, name: str, format: str = "jsonl", limits: Limits | None = None
) -> list[Read]:
    """Each non-blank line of JSON lines: a node's TF_CONFIG, named ``NAME:LINE``.

    ``format`` is ``jsonl``, the one format of JSON lines.

    Raises:
        ConfigFileError: a line's TF_CONFIG holds a value no config may hold
            (see :func:`tf_config_text`).
    """
    from estconf.deployment import read_json_lines as lines

    return list(_checked(lines(raw, name), limits))


def read_env_lines(
    raw: bytes, name: str, format: str = "env", limits: Limits | None = None
) -> list[Read]:
    """Each TF_CONFIG an env file (``env``) or shell script (``shell``) sets, named ``NAME:LINE``.

    The file is read as :func:`estconf.io.shell.read_shell` reads it: a
    value may span lines, and each error is at its line and column in the file.

    Raises:
        ConfigFileError: the bytes are not UTF-8 text, the file cannot be read
            as a script or env file (``shell_syntax``), a TF_CONFIG depends on
            the shell at run time (``shell_expansion``), no TF_CONFIG is set
            (``no_tf_config``), or a TF_CONFIG is not JSON or holds a value no
            config may hold (see :func:`estconf.io.shell.tf_config_of`).
    """
    from estconf.io.shell import read_shell

    return shell_reads(read_shell(raw, name, format), limits)


def shell_reads(shell: ShellFile, limits: Limits | None = None) -> list[Read]:
    """Each TF_CONFIG the shell script or env file ``shell`` sets: a node's, named ``NAME:LINE``.

    Raises:
        ConfigFileError: as :func:`read_env_lines`.
    """
    from estconf.io.shell import tf_config_of

    if shell.unknown:
        raise ConfigFileError(shell.file, shell.unknown)
    if not shell.values:
        raise refused(shell.file, "no_tf_config", "no line of the file sets TF_CONFIG")
    return [Read(value.name, tf_config_of(shell, value, limits)) for value in shell.values]


def _checked(nodes: Iterable[tuple[str, Any]], limits: Limits | None) -> Iterator[Read]:
    for node_name, text in nodes:
        yield Read(node_name, tf_config_text(text, node_name, limits))


_VALUE_CODES: Final = frozenset({"encoding", "number", "depth", "too_many_values"})
"""The codes of the values a file may not hold in text its parser reads (NaN, lone surrogates)."""


def tf_config_text(text: Any, name: str, limits: Limits | None = None) -> Any:
    """A node's TF_CONFIG given as text, read as the text of a TF_CONFIG file is.

    Such text is a JSON line, an env line, a manifest's value: its values get
    the checks of a file's (NaN, lone surrogates, depth).  Text that is not
    JSON is given back as it is, for :func:`~estconf.deployment.check_cluster`
    to say why at the node; so is what is not text (a node file's data).

    Raises:
        ConfigFileError: the text holds a value no TF_CONFIG file may hold; its
            errors are at ``name`` (``FILE:LINE``), not at a place in the text.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return text
    if not isinstance(text, str):
        return text
    try:
        return parse.document_of(text, "json", name, limits).data
    except ConfigFileError as exc:
        if exc.errors and all(e.code in _VALUE_CODES for e in exc.errors):
            # the node's name tells where it is (FILE:LINE); a place in its text would not
            errors = [dataclasses.replace(e, line=None, column=None) for e in exc.errors]
            raise ConfigFileError(name, errors) from None
        return text


READERS: Final[Mapping[str, Reader]] = MappingProxyType(
    {
        "config": read_config,
        "stream": read_stream,
        "json_lines": read_json_lines,
        "env_lines": read_env_lines,
    }
)
"""The reader of each syntax an input is written in, by name."""


def json_object(path: str, limits: Limits) -> dict[str, Any]:
    """The JSON object of ``path``: a host's ``resourceconfig.json``, a job's hyperparameters.

    Raises:
        InputError: the file cannot be read, or holds no JSON object: its
            first problem, after the file's name.
    """
    data: dict[str, Any] = json_document(path, limits).data
    return data


def json_document(path: str, limits: Limits) -> Document:
    """:func:`json_object`'s file as a document, which places what is found at its lines.

    Raises:
        InputError: as :func:`json_object`.
    """
    try:
        [read] = read_config(read_file(path, limits.max_size), path, "json", limits)
    except ConfigFileError as exc:
        raise InputError(f"{path}: {exc.errors[0].message}") from None
    if read.document is None or not isinstance(read.data, dict):
        raise InputError(f"{path}: expected a JSON object")
    return read.document
