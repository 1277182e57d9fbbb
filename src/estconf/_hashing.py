"""Hashing frozen models whose fields hold lists and mappings.

pydantic hashes a frozen model by the tuple of its field values, which fails
on a list or a dict: a ``ConfigProto``'s ``device_filters``, a ``TF_CONFIG``'s
``service``, a ``TPUConfig``'s ``input_partition_dims``, a TFJob's replica
specs.  Models built on :class:`HashedByValue` hash a frozen copy of the
values instead, so that they are hashable and equal models hash equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

__all__ = ["HashedByValue", "field_hash"]


def _frozen(value: Any) -> Any:
    """``value`` with its lists as tuples and its mappings as sets of items, recursively."""
    if isinstance(value, Mapping):
        return frozenset((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


def field_hash(model: BaseModel) -> int:
    """The hash of ``model``'s field values, lists and mappings included.

    Consistent with pydantic's equality, which compares the field values:
    equal lists give equal tuples, and equal mappings equal sets of items.
    """
    return hash(tuple(_frozen(getattr(model, name)) for name in type(model).model_fields))


class HashedByValue(BaseModel):
    """A base for frozen models: hashed by :func:`field_hash`, lists and mappings included.

    pydantic keeps a ``__hash__`` a base defines, so every subclass hashes
    this way.
    """

    def __hash__(self) -> int:
        """Hash the field values, lists and mappings included (equal models hash equal)."""
        return field_hash(self)
