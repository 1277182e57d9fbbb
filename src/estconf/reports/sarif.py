"""Findings as a SARIF 2.1.0 log, for GitHub code scanning and other SARIF readers.

Each finding is a ``result``: its code is the ``ruleId``, its severity the
``level``, its line of text (and hint) the message, and its place the region of the input
(``startLine`` and ``startColumn``, 1-based, as the text report writes them).
The run's tool lists each code used as a rule, with the meaning its
declaration in :mod:`estconf.codes` gives it (``error_codes.json``, written
from the declarations by ``make error-codes``, so that a report reads one
small file and imports no declaration) and the address of the section of
``docs/errors.md`` listing it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any, Final
from urllib.parse import quote

from estconf._version import __version__
from estconf.finding import Finding

__all__ = ["DOCS", "SCHEMA", "sarif_log"]

DOCS: Final = "https://estconf.readthedocs.io/en/latest/"
"""Where the documentation is published (``site_url`` of ``mkdocs.yml``)."""

SCHEMA: Final = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
"""The JSON Schema of SARIF 2.1.0 (OASIS Standard, Errata 01)."""

_ERRORS_PAGE: Final = DOCS + "errors/"
_TFJOB_POD: Final = "tfjob_"
"""A pod of a TFJob that refuses its predicted TF_CONFIG: ``tfjob_`` and the reader's code."""
_URI_SAFE: Final = "/!$&'()*+,;=:@-._~"


@cache
def _documented() -> dict[str, dict[str, str]]:
    text = resources.files("estconf.io").joinpath("error_codes.json").read_text("utf-8")
    codes: dict[str, dict[str, str]] = json.loads(text)
    return codes


def _rule(code: str) -> dict[str, Any]:
    """The rule of a code: its meaning and the section of the error codes page listing it."""
    documented = _documented()
    known = documented.get(code)
    if known is None and code.startswith(_TFJOB_POD) and code[len(_TFJOB_POD) :] in documented:
        own = documented[code[len(_TFJOB_POD) :]]
        tfjob = documented.get("tfjob_cluster_check", own)
        description = f"a pod of the TFJob refuses its predicted TF_CONFIG: {own['description']}"
        known = {"description": description, "anchor": tfjob["anchor"]}
    if known is None:  # pydantic's own codes: a value of the wrong JSON type, a missing key
        description = f"a value that does not fit its field, as pydantic checks it ({code})"
        known = {"description": description, "anchor": "model-errors"}
    return {
        "id": code,
        "shortDescription": {"text": known["description"]},
        "helpUri": f"{_ERRORS_PAGE}#{known['anchor']}",
    }


def _location(finding: Finding) -> dict[str, Any]:
    """Where a finding is: the input and the region in it, and the path inside the document.

    The input is named by its path as given, relative where it was; one that
    is no file (``<stdin>``) is named by a description instead.  A finding
    without a line has no region.
    """
    location: dict[str, Any] = {}
    if finding.file:
        artifact: dict[str, Any]
        if finding.file.startswith("<"):
            artifact = {"description": {"text": finding.file}}
        else:
            artifact = {"uri": quote(finding.file, safe=_URI_SAFE)}
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if finding.line is not None:
            physical["region"] = {"startLine": finding.line, "startColumn": finding.column or 1}
        location["physicalLocation"] = physical
    if finding.path:
        location["logicalLocations"] = [{"fullyQualifiedName": finding.path}]
    return location


def _text(finding: Finding) -> str:
    """A result's message: the finding's line, and its hint on a line of its own."""
    return finding.describe() + (f"\nhint: {finding.hint}" if finding.hint else "")


def sarif_log(findings: Iterable[Finding]) -> dict[str, Any]:
    """A SARIF log of one run of estconf: a result per finding, a rule per code used."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results = []
    for finding in findings:
        if finding.code not in index:
            index[finding.code] = len(rules)
            rules.append(_rule(finding.code))
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": finding.severity,
            "message": {"text": _text(finding)},
        }
        location = _location(finding)
        if location:
            result["locations"] = [location]
        results.append(result)
    driver = {
        "name": "estconf",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": DOCS,
        "rules": rules,
    }
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}
        ],
    }
