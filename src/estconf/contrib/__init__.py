"""``estconf.contrib``: the deprecated ``tf.contrib.learn`` run configuration.

``tf.contrib.learn.RunConfig`` and its base ``ClusterConfig`` read
``TF_CONFIG`` by older, looser rules than ``tf.estimator.RunConfig``: the task
type may be missing, any cluster shape is accepted, ``master`` is looked up
only when a task type is set, and ``is_chief`` depends on an ``environment``
key.  The models here reproduce TensorFlow 1.15's values so that such
configurations can be validated and migrated to :class:`estconf.RunConfig`
(see ``docs/contrib.md``).

Importing this module, or building one of its configs, emits a
:class:`DeprecationWarning`.
"""

import warnings

from estconf.contrib.cluster_config import (
    DEPRECATION,
    ClusterConfig,
    Environment,
    TaskType,
    get_task_id,
    read_tf_config,
)
from estconf.contrib.run_config import DEFAULT_UID_WHITELIST, REPLACEABLE_1_15, RunConfig

__all__ = [
    "DEFAULT_UID_WHITELIST",
    "REPLACEABLE_1_15",
    "ClusterConfig",
    "Environment",
    "RunConfig",
    "TaskType",
    "get_task_id",
    "read_tf_config",
]


warnings.warn(DEPRECATION, DeprecationWarning, stacklevel=2)
