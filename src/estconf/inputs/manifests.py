"""The TF_CONFIGs Kubernetes manifests set, each checked as a TF_CONFIG file is.

A Pod, a Job or any workload whose containers set ``TF_CONFIG`` in their
``env``, and a ConfigMap or a Secret holding a ``TF_CONFIG`` key, carry the
TF_CONFIG a program will read.  ``estconf
validate`` checks each such value where it is, under the profile, and
``estconf check-cluster`` takes each as a node.  A TFJob is checked as a
whole instead (:mod:`estconf.launchers.kubeflow.tfjobs`): the operator writes its TF_CONFIGs.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from estconf._path import format_path
from estconf.io import kinds, parse
from estconf.io._positions import Loc, Position
from estconf.io.errors import ConfigFileError, FileError, error, error_again
from estconf.io.reading import documents as _documents
from estconf.io.reading import read_stream

if TYPE_CHECKING:
    from estconf.io.checks import Limits
    from estconf.io.errors import Result

__all__ = ["KIND", "check_text", "placed", "tf_config_set_in", "tf_configs_in"]

KIND: Final = "manifest"
"""The kind ``validate`` reports for a file of Kubernetes manifests that set TF_CONFIG."""

_VARIABLE: Final = "TF_CONFIG"
# where a manifest of these kinds holds plain strings by key
_STRING_DATA: Final = {"ConfigMap": ("data",), "Secret": ("stringData",)}
# and where a Secret holds base64 text (as `kubectl get secret -o yaml` prints it)
_BASE64_DATA: Final = {"Secret": ("data",)}


def tf_configs_in(data: Any, path: Loc = ()) -> Iterator[tuple[Loc, str]]:
    """Yield ``(path, value)`` for each TF_CONFIG value the manifest ``data`` sets as text.

    The values are those of ``env`` entries named ``TF_CONFIG`` (a
    ``valueFrom`` is read only in a pod, and is passed over) and of a
    ``TF_CONFIG`` key of a ConfigMap's ``data`` or a Secret's ``stringData``
    (or its ``data``, decoded from base64: text that is not base64 of UTF-8 is
    none, as the API server refuses it), at any depth: workloads nest their pod
    templates, and lists their items.
    """
    if isinstance(data, list):
        for index, item in enumerate(data):
            yield from tf_configs_in(item, (*path, index))
        return
    if not isinstance(data, Mapping):
        return
    for key in _STRING_DATA.get(str(data.get("kind")), ()):
        holder = data.get(key)
        if isinstance(holder, Mapping) and isinstance(holder.get(_VARIABLE), str):
            yield (*path, key, _VARIABLE), holder[_VARIABLE]
    for key in _BASE64_DATA.get(str(data.get("kind")), ()):
        holder = data.get(key)
        if isinstance(holder, Mapping) and isinstance(holder.get(_VARIABLE), str):
            text = _from_base64(holder[_VARIABLE])
            if text is not None:
                yield (*path, key, _VARIABLE), text
    for key, value in data.items():
        if key == "env" and isinstance(value, list):
            for index, entry in enumerate(value):
                if _is_tf_config_entry(entry):
                    yield (*path, key, index, "value"), entry["value"]
        elif isinstance(value, (list, Mapping)):
            yield from tf_configs_in(value, (*path, key))


def placed(
    document: parse.Document, values: list[tuple[Loc, str]]
) -> Iterator[tuple[Loc, str, Position | None]]:
    """Each ``(path, value)`` of ``document`` with where its value is written, found in one walk."""
    spans = document.locate(path for path, _ in values)
    for path, value in values:
        span = spans.get(path)
        yield path, value, None if span is None else span.value


def _manifest_documents(
    raw: bytes, fmt: str, name: str, limits: Limits
) -> list[parse.Document] | None:
    """The documents of a file that may hold Kubernetes manifests; None when it cannot.

    A file that cannot hold a manifest (:func:`estconf.io.kinds.may_hold_manifest`)
    is not parsed here; one that cannot be parsed is left to the config file pipeline.
    """
    if fmt not in kinds.MANIFEST_FORMATS or not kinds.may_hold_manifest(raw):
        return None
    try:
        return _documents(read_stream(raw, name, fmt, limits))
    except ConfigFileError:
        return None


def _from_base64(value: str) -> str | None:
    """The text a Secret's ``data`` value encodes, or None when it is not base64 of UTF-8."""
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _is_tf_config_entry(entry: Any) -> bool:
    """Whether an ``env`` entry sets TF_CONFIG to a text written in the manifest."""
    return (
        isinstance(entry, Mapping)
        and entry.get("name") == _VARIABLE
        and isinstance(entry.get("value"), str)
    )


def check_text(
    raw: bytes, fmt: str, name: str, profile: str | None, limits: Limits
) -> Result | None:
    """Check each TF_CONFIG the manifests of a file set; None when they set none.

    A file that is not Kubernetes manifests, or cannot be read as them, is
    left to the config file pipeline, which reports it; so is one manifest
    alone that sets none.  A stream of several manifests that set none is
    refused here (``kubernetes_manifest``), rather than as a config file
    that holds more than one document.
    """
    from estconf.io.errors import Result

    documents = _manifest_documents(raw, fmt, name, limits)
    if documents is None:
        return None
    found = [
        (document, list(tf_configs_in(document.data)))
        for document in documents
        if isinstance(document.data, Mapping) and kinds.manifest_of(document.data) is not None
    ]
    if not any(values for _, values in found):
        return _setting_none(documents, found, name)
    errors: list[FileError] = []
    for document, values in found:
        for path, value, position in placed(document, values):
            for inner in _tf_config_errors(value, name, profile, limits):
                where = f"TF_CONFIG {inner.path}" if inner.path else "TF_CONFIG"
                message = f"{where}: {inner.message}"
                errors.append(
                    error_again(
                        name,
                        inner.code,
                        message,
                        path,
                        position=position,
                        value=inner.value,
                        severity=inner.severity,
                        hint=inner.hint,
                    )
                )
    return Result(name, KIND, errors, profile=profile)


def tf_config_set_in(raw: bytes, fmt: str, name: str, limits: Limits) -> tuple[str, str] | None:
    """The one TF_CONFIG value the Kubernetes manifests of a file set, and where it is.

    Where is ``FILE (path)``: the name its errors are reported under.

    None when the file holds no manifest that sets one (a TF_CONFIG file, a
    TFJob, a Service): the config file pipeline reads it, and refuses what it
    must.

    Raises:
        ValueError: the manifests set several TF_CONFIGs, which are not one node's.
    """
    documents = _manifest_documents(raw, fmt, name, limits)
    found: list[tuple[str, str, str]] = []
    for document in documents or ():
        data = document.data
        if not isinstance(data, Mapping) or kinds.manifest_of(data) is None or kinds.is_tfjob(data):
            continue
        for path, value, position in placed(document, list(tf_configs_in(data))):
            line = name if position is None else f"{name}:{position.line}"
            found.append((value, f"{name} ({format_path(path)})", line))
    if len(found) > 1:
        lines = ", ".join(line for _, _, line in found[:3]) + (", ..." if len(found) > 3 else "")
        raise ValueError(
            f"{name} sets {len(found)} TF_CONFIGs ({lines}), one a node: check them together "
            f"with estconf check-cluster {name}"
        )
    return found[0][:2] if found else None


def _setting_none(
    documents: list[parse.Document],
    manifests: list[tuple[parse.Document, list[tuple[Loc, str]]]],
    name: str,
) -> Result | None:
    """The refusal of a stream of manifests none of which sets TF_CONFIG, or None."""
    from estconf.io.errors import Result

    written = [document for document in documents if document.data is not None]
    if len(manifests) < 2 or len(manifests) != len(written):
        return None
    objects = sorted({str(document.data["kind"])[:80] for document, _ in manifests})
    message = (
        f"a stream of {len(manifests)} Kubernetes manifests ({', '.join(objects)}) of which none "
        f"sets TF_CONFIG, not {kinds.file_of(None)}"
    )
    return Result(name, None, [error(name, "kubernetes_manifest", message)])


def _tf_config_errors(
    value: str, name: str, profile: str | None, limits: Limits
) -> list[FileError]:
    """What a TF_CONFIG file holding ``value`` breaks under ``profile``, and its warnings and notes.

    With no profile, the Estimator's rules for this task alone, as for a
    TF_CONFIG file.
    """
    from estconf.io.files import load_file

    try:
        loaded = load_file(
            name,
            "tf_config",
            format="json",
            content=value.encode("utf-8", "surrogatepass"),
            profile=profile,
            max_size=limits.max_size,
            max_depth=limits.max_depth,
            max_values=limits.max_values,
            max_documents=limits.max_documents,
        )
    except ConfigFileError as exc:
        return exc.errors
    return list(loaded.findings)
