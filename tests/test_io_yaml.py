"""estconf.io._yaml: YAML documents read with the place of every value.

The module is read through :func:`estconf.io.parse.parse_documents`, which
checks each document it gives as a config file is checked.
"""

from __future__ import annotations

import pytest

from estconf.io import parse
from estconf.io._positions import Position
from estconf.io.errors import ConfigFileError


def refused(text: str) -> ConfigFileError:
    with pytest.raises(ConfigFileError) as info:
        parse.parse_documents(text, "yaml", "f.yaml")
    return info.value


class TestDocuments:
    def test_each_document_starts_where_it_is_written(self) -> None:
        """The first at the start of the text (comments included), each next at its ``---``."""
        text = "# a stream\na: 1\n---\nb: 2\n  # between\n--- # c\nc: 3\n"
        documents = parse.parse_documents(text, "yaml", "f.yaml")
        assert [document.data for document in documents] == [{"a": 1}, {"b": 2}, {"c": 3}]
        assert [document.start for document in documents] == [
            Position(1, 1),
            Position(3, 1),
            Position(6, 1),
        ]


class TestDuplicateKeys:
    def test_a_key_written_twice_is_refused_at_its_second_place(self) -> None:
        (error,) = refused("a: 1\nb:\n  c: 2\n  c: 3\n").errors
        assert (error.code, error.loc, error.line, error.column) == (
            "duplicate_key",
            ("b", "c"),
            4,
            3,
        )
        assert error.message == "duplicate key 'c': each key may appear once in a mapping"

    def test_every_key_written_twice_is_refused_not_only_the_first(self) -> None:
        errors = refused("a: 1\na: 2\nb: 1\nb: 2\n").errors
        assert [(error.code, error.loc, error.line) for error in errors] == [
            ("duplicate_key", ("a",), 2),
            ("duplicate_key", ("b",), 4),
        ]


class TestSyntax:
    def test_an_error_the_parser_gives_no_problem_for_says_its_context_once(self) -> None:
        """Its context is what is said after "invalid YAML", once."""
        (error,) = refused("a: |\n  \n\n     \n  x\n").errors
        assert (error.code, error.line, error.column) == ("syntax", 5, 3)
        assert error.message == (
            "invalid YAML: more indented follow up line than first in a block scalar"
        )
