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
