"""Which keys a config file may hold, and a "did you mean" for the others.

From Python, a model takes its fields, and some take Python objects that no
file can hold (``device_fn``, distribution strategies): those fields are
excluded from dumps (``Field(exclude=True)``).  A file may hold the other
fields only, unless the model keeps unknown keys (``extra="allow"``, as
``TF_CONFIG`` does).  ``TF_CONFIG`` keeps them because platforms add their own
(``job``, ...), but not a near miss of one of its keys or of a ``RunConfig``
argument (``clusters``, ``save_checkpoint_steps``): that is a mistake, and a
kept one would make a broken file look valid.  :func:`check_keys` finds the
keys a file may not hold, nested models included, and returns the data
without them so that the models do not report them a second time.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Union

from pydantic import BaseModel, RootModel
from pydantic.fields import FieldInfo

from estconf._errors import unknown_key_message as unknown_key_hint
from estconf._on_first_use import field_type
from estconf._suggest import closest
from estconf.io import kinds
from estconf.io._positions import Loc
from estconf.io.errors import FileError, error

__all__ = [
    "NEAR_MISS",
    "check_keys",
    "file_keys",
    "model_at",
    "near_miss",
    "not_a_config_file",
    "other_document",
    "unknown_key_message",
]

_VARIABLE = "TF_CONFIG"
"""The environment variable's name, a key a file of its value never has."""

NEAR_MISS = 0.7
"""How alike (0 to 1, letter case ignored) an unknown ``TF_CONFIG`` key and a known key are
when the unknown one is taken for a misspelling of the known one."""


def file_keys(model: type[BaseModel]) -> dict[str, str]:
    """Return the keys a file may give ``model``, mapped to their field names.

    Derived keys (computed fields) are among them: a model's dump is a valid
    file, and the model checks that derived values agree with what it derives.
    """
    keys = {
        info.alias or name: name
        for name, info in model.model_fields.items()
        if info.exclude is not True
    }
    keys.update({name: name for name in model.model_computed_fields if name not in keys})
    return keys


def _keeps_unknown(model: type[BaseModel]) -> bool:
    return model.model_config.get("extra") == "allow"


def unknown_key_message(model: type[BaseModel] | None, key: str | int) -> str:
    """Say that ``key`` is not a key of ``model``, with the closest key if there is one."""
    message = f"unknown key {key!r}"
    if model is None:
        return message
    info = model.model_fields.get(key) if isinstance(key, str) else None
    if info is not None and info.exclude is True:
        return (
            f"{key!r} takes a Python object, so it cannot be given in a config file "
            f"(it is a Python-only argument of {model.__name__})"
        )
    return unknown_key_hint(model, str(key), list(file_keys(model)))


def _field_models(field: FieldInfo) -> list[type[BaseModel]]:
    """The models a field holds, also when its type is built on first use."""
    return _models_of(field_type(field))


def _models_of(annotation: Any) -> list[type[BaseModel]]:
    """The models an annotation holds directly: ``X``, ``X | None``, ``Annotated[X, ...]``."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _models_of(typing.get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [model for arg in typing.get_args(annotation) for model in _models_of(arg)]
    if (
        isinstance(annotation, type)
        and issubclass(annotation, BaseModel)
        and not issubclass(annotation, RootModel)
    ):
        return [annotation]
    return []


def model_at(model: type[BaseModel], path: Loc) -> type[BaseModel] | None:
    """Return the model that validates the object at ``path`` of data for ``model``, if known."""
    current: type[BaseModel] | None = model
    for step in path:
        if current is None or not isinstance(step, str):
            return None
        name = file_keys(current).get(step)
        if name is None:
            return None
        field = current.model_fields.get(name)
        found = [] if field is None else _field_models(field)
        current = found[0] if len(found) == 1 else None
    return current


def check_keys(
    model: type[BaseModel], data: Mapping[Any, Any], file: str, path: Loc = ()
) -> tuple[dict[Any, Any], list[FileError]]:
    """Find the keys of ``data`` (and of its nested objects) that a file may not give.

    Returns:
        ``data`` without those keys, and an ``unknown_key`` error of ``file`` for each.
        Whether ``data`` is a config file at all is :func:`other_document`'s to say.
        A root model's keys are its data (a cluster's jobs), which it checks itself.
    """
    if issubclass(model, RootModel):
        return dict(data), []
    if _keeps_unknown(model):
        return dict(data), _near_misses(model, data, file, path)
    keys = file_keys(model)
    kept: dict[Any, Any] = {}
    errors: list[FileError] = []
    for key, value in data.items():
        name = keys.get(key) if isinstance(key, str) else None
        if name is None:
            message = unknown_key_message(model, key)
            errors.append(error(file, "unknown_key", message, (*path, key), on_key=True))
            continue
        field = model.model_fields.get(name)
        nested = [] if field is None else _field_models(field)
        if len(nested) == 1 and isinstance(value, Mapping):
            value, inner = check_keys(nested[0], value, file, (*path, key))
            errors.extend(inner)
        kept[key] = value
    return kept, errors


def other_document(
    data: Mapping[Any, Any], file: str, model: type[BaseModel] | None = None
) -> FileError | None:
    """The error refusing ``data`` as a file of ``model`` (or of any kind).

    ``None`` unless ``data`` is another tool's document, whatever its name says:
    a Kubernetes manifest (``kubernetes_manifest``) or a JSON Schema
    (``json_schema``).
    """
    if kinds.manifest_of(data) is not None:
        return error(file, "kubernetes_manifest", not_a_config_file(data, model))
    schema = kinds.json_schema_of(data)
    if schema is not None:
        return error(file, "json_schema", f"{schema}, not {_config_file(model)}")
    return None


def _config_file(model: type[BaseModel] | None) -> str:
    return kinds.file_of(None if model is None else kinds.of_model(model))


def not_a_config_file(data: Mapping[Any, Any], model: type[BaseModel] | None = None) -> str:
    """Say that the Kubernetes manifest ``data`` is not a file of ``model`` (or of any kind).

    A TFJob's manifest is a file estconf reads as a whole: the message says how.
    """
    message = f"{kinds.manifest_of(data)}, not {_config_file(model)}"
    if kinds.is_tfjob(data):
        message += " (estconf validate checks a TFJob manifest: the TF_CONFIG of each of its pods)"
    return message


def _near_misses(
    model: type[BaseModel], data: Mapping[Any, Any], file: str, path: Loc
) -> list[FileError]:
    """The ``near_miss_key`` errors of a ``TF_CONFIG``'s keys; other models keep theirs."""
    if kinds.of_model(model) is not kinds.KINDS["tf_config"]:
        return []
    found = []
    for key in data:
        message = near_miss(key) if isinstance(key, str) else None
        if message is not None:
            found.append(error(file, "near_miss_key", message, (*path, key), on_key=True))
    return found


def near_miss(key: str) -> str | None:
    """Say why an unknown ``TF_CONFIG`` key is an error, or ``None`` if it may be kept.

    It is an error when it is a ``RunConfig`` argument, or as alike as
    :data:`NEAR_MISS` to a ``TF_CONFIG`` key or a ``RunConfig`` argument.
    """
    if key in kinds.TF_CONFIG_KEYS:
        return None
    if key == _VARIABLE:  # {"TF_CONFIG": "..."}: the variable, not its value
        return (
            f"unknown key {key!r} of TF_CONFIG: a TF_CONFIG file holds the value of the "
            "variable, its keys (cluster, task, ...) at the top level"
        )
    arguments = kinds.run_config_arguments()
    if key in arguments:
        return f"{key!r} is an argument of RunConfig, not a key of TF_CONFIG"
    own = closest(key, sorted(kinds.TF_CONFIG_KEYS), NEAR_MISS)
    if own is not None:
        return f"unknown key {key!r} of TF_CONFIG; did you mean {own!r}?"
    argument = closest(key, sorted(arguments - kinds.TF_CONFIG_KEYS), NEAR_MISS)
    if argument is not None:
        return f"unknown key {key!r} of TF_CONFIG; did you mean {argument!r} of RunConfig?"
    return None
