r"""Strict JSON reading, shared by ``TF_CONFIG`` parsing and the file pipeline.

The standard library keeps the last of two equal keys and reads ``NaN``;
both hide mistakes in a config.  :func:`loads` refuses duplicate keys,
``NaN``/``Infinity`` unless asked to keep them, and strings holding half of a
UTF-16 surrogate pair (an escape such as ``\ud800``: no character), and
turns every failure (including input nested too deep to parse) into
:class:`JSONInputError`.
Where the problems are in a file's text is the file pipeline's business
(:mod:`estconf.io`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, NoReturn

__all__ = [
    "MAX_DEPTH",
    "SURROGATE",
    "JSONInputError",
    "has_surrogate",
    "loads",
    "surrogate_message",
    "type_name",
]


MAX_DEPTH: Final = 64
"""The deepest nesting of objects and arrays read by default, in a file or in JSON text."""


class JSONInputError(ValueError):
    """JSON text that cannot be read; ``code`` is a stable error type."""

    def __init__(
        self,
        code: str,
        message: str,
        line: int | None = None,
        column: int | None = None,
        *,
        key: str | None = None,
    ) -> None:
        super().__init__(message)
        from estconf.codes import checked  # imported when an error is first raised

        self.code = checked(code)
        self.message = message
        self.line = line
        self.column = column
        self.key = key
        """The key given twice, for ``duplicate_key``."""


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def _refuse_constant(name: str) -> NoReturn:
    raise JSONInputError("number", f"{name} is not valid JSON; write a number or a string instead")


def type_name(value: Any) -> str:
    """Name the JSON type of a parsed value: ``null``, ``a boolean``, ``an array``, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"  # a TOML or YAML date, YAML bytes


def _hint(exc: json.JSONDecodeError) -> str:
    """A hint for the common slips the decoder's message does not name.

    A single quote where the decoder stops: a Python ``dict`` written with
    ``str()`` (only when the text is one: it reads as a Python dict literal),
    JSON text inside quotes of its own (a quoted env file's value that
    ``docker run --env-file`` kept), or another single-quoted string.  And a
    comma after the last item of an object or array, which the decoder
    reports as a missing property name or value at the closing bracket (on
    Python 3.13 too: :func:`_as_before_313`).
    """
    found = exc.doc[exc.pos : exc.pos + 1]
    if found == "'":
        python = _python_literal(exc.doc)
        if isinstance(python, dict):
            return (
                " (single quotes: this looks like a Python dict written with str(); "
                "write it with json.dumps() instead)"
            )
        if isinstance(python, str):
            return " (the text is in quotes of its own: the JSON is inside them; remove them)"
        return " (single quotes: JSON writes strings and keys in double quotes)"
    if found in ("}", "]") and _follows_comma(exc.doc, exc.pos):
        return " (a trailing comma: JSON allows none after the last item)"
    return ""


_LARGEST_PYTHON_LITERAL: Final = 1024 * 1024
"""The longest text read as a Python literal for a hint: larger ones get a plainer hint."""


def _python_literal(text: str) -> object:
    """The Python literal ``text`` is (a dict, a string), or None when it is none."""
    import ast

    stripped = text.strip()
    if len(stripped) > _LARGEST_PYTHON_LITERAL or stripped[:1] not in ("{", "'"):
        return None
    try:
        return ast.literal_eval(stripped)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


_TRAILING_COMMA: Final = {
    "Illegal trailing comma before end of object": (
        "Expecting property name enclosed in double quotes"
    ),
    "Illegal trailing comma before end of array": "Expecting value",
}
"""Python 3.13's sentences for a trailing comma, and what Python 3.12 and before say there."""


def _as_before_313(exc: json.JSONDecodeError) -> json.JSONDecodeError:
    """The decoder's error as Python 3.10 to 3.12 report it, whatever Python runs.

    Python 3.13 names a trailing comma itself, at the comma; the decoders of
    TensorFlow 2.15's Pythons say what they expected at the closing bracket.
    One sentence and one place on every Python keep a report the same in
    every CI job, and the hint names the comma.
    """
    older = _TRAILING_COMMA.get(exc.msg)
    if older is None:
        return exc
    bracket = exc.pos + 1
    while exc.doc[bracket] in " \t\r\n":
        bracket += 1
    return json.JSONDecodeError(older, exc.doc, bracket)


def _follows_comma(text: str, position: int) -> bool:
    """Whether a comma comes before ``position`` in ``text``, JSON whitespace aside."""
    before = position - 1
    while before >= 0 and text[before] in " \t\r\n":
        before -= 1
    return before >= 0 and text[before] == ","


_DECODERS: Final = {
    True: json.JSONDecoder(object_pairs_hook=_unique_object),
    False: json.JSONDecoder(object_pairs_hook=_unique_object, parse_constant=_refuse_constant),
}
"""A decoder for each ``allow_nan``, built once (``json.loads`` with a hook builds one a call)."""
_LAST_KEY_WINS: Final = json.JSONDecoder()
"""The decoder of ``json.loads`` itself: NaN read, the last of two equal keys kept."""


SURROGATE: Final = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 surrogate pair: in a string, no character at all."""

# where a lone surrogate may come from in JSON text: an escape, or the character itself (in
# bytes, its UTF-8 form, which json.loads decodes with "surrogatepass" as TensorFlow reads it)
_MAY_HOLD_SURROGATES: Final = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_MAY_HOLD_SURROGATES_BYTES: Final = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds half of a UTF-16 surrogate pair (an ASCII text is told at once)."""
    return not text.isascii() and SURROGATE.search(text) is not None


def _may_hold_surrogates(text: str | bytes) -> bool:
    r"""Whether ``text`` may hold a lone surrogate: an escape (``\ud800``) or one itself.

    Most texts are ASCII and hold no ``\u`` escape; substring tests tell so at
    once, where the patterns would look at every character of a large text.
    """
    if isinstance(text, str):
        if "\\u" not in text and text.isascii():
            return False
        return _MAY_HOLD_SURROGATES.search(text) is not None
    if b"\\u" not in text and b"\xed" not in text:
        return False
    return _MAY_HOLD_SURROGATES_BYTES.search(text) is not None


def surrogate_message(text: str, what: str = "string") -> str:
    """Say that ``text`` (a ``string`` or a ``key``) holds a lone surrogate, shown as its escape."""
    found = SURROGATE.search(text)
    escape = "" if found is None else found[0].encode("unicode_escape").decode("ascii")
    return f"a {what} holds {escape}, half of a UTF-16 surrogate pair, which is not a character"


def _lone_surrogate(data: Any) -> str | None:
    """The message about the first string or key of ``data`` holding a lone surrogate, if any."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if has_surrogate(value):
                return surrogate_message(value)
        elif isinstance(value, dict):
            for key in value:
                if isinstance(key, str) and has_surrogate(key):
                    return surrogate_message(key, "key")
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return None


def loads(
    text: str | bytes,
    *,
    allow_nan: bool = False,
    allow_lone_surrogates: bool = False,
    as_python_reads_it: bool = False,
    max_depth: int | None = None,
) -> Any:
    """Parse ``text`` as JSON, refusing duplicate keys, lone surrogates and, unless allowed, NaN.

    ``allow_lone_surrogates`` is for a reader that refuses them itself, at
    their place in the text.  ``as_python_reads_it`` reads the text as
    ``json.loads`` does (NaN read, the last of two equal keys kept, lone
    surrogates kept), for a program that reads it so: only the depth is
    refused then.  ``max_depth``: the deepest nesting of objects and arrays
    allowed (:data:`MAX_DEPTH` for the limit of a file); ``None``, as deep as
    the parser goes.

    Raises:
        JSONInputError: the text is not JSON, repeats a key, holds a constant
            that is refused or a lone surrogate, or is nested too deep to parse
            or deeper than ``max_depth`` (``json_depth``).
    """
    data = _decode(text, True, _LAST_KEY_WINS) if as_python_reads_it else _decode(text, allow_nan)
    if max_depth is not None and _deeper(data, max_depth):
        raise JSONInputError("json_depth", f"JSON is nested deeper than {max_depth} levels")
    if as_python_reads_it:
        return data
    if not allow_lone_surrogates and _may_hold_surrogates(text):
        message = _lone_surrogate(data)
        if message is not None:
            raise JSONInputError("json_invalid", f"invalid JSON: {message}")
    return data


def _deeper(data: Any, max_depth: int) -> bool:
    """Whether ``data`` nests objects and arrays more than ``max_depth`` deep."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > max_depth:
                return True
            stack.extend((child, depth + 1) for child in _children(value))
    return False


def _children(value: dict[str, Any] | list[Any]) -> Any:
    return value.values() if isinstance(value, dict) else value


def _decode(text: str | bytes, allow_nan: bool, decoder: json.JSONDecoder | None = None) -> Any:
    decoder = _DECODERS[allow_nan] if decoder is None else decoder
    try:
        if isinstance(text, str) and not text.startswith("\ufeff"):
            return decoder.decode(text)
        # json.loads decodes bytes, and refuses a byte order mark, before it decodes.
        return json.loads(
            text,
            object_pairs_hook=decoder.object_pairs_hook,
            parse_constant=decoder.parse_constant,
        )
    except _DuplicateKey as exc:
        raise JSONInputError(
            "duplicate_key",
            f"duplicate key {exc.key!r}: each key may appear once in an object",
            key=exc.key,
        ) from None
    except json.JSONDecodeError as exc:
        exc = _as_before_313(exc)
        raise JSONInputError(
            "json_invalid", f"invalid JSON: {exc.msg}{_hint(exc)}", exc.lineno, exc.colno
        ) from None
    except RecursionError:
        raise JSONInputError("json_depth", "JSON is nested too deep to read") from None
    except UnicodeDecodeError as exc:
        raise JSONInputError("json_invalid", f"invalid UTF-8: {exc.reason}") from None
    except JSONInputError:
        raise
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise JSONInputError("json_invalid", f"invalid JSON: {exc}") from None
