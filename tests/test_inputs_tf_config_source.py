"""estconf.inputs.tf_config_source: where the TF_CONFIG to explain comes from, found once."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from estconf import TFConfig
from estconf.inputs.tf_config_source import (
    NOT_SET,
    TFConfigSource,
    read_tf_config,
    run_config_to_explain,
    tf_config_source,
    tf_config_to_explain,
)
from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError
from values import is_a_value

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

    def test_text_of_no_format_is_read_as_json(self) -> None:
        """``format=None`` names a file's format by its name; text has none, and is JSON."""
        found = TFConfigSource("x", "x", TEXT, format=None)
        assert read_tf_config(found, "tf_config") == TFConfig.model_validate_json(TEXT)

    def test_none_is_none(self) -> None:
        assert read_tf_config(TFConfigSource(NOT_SET), "tf_config") is None

    @pytest.mark.parametrize("variable", [True, False])
    def test_empty_text(self, variable: bool) -> None:
        found = TFConfigSource("s", "$TF_CONFIG", b"  ", variable=variable)
        with pytest.raises(ConfigFileError) as info:
            read_tf_config(found, "tf_config", empty_refused=False)
        [error] = info.value.errors
        assert error.code == ("tf_config_empty" if variable else "empty")

    @pytest.mark.parametrize("variable", [True, False])
    def test_empty_text_is_refused_as_a_tf_config_unless_told(self, variable: bool) -> None:
        found = TFConfigSource("s", "<stdin>", "\n", variable=variable)
        with pytest.raises(ConfigFileError) as info:
            read_tf_config(found, "tf_config")
        [error] = info.value.errors
        assert (error.code, info.value.kind) == ("tf_config_empty", "tf_config")

    def test_a_value_no_config_may_hold(self) -> None:
        found = TFConfigSource("s", "<stdin>", '{"task": {"type": "chief", "index": NaN}}')
        with pytest.raises(ConfigFileError) as info:
            read_tf_config(found, "tf_config")
        assert info.value.file == "<stdin>"


class TestRunConfigToExplain:
    def test_the_tf_config_alone(self, tmp_path: Path) -> None:
        path = tmp_path / "tf_config.json"
        path.write_text(TEXT, encoding="utf-8")
        config, said = run_config_to_explain(str(path))
        assert (config.task_type, config.is_chief, said) == ("chief", True, str(path))

    def test_a_run_config_files_arguments_with_the_tf_config(self, tmp_path: Path) -> None:
        tf_config, run_config = tmp_path / "tf_config.json", tmp_path / "run_config.yaml"
        tf_config.write_text(TEXT, encoding="utf-8")
        run_config.write_text("save_checkpoints_steps: 10\n", encoding="utf-8")
        config, said = run_config_to_explain(str(tf_config), str(run_config))
        assert (config.save_checkpoints_steps, config.task_type, said) == (
            10,
            "chief",
            str(tf_config),
        )

    def test_the_tf_config_key_of_a_run_config_file(self, tmp_path: Path) -> None:
        run_config = tmp_path / "run_config.yaml"
        run_config.write_text(f"tf_config: {TEXT}\n", encoding="utf-8")
        config, said = run_config_to_explain(None, str(run_config))
        assert (config.task_type, said) == ("chief", f"{run_config} (tf_config)")
        with pytest.raises(InputError, match="has a tf_config key; drop it or --tf-config"):
            run_config_to_explain(str(run_config), str(run_config))

    def test_a_run_config_file_that_refuses_the_tf_config(self, tmp_path: Path) -> None:
        tf_config, run_config = tmp_path / "tf_config.json", tmp_path / "run_config.yaml"
        tf_config.write_text('{"model_dir": "/b"}', encoding="utf-8")
        run_config.write_text("model_dir: /a\n", encoding="utf-8")
        with pytest.raises(ConfigFileError) as raised:
            run_config_to_explain(str(tf_config), str(run_config))
        name = f"{run_config} with TF_CONFIG from {tf_config}"
        assert (raised.value.file, raised.value.kind) == (name, "run_config")
        assert [error.file for error in raised.value.errors] == [name]

    def test_none_is_local_mode(self) -> None:
        config, said = run_config_to_explain(None)
        assert (config.task_type, config.num_worker_replicas, said) == ("worker", 1, NOT_SET)


class TestTFConfigToExplain:
    def test_the_tf_config_alone_without_a_readers_rules(self, tmp_path: Path) -> None:
        path = tmp_path / "tf_config.json"
        path.write_text('{"cluster": {"worker": ["w:1"]}, "task": {"type": "worker"}}')
        tf_config, said = tf_config_to_explain(str(path), profile="ps")
        assert (tf_config.task.type if tf_config.task else None, said) == ("worker", str(path))

    def test_none_is_an_empty_tf_config(self) -> None:
        assert tf_config_to_explain(None) == (TFConfig(), NOT_SET)

    def test_the_server_reads_the_index_as_written_unless_every_reader_is_shown(
        self, tmp_path: Path
    ) -> None:
        path = tmp_path / "tf_config.json"
        path.write_text(
            '{"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": "0"}}'
        )
        with pytest.raises(ConfigFileError):
            tf_config_to_explain(str(path), profile="server")
        assert tf_config_to_explain(str(path), profile="server", readers=True)[0].task is not None


def test_a_tf_config_source_is_a_value() -> None:
    """A TF_CONFIG found refuses assignment and hashes by its fields."""
    is_a_value(lambda: TFConfigSource("stdin", "<stdin>", '{"task": {}}', format="json"))


@pytest.mark.parametrize(
    ("read", "code"),
    [(run_config_to_explain, "tf_config_empty"), (tf_config_to_explain, "empty")],
)
def test_empty_standard_input(
    monkeypatch: pytest.MonkeyPatch, read: Callable[..., object], code: str
) -> None:
    """Empty input is an empty TF_CONFIG for the estimator's RunConfig, an empty file for a reader.

    The estimator reads it as ``TF_CONFIG`` set to nothing; another reader's
    ``explain`` reads it as the file it was given.
    """
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(ConfigFileError) as raised:
        read("-")
    assert [error.code for error in raised.value.errors] == [code]
