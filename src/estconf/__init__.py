"""estconf: TensorFlow Estimator run configuration as typed, validated pydantic models.

The models read like TensorFlow's own classes and compute the same
properties, without TensorFlow installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from estconf._version import __version__ as __version__

if TYPE_CHECKING:
    from estconf.cluster import ClusterSpec
    from estconf.inputs.checks import check as check
    from estconf.run_config import RunConfig
    from estconf.tf_config import Task, TaskType, TFConfig
    from estconf.tpu import InputPipelineConfig, TPUConfig
    from estconf.tpu import RunConfig as TPURunConfig

__all__ = [
    "ClusterSpec",
    "InputPipelineConfig",
    "RunConfig",
    "TFConfig",
    "TPUConfig",
    "TPURunConfig",
    "Task",
    "TaskType",
    "check",
]

# The public names are imported on first use, so that the ``estconf`` command
# starts without building every model: add a name to ``__all__`` and here,
# as (module, name in the module).
_SOURCES = {
    "ClusterSpec": ("estconf.cluster", "ClusterSpec"),
    "InputPipelineConfig": ("estconf.tpu", "InputPipelineConfig"),
    "RunConfig": ("estconf.run_config", "RunConfig"),
    "TFConfig": ("estconf.tf_config", "TFConfig"),
    "TPUConfig": ("estconf.tpu", "TPUConfig"),
    "TPURunConfig": ("estconf.tpu", "RunConfig"),
    "Task": ("estconf.tf_config", "Task"),
    "TaskType": ("estconf.tf_config", "TaskType"),
    "check": ("estconf.inputs.checks", "check"),
}


_SUBMODULES = frozenset(
    {
        "cluster",
        "contrib",
        "deployment",
        "distribute",
        "files",
        "inputs",
        "kubeflow",
        "profiles",
        "run_config",
        "sagemaker",
        "schema",
        "session_config",
        "tf_config",
        "tpu",
        "vertex",
    }
)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:  # ``estconf.tpu.TPUConfig`` without importing estconf.tpu first
        return importlib.import_module(f"estconf.{name}")
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module 'estconf' has no attribute {name!r}")
    module, attribute = source
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
