"""``ConfigProto``, the session configuration, and the ``session_config`` argument type."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BeforeValidator, Field

from estconf._errors import custom_error
from estconf._on_first_use import OnFirstUse
from estconf.session_config._message import Message
from estconf.session_config._values import (
    Int32,
    Int64,
    Map,
    ProtoBool,
    ProtoString,
    Repeated,
)

if TYPE_CHECKING:
    from estconf.session_config.cluster_def import ClusterDef
    from estconf.session_config.config_proto_experimental import ConfigProtoExperimental
    from estconf.session_config.gpu_options import GPUOptions
    from estconf.session_config.graph_options import GraphOptions
    from estconf.session_config.rpc_options import RPCOptions

__all__ = [
    "ConfigProto",
    "SessionConfig",
    "ThreadPoolOptionProto",
    "default_distributed_session_config",
]


def _cluster_def() -> Any:
    from estconf.session_config.cluster_def import ClusterDef

    return ClusterDef | None


def _experimental() -> Any:
    from estconf.session_config.config_proto_experimental import ConfigProtoExperimental

    return ConfigProtoExperimental | None


def _gpu_options() -> Any:
    from estconf.session_config.gpu_options import GPUOptions

    return GPUOptions | None


def _graph_options() -> Any:
    from estconf.session_config.graph_options import GraphOptions

    return GraphOptions | None


def _rpc_options() -> Any:
    from estconf.session_config.rpc_options import RPCOptions

    return RPCOptions | None


# The nested messages are built when a config first sets them (estconf._on_first_use).
if TYPE_CHECKING:
    _ClusterDef = ClusterDef | None
    _Experimental = ConfigProtoExperimental | None
    _GPUOptions = GPUOptions | None
    _GraphOptions = GraphOptions | None
    _RPCOptions = RPCOptions | None
else:
    _ClusterDef = Annotated[Any, OnFirstUse(_cluster_def, ref="tensorflow.ClusterDef")]
    _Experimental = Annotated[
        Any, OnFirstUse(_experimental, ref="tensorflow.ConfigProto.Experimental")
    ]
    _GPUOptions = Annotated[Any, OnFirstUse(_gpu_options, ref="tensorflow.GPUOptions")]
    _GraphOptions = Annotated[Any, OnFirstUse(_graph_options, ref="tensorflow.GraphOptions")]
    _RPCOptions = Annotated[Any, OnFirstUse(_rpc_options, ref="tensorflow.RPCOptions")]


class ThreadPoolOptionProto(Message):
    """``tensorflow.ThreadPoolOptionProto``: a thread pool of a session."""

    proto_name: ClassVar[str] = "tensorflow.ThreadPoolOptionProto"

    num_threads: Int32 | None = Field(
        None, description="Number of threads in the pool (0: TensorFlow chooses)."
    )
    global_name: ProtoString | None = Field(
        None,
        description="Name of a process-wide pool shared by the sessions that name it "
        "(empty: a pool of this session only).",
    )


class ConfigProto(Message):
    """``tensorflow.ConfigProto`` (``tf.compat.v1.ConfigProto``): the session configuration.

    The value of ``session_config``.  Fields left out keep TensorFlow's
    defaults, as when the protobuf field is not set.
    """

    proto_name: ClassVar[str] = "tensorflow.ConfigProto"

    device_count: Map[ProtoString, Int32] | None = Field(
        None,
        description="Maximum number of devices of each type to use, by device type "
        "(`CPU`, `GPU`); other types: TensorFlow chooses.",
    )
    intra_op_parallelism_threads: Int32 | None = Field(
        None, description="Threads that run a single op in parallel (0: TensorFlow chooses)."
    )
    inter_op_parallelism_threads: Int32 | None = Field(
        None,
        description="Threads that run independent ops (0: TensorFlow chooses; negative: "
        "the caller's thread). The first session of the process sets it for all.",
    )
    use_per_session_threads: ProtoBool | None = Field(
        None,
        description="Give the session its own threads instead of the process-wide pool "
        "(deprecated: use session_inter_op_thread_pool).",
    )
    session_inter_op_thread_pool: Repeated[ThreadPoolOptionProto] | None = Field(
        None, description="Thread pools of the session; each run picks one by index."
    )
    placement_period: Int32 | None = Field(
        None,
        description="Recompute the placement of nodes every this many steps while the "
        "system warms up.",
    )
    device_filters: Repeated[ProtoString] | None = Field(
        None,
        description="The session ignores devices that match none of these filters, "
        "e.g. `/job:ps`, `/job:worker/task:3` (empty: all devices).",
    )
    gpu_options: _GPUOptions = Field(None, description="Options for all GPUs.")
    allow_soft_placement: ProtoBool | None = Field(
        None, description="Place an op on CPU when it cannot run on the device it asks for."
    )
    log_device_placement: ProtoBool | None = Field(
        None, description="Log the device each op is placed on."
    )
    graph_options: _GraphOptions = Field(None, description="Options for all graphs of the session.")
    operation_timeout_in_ms: Int64 | None = Field(
        None, description="Deadline in milliseconds of blocking operations (0: none)."
    )
    rpc_options: _RPCOptions = Field(
        None, description="Options of the RPC layer of distributed sessions."
    )
    cluster_def: _ClusterDef = Field(
        None, description="The cluster of this session, in place of the server's own."
    )
    isolate_session_state: ProtoBool | None = Field(
        None, description="Keep resources such as variables private to this session."
    )
    share_cluster_devices_in_session: ProtoBool | None = Field(
        None,
        description="With cluster_def, make the devices of the whole cluster visible to "
        "the session.",
    )
    experimental: _Experimental = Field(
        None, description="Experimental options; TensorFlow may change them without notice."
    )


def _session_config_input(value: Any) -> Any:
    """Read a ``session_config`` argument: the JSON form, a model, or a real message."""
    if value is None or isinstance(value, (ConfigProto, Mapping)):
        return value
    descriptor = getattr(value, "DESCRIPTOR", None)
    if getattr(descriptor, "full_name", None) == ConfigProto.proto_name:
        return ConfigProto.from_proto(value)
    raise custom_error("session_config_type", "session_config must be instance of ConfigProto")


SessionConfig = Annotated[ConfigProto | None, BeforeValidator(_session_config_input)]
"""A ``session_config`` argument: a ConfigProto in JSON form, or a real ``ConfigProto``."""


def default_distributed_session_config(device_filters: Sequence[str]) -> ConfigProto:
    """The ``session_config`` ``tf.estimator.RunConfig`` sets for a task of a cluster.

    Soft placement, one pass of the Grappler meta optimizer, and the given
    device filters.
    """
    from estconf.session_config.graph_options import GraphOptions
    from estconf.session_config.rewriter_config import RewriterConfig

    return ConfigProto(
        allow_soft_placement=True,
        graph_options=GraphOptions(rewrite_options=RewriterConfig(meta_optimizer_iterations="ONE")),
        device_filters=list(device_filters),
    )
