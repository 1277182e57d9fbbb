"""Every error and finding code estconf reports, each declared once: :data:`CODES`.

A code names a rule (``missing_chief``, ``syntax``, ``tfjob_no_image``) and
does not change with the message.  Its declaration (:class:`Code`) gives its
default severity, a one-line summary of what it means, the section of
``docs/errors.md`` that lists it, an example, and its fix where there is a
known one.  The declarations are in ``estconf/_codes/``, in the order of that
page.

Every way of raising an error looks its code up here (:func:`declaration`),
so a code that is not declared fails the first time it is raised.
``make error-codes`` writes the tables of ``docs/errors.md`` and
``io/error_codes.json`` (each code's meaning for SARIF reports) from these
declarations.

A pod of a TFJob (of a Volcano Job) that refuses its predicted ``TF_CONFIG``
is reported as ``tfjob_`` (``volcano_pod_``) followed by the code of its
reader's rule: each family is declared once, in :data:`FAMILIES`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from estconf.finding import Severity

if TYPE_CHECKING:
    from estconf._codes import Section

__all__ = ["CODES", "DECLARED", "FAMILIES", "ROWS", "Code", "Row", "checked", "declaration"]


class Code(NamedTuple):
    """The declaration of one code.

    Attributes:
        name: the code, as reported (``missing_chief``).
        severity: how bad a finding of it is by default: ``error``, ``warning`` or ``note``.
        summary: what the code means, in one line (Markdown code spans and links).
        section: the anchor of the section of ``docs/errors.md`` that lists it.
        example: an input that raises it, for the docs; empty when there is none to show.
        fix: how to fix it, when it is fixed one known way; else empty.
    """

    name: str
    severity: Severity
    summary: str
    section: str
    example: str = ""
    fix: str = ""


class Row(NamedTuple):
    """One row of a table of ``docs/errors.md``: a code and what it means in that section.

    A code shared by rules of two sections (``duplicate_key``) is declared in
    the first and has a row in each.  ``table`` counts the page's tables from
    0: a section may have two.
    """

    section: str
    code: str
    summary: str
    example: str
    table: int


def _rows(sections: Iterable[Section]) -> Iterator[tuple[Row, Code | None]]:
    """Each row of ``sections``, with the declaration it makes (None for a code listed again)."""
    for table, (section, rows) in enumerate(sections):
        for name, severity, summary, example, *fix in rows:
            row = Row(section, name, summary, example, table)
            if severity is None:
                yield row, None
            else:
                yield row, Code(name, severity, summary, section, example, *fix)


class _Index(NamedTuple):
    rows: tuple[Row, ...]
    declared: tuple[Code, ...]
    codes: Mapping[str, Code]


@functools.cache
def _index() -> _Index:
    """The declarations, read on first use: a command that raises no error never reads them."""
    from estconf._codes import checks, convert, jobset, launchers, models, volcano

    sections = (
        *models.SECTIONS,
        *launchers.SECTIONS,
        *checks.SECTIONS,
        *jobset.SECTIONS,
        *volcano.SECTIONS,
        *convert.SECTIONS,
    )
    read = tuple(_rows(sections))
    declared = tuple(code for _, code in read if code is not None)
    return _Index(tuple(row for row, _ in read), declared, {code.name: code for code in declared})


if TYPE_CHECKING:
    ROWS: tuple[Row, ...]
    """Every row of the tables of ``docs/errors.md``, in the page's order."""
    DECLARED: tuple[Code, ...]
    """Every declaration, in the order of ``docs/errors.md`` (a code declared twice is a bug)."""
    CODES: Mapping[str, Code]
    """Each code's declaration, by name."""


def __getattr__(name: str) -> Any:
    # ROWS, DECLARED and CODES are read on first use
    attribute = {"ROWS": "rows", "DECLARED": "declared", "CODES": "codes"}.get(name)
    if attribute is None:
        raise AttributeError(f"module 'estconf.codes' has no attribute {name!r}")
    return getattr(_index(), attribute)


FAMILIES: Final[Mapping[str, Code]] = {
    "tfjob_": Code(
        "tfjob_",
        "error",
        "a pod of the TFJob refuses its predicted TF_CONFIG: `tfjob_` and the code of the "
        "rule of the profile's reader",
        "tfjob-findings-estconfkubeflow-estconf-validate-on-a-tfjob",
        "`tfjob_missing_chief`",
    ),
    "volcano_pod_": Code(
        "volcano_pod_",
        "error",
        "a pod of the Volcano Job refuses its TF_CONFIG: `volcano_pod_` and the code of the "
        "rule of the profile's reader",
        "volcano-findings-estconf-validate-on-a-volcano-job",
        "`volcano_pod_missing_chief`",
    ),
}
"""Codes formed from a prefix and another code, by prefix: declared once for the family."""


def declaration(code: str) -> Code:
    """The declaration of ``code``, or of the family of codes it belongs to.

    Raises:
        KeyError: ``code`` is not declared.

    Example:
        >>> declaration("missing_chief").severity
        'error'
        >>> declaration("tfjob_missing_ps").name
        'tfjob_'
    """
    found = _index().codes.get(code)
    if found is not None:
        return found
    for prefix, family in FAMILIES.items():
        if code.startswith(prefix) and code != prefix:
            return family
    raise KeyError(f"{code!r} is not a declared error code: declare it in estconf/_codes/")


def checked(code: str) -> str:
    """``code`` itself, once :func:`declaration` has found it declared."""
    declaration(code)
    return code
