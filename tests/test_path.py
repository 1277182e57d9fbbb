"""estconf._path: how a location in nested data is written for people."""

from __future__ import annotations

import pytest

from estconf._path import format_nodes, format_path


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


@pytest.mark.parametrize(
    ("count", "written"),
    [
        (0, ""),
        (1, "n0"),
        (6, "n0, n1, n2, n3, n4, n5"),
        (7, "n0, n1, n2, n3, n4 and 2 more"),
        (1000, "n0, n1, n2, n3, n4 and 995 more"),
    ],
)
def test_six_nodes_are_named_and_of_more_five_and_how_many_more(count: int, written: str) -> None:
    assert format_nodes([f"n{i}" for i in range(count)]) == written
