"""estconf._tensorflow: TensorFlow imported only when a conversion asks for it."""

from __future__ import annotations

import os
import sys
import types

import pytest

from estconf._tensorflow import tensorflow, tf_config_environ


def test_the_installed_tensorflow_module_is_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = types.ModuleType("tensorflow")
    monkeypatch.setitem(sys.modules, "tensorflow", installed)
    assert tensorflow() is installed


def test_without_tensorflow_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tensorflow", None)  # as if it were not installed
    with pytest.raises(ImportError) as info:
        tensorflow()
    assert str(info.value) == (
        "converting to or from TensorFlow needs TensorFlow: pip install 'estconf[tensorflow]'"
    )


def test_tf_config_is_set_for_the_block_and_unset_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TF_CONFIG", raising=False)
    with tf_config_environ('{"task": {}}'):
        assert os.environ["TF_CONFIG"] == '{"task": {}}'
    assert "TF_CONFIG" not in os.environ


def test_none_unsets_tf_config_for_the_block_and_restores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TF_CONFIG", "{}")
    with tf_config_environ(None):
        assert "TF_CONFIG" not in os.environ
    assert os.environ["TF_CONFIG"] == "{}"
