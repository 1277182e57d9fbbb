"""``python -m estconf``: the ``estconf`` command, its exit status the process's."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

INVALID = Path(__file__).parent / "data/invalid/duplicate_keys.json"


def test_python_m_estconf_runs_the_command_and_exits_with_its_status(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["estconf", "validate", str(INVALID)])
    # as in a fresh process: a test that imported the module (the doctests) warns runpy
    monkeypatch.delitem(sys.modules, "estconf.__main__", raising=False)
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("estconf", run_name="__main__")
    assert exited.value.code == 1
    assert capsys.readouterr().out.endswith("2 errors in 1 of 1 file\n")
