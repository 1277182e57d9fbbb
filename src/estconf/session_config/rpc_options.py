"""``RPCOptions``: the RPC layer of distributed sessions."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from estconf.session_config._message import Message
from estconf.session_config._values import Int32, ProtoBool, ProtoString

__all__ = ["RPCOptions"]


class RPCOptions(Message):
    """``tensorflow.RPCOptions``: the RPC layer of distributed sessions."""

    proto_name: ClassVar[str] = "tensorflow.RPCOptions"

    use_rpc_for_inprocess_master: ProtoBool | None = Field(
        None, description="Talk to an in-process master over RPC too (for testing the RPC stack)."
    )
    compression_algorithm: ProtoString | None = Field(
        None, description="Compression of RPC messages: `deflate`, `gzip`, or empty for none."
    )
    compression_level: Int32 | None = Field(
        None,
        description="Compression level, from 0 (none) to 3 (most); used with "
        "compression_algorithm.",
    )
    cache_rpc_response: ProtoBool | None = Field(
        None, description="Cache RPC responses so that a retried request gets the same answer."
    )
    disable_session_connection_sharing: ProtoBool | None = Field(
        None, description="Give each session its own connections instead of sharing them."
    )
    num_channels_per_target: Int32 | None = Field(
        None, description="Number of gRPC channels to open to each target (0 or 1: one)."
    )
