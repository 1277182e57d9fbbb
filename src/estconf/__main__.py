"""The ``estconf`` program: the console script and ``python -m estconf``.

:func:`estconf.cli.main` is the command; :func:`run` is the process around it.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import NoReturn

from estconf.cli import main
from estconf.cli._common import EXIT_INTERNAL, PROG

YOUNG_OBJECTS_BEFORE_COLLECTING = 100_000
"""How many new objects the cyclic garbage collector lets pass before it runs.

Python's default, 700, suits a long-running program. A command's start-up
makes hundreds of thousands of objects that live until it ends (modules,
models, their validators) and almost no garbage, so at 700 the collector
runs scores of times and frees next to nothing. At this threshold it still
runs, so memory stays bounded on a long run over many files.
"""


def _status(exited: SystemExit) -> int:
    """The exit status ``sys.exit(code)`` would give, printing a message code as Python does."""
    if exited.code is None:
        return 0
    if isinstance(exited.code, int):
        return exited.code
    print(exited.code, file=sys.stderr)
    return 1


def _flushed(status: int) -> int:
    """Write out what is left in the standard streams; return the status to exit with.

    A reader that went away (``| head``) is no error: the command's status
    stands. Any other failure to write is reported.
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    except OSError as exc:
        print(f"{PROG}: error: cannot write the output: {exc}", file=sys.stderr)
        status = EXIT_INTERNAL
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    return status


def run() -> NoReturn:
    """Run the ``estconf`` command on ``sys.argv``, then end the process with its status.

    The command is a short-lived process, and runs as one: the garbage
    collector waits for :data:`YOUNG_OBJECTS_BEFORE_COLLECTING` new objects,
    and once the output is written the process ends at once (``os._exit``),
    without freeing its objects one by one, which takes longer than checking
    a small file. Nothing the command opens is left to be closed at exit.
    """
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTING, *gc.get_threshold()[1:])
    try:
        status = main()
    except SystemExit as exited:
        status = _status(exited)
    os._exit(_flushed(status))


if __name__ == "__main__":
    run()
