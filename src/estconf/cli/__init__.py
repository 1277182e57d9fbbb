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
- ``estconf convert tfjob-to-trainjob TFJOB``: write the Trainer v2
  TrainingRuntime and TrainJob (or a JobSet) that run a TFJob; exit 0 when
  written, 1 when the TFJob is refused, 2 on a usage error.

Only the standard library is imported before a command runs, so ``--help``
is quick, and a command imports only what it uses.  No input makes the
command print a traceback: problems with the input are reported as errors.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Protocol, cast

from estconf import __version__
from estconf._arguments import UsageError
from estconf.cli._common import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    KIND_NAMES,
    PROG,
    Parser,
)

__all__ = ["KIND_NAMES", "main"]


class _Command(Protocol):
    """A command's module: it adds its options to its parser and runs.

    ``register`` is given the command's own arguments too (``words``): a
    command whose options depend on its first word (``tf-config slurm``)
    adds only those.
    """

    def register(self, parser: argparse.ArgumentParser, words: Sequence[str]) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


# Each command, in the order --help lists them: its module and its line in that list.
# A command's module is imported only when the command runs or shows its own help.
_COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("estconf.cli._validate", "check config files"),
    "schema": ("estconf.cli._schema", "print or write the JSON Schemas"),
    "explain": ("estconf.cli._explain", "show what TensorFlow derives from a TF_CONFIG"),
    "tf-config": (
        "estconf.cli._tf_config",
        "write the TF_CONFIG of each task, as its launcher would",
    ),
    "check-cluster": (
        "estconf.cli._check_cluster",
        "check the TF_CONFIGs of every node of a job together",
    ),
    "convert": (
        "estconf.cli._convert",
        "convert a TFJob into a Trainer v2 TrainJob or a JobSet",
    ),
}


def _command(name: str) -> _Command:
    return cast(_Command, importlib.import_module(_COMMANDS[name][0]))


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
  estconf convert tfjob-to-trainjob tfjob.yaml > trainjob.yaml

Run 'estconf COMMAND --help' for the options of a command."""


def _parser(command: str | None = None, words: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``estconf`` parser, with the options of ``command`` alone (or of no command).

    ``words`` are the arguments after the command's name.

    Without ``command``, each command's parser is argparse's own, without
    options, which keeps the arguments it does not know: enough to tell which
    command was asked for, and to list every command in --help.
    """
    parser = Parser(prog=PROG, description=_DESCRIPTION, epilog=_EPILOG, formatter_class=FORMATTER)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        required=True,
        parser_class=argparse.ArgumentParser if command is None else Parser,
    )
    for name, (_, help_line) in _COMMANDS.items():
        own = name == command
        sub = commands.add_parser(name, help=help_line, formatter_class=FORMATTER, add_help=own)
        if own:
            _command(name).register(sub, words)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``estconf`` command with ``argv`` (``sys.argv[1:]``); return the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # a file name that is not UTF-8 must not make printing it fail
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    asked, _ = _parser().parse_known_args(argv)
    given = list(sys.argv[1:] if argv is None else argv)
    words = tuple(given[given.index(asked.command) + 1 :])
    parser = _parser(asked.command, words)
    args = parser.parse_args(argv)
    # pydantic's plugins are for instrumenting applications; finding them costs start-up time
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        return _command(args.command).run(args)
    except UsageError as exc:
        hint = "" if exc.hint is None else f"hint: {exc.hint}\n"
        parser.exit(EXIT_USAGE, f"{PROG} {args.command}: error: {exc}\n{hint}")
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
