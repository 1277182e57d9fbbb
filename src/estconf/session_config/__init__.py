"""``session_config``: the JSON form of TensorFlow's ``ConfigProto``.

Each message of TensorFlow 2.15's ``config.proto`` (and of the messages it
uses: ``RewriterConfig``, ``ClusterDef``, ``AttrValue``, ...) is a frozen
model with one field per protobuf field, under the protobuf field name.  A
field that is ``None`` is not set: TensorFlow uses its default, and dumps
leave it out.  Input is read the way protobuf's JSON parser reads it;
``to_proto_dict()`` gives the dict that parser accepts.
"""

from __future__ import annotations

from estconf.session_config._message import Message
from estconf.session_config.attr_value import AttrValue, AttrValueList, NameAttrList
from estconf.session_config.cluster_def import ClusterDef, JobDef
from estconf.session_config.config_proto import (
    ConfigProto,
    ConfigProtoExperimental,
    MlirBridgeRollout,
    SessionConfig,
    SessionMetadata,
    ThreadPoolOptionProto,
    default_distributed_session_config,
)
from estconf.session_config.coordination import CoordinatedJob, CoordinationServiceConfig
from estconf.session_config.gpu_options import GPUOptions, GPUOptionsExperimental, VirtualDevices
from estconf.session_config.graph_options import (
    GlobalJitLevel,
    GraphOptions,
    OptimizerLevel,
    OptimizerOptions,
)
from estconf.session_config.rewriter_config import (
    AutoParallelOptions,
    CpuLayout,
    CustomGraphOptimizer,
    MemOptType,
    NumIterationsType,
    RewriterConfig,
    ScopedAllocatorOptions,
    Toggle,
    VerifierConfig,
    VerifierToggle,
)
from estconf.session_config.rpc_options import RPCOptions
from estconf.session_config.tensor import (
    DataType,
    DtypeAndShape,
    ResourceHandleProto,
    TensorProto,
    TensorShapeDim,
    TensorShapeProto,
    VariantTensorDataProto,
)

__all__ = [
    "AttrValue",
    "AttrValueList",
    "AutoParallelOptions",
    "ClusterDef",
    "ConfigProto",
    "ConfigProtoExperimental",
    "CoordinatedJob",
    "CoordinationServiceConfig",
    "CpuLayout",
    "CustomGraphOptimizer",
    "DataType",
    "DtypeAndShape",
    "GPUOptions",
    "GPUOptionsExperimental",
    "GlobalJitLevel",
    "GraphOptions",
    "JobDef",
    "MemOptType",
    "Message",
    "MlirBridgeRollout",
    "NameAttrList",
    "NumIterationsType",
    "OptimizerLevel",
    "OptimizerOptions",
    "RPCOptions",
    "ResourceHandleProto",
    "RewriterConfig",
    "ScopedAllocatorOptions",
    "SessionConfig",
    "SessionMetadata",
    "TensorProto",
    "TensorShapeDim",
    "TensorShapeProto",
    "ThreadPoolOptionProto",
    "Toggle",
    "VariantTensorDataProto",
    "VerifierConfig",
    "VerifierToggle",
    "VirtualDevices",
    "default_distributed_session_config",
]
