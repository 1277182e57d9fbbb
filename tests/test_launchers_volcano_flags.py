"""launchers.volcano.flags: the tensorflow plugin's arguments, as Go's ``flag`` reads them.

The cases are those of Go's ``flag.FlagSet.Parse`` (``flag/flag.go``, ``parseOne``)
and ``strconv.ParseInt(s, 0, 64)`` (``strconv/atoi.go``), which Volcano v1.15.1's
plugin calls with ``flag.ContinueOnError``: an error stops the parse, and the
plugin only logs it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf.launchers.volcano.flags import DEFAULT_PORT, JOBS, Flags, Stop, parse_flags, parse_int
from values import refuses_assignment

DEFAULTS = {job: job for job in JOBS}


class TestTheFlags:
    def test_no_argument_is_every_default(self) -> None:
        flags = parse_flags([])
        assert (flags.names, flags.port, flags.stop, flags.given) == (DEFAULTS, 2222, None, {})

    def test_what_was_read_cannot_be_changed(self) -> None:
        refuses_assignment(parse_flags(["--worker=trainer"]))
        refuses_assignment(Stop(0, None))

    def test_volcanos_own_test_flags(self) -> None:
        """The flags of Volcano's end-to-end test of the plugin."""
        flags = parse_flags(["--ps=ps", "--worker=worker", "--port=2222"])
        assert (flags.names, flags.port, flags.stop) == (DEFAULTS, 2222, None)

    @pytest.mark.parametrize(
        "arguments",
        [
            ["--worker=trainer"],
            ["-worker=trainer"],
            ["--worker", "trainer"],
            ["-worker", "trainer"],
        ],
    )
    def test_a_flag_has_one_or_two_dashes_and_its_value_after_equals_or_next(
        self, arguments: list[str]
    ) -> None:
        assert parse_flags(arguments).names["worker"] == "trainer"

    def test_a_flag_given_twice_takes_its_last_value(self) -> None:
        flags = parse_flags(["--port=2222", "--chief=a", "--port=5000"])
        assert (flags.port, flags.given) == (5000, {"port": [0, 2], "chief": [1]})

    def test_a_value_may_be_empty_or_hold_equals(self) -> None:
        assert parse_flags(["--ps="]).names["ps"] == ""
        assert parse_flags(["--ps=a=b"]).names["ps"] == "a=b"

    def test_the_next_argument_is_a_value_even_when_it_looks_like_a_flag(self) -> None:
        flags = parse_flags(["--ps", "--worker=w"])
        assert (flags.names["ps"], flags.names["worker"], flags.stop) == (
            "--worker=w",
            "worker",
            None,
        )


class TestWhereTheParserStops:
    @pytest.mark.parametrize(
        ("arguments", "stop"),
        [
            (["ps=server", "--worker=w"], Stop(0, None)),
            (["--worker=w", "-", "--ps=p"], Stop(1, None)),
            (["--worker=w", "--", "--ps=p"], Stop(1, None, unread=2)),
            (["--ps master"], Stop(0, "flag provided but not defined: -ps master", "ps master")),
            (["--master=m", "--ps=p"], Stop(0, "flag provided but not defined: -master", "master")),
            (["---ps=p"], Stop(0, "bad flag syntax: ---ps=p")),
            (["-=p"], Stop(0, "bad flag syntax: -=p")),
            (["--help", "--ps=p"], Stop(0, "flag: help requested", "help")),
            (["-h"], Stop(0, "flag: help requested", "h")),
            (["--worker=w", "--ps"], Stop(1, "flag needs an argument: -ps", "ps")),
            (["--port=abc"], Stop(0, 'invalid value "abc" for flag -port: parse error', "port")),
            (
                ["--port", "abc", "--ps=p"],
                Stop(0, 'invalid value "abc" for flag -port: parse error', "port", unread=2),
            ),
        ],
    )
    def test_it_stops_at_what_is_no_flag_or_a_flag_it_refuses(
        self, arguments: list[str], stop: Stop
    ) -> None:
        assert parse_flags(arguments).stop == stop

    def test_what_comes_before_the_stop_is_kept_and_after_it_never_read(self) -> None:
        flags = parse_flags(["--worker=trainer", "--master=m", "--ps=server"])
        assert flags.names == {**DEFAULTS, "worker": "trainer"}

    def test_a_double_dash_at_the_end_leaves_nothing_unread(self) -> None:
        assert parse_flags(["--worker=w", "--"]).stop is None

    def test_a_port_refused_is_still_what_go_parsed(self) -> None:
        assert parse_flags(["--port=abc", "--ps=p"]).port == 0
        assert parse_flags(["--port=99999999999999999999"]).port == 2**63 - 1
        assert parse_flags(["--port"]).port == DEFAULT_PORT  # no value: never set


class TestTheTaskOfEachJob:
    def test_a_task_is_listed_under_the_first_job_whose_flag_names_it(self) -> None:
        flags = parse_flags(["--ps=worker"])
        assert flags.listed_as("worker") == "ps"
        assert flags.task_type("worker") == "worker"  # typed in another order

    def test_a_task_no_flag_names_keeps_its_name_as_its_type(self) -> None:
        flags = Flags()
        assert (flags.listed_as("master"), flags.task_type("master")) == (None, "master")


class TestParseInt:
    @pytest.mark.parametrize(
        ("text", "parsed"),
        [
            ("2222", (2222, None)),
            ("+2222", (2222, None)),
            ("-1", (-1, None)),
            ("0x8ae", (2222, None)),
            ("0X8AE", (2222, None)),
            ("0o4256", (2222, None)),
            ("04256", (2222, None)),
            ("0b100010101110", (2222, None)),
            ("2_222", (2222, None)),
            ("0x_8ae", (2222, None)),
            ("0", (0, None)),
            ("", (0, "parse error")),
            ("+", (0, "parse error")),
            ("08", (0, "parse error")),
            ("0x", (0, "parse error")),
            ("2__222", (0, "parse error")),
            ("_2222", (0, "parse error")),
            ("2222_", (0, "parse error")),
            (" 2222", (0, "parse error")),
            ("2222.0", (0, "parse error")),
            ("٢٢", (0, "parse error")),  # Arabic-Indic digits: not Go's
            ("9223372036854775807", (2**63 - 1, None)),
            ("9223372036854775808", (2**63 - 1, "value out of range")),
            ("-9223372036854775808", (-(2**63), None)),
            ("-9223372036854775809", (-(2**63), "value out of range")),
            ("99999999999999999999x", (2**63 - 1, "value out of range")),
        ],
    )
    def test_it_is_gos_parse_int_of_base_zero(
        self, text: str, parsed: tuple[int, str | None]
    ) -> None:
        assert parse_int(text) == parsed

    @given(st.integers(-(2**63), 2**63 - 1))
    def test_a_decimal_integer_reads_as_itself(self, number: int) -> None:
        assert parse_int(str(number)) == (number, None)

    @given(st.integers(0, 2**63 - 1))
    def test_every_base_prefix_reads_the_same_number(self, number: int) -> None:
        for text in (hex(number), oct(number), bin(number)):
            assert parse_int(text) == (number, None)


ARGUMENT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["--", "-", "--ps", "--port", "-h", "--port=0x10", "--worker=w", "ps=p"]),
)


@given(st.lists(ARGUMENT, max_size=8))
def test_any_arguments_are_read_or_stopped_at_never_refused(arguments: list[str]) -> None:
    """Volcano never refuses its arguments: each is read, or the parser stops at one."""
    flags = parse_flags(arguments)
    assert set(flags.names) == set(JOBS)
    stop = flags.stop
    if stop is not None:
        assert stop.unread is not None
        assert 0 <= stop.position <= stop.unread <= len(arguments)
    read = [position for positions in flags.given.values() for position in positions]
    assert all(stop is None or position <= stop.position for position in read)
