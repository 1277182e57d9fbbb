r"""Shell scripts and env files read without running them: the values they assign to a variable.

:func:`script_assignments` reads a shell script (``.sh``) by the POSIX
shell's rules (:mod:`estconf._shell.words` for its words,
:mod:`estconf._shell.script` for its commands and which of their
assignments the shell may use); :func:`env_assignments` reads an env file
(``.env``) by the common dotenv rules (:mod:`estconf._shell.dotenv`).  Each
value comes with where each of its characters is written in the file, so
that a place in the value is a place in the file (:meth:`Assignment.origin`),
and with what in it the shell would expand when it runs
(:class:`Expansion`), in which case its value is not known beforehand.

    >>> from estconf._shell import script_assignments
    >>> [found] = script_assignments("A=1 TF_CONFIG='{}' python train.py\n", "TF_CONFIG")
    >>> found.value, found.value_offset, found.origin(0)
    ('{}', 14, 15)
"""

from __future__ import annotations

from estconf._shell.dotenv import assignments as env_assignments
from estconf._shell.script import assignments as script_assignments
from estconf._shell.words import Assignment, Expansion, ExpansionKind, ShellSyntaxError, position

__all__ = [
    "Assignment",
    "Expansion",
    "ExpansionKind",
    "ShellSyntaxError",
    "env_assignments",
    "position",
    "script_assignments",
]
