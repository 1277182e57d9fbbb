"""Running the ``estconf`` command in process, as the console script runs it."""

from __future__ import annotations

import pytest

from estconf.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit status, standard output and standard error of ``estconf ARGV``.

    argparse ends ``--help``, ``--version`` and usage errors with
    ``SystemExit``; its code is the status the console script exits with.
    """
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err
