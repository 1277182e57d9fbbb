"""Inputs: what a command is given, what it holds, read once and checked.

An input is a file, a directory walked, standard input or ``<(command)``
(:mod:`~estconf.io.sources`); it holds a config file, a TF_CONFIG,
Kubernetes manifests (:mod:`~estconf.inputs.manifests`), TFJobs
(:mod:`~estconf.launchers.kubeflow.tfjobs`), a launcher's spec
(:mod:`~estconf.launchers.vertex.reading`), env lists, env or shell lines.
:mod:`~estconf.io.reading` reads each syntax with the checks every
document gets (size, depth, NaN, lone surrogates), and :func:`check` checks
inputs as ``estconf validate`` does, by what they hold.  The CLI reads
through this package; the checkers (:mod:`estconf.kubeflow`,
:mod:`estconf.deployment`, :mod:`estconf.profiles`, the file pipeline
:mod:`estconf.io`) sit below it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from estconf.inputs.checks import Report, check

__all__ = ["Report", "check"]


def __getattr__(name: str) -> Any:
    # imported on first use: a command imports the modules of this package it uses
    if name in __all__:
        from estconf.inputs import checks

        return getattr(checks, name)
    raise AttributeError(f"module 'estconf.inputs' has no attribute {name!r}")
