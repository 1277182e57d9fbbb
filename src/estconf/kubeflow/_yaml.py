"""Reading the documents of a YAML (or JSON) stream as plain data."""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError


def load_documents(text: str | bytes) -> list[Any]:
    """Parse every document of a YAML stream; JSON is read as the YAML it is.

    Raises:
        ValueError: the text is not YAML (a repeated key is an error, as in
            ``kubectl``), with the reader's line and column.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig")
    try:
        return [document for document in YAML(typ="safe", pure=True).load_all(text)]
    except YAMLError as exc:
        reason = str(exc).split("\n\nTo suppress", 1)[0]  # drop the reader's advice to disable it
        raise ValueError(f"not a YAML or JSON manifest: {reason}") from None
