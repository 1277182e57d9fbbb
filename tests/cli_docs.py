"""The ``estconf`` commands shown in the docs, run to check (or rewrite) their output.

A ```` ```console ```` block of README.md or of a page under docs/ holds commands, each
on a line starting with ``$ ``, followed by the output it prints (stdout and
stderr together).  ``VAR=value`` words before ``estconf`` set environment
variables for that command; ``TF_CONFIG`` is otherwise unset.  The commands
run in-process from the repository root, with an 80-column terminal.

``python tests/cli_docs.py --update`` (``make docs-examples``) writes each command's
real output into the documents.

The help and usage texts are laid out by argparse, as it did before Python
3.13; from 3.13 on it names an option's value once (``-o, --output DIR`` for
``-o DIR, --output DIR``) and breaks usage lines elsewhere, so there an
output is compared with the document word for word (:func:`words`).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```console\n(.*?)^```$", re.DOTALL | re.MULTILINE)
PROMPT = "$ "
LAID_OUT_AS_DOCUMENTED = sys.version_info < (3, 13)
"""Whether this Python's argparse lays out help and usage as the documents show them."""


class Example(NamedTuple):
    """A documented command and the output the document shows for it."""

    document: Path
    command: str
    output: str


def _split(block: str) -> list[tuple[str, str]]:
    examples: list[tuple[str, str]] = []
    for line in block.splitlines(keepends=True):
        if line.startswith(PROMPT):
            examples.append((line[len(PROMPT) :].rstrip("\n"), ""))
        elif examples:
            command, output = examples[-1]
            examples[-1] = (command, output + line)
    return examples


def examples(document: Path) -> list[Example]:
    """Every command shown in ``document``, with its documented output."""
    text = document.read_text(encoding="utf-8")
    return [
        Example(document, command, output)
        for block in BLOCK.finditer(text)
        for command, output in _split(block[1])
    ]


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    keys = {"TF_CONFIG", "COLUMNS", *values}
    saved = {key: os.environ.get(key) for key in keys}
    os.environ.pop("TF_CONFIG", None)
    os.environ["COLUMNS"] = "80"
    os.environ.update(values)
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(cwd)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run(command: str) -> str:
    """Run a documented ``estconf`` command in-process; return what it prints."""
    from estconf.cli import main

    words = shlex.split(command)
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    if not words or words[0] != "estconf":
        raise ValueError(f"not an estconf command: {command!r}")
    buffer = io.StringIO()
    with (
        _environment(env),
        contextlib.redirect_stdout(buffer),
        contextlib.redirect_stderr(buffer),
        contextlib.suppress(SystemExit),
    ):  # argparse exits on --help and usage errors
        main(words[1:])
    return buffer.getvalue()


def words(output: str) -> list[str]:
    """The words of an output, each option's value named once, as argparse does from 3.13 on."""
    return re.sub(r"(?<!\S)(-\w) (\S+), (--[\w-]+) \2(?!\S)", r"\1, \3 \2", output).split()


def update(document: Path) -> bool:
    """Write the real output of each command into ``document``; return whether it changed."""
    text = document.read_text(encoding="utf-8")

    def render(block: re.Match[str]) -> str:
        body = "".join(f"{PROMPT}{command}\n{run(command)}" for command, _ in _split(block[1]))
        return f"```console\n{body}```"

    new = BLOCK.sub(render, text)
    if new != text:
        document.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/cli_docs.py --update")
    if not LAID_OUT_AS_DOCUMENTED:
        sys.exit("the documents show help as argparse lays it out before Python 3.13: use 3.12")
    for path in DOCUMENTS:
        if update(path):
            print(f"updated {path.relative_to(ROOT)}")
