"""The TF_CONFIG each pod of a JobSet reads: the value of the first container that defines it.

JobSet, Kubeflow Trainer and Kubernetes set no TF_CONFIG: a pod's is the
``TF_CONFIG`` variable of its containers, expanded as Kubernetes expands it
with that pod's values (:mod:`estconf.launchers.jobset.pods`).  The first
container that defines it is the one that runs TensorFlow; a pod none of
whose containers defines it gets none.  A value that is no JSON once
expanded is what the pod gets all the same, and its program fails to read
it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from estconf._container_env import Variable
from estconf._json import JSONInputError, loads
from estconf.launchers.jobset.model import JobSet, ReplicatedJob
from estconf.launchers.jobset.pods import Configs, NotKnown, Pod, pods, variables
from estconf.launchers.kubernetes import Container

__all__ = [
    "MOST_CHARACTERS",
    "TF_CONFIG",
    "PodTFConfig",
    "named",
    "pods_named",
    "tf_config_container",
    "tf_configs",
]

TF_CONFIG: Final = "TF_CONFIG"

MOST_CHARACTERS: Final = 1 << 20
"""The most characters a variable is expanded to: 1 MiB, eight times what Linux passes a
program in one variable (``MAX_ARG_STRLEN``, 128 KiB), so that no value a pod could start
with is cut."""

_SHOWN: Final = 3


@dataclass(frozen=True)
class PodTFConfig:
    """A pod and the TF_CONFIG its program reads.

    Attributes:
        pod: the pod.
        container: the position of the container whose TF_CONFIG it is;
            None when no container of the pod defines one.
        container_name: that container's name.
        variable: its TF_CONFIG variable, expanded; None with ``container``.
        not_known: what may define a name the value references beyond what
            is known here (an ``envFrom`` ConfigMap not given, the namespace's
            Services).
        may_be_set: the ``envFrom`` ConfigMaps and Secrets not given that
            may set TF_CONFIG in a pod that gets none here.
    """

    pod: Pod
    container: int | None = None
    container_name: str | None = None
    variable: Variable | None = None
    not_known: NotKnown = field(default_factory=NotKnown)
    may_be_set: tuple[str, ...] = ()

    @property
    def text(self) -> str | None:
        """The TF_CONFIG the pod's program reads; None when it gets none."""
        return None if self.variable is None else self.variable.value

    @property
    def entry(self) -> int | None:
        """The position of its entry in the container's ``env``; None when ``envFrom`` sets it."""
        return None if self.variable is None else self.variable.position

    @property
    def unexpanded(self) -> tuple[str, ...]:
        """The ``$(NAME)`` references Kubernetes leaves as written in it, whatever runs beside it.

        A name some source not known here may define (a Service's, one of an
        ``envFrom`` not given) is not one of them, but one of :attr:`may_expand`.
        """
        return tuple(name for name in self._references if not self.not_known.may_define(name))

    @property
    def may_expand(self) -> tuple[str, ...]:
        """The references left as written here that a source not known here may define."""
        return tuple(name for name in self._references if self.not_known.may_define(name))

    @property
    def known(self) -> bool:
        """Whether the pod's whole TF_CONFIG is known here.

        It is not when the pod gets none, when it takes a value known only
        once the pod runs, or when a ``$(NAME)`` in it stays as written.
        """
        variable = self.variable
        if variable is None or variable.unknown:
            return False
        return not (self.unexpanded or self.may_expand)

    @property
    def _references(self) -> tuple[str, ...]:
        return () if self.variable is None else self.variable.unexpanded

    @cached_property
    def parsed(self) -> object:
        """The JSON value of :attr:`text`, or the :class:`~estconf._json.JSONInputError` of it."""
        if self.text is None:
            return None
        try:
            return loads(self.text)
        except JSONInputError as exc:
            return exc

    @property
    def is_json(self) -> bool:
        """Whether the pod gets a TF_CONFIG that is JSON."""
        return self.text is not None and not isinstance(self.parsed, JSONInputError)


def tf_config_container(
    replicated: ReplicatedJob, namespace: str, configs: Configs
) -> tuple[int | None, tuple[str, ...]]:
    """The container of a replicated job's pods that defines TF_CONFIG, and what may define it.

    The container is the first whose ``env`` names TF_CONFIG, or whose
    ``envFrom`` takes it from a ConfigMap or Secret given; the sources are
    the ``envFrom`` of containers before it that are not given, which may
    define it too.
    """
    not_known: list[str] = []
    for position, container in enumerate(replicated.template.spec.template.spec.containers):
        if any(variable.name == TF_CONFIG for variable in container.env):
            return position, tuple(not_known)
        for source in container.env_from:
            ref = source.config_map_ref or source.secret_ref
            if ref is None:
                continue
            data = (configs.config_maps if source.config_map_ref else configs.secrets).get(
                (namespace, ref.name)
            )
            kind = "ConfigMap" if source.config_map_ref else "Secret"
            if data is None:
                not_known.append(f"{kind} {ref.name!r}")
            elif TF_CONFIG.startswith(source.prefix) and TF_CONFIG[len(source.prefix) :] in data:
                return position, tuple(not_known)
    return None, tuple(not_known)


def tf_configs(
    jobset: JobSet,
    name: str | None = None,
    configs: Configs | None = None,
    positions: Collection[int] | None = None,
    *,
    ends: bool = False,
) -> Iterator[PodTFConfig]:
    """The TF_CONFIG of every pod of ``jobset``, in pod order.

    Args:
        jobset: the JobSet.
        name: the name of a JobSet with only ``generateName``.
        configs: the ConfigMaps and Secrets the pods' variables may read.
        positions: only the pods of the replicated jobs at these positions.
        ends: only the first and last pods of the first and last Jobs of each.

    Raises:
        ValueError: the JobSet has no name and ``name`` gives none.
        estconf._container_env.TooLong: a variable expands to more than
            :data:`MOST_CHARACTERS`.
    """
    configs = configs or Configs()
    replicated = jobset.spec.replicated_jobs
    found = [tf_config_container(job, jobset.namespace, configs) for job in replicated]
    for pod in pods(jobset, name, positions, ends=ends):
        position, may_be_set = found[pod.position]
        if position is None:
            yield PodTFConfig(pod, may_be_set=may_be_set)
            continue
        spec = replicated[pod.position].template.spec.template.spec
        container: Container = spec.containers[position]
        values, not_known = variables(
            pod,
            container,
            spec.service_account_name,
            configs,
            service_links=spec.enable_service_links is not False,
            most=MOST_CHARACTERS,
        )
        yield PodTFConfig(pod, position, container.name, values.get(TF_CONFIG), not_known)


def named(pods: Sequence[Pod]) -> str:
    """The pods, each run of them in pod order as a range: ``m-w-0-0 to m-w-1-3, m-ps-0-0``.

    At most three runs are named, and how many more there are.
    """
    runs: list[list[Pod]] = []
    for pod in pods:
        last = runs[-1][-1] if runs else None
        if last is not None and _next(last, pod):
            runs[-1].append(pod)
        else:
            runs.append([pod])
    shown = [run[0].name if len(run) == 1 else f"{run[0].name} to {run[-1].name}" for run in runs]
    more = len(runs) - _SHOWN
    if more > 0:
        return f"{', '.join(shown[:_SHOWN])} and {more} more"
    return ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]


def pods_named(pods: Sequence[Pod]) -> str:
    """``pod NAME`` or ``pods NAMES`` (:func:`named`), as a finding names them."""
    return f"pod{'s' if len(pods) > 1 else ''} {named(pods)}"


def _next(last: Pod, pod: Pod) -> bool:
    """Whether ``pod`` comes right after ``last`` in pod order."""
    if (last.jobset, last.position) != (pod.jobset, pod.position):
        return False
    if pod.job_index == last.job_index:
        return pod.index == last.index + 1
    return pod.job_index == last.job_index + 1 and pod.index == 0 and last.index == last.per_job - 1
