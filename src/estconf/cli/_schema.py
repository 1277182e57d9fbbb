"""``estconf schema``: print or write the JSON Schema of each kind of file."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from estconf._arguments import UsageError
from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    KIND_NAMES,
    PROG,
    out,
)

NAME = "schema"

_SCHEMA_EPILOG = """\
examples:
  estconf schema run_config > run_config.schema.json
  estconf schema -o schemas/     # writes <kind>.schema.json for every kind"""


def register(schema: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """Describe the command and add its options to its parser, ``schema``."""
    schema.description = (
        "Print the JSON Schema (draft 2020-12) of a kind of config file, "
        "or write every kind's schema to a directory."
    )
    schema.epilog = _SCHEMA_EPILOG
    schema.add_argument(
        "kind",
        nargs="?",
        choices=KIND_NAMES,
        metavar="KIND",
        help=f"one of {', '.join(KIND_NAMES)}; all with -o",
    )
    schema.add_argument(
        "-o", "--output", metavar="DIR", help="write <kind>.schema.json files to DIR"
    )


def run(args: argparse.Namespace) -> int:
    """Print one schema, or write every kind's schema to a directory."""
    from estconf import schema

    if args.output is None:
        if args.kind is None:
            raise UsageError("give a KIND to print, or -o DIR to write every kind")
        out(schema.dumps(schema.json_schema(args.kind)))
        return EXIT_OK
    kinds = [args.kind] if args.kind else list(schema.KINDS)
    try:
        os.makedirs(args.output, exist_ok=True)
        for kind in kinds:
            path = os.path.join(args.output, f"{kind}.schema.json")
            with open(path, "w", encoding="utf-8") as file:
                file.write(schema.dumps(schema.json_schema(kind)))
            print(path)
    except OSError as exc:
        print(
            f"{PROG} schema: error: cannot write {args.output}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return EXIT_INVALID
    return EXIT_OK
