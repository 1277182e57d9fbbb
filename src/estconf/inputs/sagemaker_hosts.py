"""The hosts of a SageMaker training job, each as SageMaker's TensorFlow toolkit sets it up.

A job is given as its hosts' ``resourceconfig.json`` and its hyperparameters
(:mod:`estconf.sagemaker`).  For each host: its ``TF_CONFIG`` and ps server,
what the toolkit fails on, why it gives the host no ``TF_CONFIG``, and a ps
server away from the host's own slot; then what a reader refuses in the
clusters the toolkit writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from estconf.sagemaker import PSServer

__all__ = ["Host", "Refused", "hosts", "refused_by_the_reader"]


@dataclass(frozen=True)
class Host:
    """What the toolkit gives one host.

    Attributes:
        name: the host's file (``--resource-config``), or its host name.
        host: its host name (``current_host``).
        tf_config: its ``TF_CONFIG``, None where the toolkit sets none.
        server: the ps server the toolkit starts in its process, if any.
        errors: what the toolkit fails on, as pydantic's errors.
        why_none: why it gets no ``TF_CONFIG``, when it gets none.
        server_problem: a ps server at another host's slot, or at none.
    """

    name: str
    host: str
    tf_config: dict[str, Any] | None = None
    server: PSServer | None = None
    errors: list[ErrorDetails] = field(default_factory=list)
    why_none: str | None = None
    server_problem: str | None = None


def hosts(
    configs: Iterable[tuple[str, Mapping[str, Any]]], hyperparameters: Mapping[str, Any]
) -> list[Host]:
    """What the toolkit gives each host of ``configs`` (its name and ``resourceconfig.json``)."""
    from pydantic import ValidationError

    from estconf import sagemaker

    found = []
    for name, config in configs:
        host = str(config.get("current_host", name))
        try:
            tf_config = sagemaker.tf_config(config, hyperparameters)
            server = sagemaker.ps_server(config, hyperparameters)
        except ValidationError as exc:
            found.append(Host(name, host, errors=exc.errors(include_url=False)))
            continue
        if tf_config is None:
            found.append(Host(name, host, why_none=_why_none(config, hyperparameters)))
            continue
        problem = None if server is None else _server_problem(host, server)
        found.append(Host(name, host, tf_config, server, server_problem=problem))
    return found


def _why_none(config: Mapping[str, Any], hps: Mapping[str, Any]) -> str:
    """Why the toolkit gives a host no ``TF_CONFIG``."""
    from estconf.sagemaker import Hyperparameters, ResourceConfig

    parameters = Hyperparameters.model_validate(hps)
    resources = ResourceConfig.model_validate(config)
    if parameters.parameter_server and len(resources.hosts) <= 1:
        return "no TF_CONFIG and no ps server: a one-host parameter-server job"
    if not (parameters.parameter_server or parameters.multi_worker_mirrored):
        return "no TF_CONFIG: no --distribution"
    return (
        f"no TF_CONFIG: its instance group {resources.current_group_name!r} "
        "is not a distribution group"
    )


def _server_problem(host: str, server: PSServer) -> str | None:
    """A ps server whose index is not its own host's slot."""
    own = f"{host}:"
    if server.address is not None and server.address.startswith(own):
        return None
    why = "(the toolkit takes its index from hosts, its cluster from the distribution hosts)"
    if server.address is not None:
        return (
            f"its ps server is ps:{server.task_index}, which the cluster places at "
            f"{server.address}, on another host: the tasks look for it there {why}"
        )
    tasks = len(server.cluster.get("ps", []))
    return (
        f"its ps server is ps:{server.task_index}, which the cluster does not hold (its ps "
        f"job has {tasks} tasks): TensorFlow cannot start it {why}"
    )


@dataclass(frozen=True)
class Refused:
    """What a reader refuses in a cluster the toolkit writes, at the first host given it."""

    host: str
    errors: list[ErrorDetails]


def refused_by_the_reader(found: Iterable[Host], profile: str) -> list[Refused]:
    """What the reader of ``profile`` refuses in each cluster the toolkit writes, once."""
    from pydantic import ValidationError

    from estconf.profiles import check_profile

    refused: list[Refused] = []
    checked: set[str] = set()
    for host in found:
        if host.tf_config is None:
            continue
        cluster = json.dumps(host.tf_config["cluster"])
        if cluster in checked:
            continue
        checked.add(cluster)
        try:
            check_profile(host.tf_config, profile)
        except ValidationError as exc:
            refused.append(Refused(host.host, exc.errors(include_url=False)))
    return refused
