"""The profiles known by name: the estimator's rules and the tf.distribute readers.

``estimator`` checks each node with the rules of ``tf.estimator.RunConfig``
(SPEC §2), reading only what its distributed properties need.

Each node is read by the model of its strategy, as a single TF_CONFIG check
under ``--profile`` reads it (SPEC §8): ``MultiWorkerConfig`` for
``MultiWorkerMirroredStrategy``, ``ParameterServerConfig`` for the TF2
``ParameterServerStrategy``, ``ServerConfig`` for a TF1 program's
``tf.train.Server``.  Every node of the job is checked, so a task of
the cluster that its reader refuses (a ``ps`` under ``mwms``) is reported at
the node that claims it, or as a task no node claims.
"""

from __future__ import annotations

from estconf._distributed import derive_distributed
from estconf.deployment.profile import Profile, ReaderProfile
from estconf.distribute import MultiWorkerConfig, ParameterServerConfig, ServerConfig
from estconf.distribute.server import check_index_as_written
from estconf.tf_config import TFConfig

__all__ = ["ESTIMATOR", "MWMS", "PROFILES", "PS", "SERVER", "profile_named"]


def _multi_worker(tf_config: TFConfig) -> MultiWorkerConfig:
    return MultiWorkerConfig(tf_config=tf_config)


def _parameter_server(tf_config: TFConfig) -> ParameterServerConfig:
    return ParameterServerConfig(tf_config=tf_config)


MWMS = ReaderProfile("mwms", _multi_worker, error_root=("tf_config",))
"""``tf.distribute.MultiWorkerMirroredStrategy``: a cluster of workers alone is valid."""

PS = ReaderProfile("ps", _parameter_server, error_root=("tf_config",))
"""``tf.distribute.ParameterServerStrategy`` (TF2): at least one ps and one worker."""


def _server(tf_config: TFConfig) -> ServerConfig:
    return ServerConfig(tf_config=tf_config)


SERVER = ReaderProfile(
    "server", _server, error_root=("tf_config",), written_reader=check_index_as_written
)
"""``tf.train.Server`` in a TF1 program: any jobs; the task must be a task of the cluster."""

ESTIMATOR = ReaderProfile("estimator", derive_distributed)
"""The rules of ``tf.estimator.RunConfig`` (SPEC §2): what its distributed properties need."""

PROFILES: dict[str, Profile] = {"estimator": ESTIMATOR, "mwms": MWMS, "ps": PS, "server": SERVER}
"""The profiles known by name (``--profile``)."""


def profile_named(name: str) -> Profile:
    """Return the profile called ``name``.

    Raises:
        ValueError: no profile has that name.
    """
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(
            f"unknown profile {name!r}; the profiles are {', '.join(PROFILES)}"
        ) from None
