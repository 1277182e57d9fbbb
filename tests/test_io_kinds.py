"""estconf.io.kinds: the kinds of config file, and how a file's kind is told."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from estconf.io import kinds
from estconf.io.kinds import KINDS, from_schema, resolve
from values import is_a_value


class TestFromSchema:
    @pytest.mark.parametrize(
        "value",
        [
            "urn:estconf:schema:run_config",
            "run_config.schema.json",
            "schemas/run_config.schema.json",
            "https://example.com/schemas/run_config.schema.json#",
            "https://example.com/schemas/run_config.schema.json#/properties/model_dir",
            "https://example.com/schemas/run_config.schema.json?ref=v1",
            "https://example.com/schemas/run_config.schema.json?ref=v1#top",
            "C:\\schemas\\run_config.schema.json#",
        ],
    )
    def test_a_schema_is_named_by_its_id_or_its_file_name(self, value: str) -> None:
        """A fragment (``#...``) and a query (``?...``) after the file name still name it."""
        assert from_schema(value) is KINDS["run_config"]
        resolved = resolve({kinds.SCHEMA_KEY: value}, "tf_config.json")
        assert resolved == kinds.Resolved(KINDS["run_config"], "$schema")

    @pytest.mark.parametrize(
        "value",
        [
            None,
            1,
            "",
            "urn:estconf:schema:run_config#",
            "run_config.schema.json.bak",
            "https://example.com/run_config.schema.json/other.json",
            "https://json-schema.org/draft/2020-12/schema",
        ],
    )
    def test_anything_else_names_no_kind(self, value: object) -> None:
        assert from_schema(value) is None


@pytest.mark.parametrize(
    "make",
    [
        # one object per kind: a copy stands for the other
        pytest.param(lambda: dataclasses.replace(KINDS["tf_config"]), id="Kind"),
        pytest.param(lambda: resolve({"task": {}}, None), id="Resolved"),
    ],
)
def test_a_kind_and_how_it_was_told_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)
