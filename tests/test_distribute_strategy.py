"""estconf.distribute._strategy: the base every strategy model derives its settings through."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from estconf import TFConfig
from estconf.distribute import (
    MultiWorkerConfig,
    ParameterServerConfig,
    ServerConfig,
    SlurmClusterResolver,
)
from estconf.distribute._strategy import StrategyConfig


def test_each_strategy_says_how_it_derives() -> None:
    with pytest.raises(NotImplementedError):
        StrategyConfig.derive(TFConfig())


@pytest.mark.parametrize("model", [MultiWorkerConfig, ParameterServerConfig])
def test_the_rule_of_tf_config_is_the_strategys_derivation(
    model: type[MultiWorkerConfig] | type[ParameterServerConfig],
) -> None:
    assert issubclass(model, StrategyConfig)
    assert model.derive is not StrategyConfig.derive


@pytest.mark.parametrize(
    "model",
    [MultiWorkerConfig, ParameterServerConfig, ServerConfig, SlurmClusterResolver],
    ids=lambda model: model.__name__,
)
def test_every_derived_value_is_described_in_the_serialization_schema(
    model: type[BaseModel],
) -> None:
    """Editors and the API docs show each computed field's description."""
    properties = model.model_json_schema(mode="serialization")["properties"]
    for name in model.model_computed_fields:
        assert properties[name].get("description"), f"{model.__name__}.{name}"
