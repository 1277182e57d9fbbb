"""``GraphOptions``: how a session builds and optimizes its graphs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from estconf._on_first_use import OnFirstUse
from estconf.session_config._message import Message
from estconf.session_config._values import Int32, Int64, ProtoBool, ProtoEnum

if TYPE_CHECKING:
    from estconf.session_config.rewriter_config import RewriterConfig

__all__ = ["GlobalJitLevel", "GraphOptions", "OptimizerLevel", "OptimizerOptions"]


OptimizerLevel = Annotated[
    Literal["L1", "L0"],
    ProtoEnum("tensorflow.OptimizerOptions.Level", numbers=(0, -1)),
]
"""``OptimizerOptions.Level``: ``L1`` (the default) or ``L0`` (no optimization)."""


GlobalJitLevel = Annotated[
    Literal["DEFAULT", "OFF", "ON_1", "ON_2"],
    ProtoEnum("tensorflow.OptimizerOptions.GlobalJitLevel", numbers=(0, -1, 1, 2)),
]
"""``OptimizerOptions.GlobalJitLevel``: whether XLA compiles graphs automatically."""


def _rewriter_config() -> Any:
    from estconf.session_config.rewriter_config import RewriterConfig

    return RewriterConfig | None


# RewriterConfig and the messages it holds are built when a config first sets it.
if TYPE_CHECKING:
    _RewriterConfig = RewriterConfig | None
else:
    _RewriterConfig = Annotated[Any, OnFirstUse(_rewriter_config, ref="tensorflow.RewriterConfig")]


class OptimizerOptions(Message):
    """``tensorflow.OptimizerOptions``: the classic graph optimizer and XLA auto-clustering."""

    proto_name: ClassVar[str] = "tensorflow.OptimizerOptions"

    do_common_subexpression_elimination: ProtoBool | None = Field(
        None, description="Eliminate common subexpressions."
    )
    do_constant_folding: ProtoBool | None = Field(None, description="Fold constant subgraphs.")
    max_folded_constant_in_bytes: Int64 | None = Field(
        None, description="Largest constant that folding may create, in bytes (0: 10 MiB)."
    )
    do_function_inlining: ProtoBool | None = Field(None, description="Inline function calls.")
    opt_level: OptimizerLevel | None = Field(
        None,
        description="Optimization level: `L1` (subexpression elimination and constant "
        "folding) or `L0` (none).",
    )
    global_jit_level: GlobalJitLevel | None = Field(
        None, description="Compile clusters of ops with XLA automatically: `OFF`, `ON_1`, `ON_2`."
    )
    cpu_global_jit: ProtoBool | None = Field(
        None, description="Apply global_jit_level to ops on CPU as well."
    )


class GraphOptions(Message):
    """``tensorflow.GraphOptions``: how the session builds and optimizes its graphs."""

    proto_name: ClassVar[str] = "tensorflow.GraphOptions"

    enable_recv_scheduling: ProtoBool | None = Field(
        None, description="Schedule Recv nodes with control flow (ignored by TensorFlow)."
    )
    optimizer_options: OptimizerOptions | None = Field(
        None, description="Options of the classic graph optimizer."
    )
    build_cost_model: Int64 | None = Field(
        None, description="Build a cost model over this many steps (0: no cost model)."
    )
    build_cost_model_after: Int64 | None = Field(
        None, description="Steps to skip before collecting cost model statistics."
    )
    infer_shapes: ProtoBool | None = Field(
        None, description="Annotate nodes with the output shapes known statically."
    )
    place_pruned_graph: ProtoBool | None = Field(
        None, description="Place only the subgraphs that are run, not the whole graph."
    )
    enable_bfloat16_sendrecv: ProtoBool | None = Field(
        None, description="Send float values between processes as bfloat16."
    )
    timeline_step: Int32 | None = Field(
        None, description="Record a timeline every this many steps (0: never)."
    )
    rewrite_options: _RewriterConfig = Field(None, description="Grappler rewriter options.")
