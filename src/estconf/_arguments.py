"""The types of command-line options: text, numbers, a task; and the usage error.

Each type refuses what the option cannot take with a message that quotes the
argument, cut and escaped so that any argument can be shown.  The commands and
the launchers' options (:mod:`estconf.launchers`) use them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["UsageError", "number_argument", "positive_int", "task_argument", "text_argument"]


class UsageError(Exception):
    """A usage error found after parsing: reported like argparse's, exit 2.

    Attributes:
        hint: how to fix it, written on a line of its own after the error.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def task_argument(text: str) -> tuple[str, int]:
    """``--task TYPE:INDEX`` read as ``(type, index)``."""
    text_argument(text)
    job, sep, index = text.rpartition(":")
    if not sep or not job or not index.isdigit():
        raise argparse.ArgumentTypeError(f"expected TYPE:INDEX, such as worker:0, not {text!r}")
    return job, int(index)


def number_argument(minimum: int, most: int | None = None) -> Callable[[str], int]:
    """An option's type: a number written in ASCII digits, ``minimum`` or more, ``most`` or less.

    A number of more digits than ``most`` has is refused before it is converted.
    """
    expected = f"{minimum} or more" if most is None else f"from {minimum} to {most}"

    def number(text: str) -> int:
        digits = text.isascii() and text.isdigit()
        too_long = most is not None and len(text.lstrip("0")) > len(str(most))
        if not digits or too_long or int(text) < minimum or (most is not None and int(text) > most):
            raise argparse.ArgumentTypeError(
                f"expected a number, {expected}, not {_shown_text(text)}"
            )
        return int(text)

    return number


def text_argument(text: str) -> str:
    """An option's type: UTF-8 text, which every message can show.

    The system hands Python the bytes of an argument that are not UTF-8 as
    lone surrogates; such text is refused here, with the byte and its place.
    """
    data = text.encode("utf-8", "surrogateescape" if _escaped_only(text) else "surrogatepass")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise argparse.ArgumentTypeError(
            f"{_shown_text(text)} is not UTF-8 text: byte 0x{data[exc.start]:02x} at position "
            f"{exc.start} starts no UTF-8 character"
        ) from None
    return text


def _escaped_only(text: str) -> bool:
    """Whether every lone surrogate of ``text`` stands for a byte (``surrogateescape``'s)."""
    return all(not 0xD800 <= ord(char) < 0xDC80 for char in text if 0xD800 <= ord(char) < 0xE000)


def _shown_text(text: str, most: int = 60) -> str:
    """``text`` quoted for a message, cut after ``most`` characters.

    Text that is not UTF-8 is shown as its bytes, escaped (a byte 0xff as a
    backslash, ``x`` and ``ff``), so that every message can be written
    whatever the input.
    """
    cut = text[:most]
    if _escaped_only(cut) and any(0xDC80 <= ord(char) < 0xDD00 for char in cut):
        shown = repr(cut.encode("utf-8", "surrogateescape"))[1:]
    else:
        shown = repr(cut) if cut.isprintable() else ascii(cut)  # a lone surrogate is not printable
    return shown + ("..." if len(text) > most else "")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value
