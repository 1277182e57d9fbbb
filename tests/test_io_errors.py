"""estconf.io.errors: a pydantic ValidationError's errors as the file pipeline's findings."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from estconf import TFConfig
from estconf.io.errors import ConfigFileError, FileError, errors_of, refused


def test_each_error_of_a_validation_error_is_a_file_error_at_its_path() -> None:
    with pytest.raises(ValidationError) as raised:
        TFConfig.model_validate({"cluster": {"worker": ["h:1", "nope"]}, "task": {"type": 5}})
    found = errors_of(raised.value, "--job mnist")
    assert all(isinstance(error, FileError) for error in found)
    assert [(e.file, e.code, e.path, e.line) for e in found] == [
        ("--job mnist", "address", "cluster.worker[1]", None),
        ("--job mnist", "string_type", "task.type", None),
    ]
    assert str(found[0]).startswith("--job mnist: cluster.worker[1]: 'nope' is not a valid task")


def test_a_config_file_error_carries_its_file_as_its_argument() -> None:
    """Like any ValueError, its ``args`` say what it is about: the file."""
    raised = refused("tf.json", "syntax", "not JSON")
    assert isinstance(raised, ConfigFileError)
    assert raised.args == ("tf.json",)
    assert repr(raised) == "ConfigFileError('tf.json')"
    assert str(raised) == "tf.json: not JSON"


def test_an_error_raised_again_is_no_refusal_unless_it_says_so() -> None:
    from estconf.io.errors import error_again

    assert not error_again("f.json", "int_type", "not an int").refused
    assert error_again("f.json", "int_type", "not an int", refused=True).refused


class TestErrorOf:
    """A check's finding as an error of a file: its label leads, all else is kept."""

    def test_the_label_leads_the_message_and_the_rest_is_kept(self) -> None:
        from estconf.finding import Finding
        from estconf.io.errors import error_of

        finding = Finding.at(
            "port_zero",
            "port 0",
            ("cluster", "worker", 0),
            value="h:0",
            severity="warning",
            hint="give a port",
            on_key=True,
        )
        made = error_of(finding, "c.json")
        assert (made.file, made.code, made.message, made.loc, made.path) == (
            "c.json",
            "port_zero",
            "warning: port 0",
            ("cluster", "worker", 0),
            "cluster.worker[0]",
        )
        assert (made.value, made.severity, made.hint, made.on_key, made.refused) == (
            "h:0",
            "warning",
            "give a port",
            True,
            False,
        )

    def test_a_refusal_says_refused_and_stays_one(self) -> None:
        from estconf.finding import Finding
        from estconf.io.errors import error_of

        made = error_of(Finding.at("tfjob_no_image", "no image", refused=True), "job.yaml")
        assert made.message == "refused: no image"
        assert made.refused

    def test_a_place_and_on_key_given_replace_the_findings(self) -> None:
        from estconf.finding import Finding
        from estconf.io.errors import error_of

        made = error_of(Finding.at("x", "m", ("a",)), "f.yaml", ("spec", "a"), on_key=True)
        assert (made.loc, made.path, made.on_key) == (("spec", "a"), "spec.a", True)
        assert not error_of(Finding.at("x", "m", ("a",)), "f.yaml", ("b",)).on_key
