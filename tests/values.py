"""Records that are values: an instance refuses assignment, and equal ones hash equal.

A frozen dataclass refuses with ``FrozenInstanceError``, a frozen pydantic
model with a ``ValidationError`` of type ``frozen_instance``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from pydantic import BaseModel, ValidationError


def field_names(record: object) -> list[str]:
    """The fields of a dataclass or pydantic model instance."""
    if isinstance(record, BaseModel):
        return list(type(record).model_fields)
    assert dataclasses.is_dataclass(record)
    return [field.name for field in dataclasses.fields(record)]


def refuses_assignment(record: object) -> None:
    """Assigning any field of ``record`` raises, and leaves the field as it was."""
    names = field_names(record)
    assert names
    for name in names:
        before = getattr(record, name)
        with pytest.raises((dataclasses.FrozenInstanceError, ValidationError)) as info:
            setattr(record, name, None)
        if isinstance(info.value, ValidationError):
            assert info.value.errors()[0]["type"] == "frozen_instance"
        assert getattr(record, name) is before


def is_a_value(make: Callable[[], object]) -> None:
    """Two records ``make`` builds refuse assignment, are equal, hash equal, and are one key."""
    first, second = make(), make()
    assert first is not second
    refuses_assignment(first)
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1
