"""The base of the strategy models: ``TF_CONFIG`` as a strategy reads it, and what it derives.

A strategy's constructor checks the cluster and task in its own order and
derives its settings from them.  Each strategy model names that one function
(:meth:`StrategyConfig.derive`); the base runs it as the rule of the
``tf_config`` field, and the computed properties read what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from estconf._derived import read_back_derived
from estconf._errors import with_errors_of
from estconf.distribute._reading import ReaderTFConfig, read_like_resolver, tf_config_from_env
from estconf.tf_config import TFConfig

__all__ = ["StrategyConfig"]

Derived = TypeVar("Derived")


class StrategyConfig(BaseModel, Generic[Derived]):
    """A ``TF_CONFIG`` read as a ``tf.distribute`` strategy reads it.

    Subclasses implement :meth:`derive` and expose what it returns as
    computed properties.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    tf_config: ReaderTFConfig = Field(
        default_factory=TFConfig, description="The TF_CONFIG the strategy reads."
    )

    @classmethod
    def derive(cls, tf_config: TFConfig) -> Derived:
        """Check ``tf_config`` as the strategy's constructor does, in its order, and derive.

        Raises:
            pydantic.ValidationError: the first rule the TF_CONFIG breaks.
        """
        raise NotImplementedError

    @classmethod
    def read_leniently(cls, raw: Any) -> TFConfig | None:
        """What the strategy reads of a ``raw`` TF_CONFIG that failed validation, unchecked.

        The strategies read it through ``TFConfigClusterResolver``
        (:func:`~estconf.distribute._reading.read_like_resolver`).
        """
        return read_like_resolver(raw)

    @model_validator(mode="wrap")
    @classmethod
    def derived_keys_agree(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """A dump's derived keys are read back only if they agree with what is derived."""
        return read_back_derived(cls, data, handler)

    @field_validator("tf_config", mode="wrap")
    @classmethod
    def strategy_rules(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> TFConfig:
        """The cluster and task are ones the strategy can start with (see :meth:`derive`).

        A TF_CONFIG that is invalid (say, an address has no port) is also read
        as the strategy reads it, and the strategy's own complaints are
        reported with its errors, so that TensorFlow's sentence is never missing.
        """
        try:
            tf_config: TFConfig = handler(value)
        except ValidationError as invalid:
            lenient = cls.read_leniently(value)
            if lenient is None:
                raise
            raise with_errors_of(invalid, lambda: cls.derive(lenient)) from None
        cls.derive(tf_config)
        return tf_config

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Self:
        """Read ``TF_CONFIG`` from ``environ`` (``os.environ`` by default), as TensorFlow does.

        Raises:
            pydantic.ValidationError: ``TF_CONFIG`` is invalid, or the strategy refuses it.
        """
        return cls(tf_config=tf_config_from_env(environ))

    @property
    def _derived(self) -> Derived:
        return type(self).derive(self.tf_config)
