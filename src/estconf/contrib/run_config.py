"""``estconf.contrib.RunConfig``: ``tf.contrib.learn.RunConfig`` as TensorFlow 1.15 built it.

Its constructor checks no ranges, as TensorFlow's did not; its ``replace`` is
the estimator's (:meth:`estconf.RunConfig.replace`), with TensorFlow 1.15's
list of properties.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Annotated, Any, ClassVar, Final

from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    PrivateAttr,
    Strict,
    WithJsonSchema,
    computed_field,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from estconf._errors import custom_error
from estconf._types import Bool, Integer, Number, String, bool_error, whole_number
from estconf.contrib.cluster_config import ClusterConfig
from estconf.estimator.rules import check_properties, model_dir_rule, replaced_values
from estconf.run_config import REPLACEABLE
from estconf.run_config import RunConfig as EstimatorRunConfig
from estconf.session_config import ConfigProto, GPUOptions, SessionConfig
from estconf.tf_config import TF_CONFIG

__all__ = ["DEFAULT_UID_WHITELIST", "REPLACEABLE_1_15", "RunConfig"]

REPLACEABLE_1_15: Final = tuple(key for key in REPLACEABLE if key != "checkpoint_save_graph_def")
"""The properties :meth:`RunConfig.replace` may change: the estimator's list of 1.15."""

DEFAULT_UID_WHITELIST: Final = (
    "tf_random_seed",
    "save_summary_steps",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
    "session_config",
    "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours",
    "log_step_count_steps",
)
"""The properties :meth:`RunConfig.uid` leaves out unless told otherwise."""

_USE_DEFAULT: Final = 0
"""``save_checkpoints_secs`` equal to this means "the default" (TensorFlow's ``_USE_DEFAULT``)."""
_DEFAULT_SAVE_CHECKPOINTS_SECS: Final = 600
_INT32: Final = (-(2**31), 2**31 - 1)


def _proto_int32(value: Any) -> Any:
    """An ``int32`` field of a protobuf message: an integer in range, never a float."""
    if isinstance(value, bool):
        raise bool_error(value)
    if isinstance(value, (float, str, bytes)) or not hasattr(value, "__index__"):
        raise custom_error(
            "int_type",
            "Input should be an integer: it sets int32 fields of a ConfigProto, which "
            "refuse {kind} values",
            {"kind": type(value).__name__},
        )
    number = operator.index(value)
    if not _INT32[0] <= number <= _INT32[1]:
        raise custom_error(
            "int32_range",
            "Value out of range: {value} (it sets int32 fields of a ConfigProto)",
            {"value": number},
        )
    return number


def _seed(value: Any) -> Any:
    """A seed: an integer, or a whole float kept as given (TensorFlow 1.15 keeps it)."""
    return whole_number(value, keep_float=True)


def _finite_double(value: float) -> float:
    try:
        return float(value)
    except OverflowError:
        raise custom_error(
            "double_range", "Value out of range: {value} does not fit a double", {"value": value}
        ) from None


ProtoInt32 = Annotated[
    int,
    BeforeValidator(_proto_int32),
    WithJsonSchema({"type": "integer", "minimum": _INT32[0], "maximum": _INT32[1]}),
]
Seed = Annotated[
    Annotated[int, Strict()] | Annotated[float, Strict()],
    Field(union_mode="left_to_right"),
    BeforeValidator(_seed),
    WithJsonSchema({"type": "integer"}),
]


def _json_form(value: Any) -> Any:
    """A canonical, order-independent form of a property value for :meth:`RunConfig.uid`."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(key): _json_form(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_form(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


_CHECKED: Final = tuple(
    name
    for name in REPLACEABLE
    if name
    not in (
        "train_distribute",
        "eval_distribute",
        "experimental_distribute",
        "checkpoint_save_graph_def",
    )
)
"""The properties the estimator checks after ``replace`` (``_validate_properties``)."""


# -- RunConfig --------------------------------------------------------------------------


class RunConfig(ClusterConfig):
    """``tf.contrib.learn.RunConfig`` (TensorFlow 1.15): a deprecated ``RunConfig``.

    Every constructor argument of TensorFlow 1.15 is a field with its default;
    ``TF_CONFIG`` stands for the environment variable.  The constructor checks
    no ranges, as TensorFlow's did not; :meth:`replace` applies the
    estimator's checks, as TensorFlow's did.

    ``tf_config`` is TensorFlow's property of that name: the session
    ``ConfigProto`` built from ``num_cores``, ``log_device_placement`` and
    ``gpu_memory_fraction``.

    Example:
        >>> config = RunConfig(num_cores=4, save_checkpoints_steps=100)
        >>> config.tf_config.inter_op_parallelism_threads
        4
        >>> config.save_checkpoints_secs, config.save_checkpoints_steps
        (None, 100)
        >>> config.master, config.is_chief, config.environment
        ('', True, 'local')
    """

    num_cores: ProtoInt32 = Field(
        0, description="Threads for the session's thread pools; 0 lets the system choose."
    )
    log_device_placement: Bool = Field(False, description="Log where each op is placed.")
    gpu_memory_fraction: Number = Field(
        1, description="Fraction of each GPU's memory the process may use."
    )
    tf_random_seed: Seed | None = Field(None, description="Random seed for TensorFlow.")
    save_summary_steps: Integer | None = Field(
        100, description="Save summaries every this many steps."
    )
    save_checkpoints_secs: Number | None = Field(
        _USE_DEFAULT,
        description="Save checkpoints every this many seconds; 0 (the default) means 600 "
        "when `save_checkpoints_steps` is null, else null.",
    )
    save_checkpoints_steps: Integer | None = Field(
        None, description="Save checkpoints every this many steps."
    )
    keep_checkpoint_max: Integer | None = Field(
        5, description="How many recent checkpoints to keep; 0 or null keeps all."
    )
    keep_checkpoint_every_n_hours: Number | None = Field(
        10000, description="Keep one checkpoint every this many hours."
    )
    log_step_count_steps: Integer | None = Field(
        100, description="Log the global step rate every this many steps."
    )
    protocol: String | None = Field(None, description="The server protocol; null means grpc.")
    evaluation_master: String | None = Field("", description="The master on which to evaluate.")
    model_dir: String | None = Field(
        None, description="The model directory; TF_CONFIG's `model_dir` if not given."
    )
    session_config: SessionConfig = Field(
        None, description="Session options (a ConfigProto in JSON form)."
    )
    session_creation_timeout_secs: Number | None = Field(
        7200, description="How long workers wait for a session to become available."
    )

    _replaced: dict[str, Any] = PrivateAttr(default_factory=dict)

    UID_PROPERTIES: ClassVar[tuple[str, ...]] = (
        "cluster_spec",
        "device_fn",
        "environment",
        "eval_distribute",
        "evaluation_master",
        "experimental_max_worker_delay_secs",
        "is_chief",
        "keep_checkpoint_every_n_hours",
        "keep_checkpoint_max",
        "log_step_count_steps",
        "master",
        "model_dir",
        "num_ps_replicas",
        "num_worker_replicas",
        "protocol",
        "save_checkpoints_secs",
        "save_checkpoints_steps",
        "save_summary_steps",
        "session_config",
        "session_creation_timeout_secs",
        "task_id",
        "task_type",
        "tf_config",
        "tf_random_seed",
        "train_distribute",
    )
    """The properties :meth:`uid` covers: those TensorFlow 1.15 keeps on the instance."""

    # -- input rules -------------------------------------------------------------------

    @field_validator("gpu_memory_fraction")
    @classmethod
    def gpu_memory_fraction_double(cls, fraction: float) -> float:
        """The fraction fits the ``double`` field it sets."""
        _finite_double(fraction)
        return fraction

    @model_validator(mode="before")
    @classmethod
    def checkpoint_default(cls, data: Any) -> Any:
        """``save_checkpoints_secs`` at its default (0) is 600 without steps, else ``None``.

        Unlike the estimator, both may be set.
        """
        if not isinstance(data, Mapping):
            return data
        secs = data.get("save_checkpoints_secs", _USE_DEFAULT)
        if type(secs) not in (int, float) or secs != _USE_DEFAULT:
            return data
        steps = data.get("save_checkpoints_steps")
        return {
            **data,
            "save_checkpoints_secs": _DEFAULT_SAVE_CHECKPOINTS_SECS if steps is None else None,
        }

    @model_validator(mode="before")
    @classmethod
    def model_dir_agreement(cls, data: Any) -> Any:
        """``model_dir`` and ``TF_CONFIG``'s must agree when both are set.

        The model directory is the argument if truthy, else ``TF_CONFIG``'s:
        the estimator's rule as TensorFlow 1.15 applied it (see ``model_dir_rule``).
        """
        return model_dir_rule(data, TF_CONFIG, legacy=True)

    # -- properties --------------------------------------------------------------------

    @computed_field(description="The session ConfigProto built from num_cores, …")  # type: ignore[prop-decorator]
    @cached_property
    def tf_config(self) -> ConfigProto:
        """The session ``ConfigProto`` (TensorFlow's ``tf_config`` property), in JSON form.

        ``log_device_placement``; both thread pools sized ``num_cores``;
        ``gpu_options.per_process_gpu_memory_fraction`` = ``gpu_memory_fraction``.
        """
        fraction = _finite_double(self.gpu_memory_fraction)
        return ConfigProto(
            log_device_placement=self.log_device_placement,
            inter_op_parallelism_threads=self.num_cores,
            intra_op_parallelism_threads=self.num_cores,
            gpu_options=GPUOptions(
                # NaN and the infinities, which the double takes, in their JSON form
                per_process_gpu_memory_fraction=fraction
                if math.isfinite(fraction)
                else json.dumps(fraction)
            ),
        )

    @property
    def train_distribute(self) -> Any:
        """``None`` unless set by :meth:`replace` (the contrib constructor takes no strategy)."""
        return self._replaced.get("train_distribute")

    @property
    def eval_distribute(self) -> Any:
        """``None`` unless set by :meth:`replace`."""
        return self._replaced.get("eval_distribute")

    @property
    def device_fn(self) -> Any:
        """``None`` unless set by :meth:`replace`."""
        return self._replaced.get("device_fn")

    @property
    def experimental_max_worker_delay_secs(self) -> int | None:
        """``None`` unless set by :meth:`replace`."""
        value: int | None = self._replaced.get("experimental_max_worker_delay_secs")
        return value

    # -- replace -----------------------------------------------------------------------

    def replace(self, **kwargs: Any) -> Self:
        """Return a copy with some properties replaced, by the estimator's rules.

        TensorFlow 1.15's contrib ``RunConfig`` inherits ``replace`` from
        ``tf.estimator.RunConfig``: only :data:`REPLACEABLE_1_15` may be
        replaced; replacing one checkpoint setting with a value clears the
        other, replacing both with values is an error; then the estimator's
        property checks (``save_summary_steps should be >= 0``, …) run on the
        result, values kept from the constructor included.  Nothing is derived
        again from ``TF_CONFIG``.

        Raises:
            pydantic.ValidationError: a key may not be replaced, or a value is invalid.
        """
        changed = replaced_values(type(self).__name__, kwargs, REPLACEABLE_1_15)
        fields = {name: getattr(self, name) for name in type(self).model_fields}
        replaced = {**self._replaced, **{k: v for k, v in changed.items() if k not in fields}}
        merged = {**fields, **changed}
        both = "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" in kwargs
        checked = check_properties(
            EstimatorRunConfig, {name: merged.get(name) for name in _CHECKED}, both_replaced=both
        )
        config = self.model_copy(
            update={
                name: checked.get(name, value) for name, value in changed.items() if name in fields
            }
        )
        config._replaced = replaced
        return config

    # -- uid ---------------------------------------------------------------------------

    def uid(self, whitelist: Iterable[str] | None = None) -> str:
        """Return a string that identifies this config, as ``RunConfig.uid`` did.

        It is the same for configs whose properties are equal, whatever order
        their inputs were given in, and changes when a property of
        :attr:`UID_PROPERTIES` outside ``whitelist`` changes.  Like
        TensorFlow's, its format is not a stable interface.

        Args:
            whitelist: Names of the properties to leave out; ``None`` means
                :data:`DEFAULT_UID_WHITELIST`.  Names that are not properties are
                ignored.

        Returns:
            The identifier.
        """
        skip = set(DEFAULT_UID_WHITELIST if whitelist is None else whitelist)
        state = {name: getattr(self, name) for name in self.UID_PROPERTIES}
        state.update((f"_{name}", value) for name, value in self._replaced_only().items())
        return ", ".join(
            f"{name}={json.dumps(_json_form(value), sort_keys=True)}"
            for name, value in sorted(state.items())
            if name.lstrip("_") not in skip
        )

    def _replaced_only(self) -> dict[str, Any]:
        """Replaced values that no property shows (``experimental_distribute``)."""
        return {
            name: value for name, value in self._replaced.items() if name not in self.UID_PROPERTIES
        }
