"""estconf._shell.script: which assignments of a script the shell may use."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from estconf._shell import ShellSyntaxError, script_assignments

from complexity import BOUND, growth


def values(text: str) -> list[str]:
    """The values of TF_CONFIG the script ``text`` may give its program, in order."""
    return [found.value for found in script_assignments(text, "TF_CONFIG")]


class TestCommands:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("export TF_CONFIG=a", ["a"]),
            ("TF_CONFIG=a", ["a"]),
            ("readonly TF_CONFIG=a", ["a"]),
            ("declare -x TF_CONFIG=a", ["a"]),
            ("export A=1 TF_CONFIG=a B=2", ["a"]),
            ("export TF_CONFIG=a TF_CONFIG=b", ["b"]),  # of one command's, the last
            ("A=1 TF_CONFIG=a TF_CONFIG=b", ["b"]),
            ("TF_CONFIG=a python train.py", ["a"]),  # for this command alone
            ("env -i -u HOME TF_CONFIG=a python train.py", ["a"]),
            ("exec env TF_CONFIG=a python train.py", ["a"]),
            ("echo TF_CONFIG=a", []),  # an argument, not an assignment
            ("python train.py TF_CONFIG=a", []),
            ("export OTHER=1", []),
            ("export TF_CONFIG", []),
            ("# export TF_CONFIG=a", []),
            ("echo x # TF_CONFIG=a", []),
            ("TF_CONFIG=a; python train.py", ["a"]),
            ("export TF_CONFIG=a && python train.py", ["a"]),
            ("python 2>err.log TF_CONFIG=a", []),
            ("TF_CONFIG=a 2>err.log python train.py", ["a"]),
            ("", []),
        ],
    )
    def test_what_sets_the_variable(self, text: str, expected: list[str]) -> None:
        assert values(text + "\n") == expected

    def test_several_commands_on_one_line(self) -> None:
        assert values("A=1; export TF_CONFIG=a; B=2\n") == ["a"]

    def test_a_command_in_the_background_or_a_pipeline_sets_nothing_in_the_script(self) -> None:
        """Those run in subshells; what they set for their own command still counts."""
        assert values("export TF_CONFIG=a &\npython x\n") == []
        assert values("TF_CONFIG=a | cat\n") == []
        assert values("cat |\n  TF_CONFIG=a\n") == []  # the pipeline goes on after a newline
        assert values("TF_CONFIG=a python x &\nwait\n") == ["a"]


class TestWhichAssignmentCounts:
    def test_a_file_that_only_sets_variables_lists_every_one(self) -> None:
        """What ``tf-config --format shell`` writes: one ``export`` a task, each a node."""
        text = "# chief:0\nexport TF_CONFIG=a\n# worker:0\nexport TF_CONFIG=b\n"
        assert values(text) == ["a", "b"]

    def test_in_a_script_the_last_at_the_top_level_wins(self) -> None:
        text = "export TF_CONFIG=default\necho start\nexport TF_CONFIG=real\npython x\n"
        assert values(text) == ["real"]

    def test_unset_drops_it(self) -> None:
        assert values("export TF_CONFIG=a\nunset TF_CONFIG\npython x\n") == []
        assert values("export TF_CONFIG=a\nexport -n TF_CONFIG\npython x\n") == []
        assert values("export TF_CONFIG=a\nunset -f TF_CONFIG\npython x\n") == ["a"]
        assert values("export TF_CONFIG=a\nunset TF_CONFIG\nTF_CONFIG=b\npython x\n") == ["b"]

    def test_one_chosen_when_the_script_runs_is_kept_beside_the_others(self) -> None:
        text = (
            'if [ "$ROLE" = chief ]; then\n  export TF_CONFIG=chief\nelse\n'
            "  export TF_CONFIG=worker\nfi\npython x\n"
        )
        assert values(text) == ["chief", "worker"]
        case = (
            'case "$ROLE" in\n  chief) export TF_CONFIG=c ;;\n  *) export TF_CONFIG=w ;;\nesac\nx\n'
        )
        assert values(case) == ["c", "w"]
        assert values("[ -f x ] && export TF_CONFIG=a\npython x\n") == ["a"]
        assert values("[ -f x ] ||\n  export TF_CONFIG=a\npython x\n") == ["a"]
        assert values("for i in 1; do export TF_CONFIG=a; done\nx\n") == ["a"]
        assert values("while false; do\n  export TF_CONFIG=a\ndone\nx\n") == ["a"]

    def test_a_conditional_one_replaced_at_the_top_level_is_dropped(self) -> None:
        text = "if x; then export TF_CONFIG=a; fi\nexport TF_CONFIG=b\npython x\n"
        assert values(text) == ["b"]
        text = "export TF_CONFIG=b\nif x; then export TF_CONFIG=a; fi\npython x\n"
        assert values(text) == ["b", "a"]

    def test_one_in_a_function_or_a_subshell_is_its_own(self) -> None:
        """A function runs when it is called, a subshell's value is its own commands'."""
        text = "setup() {\n  export TF_CONFIG=fn\n}\nexport TF_CONFIG=top\nsetup\npython x\n"
        assert values(text) == ["fn", "top"]
        assert values("function setup { export TF_CONFIG=fn; }\nx\n") == ["fn"]
        assert values("setup() ( export TF_CONFIG=fn )\nx\n") == ["fn"]
        assert values("(export TF_CONFIG=sub; python x)\nexport TF_CONFIG=top\nx\n") == [
            "sub",
            "top",
        ]
        assert values("{ export TF_CONFIG=a; }\nexport TF_CONFIG=b\nx\n") == ["b"]  # a group

    def test_after_a_function_or_a_subshell_ends_the_last_at_the_top_level_wins_again(
        self,
    ) -> None:
        """Only what is inside the function or the subshell is its own."""
        text = "setup() {\n  :\n}\nexport TF_CONFIG=a\nexport TF_CONFIG=b\npython x\n"
        assert values(text) == ["b"]
        assert values("(cd /tmp)\nexport TF_CONFIG=a\nexport TF_CONFIG=b\npython x\n") == ["b"]

    def test_one_after_and_and_or_or_is_kept_beside_the_one_before(self) -> None:
        """Whether the command after ``&&`` or ``||`` runs is known only when the script runs."""
        text = "export TF_CONFIG=default\n[ -f x ] && export TF_CONFIG=a\npython x\n"
        assert values(text) == ["default", "a"]
        text = "export TF_CONFIG=default\n[ -f x ] || export TF_CONFIG=a\npython x\n"
        assert values(text) == ["default", "a"]

    def test_reserved_words_count_only_first_in_a_command(self) -> None:
        text = "echo if then fi\nexport TF_CONFIG=a\nexport TF_CONFIG=b\npython x\n"
        assert values(text) == ["b"]

    def test_one_for_a_command_is_its_own(self) -> None:
        """``TF_CONFIG=... python`` gives that program its own TF_CONFIG: one node each."""
        text = "TF_CONFIG=chief python x &\nTF_CONFIG=worker python x &\nwait\n"
        assert values(text) == ["chief", "worker"]


class TestBraces:
    @pytest.mark.parametrize(
        "text",
        ['export TF_CONFIG={"a":1,"b":2}', "env TF_CONFIG={a,b} python x"],
    )
    def test_braces_bash_expands_in_an_argument_depend_on_the_shell(self, text: str) -> None:
        [found] = script_assignments(text, "TF_CONFIG")
        assert found.expansion is not None
        assert (found.expansion.kind, found.expansion.offset) == ("brace", text.index("{"))

    @pytest.mark.parametrize(
        "text", ['TF_CONFIG={"a":1,"b":2}', 'export TF_CONFIG={"a":1}', "export TF_CONFIG='{a,b}'"]
    )
    def test_braces_no_shell_expands_are_kept(self, text: str) -> None:
        [found] = script_assignments(text, "TF_CONFIG")
        assert found.expansion is None


class TestHereDocuments:
    def test_their_bodies_are_passed_over(self) -> None:
        text = (
            "cat > /tmp/tf_config.json <<'EOF'\n{\"it's\": 1}\nexport TF_CONFIG=no\nEOF\n"
            "cat <<-END; export TF_CONFIG=yes\n\tTF_CONFIG=no\n\tEND\n"
        )
        assert values(text) == ["yes"]

    def test_two_on_one_line(self) -> None:
        assert values("cat <<A <<B\n'\nA\n'\nB\nexport TF_CONFIG=x\n") == ["x"]

    def test_one_not_ended_is_an_error_where_it_opens(self) -> None:
        with pytest.raises(ShellSyntaxError, match="no line 'EOF' that ends it") as raised:
            script_assignments("cat <<EOF\nexport TF_CONFIG=x\n", "TF_CONFIG")
        assert raised.value.offset == 4
        with pytest.raises(ShellSyntaxError):
            script_assignments("cat <<EOF", "TF_CONFIG")


def test_a_start_script() -> None:
    text = (
        "#!/bin/bash\nset -euo pipefail\n"
        'export TF_CONFIG=\'{\n  "cluster": {"worker": ["a:1"]},\n'
        '  "task": {"type": "worker", "index": 0}\n}\'\n'
        'exec python -m trainer.task "$@" 2>&1 | tee log\n'
    )
    [found] = script_assignments(text, "TF_CONFIG")
    assert found.value.startswith("{\n") and found.value.endswith("}")
    assert found.offset == text.index("TF_CONFIG")


@pytest.mark.parametrize(
    "line",
    [
        "export TF_CONFIG='{}'\n",
        "if x; then\n",  # compound commands nested deeper each line
        "f() { g; }\n",
        "cat <<EOF\nx\nEOF\n",
        "a && b || c | d & e ; f\n",
    ],
    ids=["assignments", "nesting", "functions", "here-documents", "operators"],
)
def test_reading_takes_time_linear_in_the_script(line: str) -> None:
    def reading(size: int) -> Callable[[], object]:
        text = line * size
        return lambda: script_assignments(text, "TF_CONFIG")

    assert growth(reading, 1000) < BOUND
