"""Reading one YAML text by both paths (rapidyaml, then ruamel.yaml alone) and comparing them.

Each path's outcome is either the documents read (their data with every
value's type, where each starts, where each value is) or the errors raised
(code, message, path, line and column).  The two outcomes of a text must be
equal: the native path reads it as ruamel.yaml does, or leaves it to
ruamel.yaml.
"""

from __future__ import annotations

import math
from typing import Any

from estconf.io import _yaml_native
from estconf.io._yaml import read_documents
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError
from estconf.io.parse import parse_documents


def typed(value: Any) -> Any:
    """``value`` with the type of every scalar beside it: ``1``, ``1.0`` and ``True`` differ."""
    if isinstance(value, dict):
        return ("dict", [(typed(key), typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def outcome(text: str, limits: Limits | None = None) -> Any:
    """What reading ``text`` as a YAML stream gives, in a form two readings compare by."""
    limits = limits or Limits()
    try:
        documents = parse_documents(
            text,
            "yaml",
            "f.yaml",
            limits.max_depth,
            max_size=limits.max_size,
            max_values=limits.max_values,
            max_documents=limits.max_documents,
        )
    except ConfigFileError as exc:
        return (
            "refused",
            [(e.code, e.message, e.loc, e.line, e.column) for e in exc.errors],
        )
    reads = read_documents(text, "f.yaml", limits)  # read again: every span, not those asked
    assert [typed(read.data) for read in reads] == [typed(d.data) for d in documents]
    placed = []
    for document in documents:
        # each scalar asked for alone, as a reader of a manifest asks (placed natively if it can)
        scalars = [path for path in _paths(document.data) if path and _scalar(document.data, path)]
        placed.append(
            sorted(((path, document.locate([path]).get(path)) for path in scalars), key=repr)
        )
    return (
        "read",
        [(typed(read.data), read.start, sorted(read.spans.items(), key=repr)) for read in reads],
        placed,
    )


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(data, dict):
        items: Any = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        items = ()
    for key, value in items:
        found.extend(_paths(value, (*path, key)))
    return found


def _scalar(data: Any, path: tuple[Any, ...]) -> bool:
    for step in path:
        data = data[step]
    return not isinstance(data, (dict, list))


def both(text: str, monkeypatch: Any, limits: Limits | None = None) -> tuple[Any, Any, bool]:
    """The outcome of each path, and whether the native path read the text itself."""
    monkeypatch.delenv(_yaml_native.ENVIRONMENT, raising=False)
    native = outcome(text, limits)
    read_natively = _yaml_native.read(text, limits or Limits()) is not None
    monkeypatch.setenv(_yaml_native.ENVIRONMENT, "ruamel")
    try:
        fallback = outcome(text, limits)
    finally:
        monkeypatch.delenv(_yaml_native.ENVIRONMENT, raising=False)
    return native, fallback, read_natively
