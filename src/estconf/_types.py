"""Value types shared by the estconf models.

TensorFlow checks few types at configuration time: it truncates ``1.5`` to
``1``, reads ``True`` as ``1`` and keeps ``5`` where a string is meant.  The
annotated types here accept exactly the JSON and Python values whose meaning
is unambiguous and reject the rest with a stable error code (see the
"Stricter than TensorFlow" section of the docs).
"""

from __future__ import annotations

import functools
import ipaddress
import operator
import re
import sys
from collections.abc import Collection
from itertools import chain
from typing import Annotated, Any, Final

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError, SchemaValidator, core_schema
from typing_extensions import Self

from estconf._errors import custom_error

__all__ = [
    "DOCUMENT",
    "Address",
    "Bool",
    "DocumentModel",
    "Integer",
    "JobName",
    "ModelDir",
    "Number",
    "OmittableString",
    "String",
    "TaskIndex",
    "absent_if_none",
    "address_key",
    "address_problem",
    "address_refusal",
    "all_plain_addresses_valid",
    "bool_error",
    "from_document",
    "model_dir_not_false",
    "reject_null",
    "whole_number",
]


def bool_error(value: bool, what: str = "an integer") -> PydanticCustomError:
    """The error for a bool where a number is meant (Python reads ``True`` as 1)."""
    return custom_error(
        "int_type",
        "Input should be {what}, not a boolean ({value})",
        {"what": what, "value": str(value)},
    )


MOST_DIGITS: Final = 4300
"""The most digits a whole ``Decimal`` may have: Python's own limit on ``int()`` of a string."""


def whole_number(value: Any, *, keep_float: bool = False) -> Any:
    """Read a whole number of any numeric type as ``int``; refuse bools and fractions.

    A whole ``float``, ``Decimal``, ``Fraction`` or numpy number is read as
    that integer; numpy integers and other int-like scalars through
    ``__index__``.  A fractional one, a NaN or an infinity is refused, and so
    is a bool, Python's or numpy's (Python reads ``True`` as 1).  Other
    values (strings, ``None``) pass through for the type to judge.

    With ``keep_float``, a whole float stays a float (TensorFlow 1.15 keeps
    seeds so; the SLURM resolver fails on one where TensorFlow does), and a
    ``Decimal`` or ``Fraction`` is left to the type, which refuses it.
    """
    if isinstance(value, bool) or _is_numpy_bool(value):
        raise bool_error(bool(value))
    if isinstance(value, (int, str, bytes)) or value is None:
        return value
    if isinstance(value, float):
        if value.is_integer():
            return value if keep_float else int(value)
        raise _not_whole(value)
    if hasattr(value, "__index__"):
        return operator.index(value)
    return value if keep_float else _exact_whole(value)


def _is_numpy_bool(value: Any) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def _not_whole(value: Any) -> PydanticCustomError:
    return custom_error("int_type", "Input should be a whole number, got {value}", {"value": value})


def _exact_whole(value: Any) -> Any:
    """The ``int`` a whole ``Decimal``, ``Fraction`` or numpy float is; other values as given.

    The ``decimal`` and ``fractions`` modules are looked up, not imported: a
    value of their types exists only once its module is imported.
    """
    decimal = sys.modules.get("decimal")
    if decimal is not None and isinstance(value, decimal.Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            raise _not_whole(value)
        if value.adjusted() >= MOST_DIGITS:  # refused before int() writes out every digit
            raise custom_error(
                "int_type",
                "Input should be a whole number of at most {most} digits, got {value}",
                {"most": MOST_DIGITS, "value": str(value)},
            )
        return int(value)
    fractions = sys.modules.get("fractions")
    if fractions is not None and isinstance(value, fractions.Fraction):
        if value.denominator != 1:
            raise _not_whole(value)
        return value.numerator
    if type(value).__module__ == "numpy" and callable(getattr(value, "is_integer", None)):
        if not value.is_integer():  # numpy's float16, float32, longdouble
            raise _not_whole(value)
        return int(value)
    return value


_INDEX_STRING = re.compile(r"-?[0-9]+")


def _as_task_index(value: Any) -> Any:
    """Read a task index the way TensorFlow's ``int()`` does for digit strings."""
    if isinstance(value, str):
        if not _INDEX_STRING.fullmatch(value):
            raise custom_error(
                "int_type",
                "Input should be an integer or a string of ASCII digits, got '{value}'{detail}",
                {"value": value, "detail": _int_error(value)},
            )
        try:
            return int(value)
        except ValueError as exc:  # more digits than Python converts
            raise custom_error(
                "int_type",
                "Input is too long to convert to an integer: {reason}",
                {"reason": str(exc)},
            ) from None
    return whole_number(value)


def _int_error(text: str) -> str:
    """Python's own complaint about ``int(text)``, which TensorFlow would show."""
    try:
        int(text)
    except ValueError as exc:
        return f" ({exc})"
    return ""


def _check_number(value: Any) -> Any:
    if isinstance(value, bool):
        raise bool_error(value, "a number")
    return value


Integer = Annotated[int, BeforeValidator(whole_number), Strict()]
"""An integer; whole floats (``2.0``) are read as ``int``, bools and strings refused."""

Number = Annotated[
    Annotated[int, Strict()] | Annotated[float, Strict()],
    Field(union_mode="left_to_right"),
    BeforeValidator(_check_number),
]
"""A number of seconds or hours: ``int`` or ``float``, never a bool or a string."""

TaskIndex = Annotated[
    int,
    BeforeValidator(_as_task_index),
    Strict(),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer"},
                {"type": "string", "pattern": r"^-?[0-9]+$"},
            ]
        }
    ),
]
"""A task index: an integer, or a string of ASCII digits read like ``int()``."""

String = Annotated[str, Strict()]
Bool = Annotated[bool, Strict()]

_JOB_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _check_job_name(name: str) -> str:
    if not _JOB_NAME.fullmatch(name):
        raise custom_error(
            "job_name",
            "'{name}' is not a job name TensorFlow can hold: it must start with an ASCII "
            "letter and go on with ASCII letters, digits or '_'",
            {"name": name},
        )
    return name


JobName = Annotated[
    str,
    Strict(),
    AfterValidator(_check_job_name),
    Field(json_schema_extra={"pattern": f"^{_JOB_NAME.pattern}$"}),
]
"""A job name as TensorFlow's device names spell it (``/job:<name>``)."""

_PORT = (
    r"(?:0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
)
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_HOSTNAME = rf"{_LABEL}(?:\.{_LABEL})*"
_IPV6 = r"\[[0-9A-Fa-f:.]+(?:%[A-Za-z0-9_.-]+)?\]"
_ADDRESS = re.compile(
    rf"(?:(?P<ipv4>[0-9]+(?:\.[0-9]+)*)|(?P<name>{_HOSTNAME})|(?P<ipv6>{_IPV6})):{_PORT}"
)
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
# The common addresses, in a form the Rust regex engine of pydantic-core takes
# (no lookaround): a canonical IPv4 address, or a lower-case hostname whose
# first label starts with a letter and whose labels (at most eight, of at most
# 30 characters) cannot add up to more than 253 characters.  Every address
# this accepts is valid and no two that differ in text name the same host.
_FAST_LABEL = r"[a-z0-9_](?:[a-z0-9_-]{0,28}[a-z0-9_])?"
_FAST_HOSTNAME = rf"[a-z_](?:[a-z0-9_-]{{0,28}}[a-z0-9_])?(?:\.{_FAST_LABEL}){{0,7}}"
_FAST_ONE = rf"(?:{_OCTET}(?:\.{_OCTET}){{3}}|{_FAST_HOSTNAME}):{_PORT}"
_FAST_MANY = rf"^(?:{_FAST_ONE}\n)*{_FAST_ONE}$"


@functools.cache
def _fast_addresses() -> SchemaValidator:
    return SchemaValidator(core_schema.str_schema(pattern=_FAST_MANY, regex_engine="rust-regex"))


def all_plain_addresses_valid(jobs: Collection[Collection[str]]) -> bool:
    """Whether every address of these jobs is a plain, canonical ``host:port``.

    One pass in Rust over all the addresses.  Plain means a lower-case
    hostname or an IPv4 address, so two plain addresses name the same host
    only if their text is equal.  ``False`` means "look closer" (an invalid,
    upper-case, IPv6 or unusual address, or no address at all), not "invalid".
    """
    count = sum(map(len, jobs))
    joined = "\n".join(chain.from_iterable(jobs))
    if joined.count("\n") != count - 1:
        return False  # an address holds a newline, or there is none
    try:
        _fast_addresses().validate_python(joined)
    except ValidationError:
        return False
    return True


_ADDRESS_SCHEMA_PATTERN = rf"^(?:{_HOSTNAME}|{_IPV6}):{_PORT}$"
_IPV6_TEXT = re.compile(r"[0-9A-Fa-f:.]+")
_ZONE = re.compile(r"[A-Za-z0-9_.-]+")
_HOST_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_ADD_PORT = "add the port the task listens on, e.g."
_SHOWN = 64
"""The longest part of an address a reason quotes whole (the address itself is always quoted)."""


def address_problem(address: str) -> str | None:
    """Say what is wrong with ``address`` as a ``host:port`` task address, or ``None``."""
    refusal = address_refusal(address)
    return None if refusal is None else refusal["reason"]


def address_refusal(address: str) -> dict[str, str] | None:
    """The context of the ``address`` error of ``address``; ``None`` for a valid address.

    It holds the ``address``, the ``reason`` it is refused, one that is true
    of it (no port, a port that is no number, above 65535 or written with
    leading zeros, no host, a host that is no hostname, IPv4 or IPv6
    address), and the fix as a ``hint`` where it is plain.  As in
    TensorFlow, the port is what follows the last ``:`` (after the ``]`` of
    an IPv6 host in brackets).
    """
    match = _ADDRESS.fullmatch(address)
    hint = ""
    if match is None:
        reason, hint = _refused(address)
    elif match["ipv6"] is not None:
        try:
            ipaddress.IPv6Address(match["ipv6"][1:-1])
        except ValueError as exc:
            reason = f"the host {_quoted(match['ipv6'])} is not an IPv6 address ({exc})"
        else:
            return None
    elif match["ipv4"] is not None:
        try:
            ipaddress.IPv4Address(match["ipv4"])
        except ValueError as exc:
            reason = f"the host {_quoted(match['ipv4'])} is not an IPv4 address ({exc})"
        else:
            return None
    elif len(match["name"]) > 253:
        reason = "the hostname is longer than 253 characters"
    else:
        return None
    context = {"address": address, "reason": reason}
    if hint:
        context["hint"] = hint
    return context


def _quoted(text: str) -> str:
    """``text`` in quotes, cut (its length said) when longer than :data:`_SHOWN` characters."""
    if len(text) <= _SHOWN:
        return f"'{text}'"
    return f"'{text[: _SHOWN // 2]}...' ({len(text):,} characters)"


def _write_as(address: str, fix: str = "write it as") -> str:
    """The hint to write ``address`` instead (``fix`` says how), if it is valid; else no hint."""
    return f"{fix} '{address}'" if address_problem(address) is None else ""


def _refused(address: str) -> tuple[str, str]:
    """Why an address that is not ``host:port`` is refused, and the fix where it is plain."""
    if not address.strip():
        return "it is empty (or blank)", "write the task's host:port, e.g. 'worker-0:2222'"
    scheme, separator, rest = address.partition("://")
    if separator and scheme.isascii() and scheme.replace("+", "").isalnum():
        return f"it starts with '{scheme}://': a task address is host:port alone", _write_as(rest)
    bracketed = _bracketed_ipv6(address)
    if bracketed is not None:
        return "an IPv6 host goes in brackets", f"write it as '{bracketed}'"
    if address.startswith("["):
        close = address.find("]")
        if close < 0:
            return "the IPv6 host has no closing ']'", ""
        host, after = address[: close + 1], address[close + 1 :]
        if after and after[0] != ":":
            return f"the IPv6 host {_quoted(host)} is followed by {after[0]!r}, not by ':'", ""
        port = after[1:] if after else None
    elif ":" in address:
        host, _, port = address.rpartition(":")
        if ":" in host and _ipv6_error(address) is None:
            fix = "write it in brackets, with the port the task listens on, e.g."
            return "it is an IPv6 address with no port", _write_as(f"[{address}]:2222", fix)
    else:
        host, port = address, None
    if port is None:
        return "it has no port", _write_as(f"{host}:2222", _ADD_PORT)
    return _port_refused(host, port) or _host_refused(host, port)


def _port_refused(host: str, port: str) -> tuple[str, str] | None:
    """Why the port of ``host:port`` is refused, and the fix; ``None`` if the port is valid."""
    if not port:
        return "there is no port after ':'", _write_as(f"{host}:2222", _ADD_PORT)
    if not (port.isascii() and port.isdigit()):
        if port[0] == "-" and port[1:].isascii() and port[1:].isdigit():
            return f"the port {_quoted(port)} is negative", ""
        return f"the port {_quoted(port)} is not a number (the digits 0-9 alone)", ""
    significant = port.lstrip("0") or "0"
    if len(significant) > 5 or int(significant) > 65535:
        return f"the port {_quoted(port)} is above 65535, the highest port", ""
    if port != significant:
        return f"the port {_quoted(port)} has leading zeros", _write_as(f"{host}:{significant}")
    return None


def _host_refused(host: str, port: str) -> tuple[str, str]:
    """Why the host of ``host:port`` (whose port is valid) is refused, and the fix."""
    if not host:
        return "there is no host before ':'", "write the task's hostname or IP address before ':'"
    if host.startswith("["):
        inner, percent, zone = host[1:-1].partition("%")
        error = _ipv6_error(inner)
        if error is None and not _IPV6_TEXT.fullmatch(inner):
            error = "it holds more than hex digits, ':' and '.'"
        if error is not None:
            return f"the host {_quoted(host)} is not an IPv6 address ({error})", ""
        if percent and not _ZONE.fullmatch(zone):
            return (
                f"the zone {_quoted(zone)} of the IPv6 host is not letters, digits, '_', '.' "
                "and '-' alone",
                "",
            )
    else:
        for character in host:
            if character not in _HOST_CHARACTERS:
                shown = repr(character) if character.isprintable() else ascii(character)
                return f"the host {_quoted(host)} holds {shown}, which no hostname holds", ""
        if host.startswith("."):
            return f"the host {_quoted(host)} starts with '.'", ""
        if host.endswith("."):
            return f"the host {_quoted(host)} ends with '.'", _write_as(f"{host[:-1]}:{port}")
        if ".." in host:
            return f"the host {_quoted(host)} has two dots in a row", ""
        for label in host.split("."):
            if len(label) > 63:
                return f"the host has a label of {len(label):,} characters, more than 63", ""
            if label[0] == "-" or label[-1] == "-":
                end = "starts" if label[0] == "-" else "ends"
                return f"the label {_quoted(label)} of the host {end} with '-'", ""
    return (  # not reached: a host and port that pass these checks form a valid address
        "expected host:port, with a hostname, an IPv4 address or a bracketed IPv6 "
        "address, and a port from 0 to 65535",
        "",
    )


def _ipv6_error(text: str) -> str | None:
    """Why ``text`` (a zone after ``%`` left out) is not an IPv6 address, or ``None``."""
    try:
        ipaddress.IPv6Address(text.partition("%")[0])
    except ValueError as exc:
        return str(exc)
    return None


def _bracketed_ipv6(address: str) -> str | None:
    """``[fe80::1]:2222`` for ``fe80::1:2222``: an IPv6 host and a port written without brackets.

    The last ``:`` is taken for the port's, as TensorFlow splits an address.
    """
    host, _, port = address.rpartition(":")
    significant = port.lstrip("0") or "0"
    if host.count(":") < 2 or not port.isascii() or not port.isdigit() or len(significant) > 5:
        return None
    if int(significant) > 65535 or _ipv6_error(host) is not None:
        return None
    return f"[{host}]:{significant}"


ADDRESS_ERROR = "'{address}' is not a valid task address: {reason}"


Address = Annotated[str, Strict(), Field(json_schema_extra={"pattern": _ADDRESS_SCHEMA_PATTERN})]
"""A task address, ``host:port``, as the JSON Schema describes it.

``ClusterSpec`` checks the addresses of a cluster itself, all in one pass
(:func:`all_plain_addresses_valid`, then :func:`address_problem`).
"""


def address_key(address: str) -> str:
    """Return the form of a valid ``address`` used to tell whether two are the same.

    Host names compare case-insensitively and IPv6 addresses by value; ports
    have no leading zeros, so they compare as text.
    """
    if address.startswith("["):
        host, _, port = address.rpartition(":")
        return f"[{ipaddress.IPv6Address(host[1:-1].split('%')[0]).compressed}]:{port}"
    return address.lower()


def reject_null(value: Any) -> Any:
    """Refuse an explicit ``null`` for a key that may be absent but never null."""
    if value is None:
        raise custom_error("type", "Input should not be null; leave the key out instead")
    return value


def _string_not_null(value: Any) -> str:
    reject_null(value)
    if not isinstance(value, str):
        raise custom_error("string_type", "Input should be a valid string")
    return value


OmittableString = Annotated[
    str | None, PlainValidator(_string_not_null, json_schema_input_type=str)
]
"""A string that may be left out (``None`` means absent) but is never given as ``null``."""


def model_dir_not_false(model_dir: Any) -> Any:
    """Refuse a ``model_dir`` that is no text and false, in TensorFlow's words.

    TensorFlow takes ``0``, ``false`` or ``[]`` as a model directory and then
    finds it empty; estconf takes text only, and says both.
    """
    if model_dir is not None and not isinstance(model_dir, str) and not model_dir:
        raise custom_error(
            "string_type",
            "model_dir should be non-empty: got {value}, which is not a string either",
            {"value": repr(model_dir)},
        )
    return model_dir


ModelDir = Annotated[String | None, BeforeValidator(model_dir_not_false)]
"""A model directory: text, or ``None`` for none."""


DOCUMENT: Final = "estconf.document"
"""Validation context key: the input is a document (a dict, JSON, a file), not keyword arguments."""


def from_document(info: ValidationInfo) -> bool:
    """Whether a validator is reading a document rather than a constructor's keyword arguments.

    Some document spellings (an enum's name) mean nothing to TensorFlow's
    Python API, which refuses them as keyword arguments; documents may use them.
    """
    return bool(info.context and info.context.get(DOCUMENT))


class DocumentModel(BaseModel):
    """A model read one way from keyword arguments and another from documents.

    Calling the class reads keyword arguments, as TensorFlow's constructor
    does; ``model_validate``, ``model_validate_json`` and
    ``model_validate_strings`` read documents (see :func:`from_document`),
    and so do models that hold this one.
    """

    model_config = ConfigDict(defer_build=True)

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        """Validate a document (a mapping, or an instance); see :class:`DocumentModel`."""
        return super().model_validate(obj, **_as_document(options))

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **options: Any) -> Self:
        """Validate a JSON document; see :class:`DocumentModel`."""
        return super().model_validate_json(json_data, **_as_document(options))

    @classmethod
    def model_validate_strings(cls, obj: Any, **options: Any) -> Self:
        """Validate a document of strings; see :class:`DocumentModel`."""
        return super().model_validate_strings(obj, **_as_document(options))


def _as_document(options: dict[str, Any]) -> dict[str, Any]:
    context = options.get("context")
    return {**options, "context": {**(context or {}), DOCUMENT: True}}


def absent_if_none(value: Any) -> bool:
    """``exclude_if`` predicate: a field whose ``None`` means "not given"."""
    return value is None
