"""Tensors as protobuf writes them: ``TensorProto``, its shape, type and resource handles.

Custom Grappler optimizers take parameters as ``AttrValue``s, which can hold
tensors; these are the messages of TensorFlow's ``tensor.proto``,
``tensor_shape.proto``, ``resource_handle.proto`` and ``types.proto``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from estconf.session_config._message import Message
from estconf.session_config._values import (
    Double,
    Float32,
    Int32,
    Int64,
    ProtoBool,
    ProtoBytes,
    ProtoEnum,
    ProtoString,
    Repeated,
    UInt32,
    UInt64,
)

__all__ = [
    "DataType",
    "DtypeAndShape",
    "ResourceHandleProto",
    "TensorProto",
    "TensorShapeDim",
    "TensorShapeProto",
    "VariantTensorDataProto",
]


DataType = Annotated[
    Literal[
        "DT_INVALID",
        "DT_FLOAT",
        "DT_DOUBLE",
        "DT_INT32",
        "DT_UINT8",
        "DT_INT16",
        "DT_INT8",
        "DT_STRING",
        "DT_COMPLEX64",
        "DT_INT64",
        "DT_BOOL",
        "DT_QINT8",
        "DT_QUINT8",
        "DT_QINT32",
        "DT_BFLOAT16",
        "DT_QINT16",
        "DT_QUINT16",
        "DT_UINT16",
        "DT_COMPLEX128",
        "DT_HALF",
        "DT_RESOURCE",
        "DT_VARIANT",
        "DT_UINT32",
        "DT_UINT64",
        "DT_FLOAT8_E5M2",
        "DT_FLOAT8_E4M3FN",
        "DT_INT4",
        "DT_UINT4",
        "DT_FLOAT_REF",
        "DT_DOUBLE_REF",
        "DT_INT32_REF",
        "DT_UINT8_REF",
        "DT_INT16_REF",
        "DT_INT8_REF",
        "DT_STRING_REF",
        "DT_COMPLEX64_REF",
        "DT_INT64_REF",
        "DT_BOOL_REF",
        "DT_QINT8_REF",
        "DT_QUINT8_REF",
        "DT_QINT32_REF",
        "DT_BFLOAT16_REF",
        "DT_QINT16_REF",
        "DT_QUINT16_REF",
        "DT_UINT16_REF",
        "DT_COMPLEX128_REF",
        "DT_HALF_REF",
        "DT_RESOURCE_REF",
        "DT_VARIANT_REF",
        "DT_UINT32_REF",
        "DT_UINT64_REF",
        "DT_FLOAT8_E5M2_REF",
        "DT_FLOAT8_E4M3FN_REF",
        "DT_INT4_REF",
        "DT_UINT4_REF",
    ],
    ProtoEnum("tensorflow.DataType", numbers=(*range(26), 29, 30, *range(101, 126), 129, 130)),
]
"""``tensorflow.DataType``: the element type of a tensor."""


class TensorShapeDim(Message):
    """``tensorflow.TensorShapeProto.Dim``: one dimension of a shape."""

    proto_name: ClassVar[str] = "tensorflow.TensorShapeProto.Dim"

    size: Int64 | None = Field(None, description="Size of the dimension; -1 means unknown.")
    name: ProtoString | None = Field(None, description="Optional name of the dimension.")


class TensorShapeProto(Message):
    """``tensorflow.TensorShapeProto``: the shape of a tensor."""

    proto_name: ClassVar[str] = "tensorflow.TensorShapeProto"

    dim: Repeated[TensorShapeDim] | None = Field(
        None, description="The dimensions, outermost first; empty for a scalar."
    )
    unknown_rank: ProtoBool | None = Field(
        None, description="The number of dimensions is unknown (then `dim` must be empty)."
    )


class DtypeAndShape(Message):
    """``tensorflow.ResourceHandleProto.DtypeAndShape``: type and shape of a resource's data."""

    proto_name: ClassVar[str] = "tensorflow.ResourceHandleProto.DtypeAndShape"

    dtype: DataType | None = Field(None, description="Element type of the data.")
    shape: TensorShapeProto | None = Field(None, description="Shape of the data.")


class ResourceHandleProto(Message):
    """``tensorflow.ResourceHandleProto``: a handle to a resource such as a variable."""

    proto_name: ClassVar[str] = "tensorflow.ResourceHandleProto"

    device: ProtoString | None = Field(None, description="Device that holds the resource.")
    container: ProtoString | None = Field(None, description="Container the resource belongs to.")
    name: ProtoString | None = Field(None, description="Name of the resource in its container.")
    hash_code: UInt64 | None = Field(None, description="Hash of the resource's C++ type.")
    maybe_type_name: ProtoString | None = Field(
        None, description="Name of the resource's C++ type, when known (for debugging)."
    )
    dtypes_and_shapes: Repeated[DtypeAndShape] | None = Field(
        None, description="Element types and shapes of the data the resource holds."
    )


class VariantTensorDataProto(Message):
    """``tensorflow.VariantTensorDataProto``: the serialized value of a variant tensor."""

    proto_name: ClassVar[str] = "tensorflow.VariantTensorDataProto"

    type_name: ProtoString | None = Field(None, description="Name of the type of the stored value.")
    metadata: ProtoBytes | None = Field(None, description="Type-specific data, base64 encoded.")
    tensors: Repeated[TensorProto] | None = Field(
        None, description="Tensors the stored value is made of."
    )


class TensorProto(Message):
    """``tensorflow.TensorProto``: a tensor value.

    The values are in ``tensor_content`` (raw bytes) or in the ``*_val`` list
    that matches ``dtype``; a single value is repeated to fill the shape.
    """

    proto_name: ClassVar[str] = "tensorflow.TensorProto"

    dtype: DataType | None = Field(None, description="Element type of the tensor.")
    tensor_shape: TensorShapeProto | None = Field(None, description="Shape of the tensor.")
    version_number: Int32 | None = Field(
        None, description="Version of the serialization format (0 for the current one)."
    )
    tensor_content: ProtoBytes | None = Field(
        None,
        description="All values as raw little-endian bytes, base64 encoded; "
        "replaces the `*_val` lists.",
    )
    half_val: Repeated[Int32] | None = Field(
        None, description="Values of a DT_HALF or DT_BFLOAT16 tensor, as their 16-bit patterns."
    )
    float_val: Repeated[Float32] | None = Field(None, description="Values of a DT_FLOAT tensor.")
    double_val: Repeated[Double] | None = Field(None, description="Values of a DT_DOUBLE tensor.")
    int_val: Repeated[Int32] | None = Field(
        None, description="Values of a DT_INT32, DT_INT16, DT_UINT16, DT_INT8 or DT_UINT8 tensor."
    )
    string_val: Repeated[ProtoBytes] | None = Field(
        None, description="Values of a DT_STRING tensor, each base64 encoded."
    )
    scomplex_val: Repeated[Float32] | None = Field(
        None, description="Values of a DT_COMPLEX64 tensor: real and imaginary parts, alternating."
    )
    int64_val: Repeated[Int64] | None = Field(None, description="Values of a DT_INT64 tensor.")
    bool_val: Repeated[ProtoBool] | None = Field(None, description="Values of a DT_BOOL tensor.")
    dcomplex_val: Repeated[Double] | None = Field(
        None, description="Values of a DT_COMPLEX128 tensor: real and imaginary parts, alternating."
    )
    resource_handle_val: Repeated[ResourceHandleProto] | None = Field(
        None, description="Values of a DT_RESOURCE tensor."
    )
    variant_val: Repeated[VariantTensorDataProto] | None = Field(
        None, description="Values of a DT_VARIANT tensor."
    )
    uint32_val: Repeated[UInt32] | None = Field(None, description="Values of a DT_UINT32 tensor.")
    uint64_val: Repeated[UInt64] | None = Field(None, description="Values of a DT_UINT64 tensor.")
    float8_val: ProtoBytes | None = Field(
        None, description="Values of a DT_FLOAT8_* tensor, one byte each, base64 encoded."
    )
