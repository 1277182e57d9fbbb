"""estconf.io.files: a config file validated into its model, each problem at its place."""

from __future__ import annotations

import pytest

from estconf.io.errors import ConfigFileError
from estconf.io.files import load_file, loads
from values import is_a_value

SPARSE = (
    '{"cluster": {"chief": ["chief-0:2222"],\n'
    '             "worker": {"1": "worker-1:2222", "3": "not an address"}},\n'
    ' "task": {"type": "worker", "index": 1}}\n'
)


class TestPlaces:
    @pytest.mark.parametrize("format", ["json", "yaml"])
    def test_an_error_of_a_sparse_job_is_at_its_task(self, format: str) -> None:
        """A sparse job's task index is a key written as a string: the error is at that task."""
        with pytest.raises(ConfigFileError) as info:
            loads(SPARSE, format, "tf_config")
        (error,) = info.value.errors
        assert error.loc == ("cluster", "worker", "3")
        assert (error.line, error.column) == (2, 52)
        assert "'not an address' is not a valid task address" in error.message

    def test_an_unknown_key_in_a_list_of_objects_is_named_at_its_place(self) -> None:
        """The model refuses a key of an object in a list: the error names that key."""
        text = '{"session_config": {"session_inter_op_thread_pool": [{"num_thread": 2}]}}'
        with pytest.raises(ConfigFileError) as info:
            loads(text, "json", "run_config")
        (error,) = info.value.errors
        assert (error.code, error.loc, error.on_key) == (
            "unknown_key",
            ("session_config", "session_inter_op_thread_pool", 0, "num_thread"),
            True,
        )
        assert error.message == "unknown key 'num_thread'"
        assert (error.line, error.column) == (1, 55)


def test_a_file_loaded_is_a_value() -> None:
    """What load_file returns refuses assignment and hashes by its model and kind."""
    is_a_value(lambda: load_file("tf_config.json", content=b'{"task": {"type": "worker"}}'))
