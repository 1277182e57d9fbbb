"""``Message``: the base of the models of protobuf messages in their JSON form.

A message is read the way protobuf's JSON parser reads it: a JSON object whose
keys are the protobuf field names or their lowerCamelCase JSON names, where
``null`` means "not set".
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from pydantic import (
    AliasChoices,
    AliasGenerator,
    ConfigDict,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)
from typing_extensions import Self

from estconf._errors import Errors, custom_error
from estconf._hashing import HashedByValue
from estconf._json import JSONInputError, loads

__all__ = ["MAX_DEPTH", "Message", "json_name"]

MAX_DEPTH = 100
"""The deepest nesting of messages protobuf's JSON parser reads (the root counts as 1)."""


def json_name(name: str) -> str:
    """The lowerCamelCase JSON name protobuf gives a field (``allow_growth`` -> ``allowGrowth``)."""
    out: list[str] = []
    upper = False
    for char in name:
        if char == "_":
            upper = True
        else:
            out.append(char.upper() if upper else char)
            upper = False
    return "".join(out)


def _spellings(name: str) -> AliasChoices:
    return AliasChoices(name, json_name(name))


class Message(HashedByValue):
    """Base of the messages: frozen, unknown keys refused, ``None`` for a field not set.

    A field is read under its protobuf name or its JSON name (``allowGrowth``),
    not both; dumps use the protobuf names and leave out the fields not set.
    Messages nested deeper than protobuf's JSON parser reads (:data:`MAX_DEPTH`)
    are refused.
    """

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        alias_generator=AliasGenerator(validation_alias=_spellings),
        validate_by_name=True,
        defer_build=True,
    )

    proto_name: ClassVar[str] = ""
    """The full name of the protobuf message, e.g. ``tensorflow.GPUOptions``."""

    _depth: int = PrivateAttr(default=1)

    @model_validator(mode="before")
    @classmethod
    def _one_spelling_per_field(cls, data: Any) -> Any:
        if isinstance(data, dict):
            errors = Errors(cls.__name__)
            for name in cls.model_fields:
                camel = json_name(name)
                if camel != name and name in data and camel in data:
                    errors.add(
                        "duplicate_key",
                        "'{name}' is given twice, as '{name}' and as '{camel}'",
                        (camel,),
                        data[camel],
                        {"name": name, "camel": camel},
                    )
            errors.raise_if_any()
        return data

    @model_validator(mode="after")
    def _within_depth_limit(self) -> Self:
        depth = 1 + max(map(_depth_of, self._children()), default=0)
        if depth > MAX_DEPTH:
            raise custom_error(
                "depth",
                "Messages are nested {depth} deep; protobuf reads at most {limit}",
                {"depth": depth, "limit": MAX_DEPTH},
            )
        self._depth = depth
        return self

    # Without a return annotation pydantic keeps the model's own serialization JSON Schema.
    @model_serializer(mode="wrap")
    def _leave_out_fields_not_set(self, serialize: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        return {name: value for name, value in serialize(self).items() if value is not None}

    def _children(self) -> Iterator[Message]:
        for value in self.__dict__.values():  # the fields' values (extra keys are refused)
            if value is None:
                continue
            if isinstance(value, Message):
                yield value
            elif isinstance(value, list):
                yield from (item for item in value if isinstance(item, Message))
            elif isinstance(value, dict):
                yield from (item for item in value.values() if isinstance(item, Message))

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **options: Any) -> Self:
        """Read the message from JSON text, as protobuf's ``json_format.Parse`` reads it.

        The text is UTF-8 JSON without a byte order mark, and no object in it
        repeats a key (``duplicate_key``, with protobuf's sentence
        ``Failed to load JSON: duplicate key <key>.``); the values are then
        read as :meth:`model_validate` reads them.
        """
        try:
            text = (
                bytes(json_data).decode("utf-8")
                if isinstance(json_data, (bytes, bytearray))
                else json_data
            )
            data = loads(text, allow_nan=True, allow_lone_surrogates=True)
        except UnicodeDecodeError as exc:
            raise _text_error(
                cls, "json_invalid", f"invalid UTF-8: {exc.reason}", json_data
            ) from None
        except JSONInputError as exc:
            message = (
                exc.message if exc.key is None else f"Failed to load JSON: duplicate key {exc.key}."
            )
            raise _text_error(cls, exc.code, message, json_data) from None
        return cls.model_validate(data, **options)

    def to_proto_dict(self) -> dict[str, Any]:
        """The message as the JSON-ready dict protobuf's ``json_format.ParseDict`` reads.

        Field names are the protobuf names, enums are dumped by name, bytes as
        base64 and 64-bit integers as numbers; fields not set are left out.
        """
        data: dict[str, Any] = self.model_dump(mode="json")
        return data

    @classmethod
    def from_proto_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read the JSON form of the message (what ``json_format.MessageToDict`` writes)."""
        return cls.model_validate(data)

    def to_proto(self, message_class: Any = None) -> Any:
        """The protobuf message itself; needs ``protobuf``, and TensorFlow unless given the class.

        ``message_class`` is the generated protobuf class of this message; by
        default it is looked up among TensorFlow's.
        """
        json_format = importlib.import_module("google.protobuf.json_format")
        if message_class is None:
            message_class = _tensorflow_message_class(self.proto_name)
        return json_format.ParseDict(self.to_proto_dict(), message_class())

    @classmethod
    def from_proto(cls, message: Any) -> Self:
        """Read a protobuf message of this type (needs ``protobuf``)."""
        full_name = message.DESCRIPTOR.full_name
        if full_name != cls.proto_name:
            raise TypeError(f"{cls.__name__} reads {cls.proto_name} messages, not {full_name}")
        json_format = importlib.import_module("google.protobuf.json_format")
        # 17 digits write 32-bit floats exactly: the shortest form protobuf writes by
        # default rounds the largest ones up, past what its own parser reads back.
        data = json_format.MessageToDict(
            message, preserving_proto_field_name=True, float_precision=17
        )
        return cls.model_validate(data)


def _text_error(model: type[Message], code: str, message: str, text: Any) -> ValidationError:
    error = custom_error(code, "{message}", {"message": message})
    return ValidationError.from_exception_data(
        model.__name__, [{"type": error, "loc": (), "input": text}]
    )


def _depth_of(message: Message) -> int:
    # Read from the private storage: pydantic's __getattr__ is slow for private attributes.
    private = message.__pydantic_private__
    assert private is not None
    depth: int = private["_depth"]
    return depth


def _tensorflow_message_class(full_name: str) -> Any:
    """The generated class of a TensorFlow message, from the default descriptor pool."""
    importlib.import_module("tensorflow.core.protobuf.config_pb2")  # registers the messages
    pool = importlib.import_module("google.protobuf.descriptor_pool").Default()
    factory = importlib.import_module("google.protobuf.message_factory")
    return factory.GetMessageClass(pool.FindMessageTypeByName(full_name))
