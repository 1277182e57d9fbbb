"""``estconf.contrib.ClusterConfig``: how ``tf.contrib.learn`` read ``TF_CONFIG`` (1.15).

The task type may be missing, any cluster shape is accepted, ``master`` is
looked up only when a task type is set, and ``is_chief`` depends on an
``environment`` key.  Building a config emits a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping
from typing import Annotated, Any, Final

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    TypeAdapter,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from estconf._derived import read_back_derived
from estconf._errors import Errors, Refused, fail, raise_refused, with_errors_of
from estconf._types import String
from estconf.cluster import ClusterSpec
from estconf.estimator.lenient import read_like_tensorflow
from estconf.estimator.reading import GRPC, check_task_in_cluster, single_task
from estconf.tf_config import TF_CONFIG, TFConfig, parse_as_tensorflow, read_env

__all__ = [
    "DEPRECATION",
    "ClusterConfig",
    "Environment",
    "TaskType",
    "get_task_id",
    "read_tf_config",
]

DEPRECATION: Final = (
    "estconf.contrib models the deprecated tf.contrib.learn API (TensorFlow 1.x); "
    "use estconf.RunConfig, which models tf.estimator.RunConfig, instead "
    "(see docs/contrib.md)"
)


class Environment:
    """Where a job runs, the ``environment`` key of ``TF_CONFIG`` (``tf.contrib.learn``)."""

    CLOUD: Final = "cloud"
    """General distributed training: the ``master`` task 0 is the chief."""
    GOOGLE: Final = "google"
    """Google-internal distributed training."""
    LOCAL: Final = "local"
    """A local desktop; the default."""


class TaskType:
    """The task types ``tf.contrib.learn`` names (it has no ``chief`` or ``evaluator``)."""

    MASTER: Final = "master"
    PS: Final = "ps"
    WORKER: Final = "worker"


def _warn_deprecated() -> None:
    """Warn at the first frame outside pydantic, this module and estconf's private ones."""
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        ("pydantic", "estconf.contrib", "estconf._")
    ):
        frame = frame.f_back
        level += 1
    warnings.warn(DEPRECATION, DeprecationWarning, stacklevel=level)


# -- TF_CONFIG --------------------------------------------------------------------------


def _legacy_tf_config(value: Any) -> Any:
    """Read ``TF_CONFIG`` as ``tf.contrib.learn`` does.

    ``None`` is an unset variable.  An empty ``model_dir`` is kept: the
    contrib API takes it as a model directory (the estimator refuses it).
    """
    if value is None:
        return TFConfig()
    if isinstance(value, Mapping) and value.get("model_dir") == "":
        rest = {key: item for key, item in value.items() if key != "model_dir"}
        return TFConfig.model_validate(rest).model_copy(update={"model_dir": ""})
    return value


def read_tf_config(environ: Mapping[str, str] | None = None) -> TFConfig:
    """Read ``TF_CONFIG`` from ``environ`` (``os.environ``) as ``tf.contrib.learn`` does.

    Unlike the estimator, the contrib API reads a variable that is set but
    empty (``TF_CONFIG=``) as an empty config, and keeps an empty ``model_dir``.

    Raises:
        pydantic.ValidationError: the variable holds text that is not a valid TF_CONFIG.
    """
    value = _legacy_tf_config(read_env(environ, empty_is_unset=True))
    return value if isinstance(value, TFConfig) else TFConfig.model_validate(value)


def get_task_id(environ: Mapping[str, str] | None = None) -> int:
    """Return the task index in ``TF_CONFIG``, or 0 (``ClusterConfig.get_task_id``).

    An index that is missing, null or 0 gives 0.

    Raises:
        pydantic.ValidationError: ``TF_CONFIG`` is set and not a valid TF_CONFIG.
    """
    return read_tf_config(environ).task.index or 0


def jobs_are_lists(tf_config: TFConfig) -> TFConfig:
    """Every job of the cluster is a list: TensorFlow 1.15 cannot read an object job.

    Its ``ClusterSpec`` keeps the keys of a JSON object as strings, and the
    ``ClusterDef`` it builds refuses them with a ``TypeError``.
    """
    errors = Errors("ClusterConfig")
    for job, tasks in tf_config.cluster.root.items():
        if isinstance(tasks, dict):
            errors.add(
                "legacy_sparse_job",
                "job '{job}' is given as an object; TensorFlow 1.15 cannot read it "
                "(its ClusterSpec keeps the JSON keys as strings, which the ClusterDef "
                "refuses): give the job as a list of addresses",
                ("cluster", job),
                {str(index): address for index, address in tasks.items()},
                {"job": job},
            )
    errors.raise_if_any()
    return tf_config


LegacyTFConfig = Annotated[
    TFConfig, BeforeValidator(_legacy_tf_config), AfterValidator(jobs_are_lists)
]
"""``TF_CONFIG`` as ``tf.contrib.learn`` reads it."""

_LEGACY_TF_CONFIG: TypeAdapter[TFConfig] = TypeAdapter(LegacyTFConfig)


def looked_up_master(tf_config: TFConfig, title: str) -> str:
    """The master ``tf.contrib.learn`` looks up in the cluster of ``tf_config``.

    Raises:
        pydantic.ValidationError: the task is not in the cluster, in TensorFlow
            1.15's words (located within the TF_CONFIG).
    """
    cluster = tf_config.cluster
    if not cluster or single_task(cluster):
        return ""
    task_type, task_id = tf_config.task.type, tf_config.task.index or 0
    if not task_type:
        return ""
    check_task_in_cluster(
        cluster,
        task_type,
        task_id,
        title,
        index_value=tf_config.task.index,
        index_note=_INDEX_NOTE,
    )
    return GRPC + cluster.task_address(task_type, task_id)


def _parsed_as_tensorflow(text: Any) -> Any:
    """TF_CONFIG text as TensorFlow parses it (a repeated key: the last wins), else ``None``."""
    return parse_as_tensorflow(text) if isinstance(text, (str, bytes)) else None


def read_like_tensorflow_1_15(raw: Any) -> TFConfig | None:
    """The cluster and task ``tf.contrib.learn`` reads of an invalid ``raw``, unchecked.

    ``None`` when TensorFlow 1.15 fails before it looks the master up: a
    ``TF_CONFIG`` or ``task`` that is no object, an index ``int()`` cannot
    read, a cluster that is no object, a job that is no list of strings.
    The index is read as TensorFlow 1.15 reads it: ``int(index)`` if truthy,
    else 0.
    """
    if not isinstance(raw, Mapping):
        return None
    task, cluster = raw.get("task", {}), raw.get("cluster", {})
    if not isinstance(task, Mapping) or not isinstance(cluster, Mapping):
        return None
    for tasks in cluster.values():
        if not isinstance(tasks, list) or not all(isinstance(address, str) for address in tasks):
            return None
    index = task.get("index")
    try:
        task_id = int(index) if index else 0
    except (TypeError, ValueError, OverflowError):
        return None
    read = read_like_tensorflow(raw)
    if read is None:
        return None
    return read.model_copy(update={"task": read.task.model_copy(update={"index": task_id})})


_INDEX_NOTE: Final = "Note that these value may be coming from the TF_CONFIG environment variable."
"""TensorFlow 1.15's last line under a bad task index (its words, ``value`` included)."""


_DERIVED_KEY_HINTS: Final = {
    "tf_config": (
        " (tf_config is the ConfigProto built from num_cores, log_device_placement and "
        "gpu_memory_fraction; the TF_CONFIG variable is passed as TF_CONFIG)"
    )
}
"""What a disagreeing derived key's error adds, by key."""


# -- ClusterConfig ----------------------------------------------------------------------


class ClusterConfig(BaseModel):
    """The distributed settings of ``tf.contrib.learn.ClusterConfig`` (TensorFlow 1.15).

    ``TF_CONFIG`` stands for the environment variable (a :class:`~estconf.TFConfig`,
    a dict, or ``None`` for unset); :meth:`from_env` reads it from the
    environment.  ``master`` and ``evaluation_master`` are resolved when the
    config is built: a given ``master`` is kept, otherwise it is looked up in
    the cluster.

    Example:
        >>> cluster = {"master": ["m0:2222"], "ps": ["p0:2222"], "worker": ["w0:2222", "w1:2222"]}
        >>> config = ClusterConfig(
        ...     TF_CONFIG={"cluster": cluster, "task": {"type": "master"}, "environment": "cloud"}
        ... )
        >>> config.master, config.task_id, config.is_chief
        ('grpc://m0:2222', 0, True)
        >>> config.num_ps_replicas, config.num_worker_replicas
        (1, 3)
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    master: String | None = Field(
        None,
        description="The TensorFlow master; looked up in TF_CONFIG's cluster if not given.",
    )
    evaluation_master: String | None = Field(
        None,
        validate_default=True,
        description="The master on which to evaluate; '' if not given.",
    )
    TF_CONFIG: LegacyTFConfig = Field(
        default_factory=TFConfig,
        description="The TF_CONFIG environment variable the settings are derived from.",
    )

    # -- construction ------------------------------------------------------------------

    def model_post_init(self, context: Any, /) -> None:
        """Warn that the contrib API is deprecated (not when :meth:`replace` copies)."""
        _warn_deprecated()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> Self:
        """Build the config TensorFlow 1.15 would build under ``environ`` (``os.environ``).

        Raises:
            pydantic.ValidationError: ``TF_CONFIG`` or an argument is invalid.
        """
        if TF_CONFIG in kwargs:
            raise TypeError("from_env reads TF_CONFIG from the environment; pass environ")
        try:
            tf_config: Any = read_env(environ, empty_is_unset=True)
        except ValidationError as error:  # reported with the arguments' own errors
            tf_config = Refused((os.environ if environ is None else environ)[TF_CONFIG], error)
        return cls(TF_CONFIG=tf_config, **kwargs)

    @staticmethod
    def get_task_id(environ: Mapping[str, str] | None = None) -> int:
        """Return the task index in ``TF_CONFIG`` of ``environ``, or 0 (see :func:`get_task_id`).

        As in TensorFlow, this reads the environment again; a config's own
        index is :attr:`task_id`.
        """
        return get_task_id(environ)

    # -- input rules -------------------------------------------------------------------

    @model_validator(mode="wrap")
    @classmethod
    def derived_keys_agree(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """A dump's derived keys are read back only if they agree with what is derived."""
        return read_back_derived(cls, data, handler, _DERIVED_KEY_HINTS)

    @model_validator(mode="before")
    @classmethod
    def tf_config_name(cls, data: Any) -> Any:
        """The ``TF_CONFIG`` variable is passed as ``TF_CONFIG``, never as ``tf_config``.

        ``tf_config`` is the name of :class:`RunConfig`'s ``ConfigProto``
        property, so ``ClusterConfig`` takes no such key.
        """
        if (
            isinstance(data, Mapping)
            and "tf_config" in data
            and "tf_config" not in cls.model_computed_fields
        ):
            raise fail(
                cls.__name__,
                "tf_config_name",
                "In estconf.contrib the TF_CONFIG variable is passed as TF_CONFIG "
                "(RunConfig.tf_config is the ConfigProto property of tf.contrib.learn)",
                ("tf_config",),
                data["tf_config"],
            )
        return data

    @field_validator("evaluation_master")
    @classmethod
    def evaluation_master_default(cls, evaluation_master: str | None) -> str:
        """An evaluation master not given is ``''``."""
        return evaluation_master or ""

    @model_validator(mode="wrap")
    @classmethod
    def master_lookup(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """Look ``master`` up in the cluster unless it was given.

        With no cluster, or a cluster of one task, the master is ``''``.  With a
        task type set, the type must be a job of the cluster and the index in
        range, and the master is ``grpc://`` and the task's address.  Without a
        task type, it is ``''``.  A TF_CONFIG that fails these checks is
        reported at ``TF_CONFIG`` with the other arguments' errors.
        """
        if not isinstance(data, Mapping) or data.get("master") is not None:
            return handler(data)
        raw = data.get(TF_CONFIG)
        try:
            tf_config = _LEGACY_TF_CONFIG.validate_python(raw)
        except ValidationError as invalid:
            # TensorFlow would still look the master up: its refusal is reported too.
            errors, read_from = invalid, raw
            if isinstance(raw, Refused) and isinstance(raw.error, ValidationError):
                # TF_CONFIG text from_env could not read
                errors, read_from = raw.error, _parsed_as_tensorflow(raw.value)
            read = read_like_tensorflow_1_15(read_from)
            if read is None:
                return handler(data)  # the field reports it
            with_lookup = with_errors_of(errors, lambda: looked_up_master(read, cls.__name__))
            if with_lookup is errors:
                return handler(data)
            return handler({**data, TF_CONFIG: Refused(data.get(TF_CONFIG), with_lookup)})
        try:
            master = looked_up_master(tf_config, cls.__name__)
        except ValidationError as refused:
            return handler({**data, TF_CONFIG: Refused(tf_config, refused)})
        return handler({**data, TF_CONFIG: tf_config, "master": master})

    @field_validator("TF_CONFIG", "model_dir", mode="before", check_fields=False)
    @classmethod
    def refused_input(cls, value: Any) -> Any:
        """Report, at its field, a value a whole-input rule refused (see ``Refused``).

        ``model_dir`` is a field of :class:`~estconf.contrib.RunConfig`.
        """
        return raise_refused(value)

    # -- derived properties ------------------------------------------------------------

    @computed_field(description="The cluster of TF_CONFIG.")  # type: ignore[prop-decorator]
    @property
    def cluster_spec(self) -> ClusterSpec:
        """The cluster of ``TF_CONFIG``; empty if it has none."""
        return self.TF_CONFIG.cluster

    @computed_field(description="TF_CONFIG's task type, or null.")  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> str | None:
        """``TF_CONFIG``'s task type, or ``None`` if it has none."""
        return self.TF_CONFIG.task.type

    @computed_field(description="TF_CONFIG's task index, or 0.")  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> int:
        """``TF_CONFIG``'s task index; 0 if it is missing, null or 0."""
        return self.TF_CONFIG.task.index or 0

    @computed_field(description="How many tasks the `ps` job has.")  # type: ignore[prop-decorator]
    @property
    def num_ps_replicas(self) -> int:
        """How many tasks the ``ps`` job has."""
        return self._num_tasks(TaskType.PS)

    @computed_field(description="How many tasks the `worker` and `master` jobs have.")  # type: ignore[prop-decorator]
    @property
    def num_worker_replicas(self) -> int:
        """How many tasks the ``worker`` and ``master`` jobs have together."""
        return self._num_tasks(TaskType.WORKER) + self._num_tasks(TaskType.MASTER)

    @computed_field(description="TF_CONFIG's environment, `local` by default.")  # type: ignore[prop-decorator]
    @property
    def environment(self) -> str:
        """``TF_CONFIG``'s ``environment`` (see :class:`Environment`); ``local`` if missing."""
        environment = self.TF_CONFIG.environment
        return Environment.LOCAL if environment is None else environment

    @computed_field(description="Whether this task is the chief.")  # type: ignore[prop-decorator]
    @property
    def is_chief(self) -> bool:
        """Whether this task is the chief, by the legacy rules.

        Without a task type: task 0.  In the ``cloud`` environment: ``master``
        task 0.  Otherwise: ``worker`` task 0.
        """
        if self.task_type is None:
            return self.task_id == 0
        leader = TaskType.MASTER if self.environment == Environment.CLOUD else TaskType.WORKER
        return self.task_type == leader and self.task_id == 0

    def _num_tasks(self, job: str) -> int:
        cluster = self.cluster_spec
        return cluster.num_tasks(job) if job in cluster.jobs else 0
