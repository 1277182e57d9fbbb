"""The ``TF_CONFIG`` environment variable: ``estconf.TFConfig`` and ``estconf.Task``.

``TF_CONFIG`` is a JSON object that cluster managers set on every process of
a distributed job.  :class:`TFConfig` holds it as given, checked for the
types TensorFlow relies on; which combinations of cluster and task are valid
depends on the reader (``RunConfig`` or the legacy contrib API), so those
rules live with the readers.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from estconf._errors import Errors, Loc, custom_error, fail, validate_along, with_errors_of
from estconf._hashing import HashedByValue
from estconf._json import JSONInputError, loads, type_name
from estconf._suggest import closest
from estconf._types import ModelDir, OmittableString, String, TaskIndex, absent_if_none
from estconf.cluster import ClusterSpec

__all__ = [
    "JOB_NEAR_MISS",
    "TF_CONFIG",
    "TRAINING_JOBS",
    "UNREADABLE",
    "TFConfig",
    "TFConfigText",
    "Task",
    "TaskType",
    "jobs_alone",
    "load_json",
    "near_miss_job",
    "parse_as_tensorflow",
    "parse_json",
    "read_env",
    "read_service",
    "service_error",
    "top_level_job",
    "top_level_jobs",
]

TF_CONFIG: Final = "TF_CONFIG"
"""The name of the environment variable."""


class TaskType:
    """The task types TensorFlow gives a meaning to, as in ``run_config.TaskType``."""

    MASTER: Final = "master"
    PS: Final = "ps"
    WORKER: Final = "worker"
    CHIEF: Final = "chief"
    EVALUATOR: Final = "evaluator"


TRAINING_JOBS: Final = (
    TaskType.CHIEF,
    TaskType.MASTER,
    TaskType.WORKER,
    TaskType.PS,
    TaskType.EVALUATOR,
)
"""The jobs TensorFlow's readers give a meaning to."""

JOB_NEAR_MISS: Final = 0.8
"""How alike (0 to 1, letter case ignored) a name and a job of :data:`TRAINING_JOBS` are
when the name is taken for a misspelling of the job: ``workers``, ``Worker``, ``PS``,
``cheif``, ``masters``; not ``trainer``, ``param_server`` or ``tpu_worker``."""

_PLATFORM_KEYS: Final = frozenset({"job"})
"""Top-level keys platforms add to TF_CONFIG, never taken for a job."""


def near_miss_job(name: str, jobs: Collection[str] = TRAINING_JOBS) -> str | None:
    """Return the job of ``jobs`` that ``name`` misspells, or ``None``.

    A name equal to one of ``jobs`` misspells none of them.

    Example:
        >>> near_miss_job("workers"), near_miss_job("PS"), near_miss_job("trainer")
        ('worker', 'ps', None)
    """
    if name in jobs:
        return None
    return _closest_job(name, tuple(jobs))


@functools.lru_cache(maxsize=4096)
def _closest_job(name: str, jobs: tuple[str, ...]) -> str | None:
    """:func:`near_miss_job`, asked once per name: each task of a cluster reads its jobs again.

    Two names share at most the letters they have in common, so a job with
    too few of them cannot be alike enough: only the others are compared.
    """
    lowered = name.lower()
    alike = []
    for job in jobs:
        needed = JOB_NEAR_MISS * (len(name) + len(job)) / 2  # letters in common, at least
        if min(len(name), len(job)) < needed:
            continue
        known = job.lower()
        if sum(min(lowered.count(c), known.count(c)) for c in set(known)) >= needed:
            alike.append(job)
    return closest(name, alike, JOB_NEAR_MISS) if alike else None


def top_level_job(key: str) -> str | None:
    """Return the job a top-level key of TF_CONFIG names or misspells, or ``None``.

    TF_CONFIG's own keys and the keys platforms add (``job``) are never jobs,
    however alike (``cluster`` and ``master``).
    """
    if key in TFConfig.model_fields or key in _PLATFORM_KEYS:
        return None
    return key if key in TRAINING_JOBS else near_miss_job(key)


class Task(BaseModel):
    """The ``task`` object of ``TF_CONFIG``: which node of the cluster this process is.

    ``index`` is read like TensorFlow's ``int()`` for digit strings (``"1"``).
    Keys added by cluster managers, such as ``trial``, are kept.
    """

    model_config = ConfigDict(frozen=True, extra="allow", defer_build=True)

    type: String | None = Field(
        None,
        description="The task type: a job of the cluster, or `evaluator`.",
        examples=["worker"],
    )
    index: TaskIndex | None = Field(
        None,
        description="The task index within its job; an integer or a string of digits.",
        examples=[0],
    )

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # ``null`` and a missing key mean different things to TensorFlow, so an
        # explicit null is dumped back and an absent key stays absent.
        data: dict[str, Any] = handler(self)
        for name in ("type", "index"):
            if name not in self.model_fields_set:
                data.pop(name, None)
        return data


def top_level_jobs(data: Mapping[Any, Any]) -> dict[str, str]:
    """The top-level keys of a TF_CONFIG object that are jobs, each with the job it names.

    A key equal to a job counts whatever its value; one that misspells a job
    (``workers``), when its value holds tasks (a list or an object).
    """
    found = {}
    for key, value in data.items():
        job = top_level_job(key) if isinstance(key, str) else None
        if job is not None and (key == job or isinstance(value, (list, Mapping))):
            found[key] = job
    return found


_INDEX: Final = re.compile(r"\s*[-+]?[0-9]+\s*")
"""A key of a sparse job as a file writes a task index (``int()`` reads it)."""


def jobs_alone(data: Mapping[Any, Any]) -> bool:
    """Whether ``data`` is a cluster: jobs alone, one of them a job TensorFlow's readers know.

    Each top-level key holds a job's tasks as a cluster writes them: a list
    of addresses, or an object from task index to address (each address a
    string, valid or not: the cluster's own check says), and none misspells
    a job of :data:`TRAINING_JOBS` (``workers``).  An object with a key that
    holds anything else (a ``task``, a number, ``clusters`` holding jobs) or
    a misspelled job is no cluster: it is a ``TF_CONFIG`` whose ``cluster``
    wrapper was forgotten, or with a misspelled key, and its errors say so.

    Example:
        >>> jobs_alone({"chief": ["c:2222"], "worker": {"1": "w:2222"}})
        True
        >>> jobs_alone({"chief": ["c:2222"], "task": {"type": "chief", "index": 0}})
        False
        >>> jobs_alone({"chief": ["c:2222"], "workers": ["w:2222"]})
        False
    """
    return (
        any(job in data for job in TRAINING_JOBS)
        and all(map(_holds_tasks, data.values()))
        and not any(isinstance(key, str) and near_miss_job(key) for key in data)
    )


def _holds_tasks(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(address, str) for address in value)
    return isinstance(value, Mapping) and all(
        isinstance(address, str) and _is_index(index) for index, address in value.items()
    )


def _is_index(key: Any) -> bool:
    if isinstance(key, str):
        return _INDEX.fullmatch(key) is not None
    return isinstance(key, int) and not isinstance(key, bool)


class TFConfig(HashedByValue):
    """The whole ``TF_CONFIG`` object.

    Known keys are typed; any other key (cloud platforms add ``job``, …) is
    kept and dumped back.  Build one from the environment with
    :meth:`from_env`, from JSON text with :meth:`from_json`, or from a dict.

    Example:
        >>> tf_config = TFConfig.from_json(
        ...     '{"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222"]},'
        ...     ' "task": {"type": "worker", "index": "0"}}'
        ... )
        >>> tf_config.task.index
        0
        >>> tf_config.cluster.num_tasks("worker")
        1
    """

    model_config = ConfigDict(frozen=True, extra="allow", defer_build=True)

    cluster: ClusterSpec = Field(
        default_factory=ClusterSpec,
        description="Job names mapped to task addresses; missing or `{}` means local mode.",
    )
    task: Task = Field(default_factory=Task, description="This process's task.")
    environment: OmittableString = Field(
        None,
        exclude_if=absent_if_none,
        description="The environment (`local`, `cloud`, …); read by the legacy contrib API.",
    )
    session_master: OmittableString = Field(
        None,
        exclude_if=absent_if_none,
        description="Overrides the master (session target) of the training tasks.",
    )
    eval_session_master: OmittableString = Field(
        None,
        exclude_if=absent_if_none,
        description="The master of the evaluator (or, with no cluster, the evaluation master).",
    )
    model_dir: ModelDir = Field(
        None,
        exclude_if=absent_if_none,
        description="The model directory; must agree with RunConfig's `model_dir` if both set.",
    )
    service: dict[str, Any] | None = Field(
        None,
        exclude_if=absent_if_none,
        description="Platform-defined service settings, e.g. `tpu_worker_job_name`.",
    )
    rpc_layer: OmittableString = Field(
        None,
        exclude_if=absent_if_none,
        description="The RPC layer cluster resolvers use, e.g. `grpc`.",
    )

    @model_validator(mode="wrap")
    @classmethod
    def top_level_jobs(cls, data: Any, handler: ModelWrapValidatorHandler[TFConfig]) -> TFConfig:
        """No job at the top level: the jobs belong under ``cluster``.

        TensorFlow ignores a top-level ``worker`` and runs each node alone,
        whatever its index; a misspelled job (``workers``) holding tasks (a
        list or an object) counts too.
        """
        errors = Errors(cls.__name__)
        if isinstance(data, Mapping):
            found = top_level_jobs(data)
            fix = _cluster_fix(list(found.values()))
            for key, job in found.items():
                named = repr(key) if key == job else f"{key!r} (the job {job!r}?)"
                errors.add(
                    "top_level_jobs",
                    "{named} is at the top level of TF_CONFIG, where TensorFlow ignores it and "
                    'each node runs alone. Fix: put the jobs under "cluster": {fix}',
                    (key,),
                    data[key],
                    {"named": named, "fix": fix},
                )
        return validate_along(errors, data, handler)

    @field_validator("service", mode="before")
    @classmethod
    def service_type(cls, service: Any) -> Any:
        """``service`` is an object or ``null``."""
        error = service_error(service)
        if error is not None:
            raise error
        return service

    @classmethod
    def from_json(cls, text: str | bytes) -> TFConfig:
        """Parse ``TF_CONFIG`` text.

        Raises:
            pydantic.ValidationError: the text is empty, not JSON, repeats a key,
                is not a JSON object, or holds an invalid value.
        """
        try:
            data = parse_json(text)
        except ValidationError as invalid:
            # TensorFlow keeps the last value of a repeated key: say what it says of the rest.
            lenient = parse_as_tensorflow(text)
            if lenient is None:
                raise
            raise with_errors_of(invalid, lambda: cls.model_validate(lenient)) from None
        return cls.model_validate(data)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> TFConfig:
        """Read ``TF_CONFIG`` from ``environ`` (``os.environ`` by default).

        An unset variable is an empty config, as in TensorFlow.

        Raises:
            pydantic.ValidationError: the variable is set but is not a valid TF_CONFIG.
        """
        text = (os.environ if environ is None else environ).get(TF_CONFIG)
        return cls.model_validate({}) if text is None else cls.from_json(text)

    def to_json(self) -> str:
        """Return the compact JSON text to put in the ``TF_CONFIG`` variable."""
        return json.dumps(self.model_dump(mode="json"), separators=(",", ":"))


def _cluster_fix(jobs: list[str]) -> str:
    """The TF_CONFIG to write instead, with ``jobs`` in its cluster."""
    cluster = ", ".join(f'"{job}": [...]' for job in dict.fromkeys(jobs))
    return '{"cluster": {' + cluster + '}, "task": {...}}'


def service_error(service: Any) -> PydanticCustomError | None:
    """TensorFlow's error for a ``service`` that is set and not an object, else ``None``."""
    if service is None or isinstance(service, Mapping):
        return None
    return custom_error(
        "service_type",
        'If "service" is set in TF_CONFIG, it must be a dict. Given {given}',
        {"given": str(type(service))},
    )


def parse_json(text: str | bytes) -> dict[str, Any]:
    """Parse ``TF_CONFIG`` text into a JSON object, without validating its keys.

    Raises:
        pydantic.ValidationError: the text is empty, not JSON, repeats a key, or
            is not a JSON object.
    """
    if not text.strip():
        raise fail(
            TF_CONFIG,
            "tf_config_empty",
            "TF_CONFIG is set but empty; unset it or give a JSON object",
            value=text,
        )
    data = load_json(text)
    if not isinstance(data, dict):
        raise fail(TF_CONFIG, "tf_config_type", _NOT_AN_OBJECT, value=data, ctx=_kind(data))
    return data


_NOT_AN_OBJECT: Final = "TF_CONFIG must be a JSON object, got {kind}"


def _kind(data: Any) -> dict[str, str]:
    return {"kind": type_name(data)}


def parse_as_tensorflow(text: str | bytes) -> dict[str, Any] | None:
    """The JSON object of ``text`` as TensorFlow parses it (the last of two equal keys wins).

    ``None`` when that is not a JSON object either, which is so for every
    text :func:`parse_json` refuses but one that repeats a key.  Only for
    reporting what TensorFlow would say of such a text.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def load_json(text: str | bytes) -> Any:
    """Parse ``TF_CONFIG`` text as JSON, strictly (no duplicate keys), keeping NaN.

    Raises:
        pydantic.ValidationError: the text is not JSON or repeats a key.
    """
    try:
        return loads(text, allow_nan=True)
    except JSONInputError as exc:
        where = "" if exc.line is None else f" (line {exc.line}, column {exc.column})"
        raise fail(
            TF_CONFIG,
            exc.code,
            "TF_CONFIG: {reason}",
            value=text,
            ctx={"reason": exc.message + where},
        ) from None


@dataclass(frozen=True)
class TFConfigText:
    """The text of the ``TF_CONFIG`` variable (``None``: unset), to parse only if needed.

    TensorFlow's ``TPUConfig`` reads the variable only when it needs the TPU
    job name: a config that gives one must not fail on a bad TF_CONFIG.
    """

    text: str | None


UNREADABLE: Final = object()
"""What :func:`read_service` gives for a TF_CONFIG it cannot read (the errors say why)."""


def read_service(tf_config: Any, errors: Errors) -> tuple[Any, Loc]:
    """Return the ``service`` of a TF_CONFIG given in any form, and where it is.

    ``tf_config`` is a :class:`TFConfig`, a mapping (raw TF_CONFIG), or a
    :class:`TFConfigText` read from the environment.  A missing ``service``
    is ``{}``; an explicit null is ``None``.  The value is :data:`UNREADABLE`
    when the TF_CONFIG is not a JSON object; ``errors`` records why.
    """
    root: Loc = ("tf_config",)
    if isinstance(tf_config, TFConfigText):
        root = (TF_CONFIG,)
        if tf_config.text is None:
            return {}, root
        try:
            tf_config = load_json(tf_config.text)
        except ValidationError as exc:
            for detail in exc.errors():
                errors.add(detail["type"], detail["msg"], root, tf_config.text)
            return UNREADABLE, root
    if isinstance(tf_config, TFConfig):
        if tf_config.service is None:
            # An explicit null and a missing key both read as None; only the first is an error.
            return (None if "service" in tf_config.model_fields_set else {}), root
        return tf_config.service, root
    if isinstance(tf_config, Mapping):
        return tf_config.get("service", {}), root
    errors.add("tf_config_type", _NOT_AN_OBJECT, root, tf_config, _kind(tf_config))
    return UNREADABLE, root


def read_env(
    environ: Mapping[str, str] | None = None, *, empty_is_unset: bool = False
) -> dict[str, Any]:
    """Read and parse the ``TF_CONFIG`` variable of ``environ`` (``{}`` when unset).

    Args:
        environ: The environment; ``os.environ`` by default.
        empty_is_unset: Read a variable set to ``''`` as unset, as the legacy
            ``tf.contrib.learn`` did (the estimator refuses it).

    Raises:
        pydantic.ValidationError: the variable is set but is not a JSON object.
    """
    env = os.environ if environ is None else environ
    text = env.get(TF_CONFIG)
    return {} if text is None or (empty_is_unset and not text) else parse_json(text)
