"""``session_config``: the JSON form of TensorFlow's ``ConfigProto``.

Each message of TensorFlow 2.15's ``config.proto`` (and of the messages it
uses: ``RewriterConfig``, ``ClusterDef``, ``AttrValue``, ...) is a frozen
model with one field per protobuf field, under the protobuf field name.  A
field that is ``None`` is not set: TensorFlow uses its default, and dumps
leave it out.  Input is read the way protobuf's JSON parser reads it;
``to_proto_dict()`` gives the dict that parser accepts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from estconf.session_config._message import Message
    from estconf.session_config.attr_value import AttrValue, AttrValueList, NameAttrList
    from estconf.session_config.cluster_def import ClusterDef, JobDef
    from estconf.session_config.config_proto import (
        ConfigProto,
        SessionConfig,
        ThreadPoolOptionProto,
        default_distributed_session_config,
    )
    from estconf.session_config.config_proto_experimental import (
        ConfigProtoExperimental,
        MlirBridgeRollout,
        SessionMetadata,
    )
    from estconf.session_config.coordination import CoordinatedJob, CoordinationServiceConfig
    from estconf.session_config.gpu_options import (
        GPUOptions,
        GPUOptionsExperimental,
        VirtualDevices,
    )
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

# Each name is imported from its module on first use, so that a config builds
# only the messages it sets (see estconf._on_first_use).
_MODULES = {
    "AttrValue": "attr_value",
    "AttrValueList": "attr_value",
    "AutoParallelOptions": "rewriter_config",
    "ClusterDef": "cluster_def",
    "ConfigProto": "config_proto",
    "ConfigProtoExperimental": "config_proto_experimental",
    "CoordinatedJob": "coordination",
    "CoordinationServiceConfig": "coordination",
    "CpuLayout": "rewriter_config",
    "CustomGraphOptimizer": "rewriter_config",
    "DataType": "tensor",
    "DtypeAndShape": "tensor",
    "GPUOptions": "gpu_options",
    "GPUOptionsExperimental": "gpu_options",
    "GlobalJitLevel": "graph_options",
    "GraphOptions": "graph_options",
    "JobDef": "cluster_def",
    "MemOptType": "rewriter_config",
    "Message": "_message",
    "MlirBridgeRollout": "config_proto_experimental",
    "NameAttrList": "attr_value",
    "NumIterationsType": "rewriter_config",
    "OptimizerLevel": "graph_options",
    "OptimizerOptions": "graph_options",
    "RPCOptions": "rpc_options",
    "ResourceHandleProto": "tensor",
    "RewriterConfig": "rewriter_config",
    "ScopedAllocatorOptions": "rewriter_config",
    "SessionConfig": "config_proto",
    "SessionMetadata": "config_proto_experimental",
    "TensorProto": "tensor",
    "TensorShapeDim": "tensor",
    "TensorShapeProto": "tensor",
    "ThreadPoolOptionProto": "config_proto",
    "Toggle": "rewriter_config",
    "VariantTensorDataProto": "tensor",
    "VerifierConfig": "rewriter_config",
    "VerifierToggle": "rewriter_config",
    "VirtualDevices": "gpu_options",
    "default_distributed_session_config": "config_proto",
}


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'estconf.session_config' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"estconf.session_config.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
