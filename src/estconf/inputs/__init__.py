"""Inputs: what a command is given, what it holds, read once and checked.

An input is a file, a directory walked, standard input or ``<(command)``;
it holds a config file, a TF_CONFIG, Kubernetes manifests, TFJobs, env
lists, env or shell lines, or a set of nodes.  :mod:`estconf.inputs.readers`
reads each syntax with the checks every document gets (size, depth, NaN,
lone surrogates).  The CLI reads through this package; the checkers
(:mod:`estconf.kubeflow`, :mod:`estconf.deployment`, :mod:`estconf.profiles`,
the file pipeline :mod:`estconf.io`) sit below it.
"""

from __future__ import annotations

__all__: list[str] = []
