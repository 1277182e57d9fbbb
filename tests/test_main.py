"""estconf.__main__: the ``estconf`` program, the process around the command.

The console script and ``python -m estconf`` run :func:`estconf.__main__.run`,
which ends the process itself; the tests in process stand a recorder in for
``os._exit``.
"""

from __future__ import annotations

import gc
import io
import os
import runpy
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import estconf
import estconf.__main__ as program
from estconf.cli import main

ROOT = Path(__file__).resolve().parents[1]
INVALID = ROOT / "tests/data/invalid/duplicate_keys.json"
ESTCONF = Path(sys.executable).with_name("estconf")


class Exited(Exception):
    """Raised where the process would have ended, with its status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _exit(status: int) -> None:
    raise Exited(status)


@pytest.fixture(autouse=True)
def _exit_recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``os._exit`` raises :class:`Exited`, and the collector's thresholds are put back."""
    monkeypatch.setattr(os, "_exit", _exit)
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)


def run_program(monkeypatch: pytest.MonkeyPatch, *argv: str) -> int:
    monkeypatch.setattr(sys, "argv", ["estconf", *argv])
    with pytest.raises(Exited) as exited:
        program.run()
    return exited.value.status


class TestRun:
    def test_the_status_is_the_commands(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run_program(monkeypatch, "validate", str(INVALID)) == 1
        assert capsys.readouterr().out.endswith("2 errors in 1 of 1 file\n")

    def test_an_exit_of_argparse_is_its_status(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run_program(monkeypatch, "--version") == 0
        assert capsys.readouterr().out.startswith("estconf ")
        assert run_program(monkeypatch, "validate") == 2
        assert "the following arguments are required: FILE" in capsys.readouterr().err

    @pytest.mark.parametrize(
        ("code", "status", "err"), [(None, 0, ""), (4, 4, ""), ("stopped", 1, "stopped\n")]
    )
    def test_an_exit_is_ended_as_python_ends_it(
        self,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        code: str | int | None,
        status: int,
        err: str,
    ) -> None:
        def exits() -> int:
            raise SystemExit(code)

        monkeypatch.setattr(program, "main", exits)
        assert run_program(monkeypatch) == status
        assert capsys.readouterr().err == err

    def test_the_collector_waits_for_many_new_objects(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        gc.set_threshold(700, 11, 12)
        run_program(monkeypatch, "--version")
        assert gc.get_threshold() == (program.YOUNG_OBJECTS_BEFORE_COLLECTING, 11, 12)
        assert program.YOUNG_OBJECTS_BEFORE_COLLECTING == 100_000


class _Unwritable(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def flush(self) -> None:
        raise self.error


class TestOutputLeftInTheBuffer:
    def test_is_written_before_the_end(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        flushed: list[str] = []
        monkeypatch.setattr(program, "main", lambda: 0)
        monkeypatch.setattr(sys.stdout, "flush", lambda: flushed.append("out"))
        monkeypatch.setattr(sys.stderr, "flush", lambda: flushed.append("err"))
        run_program(monkeypatch)
        assert flushed == ["out", "err"]

    @pytest.mark.parametrize(
        ("error", "status", "err"),
        [
            # a reader gone away (``| head``) leaves the command's status, and says nothing
            (BrokenPipeError(32, "Broken pipe"), 1, ""),
            (
                OSError(28, "No space left on device"),
                3,
                "estconf: error: cannot write the output: [Errno 28] No space left on device\n",
            ),
        ],
    )
    def test_a_failure_to_write_it(
        self,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        error: OSError,
        status: int,
        err: str,
    ) -> None:
        monkeypatch.setattr(program, "main", lambda: 1)
        monkeypatch.setattr(sys, "stdout", _Unwritable(error))
        assert run_program(monkeypatch) == status
        assert capsys.readouterr().err == err

    def test_standard_error_that_cannot_be_written_is_let_be(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(program, "main", lambda: 1)
        monkeypatch.setattr(sys, "stderr", _Unwritable(OSError(5, "Input/output error")))
        assert run_program(monkeypatch) == 1


def test_python_m_estconf_runs_the_program(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["estconf", "validate", str(INVALID)])
    # as in a fresh process: a test that imported the module warns runpy
    monkeypatch.delitem(sys.modules, "estconf.__main__", raising=False)
    with pytest.raises(Exited) as exited:
        runpy.run_module("estconf", run_name="__main__")
    assert exited.value.status == 1
    assert capsys.readouterr().out.endswith("2 errors in 1 of 1 file\n")


class TestTheProcess:
    """The installed console script, in a subprocess."""

    def test_ends_without_tearing_down(self) -> None:
        script = (
            "import atexit, sys; atexit.register(print, 'torn down');"
            "sys.argv = ['estconf', '--version']; from estconf.__main__ import run; run()"
        )
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=False
        )
        assert (done.returncode, done.stdout, done.stderr) == (
            0,
            f"estconf {estconf.__version__}\n",
            "",
        )

    def test_writes_all_its_output(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["schema", "run_config"]) == 0
        expected = capsys.readouterr().out
        done = subprocess.run(
            [ESTCONF, "schema", "run_config"], capture_output=True, text=True, check=False
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")

    def test_its_status_is_the_commands(self) -> None:
        done = subprocess.run(
            [ESTCONF, "validate", str(INVALID)], capture_output=True, text=True, check=False
        )
        assert done.returncode == 1
        assert done.stdout.endswith("2 errors in 1 of 1 file\n")
