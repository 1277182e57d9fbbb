"""estconf.inputs.tf_config_source: where the TF_CONFIG to explain comes from, found once."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from estconf.inputs.sources import InputError
from estconf.inputs.tf_config_source import (
    NOT_SET,
    TFConfigSource,
    read_tf_config,
    tf_config_source,
)
from estconf.io.errors import ConfigFileError

KUBEFLOW = Path(__file__).parent / "data" / "kubeflow"
TEXT = '{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}'


@pytest.fixture(autouse=True)
def _no_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TF_CONFIG", raising=False)


def test_none() -> None:
    assert tf_config_source(None) == TFConfigSource(NOT_SET)


def test_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF_CONFIG", TEXT)
    assert tf_config_source(None) == TFConfigSource(
        "the TF_CONFIG environment variable", "$TF_CONFIG", TEXT.encode(), variable=True
    )


def test_a_file_given_wins_over_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF_CONFIG", TEXT)
    found = tf_config_source("tf.conf", input_format="yaml")
    assert found == TFConfigSource("tf.conf", "tf.conf", file="tf.conf", format="yaml")


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode())))
    found = tf_config_source("-")
    assert (found.said, found.name, found.text, found.format) == (
        "stdin",
        "<stdin>",
        TEXT.encode(),
        "json",
    )


def test_a_manifest_that_sets_one(tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: tf}}\ndata:\n  TF_CONFIG: '{TEXT}'\n",
        encoding="utf-8",
    )
    found = tf_config_source(str(path))
    assert (found.said, found.text, found.file) == (f"{path} (data.TF_CONFIG)", TEXT, None)


def test_a_pod_of_a_tfjob() -> None:
    found = tf_config_source(str(KUBEFLOW / "dist_mnist.yaml"), choice=(None, ("ps", 0)))
    assert found.said.endswith("dist_mnist.yaml, pod dist-mnist-ps-0 (task ps:0)")
    assert found.text is not None


def test_a_pod_of_a_file_that_holds_no_tfjob_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "tf_config.json"
    path.write_text(TEXT, encoding="utf-8")
    with pytest.raises(InputError, match="holds no TFJob"):
        tf_config_source(str(path), choice=("chief-0", None))


class TestReadTFConfig:
    def test_text_and_a_file_read_the_same(self, tmp_path: Path) -> None:
        path = tmp_path / "tf.json"
        path.write_text(TEXT, encoding="utf-8")
        from_file = read_tf_config(tf_config_source(str(path)), "tf_config")
        from_text = read_tf_config(TFConfigSource("x", "x", TEXT), "tf_config")
        assert from_file == from_text is not None

    def test_none_is_none(self) -> None:
        assert read_tf_config(TFConfigSource(NOT_SET), "tf_config") is None

    @pytest.mark.parametrize("variable", [True, False])
    def test_empty_text(self, variable: bool) -> None:
        found = TFConfigSource("s", "$TF_CONFIG", b"  ", variable=variable)
        with pytest.raises(ConfigFileError) as info:
            read_tf_config(found, "tf_config", empty_refused=False)
        [error] = info.value.errors
        assert error.code == ("tf_config_empty" if variable else "empty")

    def test_a_value_no_config_may_hold(self) -> None:
        found = TFConfigSource("s", "<stdin>", '{"task": {"type": "chief", "index": NaN}}')
        with pytest.raises(ConfigFileError) as info:
            read_tf_config(found, "tf_config")
        assert info.value.file == "<stdin>"
