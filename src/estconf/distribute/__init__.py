"""How ``tf.distribute`` reads ``TF_CONFIG``: the cluster resolver, two strategies, a server.

Most ``TF_CONFIG`` values today are read by ``tf.distribute`` rather than by
the Estimator, under other rules: a cluster of workers alone is valid, and
``ps`` tasks are refused by some strategies.  Each model here mirrors one
TensorFlow reader, which 2.15 and 2.21 release alike:

- :class:`TFConfigClusterResolver`: ``tf.distribute.cluster_resolver.TFConfigClusterResolver``;
- :class:`MultiWorkerConfig`: ``tf.distribute.MultiWorkerMirroredStrategy``;
- :class:`ParameterServerConfig`: ``tf.distribute.ParameterServerStrategy`` (TF2);
- :class:`SlurmClusterResolver`: ``tf.distribute.cluster_resolver.SlurmClusterResolver``;
  :func:`slurm_tf_configs` writes instead each SLURM rank a ``TF_CONFIG`` at the
  host SLURM runs it on (:mod:`estconf.launchers.slurm.placement`);
- :class:`ServerConfig`: ``tf.train.Server`` (``tf.distribute.Server``), started by a
  program that reads ``TF_CONFIG`` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from estconf.distribute.multi_worker import MultiWorkerConfig
from estconf.distribute.parameter_server import ParameterServerConfig
from estconf.distribute.resolver import TFConfigClusterResolver
from estconf.distribute.server import ServerConfig
from estconf.distribute.slurm import SlurmClusterResolver

if TYPE_CHECKING:
    from estconf.launchers.slurm.placement import misplaced_ranks, rank_hosts, slurm_tf_configs

__all__ = [
    "MultiWorkerConfig",
    "ParameterServerConfig",
    "ServerConfig",
    "SlurmClusterResolver",
    "TFConfigClusterResolver",
    "misplaced_ranks",
    "rank_hosts",
    "slurm_tf_configs",
]

_PLACEMENT = ("misplaced_ranks", "rank_hosts", "slurm_tf_configs")


def __getattr__(name: str) -> Any:
    # SLURM's placement of ranks is the SLURM launcher's (estconf.launchers.slurm);
    # these names stay here, loaded on first use, as they were public here first
    if name in _PLACEMENT:
        from estconf.launchers.slurm import placement

        return getattr(placement, name)
    raise AttributeError(f"module 'estconf.distribute' has no attribute {name!r}")
