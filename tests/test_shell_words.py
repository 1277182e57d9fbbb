"""estconf._shell.words: a script's words as a POSIX shell reads them, each character placed."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf._shell import Assignment, ShellSyntaxError, position, script_assignments
from estconf._shell.words import Words
from values import is_a_value

from complexity import BOUND, growth


def value_of(text: str) -> Assignment:
    """The one assignment of TF_CONFIG in ``text``."""
    [found] = script_assignments(text, "TF_CONFIG")
    return found


def placed(found: Assignment, text: str) -> str:
    """The characters of the file each character of the value is said to come from."""
    return "".join(text[found.origin(index)] for index in range(len(found.value)))


class TestQuotes:
    @pytest.mark.parametrize(
        ("word", "value"),
        [
            ("'{\"a\": 1}'", '{"a": 1}'),
            ("'a\nb'", "a\nb"),  # single quotes span lines
            ("'$x `y` \\n'", "$x `y` \\n"),  # and keep their text as it is
            ('"a\\$b\\`c\\"d\\\\e"', 'a$b`c"d\\e'),  # in double quotes: $ ` " \ escaped
            ('"a\\nb\\{"', "a\\nb\\{"),  # any other backslash is kept
            ('"a\\\nb"', "ab"),  # a backslash-newline joins the lines
            ('"a\nb"', "a\nb"),  # double quotes span lines
            ("\\'a\\ b", "'a b"),  # outside quotes a backslash keeps the next character
            ("a\\\nb", "ab"),
            ("'a'\"b\"c", "abc"),  # pieces of one word
            ("a#b", "a#b"),  # a # inside a word starts no comment
            ("$", "$"),  # a $ that starts nothing is itself
            ('"$"', "$"),
            ("a$.b", "a$.b"),
            ("x~", "x~"),  # a ~ after the start of the value is itself
            ("'~'", "~"),
            ("\\~", "~"),
            ("", ""),
            ("a\\", "a\\"),  # a backslash that ends the text stays, as in bash
        ],
    )
    def test_a_value_is_unquoted_as_the_shell_does(self, word: str, value: str) -> None:
        assert value_of(f"TF_CONFIG={word}").value == value

    def test_each_character_of_a_value_is_placed_where_it_is_written(self) -> None:
        text = 'export TF_CONFIG=\'{\n  "a": 1\n}\'"x\\"y"z\\\nw\n'
        found = value_of(text)
        assert found.value == '{\n  "a": 1\n}x"yzw'
        assert placed(found, text) == found.value
        assert found.origin(0) == text.index("{")
        assert found.origin(len(found.value)) == len(text) - 1  # just after the last character
        assert (found.offset, found.value_offset) == (7, 17)

    def test_quoted_says_whether_quotes_or_backslashes_were_removed(self) -> None:
        assert not value_of("TF_CONFIG={}").quoted
        assert value_of("TF_CONFIG='{}'").quoted
        assert value_of("TF_CONFIG=\\{}").quoted

    @given(st.text(st.characters(exclude_characters="\x00")))
    def test_a_text_quoted_with_shlex_reads_back_as_itself(self, value: str) -> None:
        """What ``shlex.quote`` writes (as ``tf-config --format shell`` does) reads back, placed."""
        text = f"#!/bin/sh\nexport TF_CONFIG={shlex.quote(value)}\n"
        found = value_of(text)
        assert (found.value, found.expansion) == (value, None)
        assert placed(found, text) == value


class TestExpansions:
    @pytest.mark.parametrize(
        ("word", "kind", "shown"),
        [
            ('"$(hostname)"', "command", "$(hostname)"),
            ("$(a $(b ')') \"$(c)\")", "command", "$(a $(b ')') \"$(c)\")"),
            ("$(echo a # )\n)", "command", "$(echo a # )\n)"),  # a comment inside
            ("`hostname`", "command", "`hostname`"),
            ('"`a \\` b`"', "command", "`a \\` b`"),
            ("$((1 + 2))", "command", "$((1 + 2))"),
            ("$INDEX", "parameter", "$INDEX"),
            ('"{\\"index\\": $INDEX}"', "parameter", "$INDEX"),
            ("${INDEX:-0}", "parameter", "${INDEX:-0}"),
            ("$1", "parameter", "$1"),
            ("$\\\nX", "parameter", "$\\\nX"),  # the shell joins the lines first
            ("~/x", "tilde", "~"),
            ("~trainer/x", "tilde", "~trainer"),
            ("a:~/x", "tilde", "~"),
            ("$'{}'", "dollar_quote", "$'{}'"),  # bash and dash read these differently
            ("$'a\\'b'", "dollar_quote", "$'a\\'b'"),
            ('$"x"', "dollar_quote", '$"x"'),
        ],
    )
    def test_what_the_shell_expands_is_said_not_guessed(
        self, word: str, kind: str, shown: str
    ) -> None:
        found = value_of(f"A=1\nTF_CONFIG={word}\n")
        assert found.expansion is not None
        assert (found.expansion.kind, found.expansion.text) == (kind, shown)
        assert found.expansion.offset == len("A=1\nTF_CONFIG=") + word.index(shown[0])

    def test_an_expansion_is_shown_cut_short(self) -> None:
        found = value_of("TF_CONFIG=$(" + "x" * 100 + ")")
        assert found.expansion is not None
        assert found.expansion.text == "$(" + "x" * 58 + "..."

    def test_append_depends_on_the_value_before(self) -> None:
        found = value_of("TF_CONFIG+='{}'")
        assert found.expansion is not None
        assert found.expansion.kind == "append"

    def test_nothing_in_single_quotes_is_expanded(self) -> None:
        assert value_of("TF_CONFIG='$(a) $b ${c} `d` ~'").expansion is None


class TestNotClosed:
    @pytest.mark.parametrize(
        ("text", "offset", "what"),
        [
            ("export TF_CONFIG='{\n}\npython train.py\n", 17, "the single quote opened here"),
            ('TF_CONFIG="{\\"', 10, "the double quote opened here"),
            ("TF_CONFIG=$(hostname", 10, "the $( opened here"),
            ("TF_CONFIG=${X", 10, "the ${ opened here"),
            ("TF_CONFIG=`x", 10, "the backquote opened here"),
            ("TF_CONFIG=$'x\\'", 10, "the $' quote opened here"),
            ("TF_CONFIG=$(echo 'x)", 10, "the $( opened here"),
            ('A="$(echo "x)"', 3, "the $( opened here"),  # the ) is quoted inside
        ],
    )
    def test_an_error_at_what_is_not_closed(self, text: str, offset: int, what: str) -> None:
        with pytest.raises(ShellSyntaxError) as raised:
            script_assignments(text, "TF_CONFIG")
        assert raised.value.offset == offset
        assert raised.value.message == f"{what} is not closed before the end of the file"
        assert raised.value.hint.startswith("close the")

    def test_an_error_anywhere_in_the_file_stops_it(self) -> None:
        """The shell reads no further: what comes after an unclosed quote is no command."""
        with pytest.raises(ShellSyntaxError):
            script_assignments("export TF_CONFIG='{}'\necho 'oops\n", "TF_CONFIG")


def test_an_assignment_is_a_value() -> None:
    """An assignment read is never changed: equal ones hash equal and are one key."""
    is_a_value(lambda: value_of("TF_CONFIG='{}' python x\n"))


def test_position() -> None:
    assert position("ab\ncd", 0) == (1, 1)
    assert position("ab\ncd", 4) == (2, 2)


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("quotes", "TF_CONFIG='a'\"b\"\\c"),
        ("nesting", "TF_CONFIG=$(a"),  # $( $( $( ... each a level deeper
        ("escapes", 'TF_CONFIG="\\"\\$'),
    ],
)
def test_reading_takes_time_linear_in_the_text(kind: str, text: str) -> None:
    def reading(size: int) -> Callable[[], object]:
        if kind == "nesting":
            body = "A=" + "$(" * size + ")" * size
        else:
            body = text + text[len("TF_CONFIG=") :] * size + ('"' if kind == "escapes" else "")
        return lambda: Words(body).word(0, assignment=True)

    assert growth(reading, 4000) < BOUND


# -- the shells themselves ---------------------------------------------------------------

SHELLS = [shell for shell in ("sh", "bash", "dash") if shutil.which(shell)]
ASSIGNMENTS = [
    "TF_CONFIG='{\"a\": 1}'",
    'export TF_CONFIG=\'{\n  "task": {"type": "worker", "index": 0}\n}\'',
    'export TF_CONFIG="{\\"a\\": \\"b\\\\nc\\", \\"$\\": \\"\\`\\"}"',
    'TF_CONFIG="a\\\nb\\qc"',
    "TF_CONFIG=a\\ b\\'c",
    "A=1 TF_CONFIG='x' B=2",
    "export TF_CONFIG=1 TF_CONFIG=2",
    "TF_CONFIG='it'\\''s'",
    "TF_CONFIG=x # a comment\nTF_CONFIG=y#not-a-comment",
    "TF_CONFIG='{}'; export TF_CONFIG",
    "export TF_CONFIG='{}' & wait",  # set in the background: lost with its subshell
    "TF_CONFIG='a' | cat",
    'TF_CONFIG=old\nexport TF_CONFIG="$(printf x)" && TF_CONFIG=new',
    "cat <<'EOF' >/dev/null\nTF_CONFIG='not this'\nEOF\nTF_CONFIG=this",
    "cat <<-EOF >/dev/null\n\tTF_CONFIG=no\n\tEOF\nTF_CONFIG=yes",
    "TF_CONFIG={a:1}",
    'TF_CONFIG="{\\"a\\": \'b\'}"',
]


@pytest.mark.skipif(not SHELLS, reason="no POSIX shell on this machine")
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("text", ASSIGNMENTS)
def test_a_file_that_only_sets_variables_reads_as_the_shell_sources_it(
    tmp_path: Path, shell: str, text: str
) -> None:
    """The value the shell has after ``. ./file`` is the last one read, where one is known."""
    script = tmp_path / "set.sh"
    script.write_text(text + "\n", encoding="utf-8")
    done = subprocess.run(
        [shell, "-c", f'. "{script}"; printf %s "${{TF_CONFIG-unset}}"'],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    found = script_assignments(text + "\n", "TF_CONFIG")
    known = [a for a in found if a.expansion is None]
    shells_value = done.stdout
    if shells_value == "unset":
        assert not found
    elif found[-1].expansion is None:
        assert known[-1].value == shells_value
