"""estconf.io._json_scan: where values are in JSON text, and what strict reading refuses."""

from __future__ import annotations

from estconf.io._json_scan import scan
from estconf.io.checks import INT_DIGITS


class TestOffsets:
    def test_every_value_after_an_empty_object_or_array_is_found(self) -> None:
        offsets = scan('{"a": {}, "b": [], "c": 1}', "f").offsets
        assert offsets == {(): (None, 0), ("a",): (1, 6), ("b",): (10, 15), ("c",): (19, 24)}

    def test_a_scan_for_some_paths_stops_quietly_where_the_text_stops_being_json(self) -> None:
        found = scan('{"a": [1, }, "b": 2}', "f", [("b",)])
        assert found.offsets == {(): (None, 0)}
        assert found.errors == []


class TestRefused:
    def test_arrays_nested_as_deep_as_the_limit_are_read(self) -> None:
        assert scan("[[1]]", "f", max_depth=2).errors == []
        assert scan('{"a": {"b": 1}}', "f", max_depth=2).errors == []
        (array,) = scan("[[[1]]]", "f", max_depth=2).errors
        assert (array.code, array.loc, array.column) == ("depth", (0, 0), 3)
        (obj,) = scan('{"a": {"b": {}}}', "f", max_depth=2).errors
        assert (obj.code, obj.loc, obj.column) == ("depth", ("a", "b"), 13)

    def test_the_digits_of_a_negative_integer_leave_out_its_sign(self) -> None:
        assert scan("-" + "9" * INT_DIGITS, "f").errors == []
        (error,) = scan("-" + "9" * (INT_DIGITS + 1), "f").errors
        assert error.code == "number"
        assert error.message == (
            f"the integer has {INT_DIGITS + 1} digits, more than the {INT_DIGITS} that can be "
            "converted"
        )
