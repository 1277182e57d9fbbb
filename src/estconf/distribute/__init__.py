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
  host SLURM runs it on (:mod:`estconf.distribute.placement`);
- :class:`ServerConfig`: ``tf.train.Server`` (``tf.distribute.Server``), started by a
  program that reads ``TF_CONFIG`` itself.
"""

from __future__ import annotations

from estconf.distribute.multi_worker import MultiWorkerConfig
from estconf.distribute.parameter_server import ParameterServerConfig
from estconf.distribute.placement import misplaced_ranks, rank_hosts, slurm_tf_configs
from estconf.distribute.resolver import TFConfigClusterResolver
from estconf.distribute.server import ServerConfig
from estconf.distribute.slurm import SlurmClusterResolver

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
