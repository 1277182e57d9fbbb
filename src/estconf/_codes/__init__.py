"""The declarations of every error code, section by section; :mod:`estconf.codes` reads them.

Each module holds ``SECTIONS``: sections of ``docs/errors.md`` in the page's
order, each as its anchor and its rows.  A row is ``(code, severity, summary,
example)``, with the fix last when the code has one; a row whose severity is
``None`` lists again, in its section, a code declared in an earlier one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeAlias

    from estconf.finding import Severity

    Declared: TypeAlias = (
        tuple[str, Severity | None, str, str] | tuple[str, Severity | None, str, str, str]
    )
    """A row: the code, its severity (None: declared before), summary, example, fix."""

    Section: TypeAlias = tuple[str, tuple[Declared, ...]]
    """A section of ``docs/errors.md``: its anchor and its rows."""
