"""A YAML composer that stops at the values limit while it reads, before the time is spent.

Reading YAML costs tens of microseconds a value in pure Python, so a text
dense with values (``[[[]]]`` repeated, thousands of one-character items) is
slow to compose long before the values limit of :mod:`estconf.io.checks`
could see it in the built data.  This composer counts the values of each
document as it composes them (a mapping's keys are not counted, as
``check_values`` does not count them) and stops at the first one over the
limit.  An alias counts once here: what it expands to is counted on the
built data.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.composer import Composer

__all__ = ["TooManyValues", "ValueCountingComposer"]


class TooManyValues(Exception):
    """A document holds more values than the limit; ``mark`` is where the first one over is."""

    def __init__(self, limit: int, mark: Any) -> None:
        super().__init__(limit)
        self.limit = limit
        self.mark = mark


class ValueCountingComposer(Composer):
    """ruamel.yaml's composer, counting each document's values against ``limit``."""

    limit: int | None = None
    """The most values a document may hold; ``None``: no limit."""

    def compose_document(self) -> Any:
        """Compose one document, its count starting at zero."""
        self.values = 0
        return super().compose_document()

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Count the node if it is a value (the root, an item, a mapping's value); compose it."""
        if self.limit is not None and (parent is None or index is not None):
            self.values += 1
            if self.values > self.limit:
                raise TooManyValues(self.limit, self.parser.peek_event().start_mark)
        return super().compose_node(parent, index)
