"""estconf.reports.launchers: what tf-config says on standard error of a launcher's input.

Each launcher's own words are checked byte for byte by its command's tests
(``tests/test_cli_tf_config.py`` and ``tests/test_cli_<launcher>.py``).
"""

from __future__ import annotations

from estconf.io.errors import error
from estconf.launchers.base import Notes
from estconf.reports.launchers import write_notes

ERRORS = [
    error("a.json", "syntax", "bad", ("cluster",)),
    error("a.json", "address", "worse", ("cluster", "worker", 0)),
]


def test_nothing_to_say_is_no_text() -> None:
    assert Notes().empty
    assert write_notes(Notes()) == ""


def test_the_lines_then_the_findings_then_the_hints() -> None:
    notes = Notes(["note: first"], ERRORS, hints=["fix it", "or this"])
    assert not notes.empty
    assert write_notes(notes) == (
        "note: first\n"
        "a.json: cluster: bad\n"
        "a.json: cluster.worker[0]: worse\n"
        "hint: fix it\n"
        "hint: or this\n"
    )


def test_counted_findings_are_followed_by_their_count_before_the_hints() -> None:
    notes = Notes(findings=ERRORS, counted=True, hints=["fix it"])
    assert write_notes(notes).splitlines()[-2:] == ["2 errors in 1 of 1 file", "hint: fix it"]


def test_a_count_needs_findings() -> None:
    assert write_notes(Notes(["a line"], counted=True)) == "a line\n"


def test_each_kind_of_note_alone_is_something_to_say() -> None:
    assert not Notes(["a line"]).empty
    assert not Notes(findings=ERRORS[:1]).empty
    assert not Notes(hints=["a hint"]).empty
