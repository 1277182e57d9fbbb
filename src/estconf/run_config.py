"""``estconf.RunConfig``: ``tf.estimator.RunConfig`` with TensorFlow's exact semantics.

The distributed properties (``master``, ``is_chief``, ``global_id_in_cluster``,
…) are derived from ``TF_CONFIG`` by the estimator's rules: *local mode*
without a cluster, *chief mode* for a cluster with a ``chief`` job, and the
legacy *master mode* for a cluster with a ``master`` job.  ``RunConfig(...)``
never reads the environment; :meth:`RunConfig.from_env` does.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Final, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    computed_field,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from typing_extensions import Self

from estconf._derived import read_back_derived
from estconf._errors import Errors, KnownKeys, Refused, custom_error, raise_refused, validate_along
from estconf._tensorflow import tensorflow, tf_config_environ
from estconf._types import Bool, Integer, ModelDir, Number
from estconf.cluster import ClusterSpec
from estconf.estimator.lenient import with_estimator_errors
from estconf.estimator.reading import Distributed, derive_distributed
from estconf.estimator.rules import (
    BOUNDS,
    check_bound,
    check_properties,
    fspath,
    model_dir_rule,
    replaced_values,
    takes_op_only,
)
from estconf.estimator.session_config_field import (
    LazySessionConfig,
    between_graph_session_config,
    config_proto_from_proto,
)
from estconf.estimator.strategies import (
    STRATEGY_KEYS,
    Strategies,
    refuse_v2_parameter_server,
    strategies_from_distribute_config,
    strategy_arguments,
)
from estconf.tf_config import TFConfig, read_env

if TYPE_CHECKING:
    from estconf.session_config import ConfigProto

__all__ = ["REPLACEABLE", "Distributed", "RunConfig", "derive_distributed"]

_CHECKPOINTS_CONFLICT = "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set."
_DEFAULT_SAVE_CHECKPOINTS_SECS = 600


def _python_only(description: str) -> Any:
    return Field(None, exclude=True, description=description)


class RunConfig(KnownKeys):
    """The configuration of an Estimator run, as ``tf.estimator.RunConfig`` (2.15).

    Every constructor argument of ``tf.estimator.RunConfig`` is a field with
    TensorFlow's default; ``tf_config`` stands for the ``TF_CONFIG`` variable.
    The distributed properties are computed fields derived from it.

    Example:
        >>> config = RunConfig(
        ...     tf_config={
        ...         "cluster": {
        ...             "chief": ["host0:2222"],
        ...             "ps": ["host1:2222", "host2:2222"],
        ...             "worker": ["host3:2222", "host4:2222", "host5:2222"],
        ...         },
        ...         "task": {"type": "worker", "index": 1},
        ...     }
        ... )
        >>> config.master, config.global_id_in_cluster, config.is_chief
        ('grpc://host4:2222', 2, False)
        >>> config.num_ps_replicas, config.num_worker_replicas
        (2, 4)
        >>> config.save_checkpoints_secs, config.save_checkpoints_steps
        (600, None)
    """

    model_config = ConfigDict(
        frozen=True, extra="forbid", arbitrary_types_allowed=True, defer_build=True
    )

    _distributed: Distributed = PrivateAttr()
    """The distributed settings, derived once by ``_distributed_from_tf_config``."""

    model_dir: Annotated[ModelDir, BeforeValidator(fspath)] = Field(
        None,
        description="Where the model's checkpoints and summaries go; "
        "TF_CONFIG's `model_dir` if not given.",
    )
    tf_random_seed: int | None = Field(None, description="Random seed for TensorFlow initializers.")
    save_summary_steps: Integer | None = Field(
        100, description="Save summaries every this many steps."
    )
    save_checkpoints_steps: Integer | None = Field(
        None,
        description="Save checkpoints every this many steps; not with `save_checkpoints_secs`.",
    )
    save_checkpoints_secs: Number | None = Field(
        _DEFAULT_SAVE_CHECKPOINTS_SECS,
        description="Save checkpoints every this many seconds; not with "
        "`save_checkpoints_steps`. 600 when neither is given; both null disables checkpoints.",
    )
    session_config: LazySessionConfig = Field(
        None,
        description="Session options (a ConfigProto in JSON form). With a cluster and none "
        "given, the estimator's device-filter default for the task type.",
    )
    keep_checkpoint_max: Integer | None = Field(
        5, description="How many recent checkpoints to keep; 0 or null keeps all."
    )
    keep_checkpoint_every_n_hours: Number | None = Field(
        10000, description="Keep one checkpoint every this many hours."
    )
    log_step_count_steps: Integer | None = Field(
        100, description="Log the global step and loss every this many steps."
    )
    train_distribute: SkipJsonSchema[Any] = _python_only(
        "A tf.distribute.Strategy for training (Python only)."
    )
    device_fn: SkipJsonSchema[Callable[..., Any] | None] = _python_only(
        "A function of one argument `op` returning a device (Python only)."
    )
    protocol: Literal["grpc", "grpc+verbs"] | None = Field(
        None, description="The server protocol; null means grpc."
    )
    eval_distribute: SkipJsonSchema[Any] = _python_only(
        "A tf.distribute.Strategy for evaluation (Python only)."
    )
    experimental_distribute: SkipJsonSchema[Any] = _python_only("A DistributeConfig (Python only).")
    experimental_max_worker_delay_secs: int | None = Field(
        None, description="The longest a worker waits before starting, in seconds."
    )
    session_creation_timeout_secs: Number | None = Field(
        7200, description="How long workers wait for a session to become available."
    )
    checkpoint_save_graph_def: Bool | None = Field(
        True, description="Save the GraphDef and MetaGraphDef with checkpoints."
    )
    tf_config: TFConfig = Field(
        default_factory=TFConfig,
        description="The TF_CONFIG the distributed properties are derived from.",
    )

    _NOT_TENSORFLOW_ARGUMENTS: ClassVar[tuple[str, ...]] = ("tf_config",)
    _SETTING_ARGUMENTS: ClassVar[tuple[str, ...]] = ()
    """Constructor arguments that are no field but set a distributed setting (see ``_settings``)."""

    # -- input rules -------------------------------------------------------------------

    @model_validator(mode="wrap")
    @classmethod
    def read_in_tensorflows_order(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """Read the arguments in the order TensorFlow's constructor reads them.

        1. A dump's derived keys are set aside, kept only if they agree with
           what is derived (``read_back_derived``).
        2. A v2 parameter-server strategy is refused: the estimator takes the v1 one.
        3. The strategies ``experimental_distribute`` carries are this config's,
           as in TensorFlow; giving a strategy both ways is an error.
        4. TF_CONFIG is checked by the estimator's rules and the distributed
           settings derived (``_distributed_from_tf_config``); the validators
           below run within this step.
        """
        return read_back_derived(
            cls,
            data,
            lambda rest: cls._distributed_from_tf_config(_strategies_read(rest), handler),
            arguments=cls._SETTING_ARGUMENTS,
        )

    @classmethod
    def _distributed_from_tf_config(
        cls, data: Any, handler: ModelWrapValidatorHandler[Self]
    ) -> Self:
        """Check TF_CONFIG by the estimator's rules and derive the distributed settings, once.

        The computed properties read the settings.  They also give the default
        ``session_config`` of a distributed task that gave none.  A TF_CONFIG
        the rules refuse is reported at ``tf_config`` with the other
        arguments' errors (see ``Refused``); one that is not even valid is
        left for the field to report.
        """
        if not isinstance(data, Mapping):
            return handler(data)
        errors = Errors(cls.__name__)
        data, arguments = cls._setting_arguments(data, errors)
        raw = data.get("tf_config")
        settings: Distributed | None = None
        try:
            tf_config = TFConfig.model_validate(TFConfig() if raw is None else raw)
        except ValidationError:
            pass  # reported by the field, with the estimator's complaints (estimator_rules)
        else:
            strategies = Strategies.of(
                {key: value for key, value in data.items() if not isinstance(value, Refused)}
            )
            try:
                derived = derive_distributed(tf_config, cls.__name__, strategies)
            except ValidationError as refused:
                data = {**data, "tf_config": Refused(raw, refused)}
            else:
                data = {**data, "tf_config": tf_config}
                settings = cls._settings(derived, arguments)
                if data.get("session_config") is None:
                    default = cls._default_session_config(settings)
                    if default is not None:
                        data["session_config"] = default
        config = validate_along(errors, data, handler)
        assert settings is not None  # else the handler raised
        config._distributed = settings
        return config

    @model_validator(mode="before")
    @classmethod
    def checkpoint_defaults(cls, data: Any) -> Any:
        """Checkpoint every 600 s unless told otherwise; never by steps and seconds at once."""
        if not isinstance(data, Mapping):
            return data
        steps_given = "save_checkpoints_steps" in data
        secs_given = "save_checkpoints_secs" in data
        if steps_given and secs_given:
            secs = data["save_checkpoints_secs"]
            if data["save_checkpoints_steps"] is not None and secs is not None:
                error = custom_error("checkpoints_conflict", _CHECKPOINTS_CONFLICT)
                return {**data, "save_checkpoints_secs": Refused(secs, error)}
            return data
        data = dict(data)
        if steps_given:
            data["save_checkpoints_secs"] = None
        elif secs_given:
            data["save_checkpoints_steps"] = None
        return data

    @model_validator(mode="before")
    @classmethod
    def model_dir_agrees_with_tf_config(cls, data: Any) -> Any:
        """A ``model_dir`` given both here and in TF_CONFIG must be the same.

        TensorFlow checks this before anything else of TF_CONFIG, so it is
        checked on the raw input.  Not given, the model directory is TF_CONFIG's.
        """
        return model_dir_rule(data, "tf_config", legacy=False)

    @field_validator(
        "save_checkpoints_secs",
        "model_dir",
        "tf_config",
        *STRATEGY_KEYS,
        "experimental_distribute",
        mode="before",
    )
    @classmethod
    def refused_input(cls, value: Any) -> Any:
        """Report, at its field, a value a whole-input rule refused (see ``Refused``)."""
        return raise_refused(value)

    @field_validator("tf_random_seed", "experimental_max_worker_delay_secs", mode="before")
    @classmethod
    def integer(cls, value: Any, info: ValidationInfo) -> Any:
        """``tf_random_seed`` and the worker delay are integers (TensorFlow's ``isinstance``)."""
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        message = (
            "tf_random_seed must be integer."
            if info.field_name == "tf_random_seed"
            else "experimental_max_worker_delay_secs must be an integer if set."
        )
        if isinstance(value, bool):
            message += " Got a boolean; write a number."
        raise custom_error("int_type", message)

    @field_validator("model_dir")
    @classmethod
    def model_dir_not_empty(cls, model_dir: str | None) -> str | None:
        """The model directory may be left out but not empty."""
        if model_dir == "":
            raise custom_error("model_dir_empty", "model_dir should be non-empty.")
        return model_dir

    @field_validator(*BOUNDS)
    @classmethod
    def bounds(cls, value: float | None, info: ValidationInfo) -> float | None:
        """The numeric settings TensorFlow bounds (``None`` always passes)."""
        assert info.field_name is not None
        check_bound(info.field_name, value)
        return value

    @field_validator(*BOUNDS, mode="before")
    @classmethod
    def fraction_out_of_bounds(cls, value: Any, info: ValidationInfo) -> Any:
        """A fraction TensorFlow's bound refuses (``nan``, ``-inf``, ``-0.5``) fails the bound.

        A fraction is any number of no integer type: a ``float``, a
        ``Fraction``, a ``Decimal``, a numpy float.  An integer setting
        refuses a fraction under a stricter rule of its own; one that
        TensorFlow refuses as well is refused in its words.
        """
        if isinstance(value, numbers.Number) and not isinstance(value, (numbers.Integral, complex)):
            assert info.field_name is not None
            check_bound(info.field_name, value)
        return value

    @field_validator("protocol", mode="before")
    @classmethod
    def protocol_known(cls, protocol: Any) -> Any:
        """The server protocol is ``grpc`` or ``grpc+verbs``."""
        if protocol is not None and (not isinstance(protocol, str) or protocol not in _PROTOCOLS):
            raise custom_error("protocol", "protocol should be grpc or grpc+verbs")
        return protocol

    @field_validator("device_fn", mode="before")
    @classmethod
    def device_fn_takes_op(cls, device_fn: Any) -> Any:
        """``device_fn`` is a callable whose one positional parameter is named ``op``."""
        if device_fn is None or takes_op_only(device_fn):
            return device_fn
        raise custom_error(
            "device_fn", 'device_fn must be callable with exactly one argument "op".'
        )

    @field_validator("tf_config", mode="before")
    @classmethod
    def tf_config_default(cls, tf_config: Any) -> Any:
        """``None`` stands for an unset ``TF_CONFIG``."""
        return TFConfig() if tf_config is None else tf_config

    @field_validator("tf_config", mode="wrap")
    @classmethod
    def estimator_rules(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> TFConfig:
        """An invalid TF_CONFIG is also read leniently, as TensorFlow reads it.

        Then the estimator's own complaints (no chief, …) are reported with its
        other errors (say, a bad address).  A valid one is checked with the
        whole input, in ``_distributed_from_tf_config``.
        """
        try:
            tf_config: TFConfig = handler(value)
        except ValidationError as invalid:
            strategies = Strategies.of(info.data)
            raise with_estimator_errors(invalid, value, cls.__name__, strategies) from None
        return tf_config

    @classmethod
    def _setting_arguments(cls, data: Any, errors: Errors) -> tuple[Any, dict[str, Any]]:
        """Take out of ``data`` the arguments that are no field but set a distributed setting.

        The estimator has none; invalid ones are recorded in ``errors``.
        """
        return data, {}

    @classmethod
    def _settings(cls, derived: Distributed, arguments: dict[str, Any]) -> Distributed:
        """The distributed settings: those derived from TF_CONFIG, as the arguments change them."""
        return derived

    @classmethod
    def _default_session_config(cls, distributed: Distributed) -> ConfigProto | None:
        """The session config of a distributed task that gave none (between-graph filters)."""
        if not (distributed.cluster_spec and distributed.between_graph):
            return None
        return between_graph_session_config(distributed.task_type, distributed.task_id)

    # -- derived properties ------------------------------------------------------------

    def _settings_read(self) -> Distributed:
        """The distributed settings, read straight from the private storage.

        Reading ``self._distributed`` goes through pydantic's ``__getattr__``,
        which costs more than deriving most of the properties.
        """
        private = self.__pydantic_private__
        assert private is not None
        settings: Distributed = private["_distributed"]
        return settings

    @computed_field(description="The training cluster; empty in local mode and for evaluators.")  # type: ignore[prop-decorator]
    @property
    def cluster_spec(self) -> ClusterSpec:
        """The training cluster (``TF_CONFIG``'s, or empty for an evaluator)."""
        return self._settings_read().cluster_spec

    @computed_field(description="This task's type.")  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> str:
        """This task's type (``worker`` in local mode)."""
        return self._settings_read().task_type

    @computed_field(description="This task's index within its job.")  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> int:
        """This task's index within its job."""
        return self._settings_read().task_id

    @computed_field(description="The session target of training: '' or grpc://host:port.")  # type: ignore[prop-decorator]
    @property
    def master(self) -> str:
        """The session target this task trains with."""
        return self._settings_read().master

    @computed_field(description="The session target of evaluation.")  # type: ignore[prop-decorator]
    @property
    def evaluation_master(self) -> str:
        """The session target this task evaluates with."""
        return self._settings_read().evaluation_master

    @computed_field(description="Whether this task is the chief (or master).")  # type: ignore[prop-decorator]
    @property
    def is_chief(self) -> bool:
        """Whether this task is the chief of the training cluster."""
        return self._settings_read().is_chief

    @computed_field(description="How many parameter servers the cluster has.")  # type: ignore[prop-decorator]
    @property
    def num_ps_replicas(self) -> int:
        """How many parameter servers the training cluster has."""
        return self._settings_read().num_ps_replicas

    @computed_field(description="How many workers the cluster has, the chief included.")  # type: ignore[prop-decorator]
    @property
    def num_worker_replicas(self) -> int:
        """How many workers the training cluster has, the chief (or master) included."""
        return self._settings_read().num_worker_replicas

    @computed_field(description="This task's unique id in the training cluster.")  # type: ignore[prop-decorator]
    @property
    def global_id_in_cluster(self) -> int | None:
        """This task's unique id in the training cluster; ``None`` for an evaluator.

        The chief (or master) is 0; then every other job but ``ps`` in sorted
        order, then ``ps``; within a job, by index.
        """
        return self._settings_read().global_id_in_cluster

    @computed_field(description="TF_CONFIG's platform-defined `service` object.")  # type: ignore[prop-decorator]
    @property
    def service(self) -> dict[str, Any] | None:
        """``TF_CONFIG``'s ``service`` object, if any."""
        return self._settings_read().service

    # -- construction ------------------------------------------------------------------

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> Self:
        """Build the config TensorFlow would build under ``environ`` (``os.environ``).

        Equivalent to ``tf.estimator.RunConfig(**kwargs)`` with ``TF_CONFIG``
        read from ``environ``.

        Raises:
            pydantic.ValidationError: ``TF_CONFIG`` or an argument is invalid.
        """
        if "tf_config" in kwargs:
            raise TypeError("from_env reads tf_config from the environment; pass environ")
        try:
            tf_config: Any = read_env(environ)
        except ValidationError as error:  # reported with the arguments' own errors
            tf_config = Refused((environ or os.environ).get("TF_CONFIG"), error)
        return cls(tf_config=tf_config, **kwargs)

    def to_tensorflow(self) -> Any:
        """Return TensorFlow's equal ``RunConfig`` (needs ``estconf[tensorflow]``).

        TensorFlow reads ``TF_CONFIG`` from ``os.environ``: it is set to this
        config's ``tf_config`` while the object is built, under a lock, and
        restored afterwards.
        """
        tf = tensorflow()
        arguments = strategy_arguments(
            {
                name: getattr(self, name)
                for name in type(self).model_fields
                if name not in self._NOT_TENSORFLOW_ARGUMENTS
            }
        )
        if self.session_config is not None:
            arguments["session_config"] = self.session_config.to_proto()
        with tf_config_environ(self.tf_config.to_json()):
            return self._build_tensorflow(tf, arguments)

    def _build_tensorflow(self, tf: Any, arguments: dict[str, Any]) -> Any:
        """Build TensorFlow's object from its keyword arguments, under this TF_CONFIG."""
        return tf.estimator.RunConfig(**arguments)

    @classmethod
    def from_tensorflow(cls, config: Any, environ: Mapping[str, str] | None = None) -> Self:
        """Read TensorFlow's ``RunConfig`` back (needs ``estconf[tensorflow]``).

        TensorFlow does not keep the ``TF_CONFIG`` it read, so it is read from
        ``environ`` (``os.environ`` by default, the process the object was
        built in), and the derived properties are checked to agree.

        Raises:
            ValueError: ``config`` was built under another ``TF_CONFIG``.
        """
        arguments = strategy_arguments(
            {
                # experimental_distribute has no public property in TensorFlow.
                name: getattr(config, name, getattr(config, f"_{name}", None))
                for name in cls.model_fields
                if name not in (*cls._NOT_TENSORFLOW_ARGUMENTS, "session_config")
            }
        )
        session_config = config.session_config
        arguments["session_config"] = (
            None if session_config is None else config_proto_from_proto(session_config)
        )
        arguments.update(cls._tensorflow_extra_arguments(config, arguments))
        ours = cls.from_env(environ, **arguments)
        mismatched = [
            f"{name}: TensorFlow {getattr(config, name)!r}, estconf {getattr(ours, name)!r}"
            for name in cls.model_computed_fields
            if name != "cluster_spec" and getattr(config, name) != getattr(ours, name)
        ]
        if ours.cluster_spec != config.cluster_spec.as_dict():
            mismatched.append("cluster_spec")
        if mismatched:
            raise ValueError(
                "the TensorFlow RunConfig was not built from the TF_CONFIG in the given "
                "environment (pass the environ it was built with): " + "; ".join(mismatched)
            )
        return ours

    @classmethod
    def _tensorflow_extra_arguments(cls, config: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        """Arguments read back from TensorFlow's object besides (or for) the estimator's."""
        return {}

    def replace(self, **kwargs: Any) -> Self:
        """Return a copy with some properties replaced, by TensorFlow's rules.

        Only the properties in :data:`REPLACEABLE` may be replaced.  Replacing
        one checkpoint setting with a value clears the other; replacing both
        with values is an error.  The property checks run on the result; the
        distributed properties stay as they are.

        Raises:
            pydantic.ValidationError: a key may not be replaced, or a value is invalid.
        """
        changed = replaced_values(type(self).__name__, kwargs, REPLACEABLE)
        current = {name: getattr(self, name) for name in type(self).model_fields}
        both = "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" in kwargs
        checked = check_properties(RunConfig, {**current, **changed}, both_replaced=both)
        return self.model_copy(
            update={name: checked.get(name, value) for name, value in changed.items()}
        )


REPLACEABLE: Final = tuple(
    name for name in RunConfig.model_fields if name not in RunConfig._NOT_TENSORFLOW_ARGUMENTS
)
"""The properties :meth:`RunConfig.replace` may change, in TensorFlow's order: every argument
of ``tf.estimator.RunConfig``."""


def _strategies_read(data: Any) -> Any:
    """Steps 2 and 3 of ``read_in_tensorflows_order``: the strategy arguments, as read."""
    if not isinstance(data, Mapping):
        return data
    return strategies_from_distribute_config(refuse_v2_parameter_server(data))


_PROTOCOLS: Final = ("grpc", "grpc+verbs")
