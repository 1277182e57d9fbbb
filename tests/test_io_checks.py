"""estconf.io.checks: the limits of reading, the same on every path."""

from __future__ import annotations

from estconf.io.checks import Limits, check_values
from values import is_a_value


class TestLimits:
    def test_a_document_as_written_holds_one_value_per_16_bytes_and_at_least_10000(self) -> None:
        limits = Limits()
        assert limits.written_values_for(0) == 10_000
        assert limits.written_values_for(160_015) == 10_000
        assert limits.written_values_for(320_000) == 20_000
        assert limits.written_values_for(320_015) == 20_000
        assert limits.written_values_for(320_016) == 20_001
        assert Limits(max_values=5).written_values_for(320_000) == 5

    def test_a_document_expands_to_as_many_values_as_its_characters_and_at_least_100000(
        self,
    ) -> None:
        assert Limits().values_for(10) == 100_000
        assert Limits().values_for(250_000) == 250_000
        assert Limits(max_values=7).values_for(250_000) == 7


class TestCheckValues:
    def test_a_document_of_exactly_max_values_values_is_let_through(self) -> None:
        """An object counts as one value and each of its entries as one more."""
        data = {"task": {"type": "worker", "index": 0}}
        assert check_values("tf.json", data, max_values=5) == []
        (error,) = check_values("tf.json", data, max_values=4)
        assert error.code == "too_many_values"
        assert "more than 4 values" in error.message

    def test_a_key_with_a_lone_surrogate_is_said_to_be_a_key(self) -> None:
        (error,) = check_values("tf.json", {"task": {"ty\ud800pe": "worker"}})
        assert (error.code, error.loc) == ("encoding", ("task",))
        assert error.message == (
            "a key holds \\ud800, half of a UTF-16 surrogate pair, which is not a character"
        )


def test_limits_are_a_value() -> None:
    """Limits refuse assignment and hash by their fields."""
    is_a_value(lambda: Limits(max_size=1000, max_depth=10))


def test_the_limits_of_the_options_are_those_given_and_the_defaults() -> None:
    import argparse

    from estconf.io.checks import limits_of

    limits = limits_of(argparse.Namespace(max_size=10, max_depth=None, max_documents=3))
    assert (limits.max_size, limits.max_depth, limits.max_values, limits.max_documents) == (
        10,
        64,
        None,
        3,
    )
