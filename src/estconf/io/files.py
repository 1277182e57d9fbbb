"""A config file validated into its model, with every problem located in the file.

:func:`load` (a file), :func:`loads` (text in memory) and :func:`read_data`
(plain data, no model) run the pipeline: read, decode, parse, the shared
checks, then the kind's key checks and model in strict mode.  A model's
errors name places in the data it validated; they are turned into
:class:`~estconf.io.errors.FileError` entries at the path the file gives
(a key it leaves out is named at the object that lacks it) and then placed
at their line and column, all with one search of the text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

from estconf._json import type_name
from estconf.finding import hint_of
from estconf.io import kinds, parse
from estconf.io._positions import Loc
from estconf.io.checks import MAX_DEPTH, MAX_DOCUMENTS, MAX_SIZE, Limits, check_size
from estconf.io.errors import (
    NO_VALUE,
    ConfigFileError,
    FileError,
    error,
    error_again,
    error_of,
    refused,
)

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

__all__ = ["FORMATS", "KINDS", "Loaded", "detect_kind", "load", "load_file", "loads", "read_data"]

M = TypeVar("M", bound="BaseModel")

FORMATS: tuple[str, ...] = ("json", "toml", "yaml")
"""The file formats read."""

KINDS: tuple[str, ...] = tuple(kinds.KINDS)
"""The kinds of config file read, by name (``tf_config``, ...)."""


def detect_kind(data: Mapping[str, Any]) -> str | None:
    """Return the kind a file's top-level keys mark (see :mod:`estconf.files`), or ``None``."""
    kind = kinds.detect(data)
    return None if kind is None else kind.name


@dataclasses.dataclass(frozen=True)
class Loaded:
    """A valid config file: its model, its kind, how the kind was told, what else was found.

    ``kind_from`` is ``given``, ``$schema``, ``file name`` or ``keys`` (see
    :func:`estconf.io.kinds.resolve`), or what the caller named in ``given_as``.
    ``findings`` are the warnings and notes of a valid file, each at its line
    (a TF_CONFIG's task at port 0, its loopback hosts: :mod:`estconf._addresses`).
    """

    model: BaseModel
    kind: str
    kind_from: str
    findings: tuple[FileError, ...] = ()


def load_file(
    path: str | PathLike[str],
    kind: str | type[BaseModel] | kinds.Kind | None = None,
    *,
    format: str | None = None,
    content: bytes | None = None,
    given_as: str = "given",
    profile: str | None = None,
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> Loaded:
    """Read and validate a config file as :func:`load` does, and say how its kind was told.

    Args:
        path: the file, or the name standing for ``content``.
        kind: as for :func:`load`.
        format: as for :func:`load`; needed with ``content`` whose name has no suffix.
        content: the file's bytes, already read (standard input); ``path`` is then not read.
        given_as: what to call a given ``kind`` in :attr:`Loaded.kind_from`
            (``--kind``, ``pyproject.toml``).
        profile: the reader a TF_CONFIG file is written for (``estimator``, ``mwms``,
            ``ps``): its rules, for this task and every task of the cluster, replace the
            estimator's rules for this task alone.
        max_size: the largest file read, in bytes.
        max_depth: the deepest nesting of objects and arrays read.
        max_values: the most values the data may hold once YAML aliases are
            expanded (by default as many as the text has characters, and at least 100,000;
            a YAML document as written also one per 16 bytes, at least 10,000).
        max_documents: the most documents of a YAML stream (empty ones, passed over, count).

    Raises:
        ConfigFileError: the file cannot be read or is not valid.
    """
    name = str(path)
    if content is None:
        raw = parse.read(Path(path), name, max_size)
    else:
        check_size(name, len(content), max_size)
        raw = content
    limits = Limits(max_size, max_depth, max_values, max_documents)
    document = parse.document_of(raw, _format(name, format), name, limits)
    return _validate(document, kind, name, given_as, profile)


@overload
def load(
    path: str | PathLike[str],
    kind: type[M],
    *,
    format: str | None = None,
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> M: ...


@overload
def load(
    path: str | PathLike[str],
    kind: str | kinds.Kind | None = None,
    *,
    format: str | None = None,
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> BaseModel: ...


def load(
    path: str | PathLike[str],
    kind: str | type[BaseModel] | kinds.Kind | None = None,
    *,
    format: str | None = None,
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> BaseModel:
    """Read the config file at ``path`` and return its validated model.

    Args:
        path: the file; its suffix gives the format unless ``format`` does.
        kind: the kind's name (``"tf_config"``, ...), model class
            (``estconf.TFConfig``, ...) or :class:`~estconf.io.kinds.Kind`;
            told from the content when ``None``.
        format: ``"json"``, ``"toml"`` or ``"yaml"``, to override the suffix.
        max_size: the largest file read, in bytes.
        max_depth: the deepest nesting of objects and arrays read.
        max_values: the most values the data may hold once YAML aliases are
            expanded (by default as many as the text has characters, and at least 100,000;
            a YAML document as written also one per 16 bytes, at least 10,000).
        max_documents: the most documents of a YAML stream (empty ones, passed over, count).

    Returns:
        The model of the file's kind.

    Raises:
        ConfigFileError: the file cannot be read or is not valid; its
            ``errors`` list every problem found.

    Example:
        >>> from estconf import TFConfig
        >>> tf_config = load("examples/tf_config_worker.json", TFConfig)
        >>> tf_config.task.type
        'worker'
    """
    # a missing file is reported before its name
    return load_file(
        path,
        kind,
        format=format,
        max_size=max_size,
        max_depth=max_depth,
        max_values=max_values,
        max_documents=max_documents,
    ).model


def read_data(
    path: str | PathLike[str],
    *,
    format: str | None = None,
    content: bytes | None = None,
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> Any:
    """Read a JSON, TOML or YAML file into plain data, with the checks of :func:`load`.

    Everything :func:`load` refuses before a model looks at the data is
    refused here too (bad UTF-8, repeated keys, NaN, deep nesting, ...).
    ``content`` is the file's bytes when they are already read (``path``
    then names the file).

    Raises:
        ConfigFileError: the file cannot be read as plain data.
    """
    name = str(path)
    if content is None:
        raw = parse.read(Path(path), name, max_size)
    else:
        check_size(name, len(content), max_size)
        raw = content
    limits = Limits(max_size, max_depth, max_values, max_documents)
    return parse.document_of(raw, _format(name, format), name, limits).data


@overload
def loads(
    content: str | bytes,
    format: str,
    kind: type[M],
    *,
    name: str = "<string>",
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> M: ...


@overload
def loads(
    content: str | bytes,
    format: str,
    kind: str | kinds.Kind | None = None,
    *,
    name: str = "<string>",
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> BaseModel: ...


def loads(
    content: str | bytes,
    format: str,
    kind: str | type[BaseModel] | kinds.Kind | None = None,
    *,
    name: str = "<string>",
    max_size: int = MAX_SIZE,
    max_depth: int = MAX_DEPTH,
    max_values: int | None = None,
    max_documents: int = MAX_DOCUMENTS,
) -> BaseModel:
    """Validate the text of a config file in ``format`` and return its model.

    Takes the same arguments as :func:`load`, with ``name`` standing for the
    file name in errors.

    Raises:
        ConfigFileError: the text is not a valid config; ``errors`` list every problem.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; the formats are {', '.join(FORMATS)}")
    # lone surrogates (from undecodable bytes) become bytes that decoding reports as bad UTF-8
    raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    check_size(name, len(raw), max_size)
    limits = Limits(max_size, max_depth, max_values, max_documents)
    return _validate(parse.document_of(raw, format, name, limits), kind, name).model


def _format(name: str, format: str | None) -> str:
    fmt = format or parse.format_of(name)
    if fmt is None:
        raise refused(
            name,
            "format",
            "cannot tell the format from the file name: name it .json, .toml, .yaml or .yml, "
            "or give the format explicitly",
        )
    return fmt


def _validate(
    document: parse.Document,
    kind: str | type[BaseModel] | kinds.Kind | None,
    name: str,
    given_as: str = "given",
    profile: str | None = None,
) -> Loaded:
    data = document.data
    if not isinstance(data, dict):
        raise refused(
            name,
            "not_an_object",
            f"a config file holds an object (a mapping) at the top level, not {type_name(data)}",
        )
    resolved = _choose_kind(kind, data, name)
    kind_from = given_as if resolved.source == "given" else resolved.source
    model = resolved.kind.model()
    from estconf.io.keys import check_keys, other_document

    other = other_document(data, name, model)
    if other is not None:  # whatever its name says
        raise ConfigFileError(name, document.place([other]), resolved.kind.name, kind_from)
    errors: list[FileError] = []
    if kinds.SCHEMA_KEY in data:
        data = dict(data)
        schema = data.pop(kinds.SCHEMA_KEY)
        if not isinstance(schema, str):
            message = (
                f"names the JSON Schema of the file: expected a string, not {type_name(schema)}"
            )
            errors.append(error(name, "schema_key", message, (kinds.SCHEMA_KEY,), value=schema))
    data, key_errors = check_keys(model, data, name)
    errors.extend(key_errors)
    # Another profile accepts this file only if the file has no error of its own.
    chosen = resolved.kind.under_profile(profile, name_others=not errors)
    from pydantic import ValidationError

    try:
        result = chosen.validate(data)
    except ValidationError as exc:
        errors.extend(_validation_errors(exc, data, model, name))
    found = _address_findings(name, document.data, chosen.name, errors)
    if errors:
        raise ConfigFileError(name, document.place([*errors, *found]), chosen.name, kind_from)
    return Loaded(result, chosen.name, kind_from, tuple(document.place(found)))


def _address_findings(
    name: str, data: Mapping[str, Any], kind: str, errors: list[FileError]
) -> list[FileError]:
    """The warnings and notes of a TF_CONFIG's or a cluster file's cluster, when it is valid.

    Its addresses are read as written, for the place of each finding in the
    file.  A cluster with no error under it is valid; one with an error there
    (an address, or a rule of the reader: no chief) is validated on its own.
    """
    if kind == "cluster":  # a cluster file: the jobs are at the top
        cluster: Any = {key: value for key, value in data.items() if key != kinds.SCHEMA_KEY}
        within: Loc = ()
    else:
        cluster, within = data.get("cluster"), ("cluster",)
    if kind not in ("tf_config", "cluster") or not isinstance(cluster, Mapping) or not cluster:
        return []
    if any(found.loc[: len(within)] == within for found in errors):
        from pydantic import ValidationError

        from estconf.cluster import ClusterSpec

        try:
            ClusterSpec.model_validate(cluster, strict=True)
        except ValidationError:
            return []
    from estconf._addresses import address_findings

    return [error_of(found, name, (*within, *found.loc[1:])) for found in address_findings(cluster)]


def _choose_kind(
    kind: str | type[BaseModel] | kinds.Kind | None, data: Mapping[str, Any], name: str
) -> kinds.Resolved:
    given = None
    if isinstance(kind, str):
        given = kinds.get(kind)
    elif isinstance(kind, kinds.Kind):
        given = kind
    elif kind is not None:
        given = kinds.of_model(kind)
        if given is None:
            raise ValueError(f"{kind.__name__} is not the model of a kind of config file")
    resolved = kinds.resolve(data, None if name.startswith("<") else name, given)
    from estconf.io.keys import other_document

    other = other_document(data, name) if resolved is None else None
    if other is not None:
        raise ConfigFileError(name, [other])
    if resolved is None:
        raise refused(
            name,
            "kind",
            'cannot tell what this file configures from its name, its "$schema" or its '
            f"top-level keys (the kinds are {', '.join(kinds.KINDS)}); give the kind explicitly",
        )
    return resolved


def _validation_errors(
    exc: ValidationError, data: Mapping[str, Any], model: type[BaseModel], name: str
) -> list[FileError]:
    """A model's errors, at the paths the file gives; a union's reports on one value joined."""
    from estconf.io.keys import file_keys, model_at, unknown_key_message

    errors: list[FileError] = []
    joinable = False  # whether the last error is about a value the file gives
    for found in exc.errors(include_url=False):
        path, rest = _data_path(data, tuple(found["loc"]))
        code, message, loc, on_key = found["type"], found["msg"], path, False
        value = found.get("input", NO_VALUE)
        left_out = False
        if rest[:1] == ("[key]",):
            on_key = True
        elif code == "extra_forbidden" and path:
            code, on_key = "unknown_key", True
            message = unknown_key_message(model_at(model, path[:-1]), path[-1])
        elif rest and isinstance(rest[0], str):
            holder = model_at(model, path)
            if holder is not None and rest[0] in file_keys(holder):
                loc, value, left_out = (*path, rest[0]), NO_VALUE, True
        if isinstance(value, (dict, list)):
            value = NO_VALUE
        hint = hint_of(found)
        new = error_again(name, code, message, loc, value=value, on_key=on_key, hint=hint)
        if rest and joinable and not left_out and _same_value(errors[-1], new):
            errors[-1] = _either(errors[-1], new)
        else:
            errors.append(new)
        joinable = not left_out
    return errors


_SHOULD = "Input should be "


def _same_value(first: FileError, second: FileError) -> bool:
    """Whether two errors are the union members' reports on one value the file gives."""
    return (first.loc, first.on_key) == (second.loc, second.on_key) and (
        first.value is second.value or first.value == second.value
    )


def _either(first: FileError, second: FileError) -> FileError:
    """Join two errors that the members of a union report for one value."""
    tail = second.message
    if first.message.startswith(_SHOULD) and tail.startswith(_SHOULD):
        tail = tail[len(_SHOULD) :]
    return dataclasses.replace(first, message=f"{first.message} or {tail}")


def _data_path(data: Any, loc: Loc) -> tuple[Loc, Loc]:
    """Split a pydantic location into the path it names in ``data`` and the rest."""
    path: list[str | int] = []
    node = data
    for step in loc:
        if isinstance(node, dict):
            key: Any = step
            if key not in node:
                key = str(step) if isinstance(step, int) else _int_or_none(step)
                if key is None or key not in node:
                    break
            node = node[key]
            path.append(key)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
            path.append(step)
        else:
            break
    return tuple(path), loc[len(path) :]


def _int_or_none(step: str | int) -> int | None:
    try:
        return int(step)
    except ValueError:
        return None
