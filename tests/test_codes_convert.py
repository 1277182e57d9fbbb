"""The codes of ``estconf convert tfjob-to-trainjob``: how bad each is, and its fix."""

from __future__ import annotations

from estconf.codes import declaration


def test_a_refusal_and_a_dropped_field_say_their_fix() -> None:
    assert declaration("convert_refused").fix == "convert one TFJob the operator accepts"
    assert declaration("convert_field_dropped").fix == (
        "do what the field did another way (a queue of Kueue for schedulingPolicy), or "
        "accept the default"
    )


def test_what_is_changed_or_replaced_is_a_note_with_no_fix() -> None:
    for code in ("convert_field_changed", "convert_tf_config_replaced"):
        found = declaration(code)
        assert (found.severity, found.fix) == ("note", "")
