"""The reader each node's TF_CONFIG is checked for, as the whole-job check asks it.

A :class:`NodeReader` answers, for one node, "would this reader start with
this TF_CONFIG?".  The whole-job check asks it at most once per distinct
cluster (:meth:`NodeReader.check_cluster`) and once per distinct node config
(:meth:`NodeReader.check_node`), always with an already validated cluster:
the :class:`~estconf.ClusterSpec` that every node with the same cluster
shares, so a reader never pays for validating a large cluster again, and may
cache what it derives from one cluster on that object's identity.

A reader that raises :class:`pydantic.ValidationError` on a TF_CONFIG it
refuses becomes a node reader with :class:`ReaderProfile`::

    ReaderProfile(
        "mwms", lambda tf_config: MultiWorkerConfig(tf_config=tf_config), error_root=("tf_config",)
    )

The profiles known by name (:mod:`estconf.deployment.readers`) are made this
way from the entries of :data:`estconf.profiles.registry.REGISTRY`; a new one
is a new entry there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from estconf._path import format_path
from estconf.cluster import ClusterSpec
from estconf.finding import Finding, Loc
from estconf.tf_config import TFConfig

__all__ = [
    "NodeReader",
    "Problem",
    "Profile",
    "ReaderProfile",
    "problems_of",
]


class Problem(Finding):
    """A rule a TF_CONFIG breaks: a :class:`~estconf.finding.Finding` in no file yet.

    Made with its stable code, TensorFlow's sentence, where in the
    TF_CONFIG (``loc``) and its fix, if the reader gives one (``hint``); the
    node it is found in names the file.
    """

    def __init__(self, code: str, message: str, loc: Loc = (), hint: str | None = None) -> None:
        super().__init__("", format_path(loc), tuple(loc), code, message, hint=hint)


class NodeReader(Protocol):
    """A reader of TF_CONFIG that nodes are checked for, under a profile's name.

    A node reader may also have ``check_written(data) -> Sequence[Problem]``,
    called with each distinct node's TF_CONFIG as written (a JSON object),
    for a reader that takes a value as written where the model has read it
    (``tf.train.Server`` refuses a task index ``"1"``), as
    :class:`ReaderProfile` has.
    """

    @property
    def name(self) -> str:
        """The profile's name, as ``--profile`` takes it (``estimator``, ``mwms``, ``ps``)."""
        ...

    def check_cluster(self, cluster: ClusterSpec) -> Sequence[Problem]:
        """Return what is wrong with ``cluster`` for this reader, whichever task reads it.

        Called once per distinct valid cluster; the problems are reported for
        every node given that cluster.  ``loc`` is relative to the TF_CONFIG
        (``("cluster", "ps")``).
        """
        ...

    def check_node(self, tf_config: TFConfig) -> Sequence[Problem]:
        """Return what is wrong with one node's validated ``tf_config`` for this reader.

        Called once per distinct node config; ``tf_config.cluster`` is the
        validated cluster shared by every node that has it.
        """
        ...


Profile = NodeReader
"""The former name of :class:`NodeReader`."""


def problems_of(error: ValidationError, root: tuple[str, ...] = ()) -> list[Problem]:
    """Turn a validation error into problems, one per error it holds.

    ``root`` is where the TF_CONFIG sits in the model that raised (a reader's
    ``tf_config`` field); a location that starts with it is made relative to
    the TF_CONFIG.
    """
    found = (Finding.of_error(detail, root=root) for detail in error.errors(include_url=False))
    return [Problem(problem.code, problem.message, problem.loc, problem.hint) for problem in found]


@dataclass(frozen=True)
class ReaderProfile:
    """A profile made of a reader that raises :class:`~pydantic.ValidationError` on refusal.

    Attributes:
        name: the profile's name.
        reader: builds what the reader derives from a TF_CONFIG; its errors
            are the node's problems, its result is not used.
        cluster_reader: optionally, checks a cluster on its own (once per
            distinct cluster) the same way.
        error_root: where the TF_CONFIG sits in the reader's model
            (``("tf_config",)`` for the models of :mod:`estconf.distribute`);
            dropped from the start of the locations of its errors.
        written_reader: optionally, checks a node's TF_CONFIG as written.
    """

    name: str
    reader: Callable[[TFConfig], object]
    cluster_reader: Callable[[ClusterSpec], object] | None = None
    error_root: tuple[str, ...] = ()
    written_reader: Callable[[Mapping[str, Any]], object] | None = None

    def check_cluster(self, cluster: ClusterSpec) -> Sequence[Problem]:
        """Run ``cluster_reader`` on ``cluster``, if there is one."""
        if self.cluster_reader is None:
            return ()
        try:
            self.cluster_reader(cluster)
        except ValidationError as error:
            return problems_of(error, self.error_root)
        return ()

    def check_node(self, tf_config: TFConfig) -> Sequence[Problem]:
        """Run ``reader`` on ``tf_config``."""
        try:
            self.reader(tf_config)
        except ValidationError as error:
            return problems_of(error, self.error_root)
        return ()

    def check_written(self, data: Mapping[str, Any]) -> Sequence[Problem]:
        """Run ``written_reader`` on the TF_CONFIG as written, if there is one."""
        if self.written_reader is None:
            return ()
        try:
            self.written_reader(data)
        except ValidationError as error:
            return problems_of(error, self.error_root)
        return ()
