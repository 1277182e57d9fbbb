"""SageMaker: its resource config and hyperparameters, and the TF_CONFIG of each host.

The public names are :mod:`estconf.sagemaker`'s.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from estconf.launchers.sagemaker.inputs import (
        Hyperparameters,
        InstanceGroup,
        InstanceGroupSpec,
        ResourceConfig,
    )
    from estconf.launchers.sagemaker.toolkit import PSServer, ps_server, resource_configs, tf_config

__all__ = [
    "Hyperparameters",
    "InstanceGroup",
    "InstanceGroupSpec",
    "PSServer",
    "ResourceConfig",
    "ps_server",
    "resource_configs",
    "tf_config",
]

_SOURCES = {
    "Hyperparameters": "estconf.launchers.sagemaker.inputs",
    "InstanceGroup": "estconf.launchers.sagemaker.inputs",
    "InstanceGroupSpec": "estconf.launchers.sagemaker.inputs",
    "PSServer": "estconf.launchers.sagemaker.toolkit",
    "ResourceConfig": "estconf.launchers.sagemaker.inputs",
    "ps_server": "estconf.launchers.sagemaker.toolkit",
    "resource_configs": "estconf.launchers.sagemaker.toolkit",
    "tf_config": "estconf.launchers.sagemaker.toolkit",
}
"""The module of each public name, imported on first use: reading one module of the
package (``estconf validate`` asks whether a file is a TFJob) imports no other."""


def __getattr__(name: str) -> Any:
    module = _SOURCES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
