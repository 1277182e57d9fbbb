"""The Python-only distribution arguments of the estimator, as TensorFlow reads them.

``train_distribute``, ``eval_distribute`` and ``experimental_distribute``
change how the estimator reads ``TF_CONFIG`` (:class:`Strategies`), and
``experimental_distribute`` may carry the two strategies in their place
(:func:`strategies_from_distribute_config`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from estconf._errors import Refused, custom_error

__all__ = [
    "STRATEGY_KEYS",
    "Strategies",
    "refuse_v2_parameter_server",
    "strategies_from_distribute_config",
    "strategy_arguments",
]


@dataclass(frozen=True)
class Strategies:
    """The Python-only distribution arguments, which change how TF_CONFIG is read."""

    train_distribute: Any = None
    eval_distribute: Any = None
    experimental_distribute: Any = None

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> Strategies:
        """Pick the distribution arguments out of validated field values."""
        return cls(
            values.get("train_distribute"),
            values.get("eval_distribute"),
            values.get("experimental_distribute"),
        )

    def use_coordinator(self) -> bool:
        """Whether TensorFlow hands the config to its distribute coordinator."""
        return bool(
            _non_tpu(self.train_distribute)
            or _non_tpu(self.eval_distribute)
            or self.experimental_distribute
        )


STRATEGY_KEYS: Final = ("train_distribute", "eval_distribute")
"""The strategy arguments that ``experimental_distribute`` may carry instead."""


def strategies_from_distribute_config(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The arguments with the strategies ``experimental_distribute`` carries taken in.

    TensorFlow's constructor copies ``experimental_distribute.train_distribute``
    (and ``eval_distribute``) into its own strategy when that is true, so its
    property gives it; given both ways, it refuses.  An argument already
    refused (see ``Refused``) stays as it is.
    """
    config = data.get("experimental_distribute")
    if not config:
        return data
    refused = _distribute_config_refused(config, STRATEGY_KEYS)
    if refused is not None:
        return {**data, "experimental_distribute": refused}
    result = dict(data)
    for key in STRATEGY_KEYS:
        nested = getattr(config, key, None)
        own = data.get(key)
        if not nested or isinstance(own, Refused):
            continue
        if own:
            error = custom_error(
                "strategy_conflict",
                "Either `{key}` or`experimental_distribute.{key}` can be set.",
                {"key": key},
            )
            result[key] = Refused(own, error)
        else:
            result[key] = nested
    train = result.get("train_distribute")
    if train and not isinstance(train, Refused):
        refused = _distribute_config_refused(config, ("remote_cluster",))
        if refused is not None:
            result["experimental_distribute"] = refused
    return result


def _distribute_config_refused(config: Any, attributes: tuple[str, ...]) -> Refused | None:
    """``config`` refused if it lacks one of ``attributes``, which TensorFlow reads of it.

    TensorFlow reads ``train_distribute`` and ``eval_distribute`` of any true
    ``experimental_distribute``, and ``remote_cluster`` when there is a
    training strategy; an object without them (a strategy given in the place
    of its ``DistributeConfig``) fails with an ``AttributeError``.
    """
    for attribute in attributes:
        if not hasattr(config, attribute):
            error = custom_error(
                "distribute_config",
                "experimental_distribute must be a DistributeConfig "
                "(tf.contrib.distribute.DistributeConfig), whose {attribute} TensorFlow reads: "
                "'{type}' object has no attribute '{attribute}'",
                {"attribute": attribute, "type": type(config).__name__},
            )
            return Refused(config, error)
    return None


def refuse_v2_parameter_server(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The arguments with a v2 parameter-server strategy refused (see ``Refused``).

    The estimator takes ``tf.compat.v1.distribute.experimental.ParameterServerStrategy``;
    TensorFlow checks the arguments themselves, before it reads ``experimental_distribute``.
    """
    refused: dict[str, Any] = {}
    for key in STRATEGY_KEYS:
        strategy = data.get(key)
        if type(strategy).__name__ == "ParameterServerStrategyV2":
            error = custom_error(
                "strategy",
                "Please use `tf.compat.v1.distribute.experimental.ParameterServerStrategy` for "
                "parameter server strategy with estimator.",
            )
            refused[key] = Refused(strategy, error)
    return {**data, **refused} if refused else data


def strategy_arguments(values: Mapping[str, Any]) -> dict[str, Any]:
    """The constructor arguments that give these strategy properties back.

    The inverse of :func:`strategies_from_distribute_config`: a strategy that
    is the one ``experimental_distribute`` carries is not given again.
    """
    config = values.get("experimental_distribute")
    result = dict(values)
    for key in STRATEGY_KEYS:
        nested = getattr(config, key, None) if config else None
        if nested and values.get(key) is nested:
            result[key] = None
    return result


def _non_tpu(strategy: Any) -> bool:
    return bool(strategy) and not type(strategy).__name__.startswith("TPUStrategy")
