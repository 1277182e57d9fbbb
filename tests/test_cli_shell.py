"""``estconf validate`` and ``check-cluster`` on the scripts and env files of tests/data/shell.

The outputs are pinned exactly; the commands run in that directory so that
the names are short.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_main import run

DATA = Path(__file__).resolve().parent / "data" / "shell"
EXPANSION_HINT = (
    "hint: estconf reads the file without running it: write the value out in single quotes, "
    "or check the value where the job runs: printenv TF_CONFIG | estconf validate -\n"
)
QUOTED = (
    "compose.env:3:11: TF_CONFIG: the value is quoted: Docker Compose and python-dotenv remove "
    "the quotes, but docker run --env-file keeps them, and TensorFlow then reads no JSON"
)
QUOTED_HINT = (
    "hint: for docker run --env-file, write the value on one line without quotes, as estconf "
    "tf-config --format env writes it\n"
)


@pytest.fixture(autouse=True)
def _in_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)
    monkeypatch.delenv("TF_CONFIG", raising=False)


class TestValidate:
    def test_a_start_script_with_a_tf_config_over_lines(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run(capsys, "validate", "-v", "start_worker.sh") == (
            0,
            "start_worker.sh: valid, kind shell (from file name)\n1 file valid\n",
            "",
        )

    def test_its_errors_are_at_their_line_and_column_in_the_file(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run(capsys, "validate", "trailing_comma.sh") == (
            1,
            "trailing_comma.sh:6:3: TF_CONFIG: invalid JSON: Expecting property name enclosed in "
            "double quotes (a trailing comma: JSON allows none after the last item)\n"
            "1 error in 1 of 1 file\n",
            "",
        )

    def test_a_rule_broken_is_at_the_value_it_is_about(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", "--format", "json", "hostname_index.sh")
        assert status == 2
        [found] = json.loads(out)["files"][0]["errors"]
        assert (found["code"], found["line"], found["column"]) == ("shell_expansion", 5, 47)
        status, out, _ = run(capsys, "validate", "job/worker-1.sh", "--profile", "ps")
        assert (status, out.splitlines()[0]) == (
            1,
            "job/worker-1.sh:5:33: TF_CONFIG.cluster: There must be at least one ps.",
        )

    def test_double_quotes_and_escapes(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", "job/worker-1.sh", "job/worker-0.sh", "by_role.sh") == (
            0,
            "3 files valid\n",
            "",
        )

    def test_a_value_known_only_when_the_script_runs(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Exit 2, as for a file that cannot be read: nothing of it can be checked."""
        assert run(capsys, "validate", "hostname_index.sh") == (
            2,
            "hostname_index.sh:5:47: TF_CONFIG: the value depends on the shell at run time: "
            "$(hostname | sed 's/.*-//') is a command the shell runs when the script runs\n"
            + EXPANSION_HINT
            + "1 error in 1 of 1 file\n",
            "",
        )

    def test_a_quote_not_closed(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", "quote_left_open.sh") == (
            1,
            "quote_left_open.sh:2:18: the single quote opened here is not closed before the end "
            "of the file\nhint: close the quote; a ' cannot be written inside single quotes: end "
            "them, write \\', and open them again ('it'\\''s')\n1 error in 1 of 1 file\n",
            "",
        )

    def test_an_env_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", "compose.env", "job/chief.env") == (
            0,
            f"{QUOTED}\n{QUOTED_HINT}1 warning in 1 of 2 files\n",
            "",
        )
        assert run(capsys, "validate", "--strict", "compose.env")[0] == 1

    def test_a_script_that_sets_no_tf_config(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        script = tmp_path / "train.sh"
        script.write_text("#!/bin/sh\npython train.py\n", encoding="utf-8")
        assert run(capsys, "validate", str(script)) == (
            1,
            f"{script}: no line of the file sets TF_CONFIG\n1 error in 1 of 1 file\n",
            "",
        )

    def test_a_directory_is_walked_for_config_files_only(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Scripts are checked when named: a repository's other scripts are not config files."""
        status, out, _ = run(capsys, "validate", "job")
        assert (status, out) == (
            2,
            "job: is a directory with no .json, .toml, .yaml or .yml file\n"
            "1 error in 1 of 1 file\n",
        )


class TestCheckCluster:
    def test_a_job_of_scripts_and_an_env_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "check-cluster", "job") == (0, "3 nodes, 1 cluster: valid\n", "")
        status, out, _ = run(capsys, "check-cluster", "--format", "json", "job")
        assert (status, json.loads(out)["nodes"]) == (
            0,
            ["job/chief.env:3", "job/worker-0.sh:5", "job/worker-1.sh:5"],
        )

    def test_a_start_script_with_a_tf_config_over_lines(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The value is read whole: no false 'invalid JSON', no word of a Python dict."""
        status, out, _ = run(capsys, "check-cluster", "start_worker.sh")
        assert status == 1
        assert out.endswith("1 node, 1 cluster: 2 findings\n")
        assert "cluster: task worker:1 (trainer-worker-1.trainer:2222) of the cluster" in out
        assert "Python dict" not in out

    def test_a_script_that_chooses_by_role_gives_a_node_each(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run(capsys, "check-cluster", "by_role.sh") == (0, "2 nodes, 1 cluster: valid\n", "")

    def test_an_error_in_the_json_is_at_its_place_in_the_file(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run(capsys, "check-cluster", "trailing_comma.sh") == (
            2,
            "",
            "trailing_comma.sh:6:3: TF_CONFIG: invalid JSON: Expecting property name enclosed in "
            "double quotes (a trailing comma: JSON allows none after the last item)\n",
        )

    def test_a_value_known_only_when_the_script_runs(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run(capsys, "check-cluster", "hostname_index.sh") == (
            2,
            "",
            "hostname_index.sh:5:47: TF_CONFIG: the value depends on the shell at run time: "
            "$(hostname | sed 's/.*-//') is a command the shell runs when the script runs\n"
            + EXPANSION_HINT,
        )

    def test_a_quote_not_closed(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "check-cluster", "quote_left_open.sh")
        assert (status, out) == (2, "")
        assert err.startswith(
            "quote_left_open.sh:2:18: the single quote opened here is not closed before the end "
            "of the file\nhint: close the quote"
        )

    def test_an_env_files_quoted_value_is_a_note(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "check-cluster", "compose.env", "job")
        assert status == 1  # compose.env is a second worker:1
        assert out.endswith(f"{QUOTED_HINT}note: {QUOTED}\n4 nodes, 1 cluster: 1 finding\n")
        assert "note:" not in run(capsys, "check-cluster", "job")[1]

    def test_what_tf_config_writes_is_read_back(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """One ``export`` a task, each a node; so with ``--format env``."""
        cluster = tmp_path / "cluster.json"
        cluster.write_text('{"chief": ["c:2222"], "worker": ["w0:2222", "w1:2222"]}')
        for fmt, suffix in (("shell", ".sh"), ("env", ".env")):
            status, out, _ = run(capsys, "tf-config", str(cluster), "--format", fmt)
            nodes = tmp_path / f"nodes{suffix}"
            nodes.write_text(out, encoding="utf-8")
            assert status == 0
            assert run(capsys, "check-cluster", str(nodes)) == (
                0,
                "3 nodes, 1 cluster: valid\n",
                "",
            )
