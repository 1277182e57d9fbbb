"""estconf._arguments: the types of command-line options, and the usage error."""

from __future__ import annotations

import argparse

import pytest

from estconf._arguments import UsageError, number_argument, task_argument, text_argument


def test_a_usage_error_may_carry_its_fix() -> None:
    error = UsageError("--slurm needs --nodelist", hint="give --nodelist HOSTLIST")
    assert (str(error), error.hint) == ("--slurm needs --nodelist", "give --nodelist HOSTLIST")
    assert UsageError("plain").hint is None


def test_a_task_is_its_type_and_index() -> None:
    assert task_argument("worker:3") == ("worker", 3)
    with pytest.raises(argparse.ArgumentTypeError, match="expected TYPE:INDEX"):
        task_argument("worker")


def test_a_number_is_refused_outside_its_bounds_before_it_is_converted() -> None:
    number = number_argument(1, 99)
    assert number("99") == 99
    for text in ("0", "100", "1" * 5000, "\u0661"):  # an Arabic-Indic one: a digit, not ASCII
        with pytest.raises(argparse.ArgumentTypeError, match="expected a number, from 1 to 99"):
            number(text)


def test_text_that_is_not_utf8_is_refused_with_its_byte() -> None:
    assert text_argument("ok") == "ok"
    with pytest.raises(argparse.ArgumentTypeError, match="byte 0xff at position 1"):
        text_argument("a\udcff")


def test_a_lone_surrogate_that_stands_for_no_byte_is_refused_with_its_bytes() -> None:
    """A high surrogate is no byte the system escaped: its three UTF-8 bytes are shown."""
    with pytest.raises(argparse.ArgumentTypeError) as raised:
        text_argument("\ud800x")
    assert str(raised.value) == (
        "'\\ud800x' is not UTF-8 text: byte 0xed at position 0 starts no UTF-8 character"
    )
