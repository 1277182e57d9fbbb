"""estconf.kubeflow._yaml: the documents of a YAML or JSON stream as plain data."""

from __future__ import annotations

import pytest

from estconf.io.errors import ConfigFileError
from estconf.kubeflow._yaml import load_documents


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [("kind: Pod\nname: \ud800\n", 2, 7), ('{"kind": "\ud800"}', 1, 11)],
    ids=["yaml", "json"],
)
def test_a_lone_surrogate_in_text_is_refused_as_bad_utf8_at_its_place(
    text: str, line: int, column: int
) -> None:
    """Text decoded from bytes that are not UTF-8 keeps them as lone surrogates."""
    with pytest.raises(ConfigFileError) as info:
        load_documents(text, name="f.yaml")
    (error,) = info.value.errors
    assert (error.code, error.line, error.column) == ("encoding", line, column)
    assert error.message.startswith("invalid UTF-8: byte 0xed at byte offset ")
