"""The ``mwms`` and ``ps`` profiles: the tf.distribute readers of :mod:`estconf.distribute`.

Each node is read by the model of its strategy, as a single TF_CONFIG check
under ``--profile`` reads it (SPEC §8): ``MultiWorkerConfig`` for
``MultiWorkerMirroredStrategy``, ``ParameterServerConfig`` for the TF2
``ParameterServerStrategy``.  Every node of the job is checked, so a task of
the cluster that its reader refuses (a ``ps`` under ``mwms``) is reported at
the node that claims it, or as a task no node claims.
"""

from __future__ import annotations

from estconf.deployment.profile import ReaderProfile
from estconf.distribute import MultiWorkerConfig, ParameterServerConfig
from estconf.tf_config import TFConfig

__all__ = ["MWMS", "PS"]


def _multi_worker(tf_config: TFConfig) -> MultiWorkerConfig:
    return MultiWorkerConfig(tf_config=tf_config)


def _parameter_server(tf_config: TFConfig) -> ParameterServerConfig:
    return ParameterServerConfig(tf_config=tf_config)


MWMS = ReaderProfile("mwms", _multi_worker, error_root=("tf_config",))
"""``tf.distribute.MultiWorkerMirroredStrategy``: a cluster of workers alone is valid."""

PS = ReaderProfile("ps", _parameter_server, error_root=("tf_config",))
"""``tf.distribute.ParameterServerStrategy`` (TF2): at least one ps and one worker."""
