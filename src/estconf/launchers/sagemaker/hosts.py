"""The hosts of a SageMaker training job, each as SageMaker's TensorFlow toolkit sets it up.

A job is given as its hosts' ``resourceconfig.json`` and its hyperparameters
(:mod:`estconf.sagemaker`), or as SageMaker is asked for it: its instances
(:func:`job_resource_configs`) and its distribution
(:func:`job_hyperparameters`).  For each host: its ``TF_CONFIG`` and ps
server, what the toolkit fails on, why it gives the host no ``TF_CONFIG``,
and a ps server away from the host's own slot; then what a reader refuses in
the clusters the toolkit writes; and all of it as ``estconf tf-config
--sagemaker`` reports it (:func:`job_report`): each host's ``TF_CONFIG`` and
label, its traps and their fixes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from estconf.launchers.base import Notes, Pod

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from estconf.io.errors import FileError
    from estconf.io.parse import Document
    from estconf.launchers.sagemaker.toolkit import PSServer

__all__ = [
    "DISTRIBUTIONS",
    "Host",
    "JobReport",
    "Refused",
    "hosts",
    "job_hyperparameters",
    "job_report",
    "job_resource_configs",
    "refused_by_the_reader",
    "string_flags",
]

DISTRIBUTIONS: Final = {
    "parameter_server": "sagemaker_parameter_server_enabled",
    "multi_worker_mirrored": "sagemaker_multi_worker_mirrored_strategy_enabled",
}
"""The SDK's ``distribution`` names and the hyperparameter each sets."""

_PROFILE_HINTS: Final = {
    "disallowed_job": "SageMaker's parameter-server mode writes a master job, which "
    "tf.distribute's strategies refuse: --distribution multi_worker_mirrored for "
    "MultiWorkerMirroredStrategy; keep parameter servers for the Estimator (--profile estimator)",
    "missing_chief": "multi-worker mirrored mode writes workers alone, for "
    "MultiWorkerMirroredStrategy (--profile mwms), not for the Estimator",
    "missing_ps": "ParameterServerStrategy needs chief, worker and ps jobs, which neither "
    "mode of SageMaker's toolkit writes: set TF_CONFIG in the script, from resourceconfig.json",
    "missing_worker": "ParameterServerStrategy needs chief, worker and ps jobs, which neither "
    "mode of SageMaker's toolkit writes: set TF_CONFIG in the script, from resourceconfig.json",
}
"""The fix of what a reader refuses in the toolkit's ``TF_CONFIG``s, by error code."""

_HINTS: Final = {
    "sagemaker_ps_outside_distribution": "add the group to --distribution-groups, or run "
    "parameter servers on a job of one instance group",
    "sagemaker_host_not_in_cluster": "the host is missing from its instance group's hosts",
    "sagemaker_host_not_in_hosts": "the host is missing from hosts",
}
"""The fix of what the toolkit fails on, by error code."""

_ONE_HOST_PS: Final = (
    "a parameter-server job needs two instances or more; on one, the script "
    "trains alone in the local mode"
)


def job_hyperparameters(
    given: Mapping[str, Any] | None = None,
    distribution: str | None = None,
    groups: str | None = None,
) -> dict[str, Any]:
    """A job's hyperparameters as the SDK writes them: ``given``, then its distribution's.

    Args:
        given: the job's ``hyperparameters.json``, if given.
        distribution: a name of :data:`DISTRIBUTIONS`: the hyperparameter it sets.
        groups: the instance groups the distribution runs on (``data,dnn``).
    """
    hps: dict[str, Any] = dict(given or {})
    if distribution is not None:
        hps[DISTRIBUTIONS[distribution]] = "true"
    if groups is not None:
        names = [name for name in groups.split(",") if name]
        hps["sagemaker_distribution_instance_groups"] = json.dumps(names)
    return hps


def job_resource_configs(
    instance_count: int | None = None,
    instance_groups: list[dict[str, Any]] | None = None,
    instance_type: str | None = None,
) -> list[tuple[str, Mapping[str, Any]]]:
    """Each host's name and ``resourceconfig.json``, for a job of these instances.

    Args:
        instance_count: the job's instances, of one group.
        instance_groups: instead, its instance groups (``instance_group_name``,
            ``instance_count``).
        instance_type: their instance type (the default if None).

    Raises:
        InputError: SageMaker refuses the job: its first error.
    """
    from pydantic import ValidationError

    from estconf.io.sources import InputError
    from estconf.launchers.sagemaker import toolkit as sagemaker

    kwargs: dict[str, Any] = {}
    if instance_type is not None:
        kwargs["instance_type"] = instance_type
    try:
        if instance_groups is not None:
            groups = [{**group, **kwargs} for group in instance_groups]
            configs = sagemaker.resource_configs(instance_groups=groups)
        else:
            configs = sagemaker.resource_configs(instance_count, **kwargs)
    except ValidationError as exc:
        raise InputError(f"--sagemaker: {exc.errors()[0]['msg']}") from None
    return [(config["current_host"], config) for config in configs]


def string_flags(
    given: Mapping[str, Any],
    hyperparameters: Mapping[str, Any],
    file: str,
    document: Document | None = None,
) -> list[FileError]:
    """The flags ``file`` writes as text (``"False"``), each a warning at its key.

    Args:
        given: the content of the job's ``hyperparameters.json``, ``file``.
        hyperparameters: the job's hyperparameters: ``given``, then what
            ``--distribution`` sets (a flag it sets is not the file's).
        file: the file's name, as the findings say it.
        document: the file, read, to place each finding at its line.
    """
    from pydantic import ValidationError

    from estconf.io.errors import error_of
    from estconf.launchers.sagemaker.inputs import MODES
    from estconf.launchers.sagemaker.toolkit import check_hyperparameters

    kept = {
        key: given[key] for key in MODES if key in given and hyperparameters.get(key) is given[key]
    }
    try:  # the whole job's flags decide each message; only the file's flags are reported
        found = check_hyperparameters(hyperparameters)
    except ValidationError:  # what the toolkit fails on is said at each host
        return []
    errors = [error_of(finding, file) for finding in found if finding.loc[0] in kept]
    return errors if document is None else document.place(errors)


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

    from estconf.launchers.sagemaker import toolkit as sagemaker

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
    from estconf.launchers.sagemaker.inputs import Hyperparameters, ResourceConfig

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


@dataclass(frozen=True)
class JobReport:
    """A job as ``estconf tf-config --sagemaker`` reports it.

    Attributes:
        outputs: each host's task (type, index) and ``TF_CONFIG`` as JSON.
        labels: each output's label: the host, its task, its ps server.
        notes: the notes and problems, a line each, and their fixes (hints).
        failed: a host meets a trap of the toolkit, or the reader refuses a cluster.
        pods: each host by name and its ``TF_CONFIG``, None where it gets none
            (``--format pods``).
    """

    outputs: list[tuple[tuple[str, int], str]]
    labels: list[str]
    notes: Notes
    failed: bool
    pods: list[Pod] = field(default_factory=list)


def job_report(found: Iterable[Host], profile: str, flags: Sequence[FileError] = ()) -> JobReport:
    """What ``--sagemaker`` writes and says of the hosts ``found``, read by ``profile``'s reader.

    ``flags`` are the warnings on the hyperparameters (:func:`string_flags`),
    said after the hosts' notes and problems; they fail nothing.
    """
    found = list(found)
    outputs: list[tuple[tuple[str, int], str]] = []
    labels: list[str] = []
    notes: list[str] = []
    problems: list[str] = []
    hints: list[str] = []
    for host in found:
        if host.errors:
            problems.extend(_lines(f"--sagemaker: {host.name}", host.errors, _HINTS, hints))
        elif host.why_none is not None:
            notes.append(f"--sagemaker: {host.host}: {host.why_none}")
        elif host.tf_config is not None:
            task = host.tf_config["task"]
            label = f"{host.host}: {task['type']}:{task['index']}"
            if host.server is not None:
                address = host.server.address or "no address"
                label += f", ps server ps:{host.server.task_index} at {address}"
            if host.server_problem is not None:
                problems.append(f"--sagemaker: {host.host}: {host.server_problem}")
            outputs.append(((task["type"], task["index"]), json.dumps(host.tf_config)))
            labels.append(label)
    for refused in refused_by_the_reader(found, profile):
        source = f"--sagemaker --profile {profile}: {refused.host}"
        problems.extend(_lines(source, refused.errors, _PROFILE_HINTS, hints))
    one_host_ps = any("one-host parameter-server" in note for note in notes)
    if one_host_ps:
        hints.append(_ONE_HOST_PS)
    lines = Notes([*notes, *problems], findings=flags, hints=hints)
    pods = [
        Pod(host.host, None if host.tf_config is None else json.dumps(host.tf_config))
        for host in found
    ]
    return JobReport(outputs, labels, lines, bool(problems) or one_host_ps, pods)


def _lines(
    source: str, errors: list[ErrorDetails], fixes: Mapping[str, str], hints: list[str]
) -> list[str]:
    """A line for each error, after ``source``; the fix of each, once, to ``hints``."""
    lines = []
    for detail in errors:
        where = ".".join(str(part) for part in detail["loc"])
        lines.append(f"{source}: {where}: {detail['msg']} [{detail['type']}]")
        hint = fixes.get(str(detail["type"]))
        if hint is not None and hint not in hints:
            hints.append(hint)
    return lines
