"""Reading the documents of a YAML (or JSON) stream as plain data, as the file pipeline does."""

from __future__ import annotations

from typing import Any

from estconf.io import parse
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError


def load_documents(
    text: str | bytes, *, name: str = "<string>", limits: Limits | None = None
) -> list[Any]:
    """Parse every document of a YAML stream that is not empty, or of a JSON text.

    The reader and its limits are the file pipeline's
    (:func:`estconf.io.parse.parse_documents`): a repeated key is an error, as
    in ``kubectl``; values no config may hold (NaN, lone surrogates, nesting
    too deep, aliases expanded too far) are refused.  A text that starts as
    JSON does (``{`` or ``[``) is read by the JSON reader, much faster than
    YAML's; one that is no JSON after all is read as the YAML it may be
    (``{kind: TFJob}``).

    Raises:
        estconf.io.errors.ConfigFileError: a :class:`ValueError` whose errors say
            what is wrong, each at its line and column in ``name``.
    """
    if isinstance(text, str):
        # lone surrogates (from undecodable bytes) become bytes that decoding reports as bad UTF-8
        text = text.encode("utf-8", "surrogatepass")
    if text.lstrip()[:1] in (b"{", b"["):
        try:
            return [document.data for document in parse.documents_of(text, "json", name, limits)]
        except ConfigFileError as exc:
            if any(found.code != "syntax" for found in exc.errors):
                raise  # JSON, and what is wrong with it is not its syntax
    return [document.data for document in parse.documents_of(text, "yaml", name, limits)]
