"""estconf.distribute._strategy: the base every strategy model derives its settings through."""

from __future__ import annotations

import pytest

from estconf import TFConfig
from estconf.distribute import MultiWorkerConfig, ParameterServerConfig
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
