"""estconf._on_first_use: an optional field reads, dumps and describes as its type, built on use."""

from __future__ import annotations

from typing import Annotated, Any, Union

import pytest
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
    ValidationInfo,
)

from estconf._on_first_use import OnFirstUse, field_type, without_none


def _read_as(value: str, info: ValidationInfo) -> str:
    return f"{value}, read as {info.mode}"


class Blob(BaseModel):
    data: bytes
    size: int = 0
    told: Annotated[str, AfterValidator(_read_as)] = ""


class Eager(BaseModel):
    blob: Blob | None = Field(None, description="A blob.")
    sizes: dict[str, int] | None = Field(None, description="Sizes by name.")


def _lazy() -> tuple[type[BaseModel], list[str]]:
    """A model as :class:`Eager` whose fields are built on first use, and the types it loaded."""
    loaded: list[str] = []

    def load_blob() -> Any:
        loaded.append("Blob")
        return Blob | None

    def load_sizes() -> Any:
        loaded.append("sizes")
        return dict[str, int] | None

    class Fresh(BaseModel):
        blob: Annotated[Any, OnFirstUse(load_blob, ref="tests.Blob")] = None
        sizes: Annotated[Any, OnFirstUse(load_sizes)] = None

    return Fresh, loaded


def _load_blob() -> Any:
    return Blob | None


def _load_sizes() -> Any:
    return dict[str, int] | None


class Lazy(BaseModel):
    blob: Annotated[Any, OnFirstUse(_load_blob, ref="tests.Blob")] = Field(
        None, description="A blob."
    )
    sizes: Annotated[Any, OnFirstUse(_load_sizes)] = Field(None, description="Sizes by name.")


def test_nothing_is_loaded_for_a_value_left_out_or_none() -> None:
    lazy, loaded = _lazy()
    assert lazy().model_dump() == {"blob": None, "sizes": None}
    assert lazy(blob=None).model_dump() == {"blob": None, "sizes": None}
    assert lazy.model_validate_json('{"blob": null}').model_dump()["blob"] is None
    assert loaded == []


def test_a_value_is_read_as_its_type() -> None:
    lazy, loaded = _lazy()
    read = lazy.model_validate({"blob": {"data": b"hi", "size": "2"}})
    assert read.model_dump()["blob"] == Blob(data=b"hi", size=2).model_dump()
    assert loaded == ["Blob"]
    assert lazy.model_validate({"sizes": {"a": "1"}}).model_dump()["sizes"] == {"a": 1}
    assert loaded == ["Blob", "sizes"]


def test_json_is_read_as_json() -> None:
    """A value of JSON text is read by the type in JSON mode, as a field of the type is."""
    text = '{"blob": {"data": "hi", "told": "x"}}'
    assert Lazy.model_validate_json(text).blob == Eager.model_validate_json(text).blob
    assert Lazy.model_validate_json(text).blob.told == "x, read as json"
    assert Lazy.model_validate({"blob": {"data": "hi", "told": "x"}}).blob.told == (
        "x, read as python"
    )


def test_errors_are_placed_inside_the_field() -> None:
    given = {"blob": {"data": b"x", "size": "many"}, "sizes": {"a": "one"}}
    with pytest.raises(ValidationError) as lazy:
        Lazy.model_validate(given)
    with pytest.raises(ValidationError) as eager:
        Eager.model_validate(given)
    assert [(e["loc"], e["type"]) for e in lazy.value.errors()] == [
        (("blob", "size"), "int_parsing"),
        (("sizes", "a"), "int_parsing"),
    ]
    assert [(e["loc"], e["type"]) for e in eager.value.errors()] == [
        (("blob", "size"), "int_parsing"),
        (("sizes", "a"), "int_parsing"),
    ]


def test_dumps_are_those_of_the_type() -> None:
    given = {"blob": {"data": b"hi", "size": 2}, "sizes": {"a": 1}}
    lazy, eager = Lazy.model_validate(given), Eager.model_validate(given)
    assert lazy.model_dump() == eager.model_dump()
    assert lazy.model_dump_json() == eager.model_dump_json()
    again = Lazy.model_validate_json(lazy.model_dump_json())
    assert again.model_dump() == Eager.model_validate_json(eager.model_dump_json()).model_dump()


def test_json_schema_is_that_of_the_type() -> None:
    lazy, eager = Lazy.model_json_schema(), Eager.model_json_schema()
    assert lazy["properties"] == eager["properties"]
    assert lazy["$defs"] == eager["$defs"]
    assert "title" not in lazy["properties"]["blob"]
    assert lazy["properties"]["sizes"]["title"] == "Sizes"


def test_field_type_sees_through_to_the_loaded_type() -> None:
    assert field_type(Lazy.model_fields["blob"]) == Blob | None
    assert field_type(Lazy.model_fields["sizes"]) == dict[str, int] | None
    assert field_type(Eager.model_fields["blob"]) == Blob | None


def test_the_type_is_built_once() -> None:
    lazy, loaded = _lazy()
    lazy.model_validate({"blob": {"data": b"a"}})
    lazy.model_validate({"blob": {"data": b"b"}})
    info = lazy.model_fields["blob"].metadata[0]
    assert isinstance(info, OnFirstUse)
    assert info.adapter() is info.adapter()
    assert info.value_adapter() is info.value_adapter()
    assert loaded == ["Blob"]


def test_values_are_validated_by_the_models_own_validator() -> None:
    """``None`` never reaches the type, so a model's validator is not compiled a second time."""
    Lazy.model_validate({"blob": {"data": b"a"}})
    info = Lazy.model_fields["blob"].metadata[0]
    assert isinstance(info, OnFirstUse)
    assert info.value_adapter().validator is Blob.__pydantic_validator__
    assert info.adapter().validator is not Blob.__pydantic_validator__


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Blob | None, Blob),
        (Union[Blob, None], Blob),  # noqa: UP007 - the typing spelling is read too
        (Blob | int | None, Blob | int),
        (
            Annotated[Blob | None, BeforeValidator(_upper)],
            Annotated[Blob, BeforeValidator(_upper)],
        ),
        (Blob, Blob),
        (dict[str, int], dict[str, int]),
        (type(None), type(None)),
    ],
)
def test_without_none_drops_none_from_a_union(annotation: Any, expected: Any) -> None:
    assert without_none(annotation) == expected


def test_a_before_validator_still_sees_every_value_but_none() -> None:
    def load() -> Any:
        return Annotated[Blob | None, BeforeValidator(_as_blob)]

    class Given(BaseModel):
        blob: Annotated[Any, OnFirstUse(load)] = None

    assert Given(blob="raw").blob == Blob(data=b"raw")
    assert Given(blob=None).blob is None


def _as_blob(value: Any) -> Any:
    return {"data": value} if isinstance(value, str) else value
