"""estconf._hashing: frozen models with lists and mappings in their fields hash."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict

from estconf._hashing import HashedByValue, field_hash


class Holder(HashedByValue):
    model_config = ConfigDict(frozen=True)

    items: list[Any]
    table: dict[str, Any]


class Nested(Holder):
    """A subclass keeps the base's hash."""

    more: list[int] = []


def test_lists_and_mappings_hash_by_value() -> None:
    first = Holder(items=[1, [2, {"a": [3]}]], table={"x": [1], "y": {"z": 2}})
    second = Holder(items=[1, [2, {"a": [3]}]], table={"y": {"z": 2}, "x": [1]})
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1


def test_other_values_hash_apart() -> None:
    assert hash(Holder(items=[1], table={})) != hash(Holder(items=[2], table={}))
    assert hash(Holder(items=[], table={"x": 1})) != hash(Holder(items=[], table={"x": 2}))


def test_subclasses_hash_by_value_too() -> None:
    first = Nested(items=[1], table={"x": [2]}, more=[3])
    assert hash(first) == hash(Nested(items=[1], table={"x": [2]}, more=[3])) == field_hash(first)
