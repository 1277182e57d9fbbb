"""Where the TF_CONFIG a program would read comes from, for ``estconf explain``.

First match wins: a file or ``-`` given (a TF_CONFIG file; a Kubernetes
manifest that sets one; a pod of a TFJob, whose TF_CONFIG the operator
writes), else the ``TF_CONFIG`` environment variable, else none.
:func:`tf_config_source` finds it once and reads its text;
:func:`read_tf_config` reads that text as a model.  What ``explain``
explains is read by :func:`run_config_to_explain` (the estimator's
RunConfig, with a RunConfig file's arguments) and
:func:`tf_config_to_explain` (the TF_CONFIG alone, for the other readers).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError, error
from estconf.io.sources import (
    STDIN,
    STDIN_NAME,
    InputError,
    environ_bytes,
    format_for,
    manifest_bytes,
    read_stdin,
)
from estconf.launchers.kubeflow.pods import PodChoice, pod_tf_config

if TYPE_CHECKING:
    from pydantic import BaseModel

    from estconf import RunConfig, TFConfig
    from estconf.io.kinds import Kind

__all__ = [
    "EMPTY",
    "NOT_SET",
    "TFConfigSource",
    "read_tf_config",
    "run_config_to_explain",
    "tf_config_source",
    "tf_config_to_explain",
]

NOT_SET = "none (TF_CONFIG is not set)"
"""What is said of the source when no TF_CONFIG is given or set."""

EMPTY = "TF_CONFIG is set but empty; unset it or give a JSON object"
"""The ``tf_config_empty`` error of a TF_CONFIG given as empty text."""

_VARIABLE = "TF_CONFIG"


@dataclass(frozen=True)
class TFConfigSource:
    """A TF_CONFIG found, and what is said of where it comes from.

    Exactly one of ``text`` and ``file`` is set, or neither: no TF_CONFIG
    (none is set, or the pod chosen gets none).

    Attributes:
        said: where the TF_CONFIG comes from, for people (``stdin``, a file,
            ``FILE (path)``, the environment variable, ``none (...)``).
        name: the name the TF_CONFIG's errors are reported under.
        text: the TF_CONFIG's text, when it is not a file's.
        file: the TF_CONFIG file to read, in ``format``.
        format: the format of ``text`` or ``file`` (None: the file's name tells it).
        variable: whether the text is the environment variable's.
    """

    said: str
    name: str | None = None
    text: str | bytes | None = None
    file: str | None = None
    format: str | None = "json"
    variable: bool = False


def tf_config_source(
    given: str | None,
    *,
    input_format: str | None = None,
    choice: PodChoice = (None, None),
    limits: Limits | None = None,
    note: Callable[[str], object] = lambda _: None,
) -> TFConfigSource:
    """The TF_CONFIG of ``given`` (a file or ``-``), else of the environment, else none.

    Args:
        given: the file or ``-`` given, if any.
        input_format: the format of standard input, and of a file whose name tells none.
        choice: ``--pod NAME`` and ``--task TYPE:INDEX``: a pod of a TFJob given.
        limits: the limits of reading (the defaults if None).
        note: given what is said beside the TF_CONFIG (see :func:`pod_tf_config`).

    Raises:
        InputError: a pod is chosen and the input holds no TFJob, or it holds
            one and no pod is chosen, or the manifests given set several
            TF_CONFIGs.
        ConfigFileError: standard input is too large, or the TFJob cannot be
            read or is refused.
    """
    limits = limits or Limits()

    def pod_of(raw: str | bytes | None, name: str) -> TFConfigSource | None:
        found = None
        if raw is not None:
            raw = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
            found = pod_tf_config(raw, name, choice, limits, note)
        if found is None and choice != (None, None):
            raise InputError(
                f"--pod and --task name a pod of a TFJob manifest; {name} holds no TFJob"
            )
        return None if found is None else _set(*found)

    if given == STDIN:
        text = read_stdin(limits.max_size)
        pod = pod_of(text, STDIN_NAME)
        if pod is not None:
            return pod
        return TFConfigSource("stdin", STDIN_NAME, text, format=input_format or "json")
    if given is not None:
        found = _set_in_manifest(given, input_format, limits, pod_of)
        if found is not None:
            return found
        return TFConfigSource(given, given, file=given, format=format_for(given, input_format))
    if _VARIABLE in os.environ:
        text = environ_bytes(_VARIABLE)
        return TFConfigSource(
            "the TF_CONFIG environment variable", f"${_VARIABLE}", text, variable=True
        )
    return TFConfigSource(NOT_SET)


def _set(text: str | None, where: str) -> TFConfigSource:
    return TFConfigSource(where, where, text)


def _set_in_manifest(
    given: str,
    input_format: str | None,
    limits: Limits,
    pod_of: Callable[[str | bytes | None, str], TFConfigSource | None],
) -> TFConfigSource | None:
    """The TF_CONFIG a Kubernetes manifest given sets, and where; else None.

    For a TFJob, the TF_CONFIG the operator gives the pod chosen (none where
    it sets none).
    """
    from estconf.inputs.manifests import tf_config_set_in

    manifest = manifest_bytes(given, None, format_for(given, input_format), limits.max_size)
    if manifest is None:
        return pod_of(None, given)
    raw, manifest_format = manifest
    pod = pod_of(raw, given)
    if pod is not None:
        return pod
    try:
        found = tf_config_set_in(raw, manifest_format, given, limits)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return None if found is None else _set(*found)


def read_tf_config(
    found: TFConfigSource,
    kind: str | type[BaseModel] | Kind,
    limits: Limits | None = None,
    *,
    empty_refused: bool = True,
) -> BaseModel | None:
    """The TF_CONFIG found, read as ``kind`` with every check of a TF_CONFIG file; None if none.

    Empty text is refused (``tf_config_empty``): a variable's always, other
    text when ``empty_refused``, else as an empty file is.

    Raises:
        ConfigFileError: the TF_CONFIG is not valid, its errors at ``found.name``.
    """
    from estconf import files

    given = dataclasses.asdict(limits or Limits())
    if found.file is not None:
        return files.load(found.file, kind, format=found.format, **given)
    if found.text is None or found.name is None:
        return None
    if (empty_refused or found.variable) and not found.text.strip():
        raise ConfigFileError(
            found.name, [error(found.name, "tf_config_empty", EMPTY)], kind="tf_config"
        )
    return files.loads(found.text, found.format or "json", kind, name=found.name, **given)


def run_config_to_explain(
    given: str | None,
    config_file: str | None = None,
    *,
    input_format: str | None = None,
    choice: PodChoice = (None, None),
    limits: Limits | None = None,
    note: Callable[[str], object] = lambda _: None,
) -> tuple[RunConfig, str]:
    """The RunConfig ``explain`` explains, and where its TF_CONFIG comes from.

    The TF_CONFIG is the ``tf_config`` key of ``config_file``, else the one
    :func:`tf_config_source` finds; a ``config_file`` gives the RunConfig's
    other arguments (a ``tpu.RunConfig``'s, with a ``tpu_config`` key).

    Args:
        given: the TF_CONFIG file or ``-`` given, if any.
        config_file: the RunConfig file given, if any.
        input_format: the format of standard input, and of a file whose name tells none.
        choice: ``--pod NAME`` and ``--task TYPE:INDEX``: a pod of a TFJob given.
        limits: the limits of reading (the defaults if None).
        note: given what is said beside the TF_CONFIG.

    Raises:
        InputError: ``config_file`` has a ``tf_config`` key and a TF_CONFIG is
            given too, or the TF_CONFIG given cannot be taken (see
            :func:`tf_config_source`).
        ConfigFileError: the RunConfig file or the TF_CONFIG cannot be read or
            is not valid, or the RunConfig file's arguments refuse the TF_CONFIG.
    """
    from pydantic import ValidationError

    from estconf import RunConfig
    from estconf.inputs.run_config_files import read_run_config_file
    from estconf.io.errors import errors_of

    limits = limits or Limits()
    config: RunConfig | None = None
    data: dict[str, object] = {}
    if config_file is not None:
        data, model = read_run_config_file(config_file, input_format, limits)
        assert isinstance(model, RunConfig)
        config = model
    if config is not None and "tf_config" in data:
        if given is not None:
            raise InputError(f"{config_file} has a tf_config key; drop it or --tf-config, not both")
        return config, f"{config_file} (tf_config)"
    found = tf_config_source(
        given, input_format=input_format, choice=choice, limits=limits, note=note
    )
    tf_config = _tf_config(found, "tf_config", limits)
    if config is None:
        return RunConfig(tf_config=tf_config), found.said
    try:
        merged = type(config).model_validate({**data, "tf_config": tf_config}, strict=True)
    except ValidationError as exc:
        name = f"{config_file} with TF_CONFIG from {found.said}"
        raise ConfigFileError(name, errors_of(exc, name), kind="run_config") from None
    return merged, found.said


def tf_config_to_explain(
    given: str | None,
    *,
    profile: str = "estimator",
    readers: bool = False,
    input_format: str | None = None,
    choice: PodChoice = (None, None),
    limits: Limits | None = None,
    note: Callable[[str], object] = lambda _: None,
) -> tuple[TFConfig, str]:
    """The TF_CONFIG ``explain`` shows a reader, read as ``TFConfig`` alone: no reader's rules yet.

    Where ``profile`` reads more than a ``TFConfig`` (``server`` also reads
    how the task index is written: ``"1"`` is refused by the ``ServerDef``),
    the data is checked as ``validate --profile`` checks it; not for
    ``readers`` (every reader, side by side).  No TF_CONFIG, or empty text,
    is an empty one.

    Args:
        given: the TF_CONFIG file or ``-`` given, if any.
        profile: the reader it is shown to.
        readers: it is shown to every reader.
        input_format: the format of standard input, and of a file whose name tells none.
        choice: ``--pod NAME`` and ``--task TYPE:INDEX``: a pod of a TFJob given.
        limits: the limits of reading (the defaults if None).
        note: given what is said beside the TF_CONFIG.

    Raises:
        InputError: the TF_CONFIG given cannot be taken (see :func:`tf_config_source`).
        ConfigFileError: it cannot be read or is not valid.
    """
    import functools

    from estconf import TFConfig
    from estconf.io import kinds
    from estconf.profiles import check_profile
    from estconf.profiles.registry import entry_named

    checks: tuple[Callable[[object], object], ...] = ()
    if not readers and entry_named(profile).written_check is not None:
        checks = (functools.partial(check_profile, profile=profile),)
    plain = dataclasses.replace(kinds.get("tf_config"), checks=checks, checks_read_data=True)
    limits = limits or Limits()
    found = tf_config_source(
        given, input_format=input_format, choice=choice, limits=limits, note=note
    )
    return _tf_config(found, plain, limits, empty_refused=False) or TFConfig(), found.said


def _tf_config(
    found: TFConfigSource, kind: str | Kind, limits: Limits, *, empty_refused: bool = True
) -> TFConfig | None:
    from estconf import TFConfig

    model = read_tf_config(found, kind, limits, empty_refused=empty_refused)
    assert model is None or isinstance(model, TFConfig)
    return model
