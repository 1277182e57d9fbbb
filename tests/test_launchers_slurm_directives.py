"""estconf.launchers.slurm.directives: the ``#SBATCH`` lines of a script, as sbatch reads them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf.launchers.slurm.directives import (
    MAX_ARGUMENTS,
    MAX_DIRECTIVES,
    OPTIONS,
    SHORT,
    Script,
    read_script,
    shown,
)
from messages import too_long

DATA = Path(__file__).resolve().parent / "data" / "launchers" / "slurm"


def script(*lines: str, first: str = "#!/bin/bash") -> bytes:
    return "\n".join([first, *lines, "srun python train.py", ""]).encode()


def options(read: Script) -> list[tuple[str, str | None]]:
    return [(directive.option, directive.value) for directive in read.directives]


def errors(read: Script) -> list[tuple[str, int | None, int | None, str]]:
    return [(f.code, f.line, f.column, f.message) for f in read.findings]


class TestWhichLines:
    def test_directives_stop_at_the_first_command(self) -> None:
        read = read_script(script("#SBATCH -N 2", "echo hi", "#SBATCH -n 4"), "job.sh")
        assert options(read) == [("nodes", "2")]

    def test_blank_lines_and_comments_do_not_stop_them(self) -> None:
        lines = ("", "   ", "# comment", "   # indented comment", "\t", "#SBATCH -n 4")
        assert options(read_script(script(*lines), "job.sh")) == [("ntasks", "4")]

    @pytest.mark.parametrize("line", [" #SBATCH -N 2", "# SBATCH -N 2", "#sbatch -N 2"])
    def test_a_directive_starts_its_line_exactly(self, line: str) -> None:
        """An indented or misspelled #SBATCH is a comment, which sbatch passes over."""
        assert options(read_script(script(line, "#SBATCH -n 2"), "job.sh")) == [("ntasks", "2")]

    def test_a_body_of_any_size_is_not_read(self) -> None:
        body = b"echo " + b"x" * 30_000_000 + b"\n"
        start = time.process_time()
        read = read_script(script("#SBATCH -N 2") + body, "job.sh")
        assert options(read) == [("nodes", "2")]
        assert time.process_time() - start < 1.0

    def test_the_old_prefix_is_read_with_sbatchs_complaint_once(self) -> None:
        read = read_script(script("#SLURM -N 2", "#SLURM -n 2"), "job.sh")
        assert options(read) == [("nodes", "2"), ("ntasks", "2")]
        [found] = read.findings
        assert (found.code, found.severity, found.line, found.hint) == (
            "sbatch_slurm_prefix",
            "warning",
            2,
            "write #SBATCH",
        )
        assert found.message.startswith("Change from #SLURM to #SBATCH in your script")
        assert not read.failed

    def test_a_heterogeneous_job_is_refused_at_its_separator(self) -> None:
        read = read_script(script("#SBATCH -N 1", "#SBATCH hetjob", "#SBATCH -N 2"), "job.sh")
        assert errors(read)[0][:3] == ("sbatch_layout", 3, 9)
        assert read.failed

    def test_the_word_hetjob_inside_a_line_is_passed_over(self) -> None:
        assert options(read_script(script("#SBATCH -N 2 hetjob -n 2"), "job.sh")) == [
            ("nodes", "2"),
            ("ntasks", "2"),
        ]


class TestArguments:
    """A directive line is split as sbatch's ``get_argument`` splits it, not as a shell would."""

    @pytest.mark.parametrize(
        ("line", "value"),
        [
            ('#SBATCH -J "SNMG TensorFlow"  # Single node', "SNMG TensorFlow"),
            ("#SBATCH -J 'a b'", "a b"),
            ('#SBATCH -J a\\ b\\"c', 'a b"c'),
            ('#SBATCH -J "a\\"b"', 'a"b'),
            ("#SBATCH -J a#b", "a"),
            ('#SBATCH -J "a#b"', "a#b"),
            ('#SBATCH -J x"y z"w', "xy zw"),
            ("#SBATCH -J $USER-job", "$USER-job"),
        ],
    )
    def test_quotes_escapes_and_comments(self, line: str, value: str) -> None:
        assert options(read_script(script(line), "job.sh")) == [("job-name", value)]

    def test_an_argument_of_only_quotes_ends_the_line(self) -> None:
        """sbatch stops reading a line at ``""``: the option takes the next line's argument."""
        read = read_script(script('#SBATCH --comment "" -N 4', "#SBATCH -n 2"), "job.sh")
        assert options(read) == [("comment", "-n")]
        assert errors(read)[0][0] == "sbatch_syntax"  # "2" is no option

    def test_an_unmatched_quote_is_sbatchs_error_at_the_quote(self) -> None:
        read = read_script(script('#SBATCH --comment "nightly run'), "job.sh")
        assert errors(read) == [
            ("sbatch_syntax", 2, 19, 'Unmatched `"` in [#SBATCH --comment "nightly run]')
        ]

    def test_a_leading_colon_is_sbatchs_error(self) -> None:
        read = read_script(script("#SBATCH -N 2 :x"), "job.sh")
        assert errors(read) == [("sbatch_syntax", 2, 14, "Unexpected `:` in [#SBATCH -N 2 :x]")]

    def test_a_backslash_before_a_tab_ends_the_line(self) -> None:
        read = read_script(script("#SBATCH -N 2 -n \\\t3"), "job.sh")
        assert errors(read)[0][:3] == ("sbatch_option", 2, 14)  # -n lost its argument


class TestOptions:
    """The arguments are sbatch's command line, read by ``getopt_long``."""

    @pytest.mark.parametrize(
        "line", ["#SBATCH --nodes=2", "#SBATCH --nodes 2", "#SBATCH -N 2", "#SBATCH -N2"]
    )
    def test_every_spelling_of_an_option(self, line: str) -> None:
        assert options(read_script(script(line), "job.sh")) == [("nodes", "2")]

    def test_an_abbreviation_naming_one_option_stands_for_it(self) -> None:
        read = read_script(script("#SBATCH --ntasks-per-n=4 --gpus-per-t 1"), "job.sh")
        assert options(read) == [("ntasks-per-node", "4"), ("gpus-per-task", "1")]
        assert [d.written for d in read.directives] == ["--ntasks-per-n", "--gpus-per-t"]

    def test_tasks_per_node_is_ntasks_per_node(self) -> None:
        read = read_script(script("#SBATCH --tasks-per-node=4"), "job.sh")
        assert options(read) == [("ntasks-per-node", "4")]

    def test_an_ambiguous_abbreviation_is_refused_in_getopts_words(self) -> None:
        read = read_script(script("#SBATCH --nod=3"), "job.sh")
        assert errors(read) == [
            (
                "sbatch_option",
                2,
                9,
                "option '--nod' is ambiguous; possibilities: '--nodefile' '--nodelist' '--nodes'",
            )
        ]

    def test_short_options_run_together(self) -> None:
        read = read_script(script("#SBATCH -HvN2 -wn[1-2] -kx -k"), "job.sh")
        assert options(read) == [
            ("hold", None),
            ("verbose", None),
            ("nodes", "2"),
            ("nodelist", "n[1-2]"),
            ("no-kill", "x"),
            ("no-kill", None),
        ]
        assert [d.column for d in read.directives] == [9, 11, 12, 15, 24, 28]

    def test_a_required_argument_is_the_next_argument_whatever_it_is(self) -> None:
        assert options(read_script(script("#SBATCH -J -N2"), "job.sh")) == [("job-name", "-N2")]

    def test_an_optional_argument_is_given_with_equals_only(self) -> None:
        read = read_script(script("#SBATCH --exclusive=user --exclusive"), "job.sh")
        assert options(read) == [("exclusive", "user"), ("exclusive", None)]
        read = read_script(script("#SBATCH --exclusive user"), "job.sh")
        assert errors(read)[0][3] == "Invalid directive found in batch script: user"

    @pytest.mark.parametrize(
        ("line", "message"),
        [
            ("#SBATCH --contiguous=yes", "option '--contiguous' doesn't allow an argument"),
            ("#SBATCH --nodes", "option '--nodes' requires an argument"),
            ("#SBATCH -N", "option requires an argument -- 'N'"),
            ("#SBATCH -X", "invalid option -- 'X'"),
            ("#SBATCH train.py", "Invalid directive found in batch script: train.py"),
            ("#SBATCH -- -N 2", "Invalid directive found in batch script: -N"),
        ],
    )
    def test_what_getopt_refuses(self, line: str, message: str) -> None:
        read = read_script(script(line), "job.sh")
        assert [found.message for found in read.findings] == [message]
        assert read.failed and read.findings[0].line == 2

    def test_reading_stops_at_the_first_error_as_sbatch_stops(self) -> None:
        read = read_script(script("#SBATCH -N 2 -X", "#SBATCH -Y -n 3"), "job.sh")
        assert options(read) == [("nodes", "2")]
        assert len(read.findings) == 1

    def test_an_unknown_long_option_is_a_warning_passed_over_with_its_value(self) -> None:
        read = read_script(script("#SBATCH --ntask-per-node 4 -N 2", "#SBATCH --x=1"), "job.sh")
        assert options(read) == [("nodes", "2")]
        first, second = read.findings
        assert (first.code, first.severity, first.path, first.column) == (
            "sbatch_unknown_option",
            "warning",
            "--ntask-per-node",
            9,
        )
        assert first.hint == "did you mean --ntasks-per-node?"
        assert second.hint is None and not read.failed

    def test_an_option_sbatch_dropped_says_its_new_name(self) -> None:
        [found] = read_script(script("#SBATCH --workdir=."), "job.sh").findings
        assert found.hint == "sbatch 19.05 dropped --workdir: write --chdir"

    def test_the_last_directive_of_an_option_wins(self) -> None:
        read = read_script(script("#SBATCH -N 2", "#SBATCH --nodes=3"), "job.sh")
        last = read.last("nodes")
        assert last is not None and (last.value, last.line, last.column) == ("3", 3, 9)
        assert read.last("ntasks") is None

    def test_the_tables_hold_sbatchs_options(self) -> None:
        assert len(OPTIONS) == 120
        assert set(SHORT.values()) <= set(OPTIONS)
        assert (OPTIONS["nodes"], OPTIONS["exclusive"], OPTIONS["hold"]) == (
            "required",
            "optional",
            "none",
        )


class TestTheScriptAsAWhole:
    """What sbatch refuses before it reads a directive, in its order and words."""

    @pytest.mark.parametrize(
        ("data", "message", "where"),
        [
            (b"", "Batch script is empty!", (1, 1)),
            (b" \n\t\n", "Batch script contains only whitespace!", (1, 1)),
            (b"#SBATCH -N 2\n", "This does not look like a batch script.", (1, 1)),
            (b"#!/bin/sh\n#SBATCH -J \xc3\xa9\0\n", "a NULL character", (2, 13)),
            (b"#!/bin/sh\n#SBATCH -J \xff\xfe\0\n", "a NULL character", (2, 14)),
            (b"#!/bin/sh\r\n#SBATCH -N 2\r\n", "DOS line breaks", (1, 10)),
            (b"\xff\xfe#\x00!\x00", "This does not look like a batch script.", (1, 1)),
        ],
    )
    def test_refused(self, data: bytes, message: str, where: tuple[int, int]) -> None:
        read = read_script(data, "job.sh")
        [found] = read.findings
        assert (found.code, found.line, found.column) == ("sbatch_script", *where)
        assert message in found.message
        assert read.directives == ()

    def test_a_script_given_as_text_is_read_as_its_bytes(self) -> None:
        assert options(read_script("#!/bin/sh\n#SBATCH -J é\n", "-")) == [("job-name", "é")]


class TestHostile:
    def test_too_many_directive_lines(self) -> None:
        data = script(*["#SBATCH -v"] * (MAX_DIRECTIVES + 1))
        start = time.process_time()
        read = read_script(data, "job.sh")
        assert time.process_time() - start < 2.0
        assert errors(read)[-1][:3] == ("sbatch_script", MAX_DIRECTIVES + 2, 1)

    def test_too_many_arguments_on_one_line(self) -> None:
        read = read_script(script("#SBATCH" + " -v" * (MAX_ARGUMENTS + 1)), "job.sh")
        assert errors(read)[-1][0] == "sbatch_script"
        assert "more than 10,000 arguments" in errors(read)[-1][3]

    def test_a_huge_value_is_read_in_time_and_quoted_short(self) -> None:
        start = time.process_time()
        read = read_script(script('#SBATCH "' + "x" * 5_000_000 + '"'), "job.sh")
        assert time.process_time() - start < 2.0
        [found] = read.findings
        assert found.message.endswith("...") and len(found.message) < 200

    def test_bytes_that_are_not_utf8_are_shown_escaped(self) -> None:
        read = read_script(b"#!/bin/sh\n#SBATCH --x\xff=1 \xfe\n", "job.sh")
        said = [str(found) for found in read.findings]
        assert said[0].startswith("job.sh:2:9: --x\\xff: sbatch does not know the option")
        assert "found in batch script: \\xfe" in said[1]
        for text in said:
            text.encode("utf-8")  # no lone surrogate left to write

    def test_shown_cuts_and_escapes(self) -> None:
        assert shown("a" * 100, 5) == "aaaaa..."
        assert shown("a\udcffb") == "a\\xffb"


def test_every_message_is_short() -> None:
    lines = [
        "#SBATCH --nod=3",
        "#SBATCH --workdir=.",
        "#SBATCH --ntask-per-node=4",
        '#SBATCH -J "a',
        "#SBATCH x",
    ]
    for line in lines:
        for found in read_script(script(line), "job.sh").findings:
            assert too_long(str(found), ["job.sh"]) == [], found
            assert too_long(found.hint or "") == []


@st.composite
def spelled(draw: st.DrawFn) -> tuple[list[tuple[str, str]], bytes]:
    """Options of sbatch and a script that gives them, each written in one of its spellings."""
    chosen = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["nodes", "ntasks", "ntasks-per-node", "job-name", "gres"]),
                st.text("abc123:-_[],", min_size=1, max_size=8).filter(
                    lambda text: not text.startswith(":")
                ),
            ),
            max_size=6,
        )
    )
    letters = {long: short for short, long in SHORT.items()}
    words = []
    for option, value in chosen:
        forms = [f"--{option}={value}", f"--{option} {value}", f"--{option} '{value}'"]
        if option in letters:
            forms += [f"-{letters[option]}{value}", f'-{letters[option]} "{value}"']
        words.append(draw(st.sampled_from(forms)))
    lines: list[str] = []
    for word in words:
        if lines and lines[-1].startswith("#SBATCH") and draw(st.booleans()):
            lines[-1] += " " + word
        else:
            lines.append("#SBATCH " + word)
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(["", "# a comment", "   "])))
    return chosen, script(*lines)


@given(spelled())
def test_every_spelling_reads_as_the_same_options(
    case: tuple[list[tuple[str, str]], bytes],
) -> None:
    chosen, data = case
    read = read_script(data, "job.sh")
    assert read.findings == ()
    assert options(read) == chosen
