"""estconf.io.checks: the limits of reading, the same on every path."""

from __future__ import annotations

from estconf.io.checks import Limits


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
