"""estconf.io._toml_values: the values a TOML text holds as written, counted before parsing."""

from __future__ import annotations

import pytest

from estconf.io._toml_values import first_over


class TestValues:
    def test_each_key_value_item_array_and_table_counts_one(self) -> None:
        # "=", "[", "," and "," are four values: the fourth is over a limit of three
        assert first_over("a = [1,1,1]", 3, 64) == ("values", 8)
        assert first_over("a = [1,1,1]", 4, 64) is None

    @pytest.mark.parametrize(
        "text",
        ['a = "x,y,z" # ,,,\n', "a = 'x,[{'\n", "a = '''x,\n,'''\n", 'a = """{,\n="""\n'],
    )
    def test_separators_in_strings_and_comments_are_not_values(self, text: str) -> None:
        assert first_over(text, 1, 64) is None

    def test_values_after_a_string_are_counted(self) -> None:
        assert first_over('a = "x"\nb = 1\nc = 2\n', 2, 64) == ("values", 16)
        assert first_over("a = '''x,\n,'''\nb = 1\nc = 2\n", 2, 64) == ("values", 23)


class TestDepth:
    def test_nesting_deeper_than_the_limit_is_found_where_it_goes_deeper(self) -> None:
        assert first_over("a = [[[1]]]", 3, 2) == ("depth", 6)
        assert first_over("a = [[[1]]]", 3, 3) == ("values", 6)
        assert first_over("a = [[[1]]]", 4, 3) is None

    def test_a_closing_bracket_ends_a_level(self) -> None:
        # at most two levels at a time: the count, not the depth, goes over
        assert first_over("a = [[1], [2], [3]]", 5, 2) == ("values", 13)
