"""``estconf.tpu.RunConfig``: ``tf.estimator.tpu.RunConfig``, with the estimator's rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from pydantic import (
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    computed_field,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from typing_extensions import Self

from estconf._errors import Errors, Refused, details_of, raise_refused, validate_along
from estconf._types import DocumentModel, String, from_document
from estconf.cluster import ClusterSpec
from estconf.estimator.reading import Distributed
from estconf.estimator.session_config_field import cluster_session_config, session_config_adapter
from estconf.run_config import RunConfig as EstimatorRunConfig
from estconf.tf_config import UNREADABLE, TaskType, TFConfig
from estconf.tpu.config import (
    TPUConfig,
    tpu_job_name_from,
)

# --- tpu.RunConfig -------------------------------------------------------------------------------

_SETTING_ARGUMENTS: Final = ("master", "evaluation_master")
"""The arguments of the TPU constructor that are no field but set a distributed setting."""
_OPTIONAL_STRING: TypeAdapter[str | None] = TypeAdapter(String | None)
_STRING: TypeAdapter[str] = TypeAdapter(String)


def _argument_schema(schema: dict[str, Any]) -> None:
    """Show ``master`` and ``evaluation_master`` as arguments in the validation schema."""
    properties = schema.setdefault("properties", {})
    for name, what in zip(_SETTING_ARGUMENTS, ("training", "evaluation"), strict=True):
        properties.setdefault(
            name,
            {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "title": name.replace("_", " ").title(),
                "description": f"The session target of {what}; replaces the one derived "
                "from TF_CONFIG, even when empty.",
            },
        )


class RunConfig(EstimatorRunConfig, DocumentModel):
    """``tf.estimator.tpu.RunConfig``: the estimator's run configuration with TPU settings.

    It takes the arguments of :class:`estconf.RunConfig` and ``tpu_config``,
    ``master`` and ``evaluation_master``.  ``tpu_config`` defaults to a
    :class:`TPUConfig` that reads its job name from the same ``tf_config``.
    A given ``master`` (even ``''``) or ``evaluation_master`` replaces the
    derived one; otherwise an empty evaluation master becomes the master,
    except on an evaluator.  TPU training runs in-graph, so no device-filter
    ``session_config`` is set by default.

    Example:
        >>> config = RunConfig(
        ...     tf_config={
        ...         "cluster": {"chief": ["host0:2222"], "worker": ["host1:2222"]},
        ...         "task": {"type": "worker", "index": 0},
        ...         "service": {"tpu_worker_job_name": "tpu_worker"},
        ...     },
        ...     tpu_config={"iterations_per_loop": 100, "num_shards": 8},
        ... )
        >>> config.master, config.evaluation_master
        ('grpc://host1:2222', 'grpc://host1:2222')
        >>> config.tpu_config.tpu_job_name, config.session_config is None
        ('tpu_worker', True)
        >>> RunConfig(master="grpc://tpu:8470").evaluation_master
        'grpc://tpu:8470'
    """

    model_config = ConfigDict(json_schema_extra=_argument_schema)

    tpu_config: TPUConfig = Field(
        default_factory=TPUConfig,
        description="TPU settings; by default a TPUConfig whose job name comes from TF_CONFIG.",
    )

    cluster: SkipJsonSchema[Any] = Field(
        None,
        exclude=True,
        description="A cluster resolver giving the master, the cluster and the session's "
        "cluster_def (Python only).",
    )

    _SETTING_ARGUMENTS: ClassVar[tuple[str, ...]] = _SETTING_ARGUMENTS

    if TYPE_CHECKING:
        # The estimator's arguments, plus the four of the TPU constructor.
        def __init__(
            self,
            *,
            tpu_config: TPUConfig | Mapping[str, Any] | None = ...,
            evaluation_master: str | None = ...,
            master: str | None = ...,
            cluster: Any = ...,
            **kwargs: Any,
        ) -> None: ...

    @model_validator(mode="wrap")
    @classmethod
    def tpu_config_default(
        cls, data: Any, handler: ModelWrapValidatorHandler[Self], info: ValidationInfo
    ) -> Self:
        """``tpu_config`` is a :class:`TPUConfig` built as TensorFlow builds it, if not given.

        Its ``tpu_job_name``, when not given, is read from the same ``tf_config``.
        A dict is read as a document (see :class:`~estconf._types.DocumentModel`),
        even among keyword arguments.
        """
        errors = Errors(cls.__name__)
        if isinstance(data, Mapping):
            tpu_config = _tpu_config_input(data.get("tpu_config"), data.get("tf_config"), errors)
            if isinstance(tpu_config, Mapping) and not from_document(info):
                try:
                    tpu_config = TPUConfig.model_validate(tpu_config)
                except ValidationError as exc:
                    tpu_config = Refused(tpu_config, exc)
            data = {**data, "tpu_config": tpu_config}
        return validate_along(errors, data, handler)

    @field_validator("tpu_config", mode="before")
    @classmethod
    def refused_tpu_config(cls, value: Any) -> Any:
        """Report, at its field, a ``tpu_config`` read as a document and refused."""
        return raise_refused(value)

    @classmethod
    def _setting_arguments(cls, data: Any, errors: Errors) -> tuple[Any, dict[str, Any]]:
        """Take ``master`` and ``evaluation_master`` out of ``data``, checked; read ``cluster``."""
        if not isinstance(data, Mapping):
            return data, {}
        data = dict(data)
        raw = {key: data.pop(key) for key in _SETTING_ARGUMENTS if key in data}
        given: dict[str, Any] = {}
        for key, value in raw.items():
            try:
                given[key] = _OPTIONAL_STRING.validate_python(value)
            except ValidationError as exc:
                _add_errors(errors, exc, (key,))
        cluster = data.get("cluster")
        if cluster is not None and raw.get("master") is not None:
            errors.add(
                "master_and_cluster", "Both master and cluster are set.", ("master",), raw["master"]
            )
        elif cluster:
            given.update(_from_cluster_resolver(cluster, data, errors))
        return data, given

    @classmethod
    def _settings(cls, derived: Distributed, arguments: dict[str, Any]) -> Distributed:
        """A given ``master`` or ``evaluation_master`` replaces the derived one.

        So does the master of a cluster resolver, whose cluster replaces the
        derived one too.  Without an ``evaluation_master``, an empty one
        becomes the master, except on an evaluator.
        """
        master = arguments.get("master")
        evaluation_master = arguments.get("evaluation_master")
        if master is None:
            master = arguments.get("cluster_master", derived.master)
        if evaluation_master is None:
            evaluation_master = derived.evaluation_master
            if not evaluation_master and derived.task_type != TaskType.EVALUATOR:
                evaluation_master = master
        return dataclasses.replace(
            derived,
            master=master,
            evaluation_master=evaluation_master,
            cluster_spec=arguments.get("cluster_spec", derived.cluster_spec),
        )

    @classmethod
    def _default_session_config(cls, distributed: Distributed) -> None:
        """TPU training runs in-graph: no device filters, so no default session config."""
        return None

    @computed_field(description="The session target of training: the argument, or derived.")  # type: ignore[prop-decorator]
    @property
    def master(self) -> str:
        """The session target this task trains with."""
        return self._settings_read().master

    @computed_field(  # type: ignore[prop-decorator]
        description="The session target of evaluation: the argument, or derived, or the master."
    )
    @property
    def evaluation_master(self) -> str:
        """The session target this task evaluates with."""
        return self._settings_read().evaluation_master

    _NOT_TENSORFLOW_ARGUMENTS: ClassVar[tuple[str, ...]] = ("tf_config", "tpu_config")

    def _build_tensorflow(self, tf: Any, arguments: dict[str, Any]) -> Any:
        """Build TensorFlow's TPU ``RunConfig``, with its arguments of its own.

        With a cluster resolver, TensorFlow takes the master and the session's
        ``cluster_def`` from it again.
        """
        masters = {"master": self.master, "evaluation_master": self.evaluation_master}
        if self.cluster is not None:
            del masters["master"]
            session_config = arguments["session_config"]
            if self.cluster and session_config is not None:
                session_config.ClearField("cluster_def")
        return tf.compat.v1.estimator.tpu.RunConfig(
            tpu_config=self.tpu_config.to_tensorflow(), **masters, **arguments
        )

    @classmethod
    def _tensorflow_extra_arguments(cls, config: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        """``tpu_config``, ``master`` and ``evaluation_master`` of TensorFlow's TPU RunConfig.

        With a cluster resolver, the master and the session's ``cluster_def``
        are the resolver's, so they are not read back as arguments.
        """
        extra = {
            "tpu_config": TPUConfig.from_tensorflow(config.tpu_config),
            "evaluation_master": config.evaluation_master,
        }
        if config.cluster is None:
            return {**extra, "master": config.master}
        session_config = arguments["session_config"]
        if config.cluster and session_config is not None:
            extra["session_config"] = session_config.model_copy(update={"cluster_def": None})
        return extra

    def replace(self, **kwargs: Any) -> Self:
        """Return a copy with some properties replaced, as :meth:`estconf.RunConfig.replace`.

        ``tpu_config`` may be replaced too (a :class:`TPUConfig`, or a dict read
        as the constructor reads it); the masters stay as they are.

        Raises:
            pydantic.ValidationError: a key may not be replaced, or a value is invalid.
        """
        if "tpu_config" not in kwargs:
            return super().replace(**kwargs)
        kwargs = dict(kwargs)
        value = kwargs.pop("tpu_config")
        config = super().replace(**kwargs)
        return config.model_copy(update={"tpu_config": self._read_tpu_config(value)})

    def _read_tpu_config(self, value: Any) -> TPUConfig:
        errors = Errors(type(self).__name__)
        arguments = _tpu_config_input(value, self.tf_config, errors)
        errors.raise_if_any()
        try:
            return TPUConfig.model_validate(arguments)
        except ValidationError as exc:
            details = details_of(exc)
            for detail in details:
                detail["loc"] = ("tpu_config", *detail["loc"])
            raise ValidationError.from_exception_data(errors.title, details) from None


def _from_cluster_resolver(cluster: Any, data: dict[str, Any], errors: Errors) -> dict[str, Any]:
    """What a (true) cluster resolver sets, as TensorFlow's TPU RunConfig takes it.

    The resolver's master and cluster (``cluster_master``, ``cluster_spec``);
    ``data``'s ``session_config`` becomes the given one, or soft placement with
    isolated session state, with the cluster merged in as its ``cluster_def``.
    """
    master_of = getattr(cluster, "master", None)
    cluster_spec_of = getattr(cluster, "cluster_spec", None)
    if not (callable(master_of) and callable(cluster_spec_of)):
        errors.add(
            "cluster_resolver",
            "cluster must be a ClusterResolver, with master() and cluster_spec(); got {type}",
            ("cluster",),
            cluster,
            {"type": type(cluster).__name__},
        )
        return {}
    try:
        master = _STRING.validate_python(master_of())
        spec = cluster_spec_of()
        as_dict = getattr(spec, "as_dict", None)
        cluster_spec = ClusterSpec.model_validate(as_dict() if callable(as_dict) else spec)
    except ValidationError as exc:
        _add_errors(errors, exc, ("cluster",))
        return {}
    except ValueError as exc:
        errors.add("cluster_resolver", "{error}", ("cluster",), cluster, {"error": str(exc)})
        return {}
    try:
        session_config = session_config_adapter().validate_python(data.get("session_config"))
    except ValidationError:
        pass  # reported by the field
    else:
        if session_config is not None and session_config.cluster_def is not None:
            errors.add(
                "cluster_def_conflict",
                "You cannot provide a ClusterResolver and session_config.cluster_def.",
                ("session_config", "cluster_def"),
                session_config.cluster_def.model_dump(mode="json"),
            )
        else:
            data["session_config"] = cluster_session_config(session_config, cluster_spec)
    return {"cluster_master": master, "cluster_spec": cluster_spec}


def _add_errors(errors: Errors, exc: ValidationError, loc: tuple[str, ...]) -> None:
    """Record the errors of ``exc`` in ``errors``, located under ``loc``."""
    for detail in exc.errors():
        errors.add_again(detail["type"], detail["msg"], (*loc, *detail["loc"]), detail["input"])


def _tpu_config_input(tpu_config: Any, tf_config: Any, errors: Errors) -> Any:
    """What the TPU RunConfig builds its ``tpu_config`` from, as TensorFlow's constructor does.

    A missing ``tpu_config`` is an empty one; one given as a dict without a job
    name reads it from ``tf_config``, as ``TPUConfig()`` reads ``TF_CONFIG``.
    The estimator reports a ``service`` that is not an object; a null one is
    reported here.  ``tf_config`` is handed on only if it can be read.
    """
    if tpu_config is not None and not (
        isinstance(tpu_config, Mapping) and "tf_config" not in tpu_config
    ):
        return tpu_config
    arguments = {} if tpu_config is None else dict(tpu_config)
    if (
        not arguments.get("tpu_job_name")
        and isinstance(tf_config, (Mapping, TFConfig))
        and tpu_job_name_from(tf_config, errors, service_checked=True) is not UNREADABLE
    ):
        arguments["tf_config"] = tf_config
    return arguments
