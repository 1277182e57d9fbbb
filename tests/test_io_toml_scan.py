"""estconf.io._toml_scan: where each value of a TOML document is."""

from __future__ import annotations

from estconf.io import parse
from estconf.io._toml_scan import scan


class TestKeys:
    def test_a_basic_string_key_is_unescaped_and_a_literal_one_taken_as_written(self) -> None:
        text = "\"a\\u00e9\\t\" = 1\n'c:\\dir' = 2\n"
        assert set(parse.parse(text, "toml", "f.toml").data) == {"a\u00e9\t", "c:\\dir"}
        offsets = scan(text)
        assert offsets[("a\u00e9\t",)] == (0, 14)
        assert offsets[("c:\\dir",)] == (16, 27)


class TestInlineValues:
    def test_the_items_of_inline_tables_and_arrays_written_without_spaces(self) -> None:
        assert scan("t = {a = 1,bc = 2}\nx = [1,2]\n") == {
            (): (None, 0),
            ("t",): (0, 4),
            ("t", "a"): (5, 9),
            ("t", "bc"): (11, 16),
            ("x",): (19, 23),
            ("x", 0): (None, 24),
            ("x", 1): (None, 26),
        }

    def test_a_comma_or_bracket_inside_a_string_item_is_part_of_it(self) -> None:
        offsets = scan("x = ['a,]b', \"c,]d\", 3]\n")
        assert [offsets[("x", index)] for index in range(3)] == [(None, 5), (None, 13), (None, 21)]
