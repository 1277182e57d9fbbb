"""``ConfigProto.Experimental``: the session options TensorFlow may change without notice.

A message of its own module, so that a ``ConfigProto`` that sets no
``experimental`` neither imports nor builds it (see estconf._on_first_use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from estconf._on_first_use import OnFirstUse
from estconf.session_config._message import Message
from estconf.session_config._values import Int32, Int64, ProtoBool, ProtoEnum, ProtoString

if TYPE_CHECKING:
    from estconf.session_config.coordination import CoordinationServiceConfig

__all__ = ["ConfigProtoExperimental", "MlirBridgeRollout", "SessionMetadata"]


def _coordination() -> Any:
    from estconf.session_config.coordination import CoordinationServiceConfig

    return CoordinationServiceConfig | None


if TYPE_CHECKING:
    _Coordination = CoordinationServiceConfig | None
else:
    _Coordination = Annotated[
        Any, OnFirstUse(_coordination, ref="tensorflow.CoordinationServiceConfig")
    ]


MlirBridgeRollout = Annotated[
    Literal[
        "MLIR_BRIDGE_ROLLOUT_UNSPECIFIED",
        "MLIR_BRIDGE_ROLLOUT_ENABLED",
        "MLIR_BRIDGE_ROLLOUT_DISABLED",
    ],
    ProtoEnum("tensorflow.ConfigProto.Experimental.MlirBridgeRollout"),
]
"""``ConfigProto.Experimental.MlirBridgeRollout``: whether the MLIR bridge is used."""


class SessionMetadata(Message):
    """``tensorflow.SessionMetadata``: identifies the model a session serves."""

    proto_name: ClassVar[str] = "tensorflow.SessionMetadata"

    name: ProtoString | None = Field(None, description="Name of the model.")
    version: Int64 | None = Field(None, description="Version of the model (not negative).")


class ConfigProtoExperimental(Message):
    """``tensorflow.ConfigProto.Experimental``: session options that may change without notice."""

    proto_name: ClassVar[str] = "tensorflow.ConfigProto.Experimental"

    collective_group_leader: ProtoString | None = Field(
        None, description="Task that leads collective groups, e.g. `/job:worker/replica:0/task:0`."
    )
    executor_type: ProtoString | None = Field(
        None, description="Executor that runs the graphs (empty: the default executor)."
    )
    recv_buf_max_chunk: Int32 | None = Field(
        None,
        description="Largest chunk in bytes of a buffer sent by collective ops "
        "(0: the default; negative: no chunking).",
    )
    use_numa_affinity: ProtoBool | None = Field(
        None, description="Bind devices and their threads to NUMA nodes."
    )
    collective_deterministic_sequential_execution: ProtoBool | None = Field(
        None, description="Run collective ops one at a time, in a deterministic order."
    )
    collective_nccl: ProtoBool | None = Field(
        None, description="Use NCCL for collective ops on GPUs."
    )
    share_session_state_in_clusterspec_propagation: ProtoBool | None = Field(
        None,
        description="Share resources between sessions that use cluster_def on the same server.",
    )
    disable_thread_spinning: ProtoBool | None = Field(
        None, description="Let idle pool threads sleep at once instead of spinning."
    )
    share_cluster_devices_in_session: ProtoBool | None = Field(
        None, description="Older place of ConfigProto.share_cluster_devices_in_session."
    )
    session_metadata: SessionMetadata | None = Field(
        None, description="The model this session serves (name and version)."
    )
    optimize_for_static_graph: ProtoBool | None = Field(
        None, description="The graph will not be extended: free the parts only needed to extend it."
    )
    enable_mlir_bridge: ProtoBool | None = Field(
        None, description="Compile to XLA through the MLIR bridge (prefer mlir_bridge_rollout)."
    )
    mlir_bridge_rollout: MlirBridgeRollout | None = Field(
        None, description="Whether to use the MLIR bridge; UNSPECIFIED lets TensorFlow decide."
    )
    enable_mlir_graph_optimization: ProtoBool | None = Field(
        None, description="Run the MLIR graph optimization passes."
    )
    disable_output_partition_graphs: ProtoBool | None = Field(
        None, description="Do not return the partition graphs in RunMetadata."
    )
    xla_fusion_autotuner_thresh: Int64 | None = Field(
        None,
        description="Bytes of a fused XLA computation above which its fusion is autotuned "
        "(0: off).",
    )
    use_tfrt: ProtoBool | None = Field(None, description="Run the session on the TFRT runtime.")
    disable_functional_ops_lowering: ProtoBool | None = Field(
        None, description="Keep functional control flow ops (If, While) instead of lowering them."
    )
    xla_prefer_single_graph_cluster: ProtoBool | None = Field(
        None, description="Compile the whole graph as one XLA cluster when possible."
    )
    coordination_config: _Coordination = Field(
        None, description="The coordination service of the cluster."
    )
    disable_optimize_for_static_graph: ProtoBool | None = Field(
        None, description="Do not apply optimize_for_static_graph even where it would be turned on."
    )
    disable_eager_executor_streaming_enqueue: ProtoBool | None = Field(
        None,
        description="Enqueue eager ops to remote tasks one RPC at a time instead of "
        "streaming them.",
    )
