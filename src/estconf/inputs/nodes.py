"""The nodes of a job, as ``estconf check-cluster`` is given them: a TF_CONFIG each.

A node is a TF_CONFIG file (JSON, TOML, YAML), a container's env list
holding one, or a Kubernetes manifest setting one (a stream of them, each a
node); a line of JSON lines (``.jsonl``, ``.ndjson``, standard input), or
a TF_CONFIG an env file or shell script sets (``.env``, ``.sh``, read as
:mod:`estconf.io.shell` reads them).  A directory stands for
its files of those kinds (not its subdirectories); a manifest found there
that sets no TF_CONFIG (a task's Service) is passed over.  Every node is
read by :mod:`estconf.io.reading`, with the checks of a config file's
values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from estconf._path import format_path
from estconf.inputs.manifests import placed, tf_configs_in
from estconf.inputs.shell_files import SUFFIXES
from estconf.io import kinds
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError, error
from estconf.io.parse import format_of
from estconf.io.reading import (
    Read,
    read_json_lines,
    read_stream,
    shell_reads,
    tf_config_text,
)
from estconf.io.sources import STDIN, STDIN_NAME, read_file, read_stdin

if TYPE_CHECKING:
    from estconf.io._positions import Loc
    from estconf.io.errors import FileError

__all__ = [
    "ENV_SUFFIXES",
    "JSON_LINES_SUFFIXES",
    "NODE_SUFFIXES",
    "Nodes",
    "Unreadable",
    "read_nodes",
]

JSON_LINES_SUFFIXES: Final = (".jsonl", ".ndjson")
NODE_SUFFIXES: Final = (".json", ".toml", ".yaml", ".yml")
ENV_SUFFIXES: Final = tuple(SUFFIXES)
"""Files that set TF_CONFIG: a shell script, an env file (as ``tf-config`` writes, or by hand)."""


class Unreadable(ValueError):
    """An input that cannot be read: ``file`` and its ``errors``."""

    def __init__(self, file: str, errors: list[FileError]) -> None:
        super().__init__("\n".join(str(found) for found in errors))
        self.file = file
        self.errors = errors


@dataclass
class Nodes:
    """The nodes of every input, and what was found reading them.

    Attributes:
        nodes: ``(name, TF_CONFIG)`` of each node, in order: the TF_CONFIG
            as data, or the text of one that is no JSON object (which
            :func:`~estconf.deployment.check_cluster` reports at the node).
        key_errors: what the keys of node files break, as ``validate`` finds it.
        passed_over: the files of a directory that are Kubernetes manifests
            setting no TF_CONFIG, each with why.
        warnings: what another reader of a node's file may read otherwise (an
            env file's quoted value, which ``docker run --env-file`` keeps).
    """

    nodes: list[tuple[str, Any]] = field(default_factory=list)
    key_errors: list[FileError] = field(default_factory=list)
    passed_over: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[FileError] = field(default_factory=list)


def read_nodes(inputs: Iterable[str], limits: Limits | None = None) -> Nodes:
    """The nodes of every input: files, directories, ``-`` for JSON lines on standard input.

    Raises:
        Unreadable: an input cannot be read, or a node's TF_CONFIG holds a
            value no config may hold.
    """
    found = Nodes()
    read = _read_nodes(inputs, limits or Limits(), found)
    found.nodes.extend(read)
    return found


def _read_nodes(inputs: Iterable[str], limits: Limits, found: Nodes) -> Iterator[tuple[str, Any]]:
    """``(name, TF_CONFIG)`` of every node of every input, in order.

    What the keys of a node file break (:func:`_key_errors`) goes to
    ``found.key_errors``; the files of a directory that are Kubernetes
    manifests setting no TF_CONFIG (the Services of a job's tasks, say) go to
    ``found.passed_over``, and the warnings of env files to ``found.warnings``.
    """
    for name in inputs:
        if name == STDIN:
            try:
                data = read_stdin(limits.max_size)
            except ConfigFileError as exc:
                raise Unreadable(STDIN_NAME, exc.errors) from None
            yield from _nodes(read_json_lines, data, STDIN_NAME, "jsonl", limits)
            continue
        path = Path(name)
        if path.is_dir():
            entries = sorted(
                entry
                for entry in path.iterdir()
                if entry.suffix.lower() in (*NODE_SUFFIXES, *JSON_LINES_SUFFIXES, *ENV_SUFFIXES)
                and entry.is_file()
            )
            for entry in entries:
                yield from _read_file(str(entry), limits, found, found.passed_over)
        else:
            yield from _read_file(name, limits, found, None)


def _nodes(
    reader: Callable[..., list[Read]], raw: bytes | str, name: str, fmt: str, limits: Limits
) -> Iterator[tuple[str, Any]]:
    """``(name, TF_CONFIG)`` of each node ``reader`` reads; what it refuses is unreadable."""
    try:
        read = reader(raw, name, fmt, limits)
    except ConfigFileError as exc:
        raise Unreadable(exc.file, exc.errors) from None
    return ((node.name, node.data) for node in read)


def _read_file(
    name: str,
    limits: Limits,
    into: Nodes,
    passed_over: list[tuple[str, str]] | None,
) -> Iterator[tuple[str, Any]]:
    """The nodes of one file; ``passed_over`` is None for a file named, not found in a directory."""
    from estconf import files

    suffix = Path(name).suffix.lower()
    try:
        if suffix in JSON_LINES_SUFFIXES:
            raw = read_file(name, limits.max_size)
            yield from _nodes(read_json_lines, raw, name, "jsonl", limits)
        elif suffix in ENV_SUFFIXES:
            from estconf.io.shell import read_shell

            shell = read_shell(read_file(name, limits.max_size), name, SUFFIXES[suffix])
            into.warnings.extend(shell.warnings)
            yield from ((read.name, read.data) for read in shell_reads(shell, limits))
        else:
            if format_of(name) == "yaml":  # read once, as a stream: one document or several
                reads = read_stream(read_file(name, limits.max_size), name, "yaml", limits)
                if len(reads) > 1:
                    yield from _stream(name, reads, limits, passed_over)
                    return
                data = reads[0].data
            else:
                data = files.read_data(name, **dataclasses.asdict(limits))
            found = _set_in(name, data)
            if found is None:  # the file is the TF_CONFIG itself
                into.key_errors.extend(_key_errors(name, data))
                yield name, data
            elif not found:  # a manifest that sets none
                message = f"{kinds.manifest_of(data)} sets {_NO_TF_CONFIG}"
                if passed_over is None:
                    raise _unreadable(error(name, "no_tf_config", message))
                passed_over.append((name, message))
            elif len(found) == 1:
                yield _text_read(name, found[0][1], limits)
            else:
                yield from (
                    _text_read(f"{name} ({format_path(path)})", value, limits)
                    for path, value in found
                )
    except ConfigFileError as exc:
        raise Unreadable(name, exc.errors) from None


def _text_read(name: str, text: str, limits: Limits) -> tuple[str, Any]:
    """A node whose TF_CONFIG is a manifest's text, read as the text of a TF_CONFIG file is."""
    try:
        return name, tf_config_text(text, name, limits)
    except ConfigFileError as exc:
        raise Unreadable(exc.file, exc.errors) from None


def _stream(
    name: str, reads: list[Read], limits: Limits, passed_over: list[tuple[str, str]] | None
) -> Iterator[tuple[str, Any]]:
    """The nodes of a YAML stream of env lists and manifests, each ``FILE:LINE`` of its value.

    ``tf-config --format k8s`` writes such a stream of env lists; a job's
    manifests hold a Job for each task and the Services that name them, which
    set no TF_CONFIG.  A stream holding another document (a TF_CONFIG) is
    refused: one file, one TF_CONFIG.
    """
    nodes = []
    for read in reads:
        found = _set_in(name, read.data)
        if found is None:
            message = (
                "the file holds more than one YAML document, and not only env lists and "
                "Kubernetes manifests that set TF_CONFIG"
            )
            raise _unreadable(error(name, "documents", message))
        assert read.document is not None
        for _, value, position in placed(read.document, found):
            nodes.append((name if position is None else f"{name}:{position.line}", value))
    message = f"the Kubernetes manifests of the stream set {_NO_TF_CONFIG}"
    if nodes:
        yield from (_text_read(node, value, limits) for node, value in nodes)
    elif passed_over is None:
        raise _unreadable(error(name, "no_tf_config", message))
    else:
        passed_over.append((name, message))


def _unreadable(found: FileError) -> Unreadable:
    return Unreadable(found.file, [found])


_NO_TF_CONFIG = "no TF_CONFIG (a valueFrom is read only in a pod)"


def _set_in(name: str, data: Any) -> list[tuple[Loc, str]] | None:
    """The TF_CONFIG values a container's env list or a Kubernetes manifest sets, by path.

    ``None`` when ``data`` is neither: it is a TF_CONFIG itself; ``[]`` for a
    manifest that sets none.  A TFJob, and an env list that sets no TF_CONFIG
    value, are refused.
    """
    from estconf import TFConfig
    from estconf.io.keys import not_a_config_file

    if not isinstance(data, dict):
        return None
    env_list = kinds.is_env_list(data)
    manifest = kinds.manifest_of(data)
    if kinds.is_tfjob(data):
        raise _unreadable(error(name, "kubernetes_manifest", not_a_config_file(data, TFConfig)))
    if not env_list and manifest is None:
        return None
    found = list(tf_configs_in(data))
    if not found and env_list:
        raise _unreadable(error(name, "no_tf_config", f"the env list sets {_NO_TF_CONFIG}"))
    return found


def _key_errors(name: str, data: Any) -> list[FileError]:
    """The keys of a node file that a TF_CONFIG file may not have, as ``validate`` finds them.

    A TF_CONFIG keeps unknown keys, but not a near miss of one of its keys or
    of a RunConfig argument (``clusters``): such a node would run alone.  A
    node file that is another tool's document (a JSON Schema) is refused as one.
    """
    from estconf import TFConfig
    from estconf.io.keys import check_keys, other_document

    if not isinstance(data, dict):
        return []
    other = other_document(data, name, TFConfig)
    return [other] if other is not None else check_keys(TFConfig, data, name)[1]
