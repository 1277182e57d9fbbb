"""Attribute values (``attr_value.proto``): the parameters of custom Grappler optimizers."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, model_validator
from typing_extensions import Self

from estconf._errors import custom_error
from estconf.session_config._message import Message
from estconf.session_config._values import (
    Float32,
    Int64,
    Map,
    ProtoBool,
    ProtoBytes,
    ProtoString,
    Repeated,
)
from estconf.session_config.tensor import DataType, TensorProto, TensorShapeProto

__all__ = ["AttrValue", "AttrValueList", "NameAttrList"]


class AttrValueList(Message):
    """``tensorflow.AttrValue.ListValue``: a list-valued attribute."""

    proto_name: ClassVar[str] = "tensorflow.AttrValue.ListValue"

    s: Repeated[ProtoBytes] | None = Field(None, description="String values, each base64 encoded.")
    i: Repeated[Int64] | None = Field(None, description="Integer values.")
    f: Repeated[Float32] | None = Field(None, description="Floating-point values.")
    b: Repeated[ProtoBool] | None = Field(None, description="Boolean values.")
    type: Repeated[DataType] | None = Field(None, description="Data type values.")
    shape: Repeated[TensorShapeProto] | None = Field(None, description="Shape values.")
    tensor: Repeated[TensorProto] | None = Field(None, description="Tensor values.")
    func: Repeated[NameAttrList] | None = Field(None, description="Function values.")


class AttrValue(Message):
    """``tensorflow.AttrValue``: the value of an attribute; at most one field is set."""

    proto_name: ClassVar[str] = "tensorflow.AttrValue"
    oneof: ClassVar[tuple[str, ...]] = (
        "s",
        "i",
        "f",
        "b",
        "type",
        "shape",
        "tensor",
        "list",
        "func",
        "placeholder",
    )
    """The fields of the ``value`` oneof: at most one of them may be set."""

    s: ProtoBytes | None = Field(None, description="A string value, base64 encoded.")
    i: Int64 | None = Field(None, description="An integer value.")
    f: Float32 | None = Field(None, description="A floating-point value.")
    b: ProtoBool | None = Field(None, description="A boolean value.")
    type: DataType | None = Field(None, description="A data type value.")
    shape: TensorShapeProto | None = Field(None, description="A shape value.")
    tensor: TensorProto | None = Field(None, description="A tensor value.")
    list: AttrValueList | None = Field(None, description="A list of values.")
    func: NameAttrList | None = Field(None, description="A function with its attributes.")
    placeholder: ProtoString | None = Field(
        None, description="In a function body: the name of the function attribute to substitute."
    )

    @model_validator(mode="after")
    def _one_value(self) -> Self:
        given = [name for name in self.oneof if getattr(self, name) is not None]
        if len(given) > 1:
            raise custom_error(
                "oneof",
                "At most one of the fields {fields} of an AttrValue may be set; got {given}",
                {"fields": ", ".join(self.oneof), "given": ", ".join(given)},
            )
        return self


class NameAttrList(Message):
    """``tensorflow.NameAttrList``: a function name with attribute values."""

    proto_name: ClassVar[str] = "tensorflow.NameAttrList"

    name: ProtoString | None = Field(None, description="Name of the function.")
    attr: Map[ProtoString, AttrValue] | None = Field(
        None, description="Attribute values, by attribute name."
    )
