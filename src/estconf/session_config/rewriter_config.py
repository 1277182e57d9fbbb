"""``RewriterConfig``: which Grappler graph optimizations run, and how.

With ``VerifierConfig``, the checks of the graph between the passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from estconf._on_first_use import OnFirstUse
from estconf.session_config._message import Message
from estconf.session_config._values import (
    Int32,
    Int64,
    Map,
    ProtoBool,
    ProtoEnum,
    ProtoString,
    Repeated,
)

if TYPE_CHECKING:
    from estconf.session_config.attr_value import AttrValue

__all__ = [
    "AutoParallelOptions",
    "CpuLayout",
    "CustomGraphOptimizer",
    "MemOptType",
    "NumIterationsType",
    "RewriterConfig",
    "ScopedAllocatorOptions",
    "Toggle",
    "VerifierConfig",
    "VerifierToggle",
]


Toggle = Annotated[
    Literal["DEFAULT", "ON", "OFF", "AGGRESSIVE", "EXPERIMENTAL_MLIR", "EXPERIMENTAL_BOTH"],
    ProtoEnum("tensorflow.RewriterConfig.Toggle"),
]
"""``RewriterConfig.Toggle``: the switch of one Grappler optimizer."""


CpuLayout = Annotated[
    Literal["NO_CONVERSION_ON_CPU", "NCHW_TO_NHWC", "NHWC_TO_NCHW"],
    ProtoEnum("tensorflow.RewriterConfig.CpuLayout"),
]
"""``RewriterConfig.CpuLayout``: the data layout conversion done on CPU."""


NumIterationsType = Annotated[
    Literal["DEFAULT_NUM_ITERS", "ONE", "TWO"],
    ProtoEnum("tensorflow.RewriterConfig.NumIterationsType"),
]
"""``RewriterConfig.NumIterationsType``: how many passes the meta optimizer makes."""


MemOptType = Annotated[
    Literal[
        "DEFAULT_MEM_OPT",
        "NO_MEM_OPT",
        "MANUAL",
        "SWAPPING_HEURISTICS",
        "RECOMPUTATION_HEURISTICS",
        "SCHEDULING_HEURISTICS",
        "HEURISTICS",
    ],
    ProtoEnum("tensorflow.RewriterConfig.MemOptType", numbers=(0, 1, 2, 4, 5, 6, 3)),
]
"""``RewriterConfig.MemOptType``: the memory optimizer's strategy."""


VerifierToggle = Annotated[
    Literal["DEFAULT", "ON", "OFF"],
    ProtoEnum("tensorflow.VerifierConfig.Toggle"),
]
"""``VerifierConfig.Toggle``: the switch of one graph verifier."""


class AutoParallelOptions(Message):
    """``tensorflow.AutoParallelOptions``: the automatic data-parallel rewrite."""

    proto_name: ClassVar[str] = "tensorflow.AutoParallelOptions"

    enable: ProtoBool | None = Field(None, description="Turn the automatic parallelization on.")
    num_replicas: Int32 | None = Field(None, description="Number of replicas of the graph to make.")


class ScopedAllocatorOptions(Message):
    """``tensorflow.ScopedAllocatorOptions``: the scoped allocator optimization."""

    proto_name: ClassVar[str] = "tensorflow.ScopedAllocatorOptions"

    enable_op: Repeated[ProtoString] | None = Field(
        None, description="Op types the scoped allocator is used for (e.g. `CollectiveReduce`)."
    )


def _parameter_map() -> Any:
    from estconf.session_config.attr_value import AttrValue

    return Map[ProtoString, AttrValue] | None


# AttrValue and the tensors it holds are built when a config first gives parameters.
if TYPE_CHECKING:
    _ParameterMap = Map[ProtoString, AttrValue] | None
else:
    _ParameterMap = Annotated[Any, OnFirstUse(_parameter_map)]


class CustomGraphOptimizer(Message):
    """``tensorflow.RewriterConfig.CustomGraphOptimizer``: a Grappler optimizer by name."""

    proto_name: ClassVar[str] = "tensorflow.RewriterConfig.CustomGraphOptimizer"

    name: ProtoString | None = Field(
        None, description="Registered name of the optimizer (e.g. `TensorRTOptimizer`)."
    )
    parameter_map: _ParameterMap = Field(None, description="Parameters of the optimizer, by name.")


class VerifierConfig(Message):
    """``tensorflow.VerifierConfig``: checks of the graph between Grappler passes."""

    proto_name: ClassVar[str] = "tensorflow.VerifierConfig"

    verification_timeout_in_ms: Int64 | None = Field(
        None, description="Deadline in milliseconds for the verification (0: none)."
    )
    structure_verifier: VerifierToggle | None = Field(
        None, description="Check that the graph is structurally valid."
    )


class RewriterConfig(Message):
    """``tensorflow.RewriterConfig``: which Grappler graph optimizations run, and how."""

    proto_name: ClassVar[str] = "tensorflow.RewriterConfig"

    cpu_layout_conversion: CpuLayout | None = Field(
        None, description="Convert the data layout of ops placed on CPU."
    )
    layout_optimizer: Toggle | None = Field(
        None, description="Layout optimizer: pick data layouts (NHWC/NCHW) that run fastest."
    )
    constant_folding: Toggle | None = Field(
        None, description="Constant folding: replace subgraphs whose value is known by constants."
    )
    shape_optimization: Toggle | None = Field(
        None, description="Shape optimization: simplify computations on tensor shapes."
    )
    remapping: Toggle | None = Field(
        None, description="Remapper: fuse common subgraphs into single, faster ops."
    )
    common_subgraph_elimination: Toggle | None = Field(
        None, description="Merge subgraphs that compute the same value."
    )
    arithmetic_optimization: Toggle | None = Field(
        None, description="Arithmetic optimizer: simplify arithmetic and remove redundant ops."
    )
    dependency_optimization: Toggle | None = Field(
        None, description="Dependency optimizer: remove redundant control dependencies."
    )
    loop_optimization: Toggle | None = Field(
        None, description="Loop optimizer: hoist loop-invariant work out of loops."
    )
    function_optimization: Toggle | None = Field(
        None, description="Function optimizer: inline and specialize functions."
    )
    debug_stripper: Toggle | None = Field(
        None, description="Debug stripper: remove debug ops such as Assert and Print."
    )
    disable_model_pruning: ProtoBool | None = Field(
        None, description="Keep nodes that do not contribute to the fetched outputs."
    )
    scoped_allocator_optimization: Toggle | None = Field(
        None, description="Scoped allocator: allocate the outputs of related ops in one buffer."
    )
    pin_to_host_optimization: Toggle | None = Field(
        None, description="Place small integer ops on the host to avoid device copies."
    )
    implementation_selector: Toggle | None = Field(
        None,
        description="Pick the best implementation of functions with several (e.g. cuDNN RNNs).",
    )
    auto_mixed_precision: Toggle | None = Field(
        None, description="Run suitable ops in float16 on GPUs (automatic mixed precision)."
    )
    auto_mixed_precision_mkl: Toggle | None = Field(
        None,
        description="Run suitable ops in bfloat16 on CPUs with oneDNN (older name of "
        "auto_mixed_precision_onednn_bfloat16).",
    )
    auto_mixed_precision_onednn_bfloat16: Toggle | None = Field(
        None, description="Run suitable ops in bfloat16 on CPUs with oneDNN."
    )
    auto_mixed_precision_cpu: Toggle | None = Field(
        None, description="Emulate float16 mixed precision on CPU, to test the GPU rewrite."
    )
    disable_meta_optimizer: ProtoBool | None = Field(
        None, description="Turn all Grappler optimizations off."
    )
    disable_tfg_optimizer: ProtoBool | None = Field(
        None, description="Turn off the optimizers built on the MLIR graph dialect (TFG)."
    )
    use_plugin_optimizers: Toggle | None = Field(
        None, description="Run the optimizers registered by pluggable devices."
    )
    experimental_conditional_code_motion: Toggle | None = Field(
        None, description="Move code into or out of conditionals (experimental)."
    )
    meta_optimizer_iterations: NumIterationsType | None = Field(
        None, description="How many times the meta optimizer runs its optimizers over the graph."
    )
    min_graph_nodes: Int32 | None = Field(
        None,
        description="Skip Grappler on graphs with fewer nodes (0: the default of 4; "
        "negative: never skip).",
    )
    experimental_disable_compressed_tensor_optimization: ProtoBool | None = Field(
        None, description="Do not optimize compressed tensors (experimental)."
    )
    experimental_disable_folding_quantization_emulation: ProtoBool | None = Field(
        None, description="Do not constant-fold the ops that emulate quantization (experimental)."
    )
    memory_optimization: MemOptType | None = Field(
        None, description="Memory optimizer: swap or recompute tensors to lower peak memory."
    )
    memory_optimizer_target_node_name_scope: ProtoString | None = Field(
        None,
        description="Name scope of the nodes the memory optimizer may recompute "
        "(default `gradients/`).",
    )
    meta_optimizer_timeout_ms: Int64 | None = Field(
        None,
        description="Deadline in milliseconds for all Grappler passes (0: the default; "
        "negative: none).",
    )
    auto_parallel: AutoParallelOptions | None = Field(
        None, description="Automatic data-parallel rewrite of the graph."
    )
    fail_on_optimizer_errors: ProtoBool | None = Field(
        None, description="Fail instead of skipping an optimizer that reports an error."
    )
    scoped_allocator_opts: ScopedAllocatorOptions | None = Field(
        None, description="Options of the scoped allocator optimization."
    )
    optimizers: Repeated[ProtoString] | None = Field(
        None,
        description="Names of the optimizers to run, in order, instead of the default "
        "set (e.g. `constfold`, `layout`).",
    )
    custom_optimizers: Repeated[CustomGraphOptimizer] | None = Field(
        None, description="Optimizers to run by registered name, with parameters."
    )
    inter_optimizer_verifier_config: VerifierConfig | None = Field(
        None, description="Verification of the graph after each optimizer."
    )
    post_optimization_verifier_config: VerifierConfig | None = Field(
        None, description="Verification of the graph after all optimizers."
    )
