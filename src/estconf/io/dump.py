"""A model written as a config file: JSON, TOML or YAML, that reads back into an equal model.

The file holds what the model was given, not what it derives: computed
fields (``master``, ``is_chief``, ...) and values equal to their defaults are
left out, so the file stays short and a later version's defaults apply.
Python-only arguments (``device_fn``, ...) are never written.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from estconf.io import parse

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["dump", "dumps", "dumps_manifests"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

# A plain scalar that a YAML 1.1 reader (kubectl's) may read as something else than a string:
# its booleans and null, and anything that starts as a number, a date or a sexagesimal does.
_NOT_PLAIN_IN_YAML_1_1 = re.compile(
    r"(?:y|n|yes|no|true|false|on|off|null|~|=|<<)\Z|[-+.0-9]", re.IGNORECASE
)


def _data(model: BaseModel) -> dict[str, Any]:
    """What the model was given: no computed fields, no defaults.

    A computed field that is also an argument (``master`` of ``tpu.RunConfig``,
    listed among the properties of the validation schema) is kept when the
    model does not read the same without it.
    """
    data: dict[str, Any] = model.model_dump(
        mode="json", by_alias=True, exclude_computed_fields=True, exclude_defaults=True
    )
    if _reads_back(model, data):
        return data
    schema = type(model).model_json_schema(mode="validation")
    arguments = set(schema.get("properties", {})) & set(type(model).model_computed_fields)
    given = model.model_dump(mode="json", include=arguments)
    return {**data, **given}


def _reads_back(model: BaseModel, data: dict[str, Any]) -> bool:
    from estconf.io.errors import ConfigFileError
    from estconf.io.files import loads

    try:
        return loads(json.dumps(data), "json", type(model)) == model
    except ConfigFileError:
        return False


def dumps(model: BaseModel, format: str) -> str:
    """Return the text of a config file in ``format`` (``json``, ``toml``, ``yaml``) for ``model``.

    Raises:
        ValueError: an unknown format, or a ``None`` that TOML cannot hold.
    """
    data = _data(model)
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if format == "toml":
        return _toml_of(model, data)
    if format == "yaml":
        from ruamel.yaml import YAML

        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = False
        stream = io.StringIO()
        yaml.dump(data, stream)
        return stream.getvalue()
    raise ValueError(f"unknown format {format!r}; the formats are json, toml, yaml")


def dump(model: BaseModel, path: str | PathLike[str], *, format: str | None = None) -> Path:
    """Write ``model`` to the config file ``path``, in the format its suffix says.

    :func:`estconf.files.load` reads the file back into an equal model.

    Returns:
        The path written.

    Raises:
        ValueError: the suffix says no format (and ``format`` is not given), or
            TOML cannot hold a ``None`` of the model.
    """
    target = Path(path)
    fmt = format or parse.format_of(target)
    if fmt is None:
        raise ValueError(f"{target}: name it .json, .toml, .yaml or .yml, or give the format")
    target.write_text(dumps(model, fmt), encoding="utf-8")
    return target


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


def _has_none(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_none(v) for v in value.values())
    if isinstance(value, list):
        return any(v is None or _has_none(v) for v in value)
    return False


def _toml_of(model: BaseModel, data: dict[str, Any]) -> str:
    """TOML has no null: leave out each ``None``, if the model reads the same without it."""
    reduced = _without_none(data)
    if _has_none(reduced) or (reduced != data and not _reads_back(model, reduced)):
        raise ValueError(
            f"{type(model).__name__} holds a None that TOML cannot write (TOML has no null) "
            "and that is not a default it could leave out: write JSON or YAML"
        )
    return _toml(reduced) if reduced else f"# a {type(model).__name__} of default values\n"


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    items = (f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
    return "{" + ", ".join(items) + "}"


def _toml(data: dict[str, Any]) -> str:
    """Top-level values first, then a ``[table]`` for each object; deeper objects inline."""
    lines = [
        f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)
    ]
    for key, table in data.items():
        if isinstance(table, dict):
            lines.append(f"\n[{_toml_key(key)}]")
            lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items())
    return "\n".join(lines).lstrip("\n") + "\n"


def dumps_manifests(documents: Sequence[Mapping[str, Any]]) -> str:
    """A YAML stream of Kubernetes manifests, each a document, that any YAML reader reads back.

    Keys are written sorted, so the text depends on the data alone.  A
    string that a YAML 1.1 reader (``kubectl``'s) would read as a boolean, a
    number or null (``on``, ``yes``, ``1:30``, ``0755``) is quoted, as is
    every string that starts like a number; a list of integers is written
    on one line.  Nothing but mappings, lists, strings, integers, booleans
    and None is written (the safe dumper refuses any other object).

    Raises:
        ruamel.yaml.representer.RepresenterError: a value of another type.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.representer import SafeRepresenter

    class _Representer(SafeRepresenter):
        pass

    def string(representer: SafeRepresenter, text: str) -> Any:
        style = '"' if not text or _NOT_PLAIN_IN_YAML_1_1.match(text) else None
        return representer.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    def sequence(representer: SafeRepresenter, items: list[Any]) -> Any:
        numbers = bool(items) and all(
            isinstance(item, int) and not isinstance(item, bool) for item in items
        )
        return representer.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=numbers)

    _Representer.add_representer(str, string)
    _Representer.add_representer(list, sequence)
    yaml = YAML(typ="safe", pure=True)
    yaml.Representer = _Representer
    yaml.default_flow_style = False
    yaml.width = 1 << 30  # a long value (a TF_CONFIG) stays on its line
    stream = io.StringIO()
    yaml.dump_all([dict(document) for document in documents], stream)
    return stream.getvalue()
