"""The ``TF_CONFIG`` and the ps server SageMaker's TensorFlow toolkit sets up on each host.

``sagemaker-tensorflow-training`` 20.5.0 (``sagemaker_tensorflow_container/training.py``)
on ``sagemaker-training``'s ``Environment`` starts, on each host of a job:

- **parameter-server mode** (``sagemaker_parameter_server_enabled`` on, more
  than one host in ``hosts``): an in-process ``tf.distribute.Server`` for
  the job ``ps``, then the training process with ``TF_CONFIG`` = a
  ``master`` job (the first distribution host, ``:2222``; never ``chief``),
  ``worker`` (the other distribution hosts, ``:2222``) and ``ps`` (every
  distribution host, ``:2223``; none for a one-host cluster),
  ``"environment": "cloud"``; the first distribution host's task is
  ``master``:0.  The ps server takes its cluster from the distribution hosts
  but its index from ``hosts``: where the two lists differ, it serves another
  host's slot, or one that does not exist;
- **multi-worker mirrored mode** (``sagemaker_multi_worker_mirrored_strategy_enabled``
  on, parameter-server mode not): every distribution host a ``worker`` at
  ``:8890``, even a single one;
- otherwise no ``TF_CONFIG``: a one-host parameter-server job gets none.

The distribution hosts are the hosts of the distribution instance groups, in
the order of ``resourceconfig.json``, never sorted.  A host outside them gets
no ``TF_CONFIG``; in parameter-server mode the toolkit itself fails on it
(``UnboundLocalError``), which :func:`tf_config` and :func:`ps_server`
report as a clear error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from estconf._errors import fail
from estconf.codes import checked
from estconf.finding import Finding, show_value
from estconf.launchers.sagemaker.inputs import (
    HOMOGENEOUS_CLUSTER,
    MODES,
    Hyperparameters,
    InstanceGroupSpec,
    ResourceConfig,
)

__all__ = [
    "MAX_INSTANCES",
    "MULTI_WORKER_PORT",
    "PS_PORT",
    "WORKER_PORT",
    "PSServer",
    "check_hyperparameters",
    "ps_server",
    "resource_configs",
    "tf_config",
]

TITLE = "SageMaker"

WORKER_PORT = 2222
"""The port of ``master`` and ``worker`` tasks in parameter-server mode."""

PS_PORT = 2223
"""The port of ``ps`` tasks in parameter-server mode."""

MULTI_WORKER_PORT = 8890
"""The port of ``worker`` tasks in multi-worker mirrored mode."""

MAX_INSTANCES = 2048
"""The most hosts :func:`resource_configs` writes files for (each file lists every host)."""


class PSServer(NamedTuple):
    """The arguments of the ps server the toolkit starts in the host's own process.

    ``tf.distribute.Server(tf.train.ClusterSpec(cluster), job_name="ps",
    task_index=task_index)``.
    """

    cluster: dict[str, list[str]]
    """The cluster, that of the training process's ``TF_CONFIG``."""
    job_name: str
    """Always ``"ps"``."""
    task_index: int
    """The host's place in ``hosts`` (not in the distribution hosts the cluster is made of)."""

    @property
    def address(self) -> str | None:
        """The address the server serves: its slot of the ``ps`` job, or None if there is none."""
        tasks = self.cluster.get(self.job_name, [])
        return tasks[self.task_index] if self.task_index < len(tasks) else None


@dataclass(frozen=True)
class _Setup:
    """What the toolkit sets up on one host: the training process's TF_CONFIG, the ps server."""

    tf_config: dict[str, Any] | None
    ps_server: PSServer | None


Model = TypeVar("Model", bound=BaseModel)


def _read(model: type[Model], value: Model | Mapping[str, Any], name: str) -> Model:
    """``value`` as ``model``, its errors placed under ``name``."""
    if isinstance(value, model):
        return value
    try:
        return model.model_validate(value)
    except ValidationError as error:
        raise _located(error, name) from None


def _located(error: ValidationError, name: str) -> ValidationError:
    """``error`` with every location under ``name``."""
    details = [
        InitErrorDetails(
            type=PydanticCustomError(detail["type"], detail["msg"]),
            loc=(name, *detail["loc"]),
            input=detail["input"],
        )
        for detail in error.errors()
    ]
    return ValidationError.from_exception_data(TITLE, details)


def _addresses(hosts: Iterable[str], port: int) -> list[str]:
    return [f"{host}:{port}" for host in hosts]


def _ps_tf_config(hosts: Sequence[str], current_host: str) -> dict[str, Any]:
    """The parameter-server ``TF_CONFIG``: ``master``, then ``ps`` and ``worker`` if any."""
    workers = hosts[1:]
    cluster: dict[str, list[str]] = {"master": _addresses(hosts[:1], WORKER_PORT)}
    if len(hosts) > 1:
        cluster["ps"] = _addresses(hosts, PS_PORT)
    if workers:
        cluster["worker"] = _addresses(workers, WORKER_PORT)
    if not hosts:
        raise _not_a_distribution_host(current_host, hosts)
    if current_host == hosts[0]:
        task = {"index": 0, "type": "master"}
    elif current_host in workers:
        task = {"index": workers.index(current_host), "type": "worker"}
    else:
        raise _not_a_distribution_host(current_host, hosts)
    return {"cluster": cluster, "environment": "cloud", "task": task}


def _multi_worker_tf_config(hosts: Sequence[str], current_host: str) -> dict[str, Any]:
    """The multi-worker mirrored ``TF_CONFIG``: every distribution host a ``worker``."""
    if current_host not in hosts:
        raise _not_a_distribution_host(current_host, hosts)
    return {
        "cluster": {"worker": _addresses(hosts, MULTI_WORKER_PORT)},
        "environment": "cloud",
        "task": {"index": list(hosts).index(current_host), "type": "worker"},
    }


def _not_a_distribution_host(current_host: str, hosts: Sequence[str]) -> ValidationError:
    return fail(
        TITLE,
        "sagemaker_host_not_in_cluster",
        "the current host {host} is not one of the distribution hosts {hosts}, from which "
        "the toolkit builds TF_CONFIG (it fails: {host} is not in list); list it in the "
        "hosts of its instance group",
        ("resource_config", "current_host"),
        current_host,
        {"host": repr(current_host), "hosts": list(hosts)},
    )


def _no_hosts() -> ValidationError:
    return fail(
        TITLE,
        "sagemaker_no_hosts",
        "hosts is empty and so are the distribution hosts: the toolkit's Environment "
        "fails looking for the master host (IndexError)",
        ("resource_config", "hosts"),
        [],
    )


def _setup(
    resource_config: ResourceConfig | Mapping[str, Any],
    hyperparameters: Hyperparameters | Mapping[str, Any],
) -> _Setup:
    """Follow the toolkit's ``Environment`` and ``train()`` on one host, failing where they fail."""
    config = _read(ResourceConfig, resource_config, "resource_config")
    try:
        hps = _read(Hyperparameters, hyperparameters or {}, "hyperparameters")
    except ValidationError as error:
        # without instance groups, the toolkit meets an empty host list before it
        # looks names up in the distribution groups
        if not config.hosts and not config.instance_groups:
            codes = {detail["type"] for detail in error.errors()}
            if codes == {"sagemaker_distribution_instance_groups"}:
                raise _no_hosts() from None
        raise
    groups = hps.distribution_groups(config.current_group_name)
    distribution_hosts = config.distribution_hosts(groups)
    if not distribution_hosts and not config.hosts:
        raise _no_hosts()
    distributed = config.current_group_name in groups
    parameter_server = hps.parameter_server and len(config.hosts) > 1
    if parameter_server:
        if not distributed:
            raise fail(
                TITLE,
                "sagemaker_ps_outside_distribution",
                "parameter-server mode on host {host} of the instance group {group}, which is "
                "not a distribution instance group ({groups}): the toolkit builds no TF_CONFIG "
                "for it, then fails starting its ps server (UnboundLocalError)",
                ("resource_config", "current_group_name"),
                config.current_group_name,
                {
                    "host": repr(config.current_host),
                    "group": repr(config.current_group_name),
                    "groups": groups,
                    "hint": "list the group in sagemaker_distribution_instance_groups, or run "
                    "this group without parameter servers",
                },
            )
        tf_config = _ps_tf_config(distribution_hosts, config.current_host)
        if config.current_host not in config.hosts:
            raise fail(
                TITLE,
                "sagemaker_host_not_in_hosts",
                "the current host {host} is not in hosts {hosts}, where the toolkit looks up "
                "the index of its ps server (it fails: {host} is not in list)",
                ("resource_config", "current_host"),
                config.current_host,
                {"host": repr(config.current_host), "hosts": list(config.hosts)},
            )
        server = PSServer(
            cluster={job: list(tasks) for job, tasks in tf_config["cluster"].items()},
            job_name="ps",
            task_index=config.hosts.index(config.current_host),
        )
        return _Setup(tf_config, server)
    if distributed and hps.multi_worker_mirrored:
        return _Setup(_multi_worker_tf_config(distribution_hosts, config.current_host), None)
    return _Setup(None, None)


def tf_config(
    resource_config: ResourceConfig | Mapping[str, Any],
    hyperparameters: Hyperparameters | Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """The ``TF_CONFIG`` the toolkit gives the training process on this host, or None.

    Args:
        resource_config: The host's ``resourceconfig.json`` (its content, or a
            :class:`~estconf.sagemaker.ResourceConfig`).
        hyperparameters: The job's hyperparameters (``hyperparameters.json``'s
            content, or a :class:`~estconf.sagemaker.Hyperparameters`); only
            the ``sagemaker_*`` keys matter.

    Returns:
        The ``TF_CONFIG`` as a dict (``cluster``, ``environment``, ``task``),
        or None where the toolkit sets none.

    Raises:
        pydantic.ValidationError: (a ``ValueError``) for an input SageMaker
            does not write, or one on which the toolkit fails, with a stable code.

    Example:
        >>> config = {"current_host": "algo-2", "hosts": ["algo-1", "algo-2"]}
        >>> tf_config(config, {"sagemaker_parameter_server_enabled": "true"})
        ... # doctest: +NORMALIZE_WHITESPACE
        {'cluster': {'master': ['algo-1:2222'], 'ps': ['algo-1:2223', 'algo-2:2223'],
         'worker': ['algo-2:2222']}, 'environment': 'cloud', 'task': {'index': 0, 'type': 'worker'}}
    """
    return _setup(resource_config, hyperparameters or {}).tf_config


def ps_server(
    resource_config: ResourceConfig | Mapping[str, Any],
    hyperparameters: Hyperparameters | Mapping[str, Any] | None = None,
) -> PSServer | None:
    """The ``(cluster, job_name, task_index)`` of the ps server the toolkit starts on this host.

    The server runs in the toolkit's own process (it gets no ``TF_CONFIG``):
    its cluster is the training process's, its index the host's place in
    ``hosts``.

    Args:
        resource_config: The host's ``resourceconfig.json``, as for :func:`tf_config`.
        hyperparameters: The job's hyperparameters, as for :func:`tf_config`.

    Returns:
        The server's arguments, or None where the toolkit starts none (not in
        parameter-server mode, or a one-host job).

    Raises:
        pydantic.ValidationError: as :func:`tf_config` does.

    Example:
        >>> config = {"current_host": "algo-2", "hosts": ["algo-1", "algo-2"]}
        >>> server = ps_server(config, {"sagemaker_parameter_server_enabled": True})
        >>> server.job_name, server.task_index, server.address
        ('ps', 1, 'algo-2:2223')
    """
    return _setup(resource_config, hyperparameters or {}).ps_server


PARAMETER_SERVER = "sagemaker_parameter_server_enabled"

FLAG_FIX = (
    'write false to turn it off (the JSON false: "false" in hyperparameters.json, as the SDK '
    "writes it), true to turn it on, or leave the key out"
)
"""The fix of a flag written as text."""


def check_hyperparameters(
    hyperparameters: Hyperparameters | Mapping[str, Any],
) -> list[Finding]:
    """What the toolkit reads otherwise than it looks: each flag written as text, a warning.

    ``"sagemaker_parameter_server_enabled": "False"`` (Python's ``str(False)``)
    is no JSON: the toolkit keeps the text and tests it for truth, so the
    mode is **on**, as :func:`tf_config` predicts.  Each such flag is a
    ``sagemaker_flag_string`` warning at its key, with the fix as its hint.

    Raises:
        pydantic.ValidationError: as :func:`tf_config` does, for the hyperparameters.

    Example:
        >>> [found] = check_hyperparameters({"sagemaker_parameter_server_enabled": "False"})
        >>> found.code, found.severity, found.path
        ('sagemaker_flag_string', 'warning', 'sagemaker_parameter_server_enabled')
    """
    hps = _read(Hyperparameters, hyperparameters, "hyperparameters")
    return [
        Finding.at(
            checked("sagemaker_flag_string"),
            _flag_message(key, text, hps),
            (key,),
            value=text,
            severity="warning",
            hint=FLAG_FIX,
        )
        for key, text in hps.flags_as_text().items()
    ]


def _flag_message(key: str, text: str, hps: Hyperparameters) -> str:
    message = (
        f"the text {show_value(text)} is no JSON boolean: the toolkit tests it for truth, "
        f'and any text but "" is true, so {MODES[key]} is on'
    )
    if key == PARAMETER_SERVER and hps.multi_worker_mirrored:
        message += ", and on two hosts or more it wins over multi-worker mirrored mode"
    return message


def _instance_groups(
    instance_count: int | None,
    instance_type: str,
    instance_groups: Sequence[InstanceGroupSpec | Mapping[str, Any]] | None,
) -> list[InstanceGroupSpec]:
    """The groups asked for: ``instance_groups``, or one ``homogeneousCluster`` group."""
    if (instance_count is None) == (instance_groups is None):
        raise fail(
            TITLE,
            "sagemaker_instances",
            "give either instance_count or instance_groups, as a training job does",
            ("instance_count",),
            instance_count,
        )
    if instance_groups is None:
        try:
            return [
                InstanceGroupSpec(
                    instance_group_name=HOMOGENEOUS_CLUSTER,
                    instance_type=instance_type,
                    instance_count=instance_count,
                )
            ]
        except ValidationError as error:
            raise _located(error, "instance_count") from None
    specs = [
        _read(InstanceGroupSpec, group, f"instance_groups[{index}]")
        for index, group in enumerate(instance_groups)
    ]
    names = [spec.instance_group_name for spec in specs]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise fail(
                TITLE,
                "sagemaker_instance_group_names",
                "the instance group name {name} is used twice; each group needs its own",
                ("instance_groups", index, "instance_group_name"),
                name,
                {"name": repr(name)},
            )
    return specs


def resource_configs(
    instance_count: int | None = None,
    *,
    instance_type: str = "ml.c5.xlarge",
    instance_groups: Sequence[InstanceGroupSpec | Mapping[str, Any]] | None = None,
    network_interface_name: str = "eth0",
) -> list[dict[str, Any]]:
    """The ``resourceconfig.json`` of every host of a job, in SageMaker's documented shape.

    Hosts are ``algo-1`` ... ``algo-N``, handed to the groups in the order
    given (as SageMaker's heterogeneous-cluster example shows); ``hosts`` and
    each group's ``hosts`` are sorted as text, as SageMaker documents
    ``hosts`` (``algo-10`` before ``algo-2``).  A job of one instance type is
    the group ``homogeneousCluster``.

    Args:
        instance_count: The number of instances of a job of one instance type.
        instance_type: Their instance type.
        instance_groups: Instead of ``instance_count``: the groups of a
            heterogeneous job (``InstanceGroupName``/``instance_group_name``,
            ``InstanceType``/``instance_type``, ``InstanceCount``/``instance_count``).
        network_interface_name: The job network's interface.

    Returns:
        One dict per host, ``algo-1`` first.

    Raises:
        pydantic.ValidationError: (a ``ValueError``) for counts below 1 or
            above :data:`MAX_INSTANCES`, both or neither of ``instance_count``
            and ``instance_groups``, a group name used twice.

    Example:
        >>> hosts = [config["current_host"] for config in resource_configs(3)]
        >>> hosts
        ['algo-1', 'algo-2', 'algo-3']
        >>> first, second, third = resource_configs(instance_groups=[
        ...     {"InstanceGroupName": "data", "InstanceType": "ml.c5.xlarge", "InstanceCount": 1},
        ...     {"InstanceGroupName": "dnn", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 2},
        ... ])
        >>> data, dnn = second["instance_groups"]
        >>> dnn["instance_group_name"], dnn["hosts"]
        ('dnn', ['algo-2', 'algo-3'])
    """
    specs = _instance_groups(instance_count, instance_type, instance_groups)
    total = sum(spec.instance_count for spec in specs)
    if total > MAX_INSTANCES:
        raise fail(
            TITLE,
            "sagemaker_instances",
            "{total} instances: estconf writes the files of at most {most} (each lists every host)",
            ("instance_count",) if instance_groups is None else ("instance_groups",),
            total,
            {"total": total, "most": MAX_INSTANCES},
        )
    groups: list[dict[str, Any]] = []
    group_of: dict[str, str] = {}
    number = 0
    for spec in specs:
        hosts = [f"algo-{number + i}" for i in range(1, spec.instance_count + 1)]
        number += spec.instance_count
        group_of.update(dict.fromkeys(hosts, spec.instance_group_name))
        groups.append(
            {
                "instance_group_name": spec.instance_group_name,
                "instance_type": spec.instance_type,
                "hosts": sorted(hosts),
            }
        )
    type_of = {group["instance_group_name"]: group["instance_type"] for group in groups}
    every_host = sorted(group_of)
    return [
        {
            "current_host": host,
            "current_instance_type": type_of[group_of[host]],
            "current_group_name": group_of[host],
            "hosts": list(every_host),
            "instance_groups": [{**group, "hosts": list(group["hosts"])} for group in groups],
            "network_interface_name": network_interface_name,
        }
        for host in (f"algo-{i}" for i in range(1, number + 1))
    ]
