"""Every command on hostile input: a clear refusal (exit 1 or 2), no traceback, in bounded time.

Each file of ``tests/data/hostile/`` goes through every command that reads a
file (``validate``, ``explain --tf-config``, ``check-cluster``, ``tf-config
--tfjob``), in process, as the console script runs them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from estconf.cli import main

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = sorted(path for path in (ROOT / "tests" / "data" / "hostile").iterdir() if path.is_file())
COMMANDS = {
    "validate": ["validate"],
    "explain": ["explain", "--tf-config"],
    "check-cluster": ["check-cluster"],
    "tf-config": ["tf-config", "--tfjob"],
}
SECONDS = 2.0


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TF_CONFIG", raising=False)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("path", HOSTILE, ids=lambda path: path.name)
def test_hostile_input_is_refused_clearly(
    capsys: pytest.CaptureFixture[str], path: Path, command: str
) -> None:
    name = str(path.relative_to(ROOT))
    start = time.perf_counter()
    try:
        status = main([*COMMANDS[command], name])
    except SystemExit as exc:  # pragma: no cover - a usage error would say what it is
        status = exc.code if isinstance(exc.code, int) else 1
    seconds = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert status in (1, 2), out + err
    assert "internal error" not in err
    assert "Traceback" not in out + err
    assert f"{name}:" in out + err  # the message names the file
    assert seconds < SECONDS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # a usage error
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


class TestEmptyDocuments:
    """A stream's empty documents (a stream ending in ``---``, a part a template switched off)
    are passed over by every command, as kubectl passes them over."""

    def test_check_cluster(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "check-cluster", "tests/data/kubernetes/helm_rendered.yaml")
        assert (status, out) == (0, "2 nodes, 1 cluster: valid\n")

    def test_validate(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys,
            "validate",
            "--profile",
            "mwms",
            "tests/data/kubeflow/trailing_separator.yaml",
            "tests/data/kubernetes/helm_rendered.yaml",
            "tests/data/valid/tf_config_trailing_separator.yaml",
        )
        assert (status, out) == (0, "3 files valid\n")

    def test_explain(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/valid/tf_config_trailing_separator.yaml"
        status, out, _ = run(capsys, "explain", "--tf-config", path)
        assert status == 0
        assert "worker-0:2222" in out

    def test_tf_config_tfjob(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/kubeflow/trailing_separator.yaml"
        status, out, _ = run(capsys, "tf-config", "--tfjob", path)
        assert status == 0
        assert [line[-40:] for line in out.splitlines()] == [
            '"task":{"type":"worker","index":0},"environment":"cloud"}'[-40:],
            '"task":{"type":"worker","index":1},"environment":"cloud"}'[-40:],
        ]


def test_project_settings_nested_too_deep(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A ``pyproject.toml`` nested deeper than TOML's parser can read is a usage error."""
    source = ROOT / "tests" / "data" / "hostile" / "pyproject_nested_3000.toml"
    (tmp_path / "pyproject.toml").write_bytes(source.read_bytes())
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "validate", str(ROOT / "examples" / "tf_config_worker.json"))
    assert (status, out) == (2, "")
    assert err.endswith("pyproject.toml: cannot be read: the document is nested too deep to read\n")
