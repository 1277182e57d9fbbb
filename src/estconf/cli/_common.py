"""What the commands of ``estconf`` share: exit codes, limits, reading input, errors."""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, TextIO

from estconf._arguments import (
    positive_int,
)
from estconf.io import kinds
from estconf.profiles import registry as profile_registry

if TYPE_CHECKING:
    from estconf.io.errors import Result

PROG = "estconf"

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

KIND_NAMES = tuple(kinds.KINDS)
INPUT_FORMATS = ("json", "toml", "yaml")
PROFILES = profile_registry.NAMES
"""The readers of TF_CONFIG that ``--profile`` names: :class:`estconf.profiles.Profile`."""


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that wraps prose paragraphs to the terminal and keeps indented lines (examples)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        blocks = []
        for block in re.split(r"\n\s*\n", text):
            lines = block.splitlines()
            if any(line.startswith(" ") for line in lines):
                blocks.append("\n".join(indent + line for line in lines))
            else:
                blocks.append(
                    textwrap.fill(
                        " ".join(lines), width, initial_indent=indent, subsequent_indent=indent
                    )
                )
        return "\n\n".join(blocks)


FORMATTER = Formatter


class Parser(argparse.ArgumentParser):
    """A parser whose errors exit 2; a command answers an unknown option with its own usage."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse ``args``; a command (a parser without commands) refuses what it does not know."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self._subparsers is None:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def add_input_format(parser: argparse.ArgumentParser) -> None:
    """Add ``--input-format``: the format of standard input, and of a file whose name tells none."""
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="the format of standard input, given as - (default: json), and of a file "
        "whose name tells none, such as <(command)",
    )


def add_color(parser: argparse.ArgumentParser) -> None:
    """Add ``--color auto|always|never``."""
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="color the output: auto (default) on a terminal unless NO_COLOR is set",
    )


def use_color(choice: str, stream: TextIO | None = None) -> bool:
    """Whether to color output to ``stream`` (stdout) for ``--color choice``."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream or sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def add_limits(parser: argparse.ArgumentParser) -> None:
    """Add the limits of reading (the same for every input): size, depth, values, documents."""
    parser.add_argument(
        "--max-size",
        type=positive_int,
        metavar="BYTES",
        help="refuse files larger than this (default: 64 MiB)",
    )
    parser.add_argument(
        "--max-depth",
        type=positive_int,
        metavar="N",
        help="refuse objects and arrays nested deeper (default: 64)",
    )
    parser.add_argument(
        "--max-values",
        type=positive_int,
        metavar="N",
        help="refuse a document of more values: a YAML or TOML one as written (default: one "
        "per 16 bytes, at least 10000), a YAML one once its aliases are expanded (default: "
        "its size in bytes, at least 100000)",
    )
    parser.add_argument(
        "--max-documents",
        type=positive_int,
        metavar="N",
        help="refuse a YAML stream of more documents (default: 10000)",
    )


def out(text: str, stream: TextIO | None = None) -> None:
    (stream or sys.stdout).write(text)


class Invalid(Exception):
    """Input that is not valid: the results say why."""

    def __init__(self, results: list[Result]) -> None:
        super().__init__()
        self.results = results


def exit_status(results: list[Result], *, strict: bool) -> int:
    """2: an input cannot be read; 1: one has an error (``strict``: or a warning); else 0."""
    from estconf.inputs.checks import Report

    report = Report(tuple(results))
    if report.unreadable:
        return EXIT_USAGE
    return EXIT_INVALID if any(r.fails(strict=strict) for r in results) else EXIT_OK
