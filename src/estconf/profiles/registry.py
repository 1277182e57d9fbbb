"""The profiles, each written once: its name, its reader, its check of a node, who else reads.

A profile names the TensorFlow reader a ``TF_CONFIG`` is written for.  Each
one is an entry of :data:`REGISTRY`, and everything that knows the profiles
reads them here: the choices of ``--profile`` (:data:`NAMES`), the reader
:func:`estconf.profiles.check_profile` builds for a node, the check of each
node of :mod:`estconf.deployment` and of each pod of a TFJob, and which other
profiles read a ``TF_CONFIG`` the Estimator refuses (:func:`accepted_instead`).

The readers are named as ``"module:name"`` and imported on first use, so that
naming the profiles (``estconf --help``) builds no model.  A new reader is a
member of :class:`Profile` and its entry here.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from estconf.tf_config import TFConfig

__all__ = [
    "NAMES",
    "READERS",
    "REGISTRY",
    "Profile",
    "ProfileEntry",
    "accepted_instead",
    "as_options",
    "entry_named",
]


class Profile(str, Enum):
    """The TensorFlow reader a ``TF_CONFIG`` is written for."""

    ESTIMATOR = "estimator"
    """``tf.estimator.RunConfig`` (the default)."""
    MWMS = "mwms"
    """``tf.distribute.MultiWorkerMirroredStrategy``."""
    PS = "ps"
    """``tf.distribute.ParameterServerStrategy`` (TF2)."""
    SERVER = "server"
    """``tf.train.Server``, started by a TF1 program that reads ``TF_CONFIG`` itself."""

    def __str__(self) -> str:
        return self.value


@functools.cache
def _imported(reference: str) -> Any:
    """The object a ``"module:name"`` string names, imported on first use."""
    module, name = reference.split(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class ProfileEntry:
    """One profile: the reader it stands for and how a node is checked under it.

    Attributes:
        profile: The profile, as ``--profile`` names it.
        tensorflow: The TensorFlow class that reads the ``TF_CONFIG``.
        model: estconf's model of that reader, as ``"module:Name"``: built
            from a ``TF_CONFIG`` (``Model(tf_config=...)``), it refuses what
            the reader refuses (:meth:`read`).
        node_check: Optionally, a check of one node's validated ``TFConfig``,
            as ``"module:name"``, that refuses what :attr:`model` refuses with
            less work (it derives only what the rules need), its errors
            located in the ``TF_CONFIG``; without it a node is checked by
            :meth:`read`.
        written_check: Optionally, a check of a ``TF_CONFIG`` as written (its
            JSON object), as ``"module:name"``, for a reader that refuses a
            value as written where the model has read it (``tf.train.Server``
            refuses a task index ``"1"``).
        offered_for: When the Estimator refuses a ``TF_CONFIG``, whether this
            profile is tried as its reader instead: ``None`` for any refusal,
            else only for a refusal with one of these error codes.
    """

    profile: Profile
    tensorflow: str
    model: str
    node_check: str | None = None
    written_check: str | None = None
    offered_for: frozenset[str] | None = None

    @property
    def name(self) -> str:
        """The profile's name (``estimator``, ``mwms``, ``ps``, ``server``)."""
        return self.profile.value

    def read(self, tf_config: TFConfig | Mapping[str, Any]) -> Any:
        """Build the reader's model from ``tf_config``: a pod's check under this profile.

        Raises:
            pydantic.ValidationError: what the reader refuses, located under
                ``tf_config``.
        """
        return _imported(self.model)(tf_config=tf_config)

    def check_node(self) -> Callable[[TFConfig], object]:
        """The check of one node's validated ``TFConfig``: :attr:`node_check`, else :meth:`read`."""
        if self.node_check is None:
            return self.read
        check: Callable[[TFConfig], object] = _imported(self.node_check)
        return check

    @property
    def error_root(self) -> tuple[str, ...]:
        """Where the ``TF_CONFIG`` sits in the locations of :meth:`check_node`'s errors."""
        return () if self.node_check is not None else ("tf_config",)

    def check_written(self) -> Callable[[Mapping[str, Any]], object] | None:
        """The check of a ``TF_CONFIG`` as written (:attr:`written_check`), if there is one."""
        if self.written_check is None:
            return None
        check: Callable[[Mapping[str, Any]], object] = _imported(self.written_check)
        return check


REGISTRY: Final[Mapping[Profile, ProfileEntry]] = {
    Profile.ESTIMATOR: ProfileEntry(
        Profile.ESTIMATOR,
        "tf.estimator.RunConfig",
        "estconf.run_config:RunConfig",
        # the rules of local, chief and master mode alone: what the distributed properties need
        node_check="estconf.estimator.reading:derive_distributed",
        offered_for=frozenset(),
    ),
    Profile.MWMS: ProfileEntry(
        Profile.MWMS,
        "tf.distribute.MultiWorkerMirroredStrategy",
        "estconf.distribute:MultiWorkerConfig",
    ),
    Profile.PS: ProfileEntry(
        Profile.PS,
        "tf.distribute.ParameterServerStrategy",
        "estconf.distribute:ParameterServerConfig",
    ),
    Profile.SERVER: ProfileEntry(
        Profile.SERVER,
        "tf.train.Server",
        "estconf.distribute:ServerConfig",
        written_check="estconf.distribute.server:check_index_as_written",
        # a TF1 program's server takes any jobs, as a PS and Worker job's does: named for
        # every refusal, it would hide the Estimator's real complaint
        offered_for=frozenset({"missing_chief"}),
    ),
}
"""Every profile, in the order of :class:`Profile`."""

NAMES: Final = tuple(profile.value for profile in REGISTRY)
"""The profiles' names, as ``--profile`` takes them."""

READERS: Final[Mapping[Profile, str]] = {
    profile: entry.tensorflow for profile, entry in REGISTRY.items()
}
"""The TensorFlow class each profile stands for."""


def entry_named(name: str) -> ProfileEntry:
    """Return the entry of the profile called ``name``.

    Raises:
        ValueError: no profile has that name.
    """
    if name not in NAMES:
        raise ValueError(f"unknown profile {name!r}; the profiles are {', '.join(NAMES)}")
    return REGISTRY[Profile(name)]


def accepted_instead(refused: Collection[str], accepts: Callable[[Profile], bool]) -> list[Profile]:
    """The profiles that read what the Estimator refuses, with the error codes ``refused``.

    Each profile offered for such a refusal (:attr:`ProfileEntry.offered_for`)
    is asked ``accepts``, which runs its check on the same input, so that a
    hint naming one is true.
    """
    return [
        entry.profile
        for entry in REGISTRY.values()
        if (entry.offered_for is None or not entry.offered_for.isdisjoint(refused))
        and accepts(entry.profile)
    ]


def as_options(profiles: Iterable[Profile | str]) -> str:
    """The options that choose ``profiles``: ``--profile mwms or --profile ps``."""
    return " or ".join(f"--profile {profile}" for profile in profiles)
