"""Optional fields whose models are imported and built only when a value arrives.

A ``ConfigProto`` holds many nested messages (``GraphOptions``,
``RewriterConfig``, ``AttrValue``, ...).  Most configs set none of them, yet a
field typed ``GraphOptions | None`` makes pydantic import and build every
model below it as soon as the outer model is built.  A field annotated
``Annotated[Any, OnFirstUse(load)]`` instead takes any value, keeps
``None`` as it is, and validates anything else as the type ``load()`` returns,
importing and building that type on the first such value.  Dumps serialize the
value by its own type, and the JSON Schema is that of the loaded type, so the
field looks the same to every reader as a field of the loaded type.

``None`` never reaches the loaded type, so values are validated by the type
without its ``None``: for a model that is the model's own validator, where a
validator of ``X | None`` would compile the whole model a second time.

Type checkers see the real type: a module declares the alias twice, under
``TYPE_CHECKING`` as the loaded type and otherwise as the annotated ``Any``.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Union, get_args, get_origin

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, TypeAdapter
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema, to_json

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

__all__ = ["OnFirstUse", "field_type", "without_none"]


@functools.cache
def _loaded(load: Callable[[], Any]) -> Any:
    return load()


@functools.cache
def _adapter(load: Callable[[], Any]) -> TypeAdapter[Any]:
    return TypeAdapter(_loaded(load))


@functools.cache
def _value_adapter(load: Callable[[], Any]) -> TypeAdapter[Any]:
    return TypeAdapter(without_none(_loaded(load)))


def without_none(annotation: Any) -> Any:
    """``annotation`` without ``None``: ``X`` for ``X | None``, inside ``Annotated`` too.

    Any other annotation is returned as it is.
    """
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *metadata = get_args(annotation)
        arguments = (without_none(inner), *metadata)
        return Annotated[arguments]
    if origin is Union or origin is types.UnionType:
        kept = tuple(arg for arg in get_args(annotation) if arg is not type(None))
        return Union[kept]  # noqa: UP007 - a union built at run time
    return annotation


class OnFirstUse:
    """Field metadata: validate as ``load()``'s type, loaded on the first value but ``None``.

    Args:
        load: Imports and returns the type the field stands for (its
            ``X | None``); called once, on first use.
        ref: For a model's type (``X | None``), a name unique to it, such as
            ``tensorflow.GraphOptions``.  As the model's own reference would,
            it tells the JSON Schema generator that the field needs no title
            of its own.  ``None`` (the default) for any other type.
    """

    __slots__ = ("_load", "_ref")

    def __init__(self, load: Callable[[], Any], *, ref: str | None = None) -> None:
        self._load = load
        self._ref = ref

    def resolved_type(self) -> Any:
        """The type the field stands for (imported on the first call)."""
        return _loaded(self._load)

    def adapter(self) -> TypeAdapter[Any]:
        """The validator of the type the field stands for, built on the first call."""
        return _adapter(self._load)

    def value_adapter(self) -> TypeAdapter[Any]:
        """The validator of the values other than ``None``: the type without ``None``."""
        return _value_adapter(self._load)

    def _validate(self, value: Any, info: core_schema.ValidationInfo) -> Any:
        if value is None:
            return None
        adapter = self.value_adapter()
        if info.mode == "json":
            return adapter.validate_json(to_json(value), context=info.context)
        return adapter.validate_python(value, context=info.context)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_info_after_validator_function(
            self._validate, core_schema.any_schema(ref=self._ref)
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return handler(self.adapter().core_schema)


def field_type(field: FieldInfo) -> Any:
    """The type ``field`` stands for: its loaded type if built on first use, else its annotation.

    For readers of a model's fields (which keys a nested object may hold, or
    what a test should generate), so that they see through :class:`OnFirstUse`.
    """
    for item in field.metadata:
        if isinstance(item, OnFirstUse):
            return item.resolved_type()
    return field.annotation
