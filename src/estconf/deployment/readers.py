"""The profiles known by name, as node readers: one for each entry of the profiles' registry.

``estimator`` checks each node with the rules of ``tf.estimator.RunConfig``
(docs/tf_config.md), reading only what its distributed properties need.

Each other node is read by the model of its strategy, as a single TF_CONFIG
check under ``--profile`` reads it (docs/readers.md): ``MultiWorkerConfig`` for
``MultiWorkerMirroredStrategy``, ``ParameterServerConfig`` for the TF2
``ParameterServerStrategy``, ``ServerConfig`` for a TF1 program's
``tf.train.Server``.  Every node of the job is checked, so a task of
the cluster that its reader refuses (a ``ps`` under ``mwms``) is reported at
the node that claims it, or as a task no node claims.
"""

from __future__ import annotations

from estconf.deployment.profile import NodeReader, ReaderProfile
from estconf.profiles.registry import REGISTRY, Profile, ProfileEntry, entry_named

__all__ = ["ESTIMATOR", "MWMS", "PROFILES", "PS", "SERVER", "profile_named"]


def _node_reader(entry: ProfileEntry) -> ReaderProfile:
    """The node reader of a profile, made from its entry of the registry."""
    return ReaderProfile(
        entry.name,
        entry.check_node(),
        error_root=entry.error_root,
        written_reader=entry.check_written(),
    )


_READERS = {entry.profile: _node_reader(entry) for entry in REGISTRY.values()}

ESTIMATOR = _READERS[Profile.ESTIMATOR]
"""The rules of ``tf.estimator.RunConfig``: what its distributed properties need."""

MWMS = _READERS[Profile.MWMS]
"""``tf.distribute.MultiWorkerMirroredStrategy``: a cluster of workers alone is valid."""

PS = _READERS[Profile.PS]
"""``tf.distribute.ParameterServerStrategy`` (TF2): at least one ps and one worker."""

SERVER = _READERS[Profile.SERVER]
"""``tf.train.Server`` in a TF1 program: any jobs; the task must be a task of the cluster."""

PROFILES: dict[str, NodeReader] = {reader.name: reader for reader in _READERS.values()}
"""The profiles known by name (``--profile``), in the registry's order."""


def profile_named(name: str) -> NodeReader:
    """Return the node reader of the profile called ``name``.

    Raises:
        ValueError: no profile has that name.
    """
    return PROFILES[entry_named(name).name]
