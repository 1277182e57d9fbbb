"""The file pipeline: config files read, checked and validated.

A file goes bytes -> text -> data -> model, and every problem found on the
way is one :class:`~estconf.io.errors.FileError` with a stable code:

- :mod:`estconf.io.errors`: the error record, the exception that carries them,
  and the result of checking one file;
- :mod:`estconf.io.checks`: the limits and checks every format shares (size,
  depth, NaN, lone surrogates, YAML alias expansion);
- :mod:`estconf.io.parse`: files read, decoded and parsed (JSON, TOML, YAML),
  with the line and column of each value;
- :mod:`estconf.io.keys`: which keys a file may give a model;
- :mod:`estconf.io.kinds`: the kinds of config file and how a file's kind is told;
- :mod:`estconf.io.files`: a file validated into its model.

What a check found is written by :mod:`estconf.reports`, in the formats of
:data:`REPORT_FORMATS`.

The package sits above the models (it imports them when a file needs them;
they never import it); :mod:`estconf.files` is its public face.
"""

__all__ = ["REPORT_FORMATS"]

REPORT_FORMATS = ("text", "json", "github", "sarif")
"""The formats of every report (``--format``): text, JSON, GitHub annotations, SARIF 2.1.0."""
