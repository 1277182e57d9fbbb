r"""The commands of a shell script, and the values they assign to one variable.

A script is split into simple commands at newlines and at ``;``, ``&``,
``|``, ``&&``, ``||``, ``(`` and ``)``; ``#`` at the start of a word starts a
comment, and the bodies of here-documents are passed over.  Reserved words
(``if``, ``then``, ``fi``, ``case``, ``esac``, loops, ``{`` and ``}``) are
counted, so that an assignment inside a compound command, a function or a
subshell is told from one at the top level.

Which assignments count is the shell's: ``NAME=value`` alone, or as an
argument of ``export``, ``readonly``, ``declare``, ``typeset`` or ``local``,
sets the variable (of several in one command, the last); ``NAME=value cmd``
and ``env NAME=value cmd`` set it for that command alone.  A script that
runs a command keeps, of the assignments at its top level, the last one
(``unset NAME`` and ``export -n NAME`` drop it), as the shell does; one
inside ``if``, ``case``, a loop, a function or a subshell, or after ``&&``
or ``||``, is kept beside it, since which one runs is known only when the
script runs.  A file that only sets variables (what ``estconf tf-config
--format shell`` writes, one ``export`` a task) keeps every assignment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final, Literal

from estconf._shell.words import Assignment, ShellSyntaxError, Word, Words

__all__ = ["assignments"]

_BLANKS: Final = re.compile(r"(?:[ \t]|\\\n)+")
_DECLARATIONS: Final = frozenset({"export", "readonly", "declare", "typeset", "local"})
_SETS_VARIABLES: Final = _DECLARATIONS | {"unset", "set", ":"}
"""Commands that run no program: a file of these alone only sets variables."""
_PASSED_TO_THE_NEXT_WORD: Final = frozenset({"exec", "nohup", "command", "builtin"})
_NO_OPS: Final = frozenset({"then", "do", "else", "elif", "!", "time", "in"})
_OPENED_BY: Final = {"if": "if", "while": "loop", "until": "loop", "for": "loop", "select": "loop"}
_CLOSED_BY: Final = {"fi": "if", "done": "loop", "esac": "case", "}": "group"}
_ENV_OPTIONS_WITH_ARGUMENT: Final = frozenset({"-u", "-C", "-S", "--unset", "--chdir"})

Scope = Literal["set", "command", "unset"]


@dataclass(frozen=True)
class _Event:
    """An assignment to the variable (``set`` it, for one ``command``) or its ``unset``."""

    scope: Scope
    assignment: Assignment | None
    conditional: bool
    own: bool
    """In a function or a subshell: never replaced by what the top level sets later."""


@dataclass
class _Command:
    """A simple command being read."""

    conditional: bool
    prefix: list[Word] = field(default_factory=list)
    name: str | None = None
    named: bool = False
    """Whether a word other than an assignment came: the command's name, known or not."""
    arguments: list[Word] = field(default_factory=list)
    env_options_done: bool = False
    env_skip_next: bool = False


def assignments(text: str, variable: str) -> list[Assignment]:
    """The assignments of ``variable`` in the script ``text`` that the shell may use, in order.

    Raises:
        ShellSyntaxError: a quote, ``$(``, ``${``, a backquote or a
            here-document that nothing closes.
    """
    reader = _Script(text, variable)
    reader.read()
    return reader.chosen()


class _Script:
    """Reads a script's commands in one pass, noting what each does with the variable."""

    def __init__(self, text: str, variable: str) -> None:
        self.text = text
        self.variable = variable
        self.words = Words(text)
        self.events: list[_Event] = []
        self.runs_command = False
        self.compound: list[str] = []
        """The compound commands the reader is in: if, loop, case, group, subshell, function."""
        self.conditional_depth = 0
        self.own_depth = 0
        self.in_pipeline = False
        self.function_next = False
        self.function_name_next = False
        self.heredocs: list[tuple[int, str, bool]] = []
        self.command = _Command(conditional=False)

    # -- reading -----------------------------------------------------------------------

    def read(self) -> None:
        """Read the whole text, command by command."""
        text = self.text
        size = len(text)
        i = 0
        while i < size:
            blanks = _BLANKS.match(text, i)
            if blanks is not None:
                i = blanks.end()
                continue
            char = text[i]
            if char == "\n":
                self.end_command(and_or=False)
                i = self.pass_heredocs(i + 1)
            elif char == "#":
                newline = text.find("\n", i)
                i = size if newline < 0 else newline
            elif char in ";&|()":
                i = self.operator(i)
            elif char in "<>":
                i = self.redirection(i)
            else:
                word, end = self.words.word(i, assignment=True)
                redirected = text[end : end + 1] in ("<", ">")
                if not (redirected and (word.literal or "").isdigit()):  # 2>err.log: 2 is no word
                    self.take(word)
                i = end
        self.end_command(and_or=False)
        if self.heredocs:
            offset, delimiter, _ = self.heredocs[0]
            raise ShellSyntaxError(
                offset,
                f"the here-document opened here has no line {delimiter!r} that ends it",
                f"end the here-document with a line that holds {delimiter!r} alone",
            )

    def operator(self, i: int) -> int:
        """Read the control operator at ``i``: the command before it ends."""
        text = self.text
        two = text[i : i + 2]
        if two in ("&&", "||"):
            self.end_command(and_or=True)
            return i + 2
        if two in (";;", ";&"):
            self.end_command(and_or=False)
            return i + 3 if text[i : i + 3] == ";;&" else i + 2
        if two == "|&":
            self.end_command(and_or=False, subshell=True)
            self.in_pipeline = True
            return i + 2
        char = text[i]
        if char == "(":
            if self.command.named and not self.command.arguments and not self.command.prefix:
                closing = _BLANKS.match(text, i + 1)
                after = closing.end() if closing is not None else i + 1
                if text[after : after + 1] == ")":  # name () compound: a function
                    self.command = _Command(conditional=self.command.conditional)
                    self.function_next = True
                    return after + 1
            self.end_command(and_or=False)
            self.open("function" if self.function_next else "subshell")
            return i + 1
        if char == ")":
            self.end_command(and_or=False)
            if self.compound and self.compound[-1] == "case":
                return i + 1  # the end of a pattern
            self.close(("subshell", "function"))
            return i + 1
        # a pipeline's commands, and one run in the background, run in subshells
        self.end_command(and_or=False, subshell=char in "&|")
        self.in_pipeline = char == "|"
        return i + 1

    def redirection(self, i: int) -> int:
        """Pass over a redirection and its word; note a here-document to pass over."""
        text = self.text
        operator = re.match(r"<<-|<<<|<<|<>|<&|>&|>>|>\||<|>", text[i : i + 3])
        assert operator is not None
        end = i + operator.end()
        blanks = _BLANKS.match(text, end)
        if blanks is not None:
            end = blanks.end()
        if end >= len(text) or text[end] in "\n;&|()<>":
            return end
        word, after = self.words.word(end, assignment=False)
        if operator[0] in ("<<", "<<-"):
            self.heredocs.append((i, word.value, operator[0] == "<<-"))
        return after

    def pass_heredocs(self, i: int) -> int:
        """Pass over the bodies of the here-documents of the line that ended before ``i``."""
        text = self.text
        size = len(text)
        for offset, delimiter, strip_tabs in self.heredocs:
            while True:
                if i >= size:
                    raise ShellSyntaxError(
                        offset,
                        f"the here-document opened here has no line {delimiter!r} that ends it",
                        f"end the here-document with a line that holds {delimiter!r} alone",
                    )
                newline = text.find("\n", i)
                end = size if newline < 0 else newline
                line = text[i:end]
                i = end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
        self.heredocs.clear()
        return i

    # -- commands ----------------------------------------------------------------------

    def take(self, word: Word) -> None:
        """Take one word of the current command."""
        command = self.command
        if self.function_name_next:  # function NAME { ...; }
            self.function_name_next = False
            self.function_next = True
            return
        if not command.named:
            literal = word.literal
            if not command.prefix and literal is not None and self.reserved(literal):
                return
            if word.name is not None:
                command.prefix.append(word)
                return
            command.named = True
            command.name = literal
            return
        if command.name in _PASSED_TO_THE_NEXT_WORD and not command.arguments:
            if word.literal is not None and word.literal.startswith("-"):
                return  # exec -a NAME is rare; its options are passed over
            command.name = word.literal
            return
        if command.name == "env" and not command.env_options_done:
            if command.env_skip_next:
                command.env_skip_next = False
                return
            literal = word.literal
            if literal is not None and literal.startswith("-"):
                command.env_skip_next = literal in _ENV_OPTIONS_WITH_ARGUMENT
                return
            if word.name is not None:
                self.braces(word)
                command.prefix.append(word)
                return
            command.env_options_done = True
            command.name = word.literal
        command.arguments.append(word)

    def reserved(self, word: str) -> bool:
        """Whether ``word``, first in a command, is a reserved word (and count it)."""
        if word in _NO_OPS:
            return True
        if word in _OPENED_BY:
            self.open(_OPENED_BY[word])
            return True
        if word == "case":
            self.open("case")
            return True
        if word == "{":
            self.open("function" if self.function_next else "group")
            return True
        if word in _CLOSED_BY:
            self.close(("group", "function") if word == "}" else (_CLOSED_BY[word],))
            return True
        if word == "function":
            self.function_name_next = True
            return True
        return False

    def open(self, kind: str) -> None:
        self.function_next = False
        self.compound.append(kind)
        if kind in ("if", "loop", "case"):
            self.conditional_depth += 1
        elif kind in ("function", "subshell"):
            self.own_depth += 1

    def close(self, kinds: tuple[str, ...]) -> None:
        """Close the innermost compound command of one of ``kinds``, and those inside it.

        A word that closes none (a ``fi`` too many) is passed over: the reader
        counts compound commands to tell where an assignment is, and leaves
        the shell's own syntax errors to the shell.
        """
        for depth in range(len(self.compound) - 1, -1, -1):
            if self.compound[depth] in kinds:
                for kind in self.compound[depth:]:
                    if kind in ("if", "loop", "case"):
                        self.conditional_depth -= 1
                    elif kind in ("function", "subshell"):
                        self.own_depth -= 1
                del self.compound[depth:]
                return

    def end_command(self, *, and_or: bool, subshell: bool = False) -> None:
        """End the current command: note what it did with the variable; start the next.

        A command run in a subshell (in the background, in a pipeline) sets
        nothing in the script's shell: only what it sets for a command counts.
        """
        command = self.command
        conditional = command.conditional or self.conditional_depth > 0
        own = self.own_depth > 0
        empty = not command.named and not command.prefix
        events = len(self.events) if subshell or self.in_pipeline else -1
        if not empty:  # a pipeline goes on after a newline: `a |` then `b` on the next line
            self.in_pipeline = False
        name = command.name
        if command.named and name not in _SETS_VARIABLES:
            self.runs_command = True
        if not command.named:
            self.note("set", command.prefix, conditional, own)
        elif name in _DECLARATIONS:
            self.declaration(command, conditional, own)
        elif name == "unset":
            if any(word.literal == self.variable for word in command.arguments) and not any(
                word.literal == "-f" for word in command.arguments
            ):
                self.events.append(_Event("unset", None, conditional, own))
        else:
            self.note("command", command.prefix, conditional, own)
        if events >= 0:  # what a subshell sets is lost with it
            self.events[events:] = [e for e in self.events[events:] if e.scope == "command"]
        # a list goes on after a newline: `a &&` then `b` on the next line
        self.command = _Command(conditional=and_or or (empty and command.conditional))

    def declaration(self, command: _Command, conditional: bool, own: bool) -> None:
        """``export NAME=value`` and the like: each argument ``NAME=value`` sets NAME."""
        options = [w.literal for w in command.arguments if (w.literal or "").startswith("-")]
        unexport = command.name == "export" and "-n" in options
        setting = []
        for word in command.arguments:
            if word.name == self.variable:
                self.braces(word)
                setting.append(word)
            elif unexport and word.literal == self.variable:
                self.events.append(_Event("unset", None, conditional, own))
        if unexport and setting:
            self.events.append(_Event("unset", None, conditional, own))
        elif setting:
            self.note("set", setting, conditional, own)

    def braces(self, word: Word) -> None:
        """Note that bash expands the ``{a,b}`` of ``word``, an argument of a command.

        sh does not, and neither does in an assignment before a command.
        """
        if word.braces == 3:
            word.expands(self.text, word.brace_at, word.end, "brace")

    def note(self, scope: Scope, words: list[Word], conditional: bool, own: bool) -> None:
        """The last of ``words`` that assigns the variable, as an event of ``scope``."""
        mine = [word for word in words if word.name == self.variable]
        if mine:
            self.events.append(_Event(scope, mine[-1].assignment(), conditional, own))

    # -- choosing ------------------------------------------------------------------------

    def chosen(self) -> list[Assignment]:
        """The assignments the shell may use: see the module's docstring."""
        events = self.events
        if not self.runs_command:
            return [e.assignment for e in events if e.assignment is not None]
        top = [i for i, e in enumerate(events) if e.scope != "command" and not e.conditional]
        top = [i for i in top if not events[i].own]
        last = top[-1] if top else -1
        found = []
        for index, event in enumerate(events):
            if event.assignment is None:
                continue
            if (
                event.scope == "command"
                or event.own
                or index == last
                or (event.conditional and index > last)
            ):
                found.append(event.assignment)
        return found
