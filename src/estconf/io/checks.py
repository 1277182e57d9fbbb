"""The checks every format shares: size, depth, and values no config may hold.

Size and depth are decided here and nowhere else:

- size: a file or stream is read in chunks and refused as soon as it holds
  more than ``max_size`` bytes (:func:`read_stream`, :func:`check_size`);
- depth: :func:`check_values` walks the data read and refuses nesting deeper
  than ``max_depth`` with the path to it, whatever the format and whatever
  the text around the data holds (comments, strings).  A parser that cannot
  read as deep as the data goes fails before the walk; :func:`too_deep` makes
  its error the same ``depth`` error, and :func:`parser_depth` is how deep a
  parser with a limit of its own may go.

:func:`check_values` also refuses NaN and infinite numbers, strings with
lone surrogates, and data that YAML aliases expand beyond what its text could
hold.

:class:`Limits` gathers the limits every reading path applies (size, depth,
values once YAML aliases are expanded, documents of a YAML stream).
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from estconf import _json
from estconf._json import has_surrogate, surrogate_message
from estconf.io._positions import Loc, Position
from estconf.io.errors import ConfigFileError, FileError, error, refused

__all__ = [
    "INT_DIGITS",
    "MAX_DEPTH",
    "MAX_DOCUMENTS",
    "MAX_SIZE",
    "MIN_VALUES",
    "MIN_WRITTEN_VALUES",
    "WRITTEN_BYTES_PER_VALUE",
    "Limits",
    "check_size",
    "check_values",
    "limits_of",
    "parser_depth",
    "read_stream",
    "too_deep",
    "too_deep_to_parse",
    "too_dense",
    "too_many_digits",
]

MAX_SIZE = 64 * 1024 * 1024
"""The largest file read by default, in bytes (64 MiB)."""

MAX_DEPTH = _json.MAX_DEPTH
"""The deepest nesting of objects and arrays read by default."""

MAX_DOCUMENTS = 10_000
"""The most documents of a YAML stream read by default (empty ones count)."""

MIN_VALUES = 100_000
"""The fewest values a document may expand to whatever its size (see :attr:`Limits.max_values`)."""

WRITTEN_BYTES_PER_VALUE = 16
"""How many bytes of YAML or TOML text hold one value, at the densest a config is written.

YAML and TOML are read in Python, at tens of microseconds a value, so the
values of their text are limited by its size before the time is spent (see
:meth:`Limits.written_values_for`).  JSON is read in C, and is not.
"""

MIN_WRITTEN_VALUES = 10_000
"""The fewest values a YAML or TOML document may hold as written, whatever its size."""

INT_DIGITS = sys.get_int_max_str_digits() or 4300
"""The most decimal digits Python converts to an ``int``."""

_DEPTH_PATH_SHOWN = 8
"""How much of the path to a value nested too deep is shown."""

_CHUNK = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The limits of reading, the same on every path (a file, a stream, a manifest, a TFJob).

    Attributes:
        max_size: the most bytes read.
        max_depth: the deepest nesting of objects and arrays.
        max_values: the most values a document may hold once YAML aliases are
            expanded, and a YAML document as written; ``None``: as many as its
            text has characters, and at least :data:`MIN_VALUES`, which no
            text without aliases exceeds, and for YAML and TOML as written
            :meth:`written_values_for`.
        max_documents: the most documents of a YAML stream, empty ones included.
    """

    max_size: int = MAX_SIZE
    max_depth: int = MAX_DEPTH
    max_values: int | None = None
    max_documents: int = MAX_DOCUMENTS

    def values_for(self, length: int) -> int:
        """The most values a document of a text of ``length`` characters may expand to."""
        return self.max_values if self.max_values is not None else max(length, MIN_VALUES)

    def written_values_for(self, length: int) -> int:
        """The most values a YAML or TOML document of ``length`` characters may hold as written.

        One value per :data:`WRITTEN_BYTES_PER_VALUE` characters of the text,
        and at least :data:`MIN_WRITTEN_VALUES`: no config is written denser,
        and a text made denser (``[[[]]]`` repeated) would take seconds to
        read.  ``max_values``, when given, is the limit instead.
        """
        if self.max_values is not None:
            return self.max_values
        return max(length // WRITTEN_BYTES_PER_VALUE, MIN_WRITTEN_VALUES)


def too_dense(
    file: str, limit: int, at: Position | None, *, option: bool = True
) -> ConfigFileError:
    """The ``too_many_values`` error of a text holding more values than its size allows.

    ``at`` is where the first value over ``limit`` is; ``option``: whether
    the reader takes ``--max-values`` (a project's settings do not).
    """
    hint = ": a text this dense is slow to read; give --max-values N to read it" if option else ""
    return refused(
        file,
        "too_many_values",
        f"the document holds more than {limit} values, more than a config of its size "
        f"holds (one per {WRITTEN_BYTES_PER_VALUE} bytes of YAML or TOML, at least "
        f"{MIN_WRITTEN_VALUES:,}){hint}",
        at,
    )


def check_size(file: str, size: int, max_size: int) -> None:
    """Refuse ``size`` bytes if they are more than ``max_size``.

    Raises:
        ConfigFileError: with a ``size`` error.
    """
    if size > max_size:
        raise refused(file, "size", f"the file is larger than the limit of {max_size} bytes")


def read_stream(stream: BinaryIO, file: str, max_size: int = MAX_SIZE) -> bytes:
    """Read a binary stream to its end, refusing more than ``max_size`` bytes.

    The stream is read in chunks, so a large limit costs no memory up front
    and a stream larger than the limit is read no further than it.

    Raises:
        ConfigFileError: the stream holds more than ``max_size`` bytes.
    """
    chunks: list[bytes] = []
    total = 0
    while chunk := stream.read(_CHUNK):
        total += len(chunk)
        check_size(file, total, max_size)
        chunks.append(chunk)
    return b"".join(chunks)


def too_deep(
    file: str, max_depth: int | None, loc: Loc = (), position: Position | None = None
) -> FileError:
    """The ``depth`` error: nesting deeper than ``max_depth`` at ``loc`` (its start shown).

    ``max_depth`` is ``None`` when a parser gave up before the limit was reached.
    """
    limit = "too deep to read" if max_depth is None else f"deeper than {max_depth} levels"
    return error(
        file, "depth", f"the document is nested {limit}", loc[:_DEPTH_PATH_SHOWN], position=position
    )


def parser_depth(max_depth: int) -> int:
    """How deep a parser with a limit of its own may go, so that the walk reports the rest.

    YAML's composer counts every node, keys and scalars included, so twice
    the depth of the data, and a little more, is enough.
    """
    return 2 * max_depth + 2


@contextlib.contextmanager
def too_deep_to_parse(file: str) -> Iterator[None]:
    """Turn a parser's failure on input nested deeper than it can read into a ``depth`` error.

    Raises:
        ConfigFileError: the parser ran out of stack.
    """
    try:
        yield
    except RecursionError:
        raise ConfigFileError(file, [too_deep(file, None)]) from None


def too_many_digits(digits: int) -> str:
    """Say that an integer has more digits than can be converted."""
    return f"the integer has {digits} digits, more than the {INT_DIGITS} that can be converted"


def check_values(
    file: str, data: Any, max_depth: int = MAX_DEPTH, max_values: int | None = None
) -> list[FileError]:
    r"""Find what no format should let through.

    That is nesting deeper than ``max_depth``, NaN and infinite numbers, and
    strings holding lone surrogates (which escapes such as ``\ud800`` make).
    ``max_values`` caps how many values the data holds once YAML aliases are
    expanded; a cap reached stops the walk.

    Only objects and arrays go on the walk's stack; the scalars of each are
    checked together, so that long lists of addresses cost little.
    """
    errors: list[FileError] = []
    count = 0
    deep = False
    stack: list[tuple[Loc, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if not isinstance(value, (dict, list)):
            continue  # a scalar document, which no kind of file takes: files says so
        count += len(value) + 1
        if max_values is not None and count > max_values:
            errors.append(
                error(
                    file,
                    "too_many_values",
                    f"the document expands to more than {max_values} values, more than "
                    "its text could hold: are YAML aliases repeating a large value?",
                )
            )
            break
        if len(path) >= max_depth:
            if not deep:  # said once, at the first value too deep, however many there are
                errors.append(too_deep(file, max_depth, path))
                deep = True
            continue
        items: list[tuple[str | int, Any]]
        if isinstance(value, dict):
            lone = _with_surrogates([key for key in value if type(key) is str])
            errors.extend(_surrogate(file, key, path, "key") for key in lone)
            if not lone and _all_plain_strings(value.values()):
                continue
            items = [(key, child) for key, child in value.items() if key not in lone]
        else:
            if _all_plain_strings(value):
                continue
            items = list(enumerate(value))
        scalars = [(key, child) for key, child in items if not isinstance(child, (dict, list))]
        errors.extend(_scalar_errors(file, scalars, path))
        if len(scalars) < len(items):
            stack.extend(
                ((*path, key), child)
                for key, child in reversed(items)
                if isinstance(child, (dict, list))
            )
    return errors


def _all_plain_strings(values: Iterable[Any]) -> bool:
    """Whether every value is a string without lone surrogates (as a job's addresses are)."""
    try:
        joined = "".join(values)
    except TypeError:
        return False
    return not has_surrogate(joined)


def _with_surrogates(strings: list[str]) -> list[str]:
    """The strings holding a lone surrogate, found with one search in the common case."""
    if not strings or not has_surrogate("".join(strings)):
        return []
    return [text for text in strings if has_surrogate(text)]


def _scalar_errors(file: str, items: list[tuple[str | int, Any]], path: Loc) -> list[FileError]:
    """The strings with lone surrogates and the NaN or infinite numbers among ``items``."""
    lone = set(_with_surrogates([child for _, child in items if type(child) is str]))
    errors = []
    for key, child in items:
        if type(child) is str and child in lone:
            errors.append(_surrogate(file, child, (*path, key), "string"))
        elif type(child) is float and not math.isfinite(child):
            errors.append(
                error(
                    file,
                    "number",
                    "NaN and infinite numbers are not allowed; write a finite number",
                    (*path, key),
                )
            )
    return errors


def _surrogate(file: str, text: str, path: Loc, what: str) -> FileError:
    r"""A string holding half of a UTF-16 surrogate pair, from an escape such as ``\ud800``."""
    return error(file, "encoding", surrogate_message(text, what), path)


def limits_of(options: object) -> Limits:
    """The limits the options ``--max-size``, ``--max-depth``, ... give; defaults for the rest.

    ``options`` holds them as attributes (``max_size``), as argparse parses them.
    """
    given = {
        name: getattr(options, name)
        for name in ("max_size", "max_depth", "max_values", "max_documents")
        if getattr(options, name, None) is not None
    }
    return Limits(**given)
