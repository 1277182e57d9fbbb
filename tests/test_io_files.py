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
    is_a_value(
        lambda: load_file("tf_config.json", content=b'{"task": {"type": "worker", "index": 0}}')
    )


class TestAddressFindings:
    """A valid TF_CONFIG file's task at port 0 and loopback hosts, each at its line."""

    TWO_MACHINES = (
        '{"cluster": {"chief": ["localhost:2222"],\n'
        '             "worker": {"1": "10.0.0.2:0"}},\n'
        ' "task": {"type": "worker", "index": 1}}\n'
    )

    def test_a_valid_file_has_its_warnings_and_notes_at_their_lines(self) -> None:
        loaded = load_file("tf_config.json", content=self.TWO_MACHINES.encode())
        assert [
            (f.code, f.severity, f.path, f.line, f.column, f.file) for f in loaded.findings
        ] == [
            ("loopback_address", "note", "cluster.chief[0]", 1, 24, "tf_config.json"),
            ("port_zero", "warning", 'cluster.worker["1"]', 2, 30, "tf_config.json"),
        ]
        note, warning = loaded.findings
        assert note.message.startswith("note: chief:0 is at a loopback address ('localhost:2222')")
        assert warning.message.startswith("warning: '10.0.0.2:0' has port 0")
        assert warning.hint == "give the task a fixed port, e.g. '10.0.0.2:2222'"

    def test_an_invalid_file_has_them_beside_its_errors_when_its_cluster_is_valid(self) -> None:
        text = self.TWO_MACHINES.replace('"index": 1', '"index": 7')
        with pytest.raises(ConfigFileError) as info:
            load_file("tf_config.json", content=text.encode())
        assert [(e.code, e.severity) for e in info.value.errors] == [
            ("loopback_address", "note"),
            ("port_zero", "warning"),
            ("task_index_out_of_range", "error"),
        ]

    def test_beside_a_readers_error_at_the_cluster(self) -> None:
        """No chief is the estimator's error at ``cluster``, of a cluster valid as such."""
        text = b'{"cluster": {"worker": ["w0:0", "w1:1"]}, "task": {"type": "worker", "index": 0}}'
        with pytest.raises(ConfigFileError) as info:
            load_file("tf_config.json", content=text)
        assert [(e.code, e.path) for e in info.value.errors] == [
            ("missing_chief", "cluster"),
            ("port_zero", "cluster.worker[0]"),
        ]

    def test_none_when_the_cluster_has_an_error(self) -> None:
        text = self.TWO_MACHINES.replace("localhost:2222", "localhost:02222")
        with pytest.raises(ConfigFileError) as info:
            load_file("tf_config.json", content=text.encode())
        assert [(e.code, e.message, e.hint) for e in info.value.errors] == [
            (
                "address",
                "'localhost:02222' is not a valid task address: the port '02222' has leading zeros",
                "write it as 'localhost:2222'",
            )
        ]

    def test_none_of_a_cluster_of_one_task_or_of_another_kind(self) -> None:
        one = b'{"cluster": {"chief": ["localhost:0"]}, "task": {"type": "chief", "index": 0}}'
        assert load_file("tf_config.json", content=one).findings == ()
        run_config = b'{"model_dir": "/m"}'
        assert load_file("run_config.json", content=run_config).findings == ()

    def test_under_a_profile_too(self) -> None:
        text = (
            b'{"cluster": {"worker": ["localhost:1", "localhost:0"]}, '
            b'"task": {"type": "worker", "index": 0}}'
        )
        loaded = load_file("tf_config.json", content=text, profile="mwms")
        assert [f.code for f in loaded.findings] == ["loopback_address", "port_zero"]
