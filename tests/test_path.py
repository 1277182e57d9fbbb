"""estconf._path: how a location in nested data is written for people."""

from __future__ import annotations

import pytest

from estconf._path import format_path


@pytest.mark.parametrize(
    ("loc", "written"),
    [
        (("cluster", "worker", 0), "cluster.worker[0]"),
        (("task", "type"), "task.type"),
        (("cluster", "odd key", 1), 'cluster["odd key"][1]'),
        (("cluster", "9lives"), 'cluster["9lives"]'),
        ((0, "name"), "[0].name"),
        (("flag", True), 'flag["True"]'),
        ((), ""),
    ],
)
def test_identifiers_are_dotted_and_the_rest_bracketed(
    loc: tuple[str | int, ...], written: str
) -> None:
    assert format_path(loc) == written
