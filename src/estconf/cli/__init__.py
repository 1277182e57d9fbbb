"""The ``estconf`` command: validate config files, export schemas, explain a TF_CONFIG.

Commands:

- ``estconf validate FILE...``: check config files; exit 0 when all are
  valid, 1 when any is not, 2 on a usage error.
- ``estconf schema [KIND] [-o DIR]``: print or write the JSON Schemas.
- ``estconf explain``: show what TensorFlow derives from a TF_CONFIG and a
  RunConfig file (task, master, chief, replicas, device filters, ...).
- ``estconf tf-config CLUSTER_FILE``: write the TF_CONFIG of each task of a
  cluster, as JSON lines, shell ``export`` lines or a Kubernetes ``env`` list.
- ``estconf check-cluster INPUT...``: check the TF_CONFIGs of every node of
  a job together (clusters that differ, tasks claimed twice or by no node,
  ...); exit 0 when valid, 1 on findings, 2 on a usage error or an input
  that cannot be read.

Only the standard library is imported before a command runs, so ``--help``
is quick, and a command imports only what it uses.  No input makes the
command print a traceback: problems with the input are reported as errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from estconf import __version__
from estconf.cli import _check_cluster, _explain, _schema, _tf_config, _validate
from estconf.cli._common import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    KIND_NAMES,
    PROG,
    Parser,
    UsageError,
)

__all__ = ["KIND_NAMES", "main"]

# Each command is a module with NAME, register(subparsers) and run(args) -> exit status.
_REGISTER: tuple[Callable[[Any], None], ...] = (
    _validate.register,
    _schema.register,
    _explain.register,
    _tf_config.register,
    _check_cluster.register,
)
_RUN: dict[str, Callable[[argparse.Namespace], int]] = {
    _validate.NAME: _validate.run,
    _schema.NAME: _schema.run,
    _explain.NAME: _explain.run,
    _tf_config.NAME: _tf_config.run,
    _check_cluster.NAME: _check_cluster.run,
}

_DESCRIPTION = """\
Validate TensorFlow run configuration -- TF_CONFIG, RunConfig, TPUConfig, and
Kubeflow TFJob manifests -- in JSON, TOML or YAML files, as the Estimator or
tf.distribute reads it; check the TF_CONFIGs of a whole job together; export
JSON Schema for editors; and show what TensorFlow derives from a TF_CONFIG,
without TensorFlow installed."""

_EPILOG = """\
examples:
  estconf validate configs/*.yaml
  estconf validate --format github tf_config.json
  estconf schema -o schemas/
  estconf explain --tf-config tf_config.json --config run_config.yaml
  estconf tf-config cluster.json --format shell
  estconf check-cluster nodes/

Run 'estconf COMMAND --help' for the options of a command."""


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description=_DESCRIPTION, epilog=_EPILOG, formatter_class=FORMATTER)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in _REGISTER:
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``estconf`` command with ``argv`` (``sys.argv[1:]``); return the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # a file name that is not UTF-8 must not make printing it fail
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    parser = _parser()
    args = parser.parse_args(argv)
    # pydantic's plugins are for instrumenting applications; finding them costs start-up time
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        return _RUN[args.command](args)
    except UsageError as exc:
        parser.exit(EXIT_USAGE, f"{PROG} {args.command}: error: {exc}\n")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, and keep Python from complaining
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except MemoryError:
        print(f"{PROG}: error: out of memory", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as exc:  # a bug in estconf: one line, not a traceback
        print(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            f"(please report it; set ESTCONF_TRACEBACK=1 for details)",
            file=sys.stderr,
        )
        if os.environ.get("ESTCONF_TRACEBACK"):
            raise
        return EXIT_INTERNAL
