"""Reading a dump back: derived keys must agree with what the model derives.

A model's ``model_dump()`` holds its computed fields next to its inputs.  So
that ``model_validate(model_dump())`` works, a model validator strips the
computed keys from the input, builds the model, and accepts the stripped
values only if they equal what the model computed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType
from typing import Any, Final, TypeVar

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from estconf._errors import Errors

__all__ = ["read_back_derived"]

Model = TypeVar("Model", bound=BaseModel)

_NO_HINTS: Final[Mapping[str, str]] = MappingProxyType({})


@functools.cache
def _derived_keys(cls: type[BaseModel], arguments: tuple[str, ...]) -> frozenset[str]:
    """The computed keys of ``cls`` that are neither fields nor constructor arguments."""
    return frozenset(cls.model_computed_fields.keys() - cls.model_fields.keys() - set(arguments))


def read_back_derived(
    cls: type[Model],
    data: Any,
    handler: Callable[[Any], Model],
    hints: Mapping[str, str] = _NO_HINTS,
    arguments: Collection[str] = (),
) -> Model:
    """Validate ``data`` with ``handler``, checking the computed fields it gives.

    Args:
        cls: The model being validated.
        data: The input; only a mapping can hold computed keys.
        handler: What builds the model from the rest of ``data`` (a wrap validator's handler).
        hints: Text to append to the error for a key, by key.
        arguments: Computed keys that are also constructor arguments (left in ``data``).

    Returns:
        The model built from ``data`` without its computed keys.

    Raises:
        pydantic.ValidationError: a computed key disagrees with the computed value
            (``derived_mismatch``), or the rest of ``data`` is invalid.
    """
    given: dict[str, Any] = {}
    if isinstance(data, Mapping):
        derived = _derived_keys(cls, tuple(arguments))
        if not derived.isdisjoint(data):
            given = {key: value for key, value in data.items() if key in derived}
            data = {key: value for key, value in data.items() if key not in given}
    model = handler(data)
    if given:
        actual = model.model_dump(mode="json", include=set(given))
        errors = Errors(cls.__name__)
        for key, value in given.items():
            if not _same_json(to_jsonable_python(value), actual[key]):
                errors.add(
                    "derived_mismatch",
                    "{key} is derived from TF_CONFIG and the other settings, which give "
                    "{actual}; remove it or make it agree{hint}",
                    (key,),
                    value,
                    {"key": key, "actual": repr(actual[key]), "hint": hints.get(key, "")},
                )
        errors.raise_if_any()
    return model


def _same_json(given: Any, derived: Any) -> bool:
    """Whether two JSON values are equal as JSON has them: ``true`` is not ``1``, nor ``0`` false.

    Python's ``==`` takes a bool for the integer it stands for; the JSON
    Schema of a dump does not, and neither does reading one back.
    """
    if isinstance(given, bool) or isinstance(derived, bool):
        return type(given) is type(derived) and given == derived
    if isinstance(given, list) and isinstance(derived, list):
        return len(given) == len(derived) and all(map(_same_json, given, derived))
    if isinstance(given, dict) and isinstance(derived, dict):
        return given.keys() == derived.keys() and all(
            _same_json(value, derived[key]) for key, value in given.items()
        )
    return bool(given == derived)
