"""A profile's check of one node's ``TF_CONFIG``, and of every task of its cluster.

:func:`check_profile` reads a node's ``TF_CONFIG`` with the reader of a
:class:`~estconf.profiles.Profile` (its entry of
:data:`~estconf.profiles.registry.REGISTRY`), then reads it again as each
task of its cluster, since every node of a job receives the same cluster.
:func:`other_readers` names the profiles that read what the Estimator
refuses; :func:`explain` shows what each reader makes of a ``TF_CONFIG``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from estconf._errors import fail
from estconf.cluster import ClusterSpec
from estconf.estimator.reading import check_tf_config_file as estimator_file_check
from estconf.finding import Finding, hint_of
from estconf.profiles.registry import READERS, REGISTRY, Profile, accepted_instead, as_options
from estconf.tf_config import Task, TaskType, TFConfig

__all__ = [
    "ESTIMATOR_VALUES",
    "ReaderView",
    "check_cluster",
    "check_profile",
    "check_tf_config_file",
    "explain",
    "other_readers",
]


ESTIMATOR_VALUES: Final = (
    "cluster_spec",
    "task_type",
    "task_id",
    "master",
    "evaluation_master",
    "is_chief",
    "num_ps_replicas",
    "num_worker_replicas",
    "global_id_in_cluster",
)
"""The properties the Estimator derives from ``TF_CONFIG``, shown by :func:`explain`."""

TFConfigInput = TFConfig | Mapping[str, Any]
"""A ``TF_CONFIG``: a :class:`~estconf.TFConfig` or its JSON object as a dict."""


_ROOT: Final = ("tf_config",)
"""Where the ``TF_CONFIG`` sits in each reader's model: dropped from its errors' locations."""


def _detail(found: Finding, suffix: str = "") -> InitErrorDetails:
    """The error to raise for a finding, with ``suffix`` after its message and its hint kept."""
    ctx = {"message": found.message + suffix}
    if found.hint is not None:
        ctx["hint"] = found.hint
    return InitErrorDetails(
        type=PydanticCustomError(found.code, "{message}", ctx),
        loc=found.loc,
        input=found.value,
    )


def _read(tf_config: TFConfigInput, profile: Profile) -> BaseModel | list[ErrorDetails]:
    """The node's reader model, or the errors the reader raises (located in its model)."""
    try:
        model: BaseModel = REGISTRY[profile].read(tf_config)
    except ValidationError as error:
        return error.errors()
    return model


def _cluster_task_errors(tf_config: TFConfig, profile: Profile) -> list[Finding]:
    """The errors of every task of the cluster, each read with this TF_CONFIG as its own.

    A reader's verdict on a task of the cluster depends on the task's job and
    on whether its index is below the job's number of tasks, not on which
    index it is: one task of each such class is read, and the rest of a class
    only when that one is refused (to report each task in its own words).  So
    a cluster whose tasks all pass costs a few reads, not one per task.
    """
    found: list[Finding] = []
    cluster = tf_config.cluster
    passed: set[tuple[str | None, bool]] = set()
    for job in cluster.jobs:
        count = cluster.num_tasks(job)
        for index in cluster.task_indices(job):
            task_class = (job if job in _KNOWN_JOBS else None, index < count)
            if task_class in passed:
                continue
            task = Task(type=job, index=index)
            result = _read(tf_config.model_copy(update={"task": task}), profile)
            if isinstance(result, BaseModel):
                passed.add(task_class)
                continue
            found.extend(
                Finding.of_error(
                    error,
                    prefix=f"task {job}:{index} of this cluster: ",
                    loc=("cluster", job, index),
                    value=True,
                )
                for error in result
            )
    return found


_KNOWN_JOBS: Final = frozenset(
    {TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER, TaskType.PS, TaskType.EVALUATOR}
)
"""The jobs a reader gives a meaning to; the tasks of any other job are read alike."""


def _profile_errors(
    tf_config: TFConfigInput, profile: Profile
) -> tuple[BaseModel | None, list[Finding]]:
    """The node's reader model (if it reads) and every error of the profile's check."""
    result = _read(tf_config, profile)
    if not isinstance(result, BaseModel):
        return None, [Finding.of_error(error, root=_ROOT, value=True) for error in result]
    node_tf_config: TFConfig = getattr(result, "tf_config")  # noqa: B009 - every reader has one
    return result, _cluster_task_errors(node_tf_config, profile)


def check_profile(
    tf_config: TFConfigInput,
    profile: Profile | str = Profile.ESTIMATOR,
    *,
    name_others: bool = True,
) -> BaseModel:
    """Check one node's ``TF_CONFIG`` under ``profile``, then every task of its cluster.

    The node is read by the profile's reader (``RunConfig``,
    ``MultiWorkerConfig``, ``ParameterServerConfig`` or ``ServerConfig``).
    Then each task of the cluster is read with the same ``TF_CONFIG`` and
    that task in place of the node's; a failure is reported at
    ``cluster.<job>.<index>`` as ``task <job>:<index> of this cluster: <the
    reader's sentence>``.  When the Estimator refuses a ``TF_CONFIG`` that
    another profile accepts (:func:`other_readers`), every error says which.

    Args:
        tf_config: The node's TF_CONFIG.
        profile: The reader it is written for.
        name_others: Whether the Estimator's errors name the profiles that
            accept the TF_CONFIG; ``False`` where the input has errors of its
            own besides (a file's misspelled key), which every profile would
            report too.

    Returns:
        The node's reader model.

    Raises:
        pydantic.ValidationError: every error, located inside the ``TF_CONFIG``,
            with the reader's stable error codes.
    """
    profile = Profile(profile)
    model, errors = _profile_errors(tf_config, profile)
    if not errors:
        assert model is not None
        return model
    valid_for: list[Profile] = []
    if profile is Profile.ESTIMATOR and name_others:
        valid_for = other_readers(tf_config, {error.code for error in errors})
    raise _naming(f"TF_CONFIG (profile {profile})", errors, valid_for)


def _naming(title: str, errors: list[Finding], valid_for: list[Profile]) -> ValidationError:
    """The errors, each ending with the profiles that accept the TF_CONFIG, unless it names them."""
    suffix = ""
    if valid_for:
        suffix = f" (this cluster is valid for {as_options(valid_for)})"
    return ValidationError.from_exception_data(
        title, [_detail(error, "" if _names_all(error, valid_for) else suffix) for error in errors]
    )


def other_readers(tf_config: TFConfigInput, refused: Collection[str] = ()) -> list[Profile]:
    """The profiles other than the Estimator's whose check passes on ``tf_config``.

    ``refused`` holds the Estimator's error codes: the profiles tried are
    those the registry offers for them (:func:`~estconf.profiles.registry.accepted_instead`;
    ``server`` only for a cluster without a chief), each by running its check
    on the same input, so a hint naming one is true.
    """
    return accepted_instead(refused, lambda other: not _profile_errors(tf_config, other)[1])


def check_tf_config_file(tf_config: TFConfigInput, *, name_others: bool = True) -> None:
    """The Estimator's rules on a ``TF_CONFIG`` file, for its own task.

    As :func:`estconf.estimator.reading.check_tf_config_file`, and when the
    Estimator refuses the file, every error names the profiles that accept it
    (:func:`other_readers`, run on the same data), unless ``name_others`` is
    false.

    Raises:
        pydantic.ValidationError: the TF_CONFIG is not valid for the Estimator.
    """
    model = tf_config if isinstance(tf_config, TFConfig) else TFConfig.model_validate(tf_config)
    try:
        estimator_file_check(model)
    except ValidationError as refused:
        found = [Finding.of_error(error, root=_ROOT, value=True) for error in refused.errors()]
        valid_for = other_readers(tf_config, {e.code for e in found}) if name_others else []
        if not valid_for:
            raise
        raise _naming(refused.title, found, valid_for) from None


def check_cluster(
    cluster: ClusterSpec | Mapping[str, Any], profile: Profile | str = Profile.ESTIMATOR
) -> None:
    """Check a cluster alone as ``estconf tf-config`` checks a cluster file: every task starts.

    The cluster's first task is given the ``TF_CONFIG`` ``{"cluster": cluster,
    "task": <that task>}`` and read as a node is, with the Estimator's rules
    for a ``TF_CONFIG`` file (:func:`check_tf_config_file`) or by the
    profile's reader, and with it every task of the cluster
    (:func:`check_profile`).  The Estimator's errors name the profiles that
    accept the cluster.  Each error is placed in the cluster: an error of the
    cluster at its job or task (``worker[1]``, or the cluster itself), an
    error of the first task's own at that task, its message starting with
    ``task chief:0 of this cluster:``, as the other tasks' do.

    Raises:
        pydantic.ValidationError: the cluster has no task (``cluster_no_tasks``),
            or what the reader refuses of a task.
    """
    profile = Profile(profile)
    spec = cluster if isinstance(cluster, ClusterSpec) else ClusterSpec.model_validate(cluster)
    first = next(((job, index) for job in spec.jobs for index in spec.task_indices(job)), None)
    if first is None:
        raise fail(
            _CLUSTER,
            "cluster_no_tasks",
            "the cluster has no tasks: a cluster maps each job to the addresses of its tasks",
            (),
            spec.as_dict(),
            {"hint": 'name each job and its tasks\' addresses, as {"worker": ["host1:2222"]}'},
        )
    tf_config = TFConfig(cluster=spec, task=Task(type=first[0], index=first[1]))
    try:
        if profile is Profile.ESTIMATOR:
            check_tf_config_file(tf_config)
        check_profile(tf_config, profile)
    except ValidationError as refused:
        details = [_in_cluster(error, first) for error in refused.errors()]
        raise ValidationError.from_exception_data(_CLUSTER, details) from None


_CLUSTER: Final = "ClusterSpec"
"""The title of a cluster's errors."""


def _in_cluster(error: ErrorDetails, first: tuple[str, int]) -> InitErrorDetails:
    """An error of the first task's ``TF_CONFIG``, placed in the cluster (:func:`check_cluster`)."""
    loc, message = tuple(error["loc"]), error["msg"]
    if loc[:1] == ("cluster",):
        loc = loc[1:]
    else:
        loc, message = first, f"task {first[0]}:{first[1]} of this cluster: {message}"
    ctx: dict[str, Any] = {"message": message}
    hint = hint_of(error)
    if hint is not None:
        ctx["hint"] = hint
    return InitErrorDetails(
        type=PydanticCustomError(error["type"], "{message}", ctx), loc=loc, input=error["input"]
    )


def _names_all(error: Finding, profiles: list[Profile]) -> bool:
    """Whether the error's own hint already names every profile it could say."""
    return all(f"--profile {profile}" in error.message for profile in profiles)


class ReaderView(BaseModel):
    """What one reader makes of a ``TF_CONFIG``: its derived values, or its first error."""

    model_config = ConfigDict(frozen=True)

    profile: Profile
    reader: str
    """The TensorFlow class that reads the ``TF_CONFIG``."""
    values: dict[str, Any] | None = None
    """The derived values (JSON form), when the profile's check passes."""
    error: dict[str, Any] | None = None
    """The first error (``type``, ``loc``, ``msg``), when it does not."""


def explain(tf_config: TFConfigInput) -> list[ReaderView]:
    """Show, side by side, what each profile's reader makes of ``tf_config``.

    Each view holds the reader's derived values when :func:`check_profile`
    passes under its profile, or else its first error.
    """
    views = []
    for profile in Profile:
        try:
            model = check_profile(tf_config, profile)
        except ValidationError as invalid:
            first = invalid.errors()[0]
            error = {"type": first["type"], "loc": list(first["loc"]), "msg": first["msg"]}
            views.append(ReaderView(profile=profile, reader=READERS[profile], error=error))
            continue
        if profile is Profile.ESTIMATOR:
            values = model.model_dump(mode="json", include=set(ESTIMATOR_VALUES))
        else:
            values = model.model_dump(mode="json", exclude={"tf_config"})
        views.append(ReaderView(profile=profile, reader=READERS[profile], values=values))
    return views
