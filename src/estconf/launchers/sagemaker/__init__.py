"""SageMaker: its resource config and hyperparameters, and the TF_CONFIG of each host.

The public names are :mod:`estconf.sagemaker`'s.
"""

from __future__ import annotations

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
