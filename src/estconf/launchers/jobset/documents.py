"""The objects of the documents read for a JobSet or a TrainJob, each where it is.

A JobSet, a TrainJob, a TrainingRuntime or a ClusterTrainingRuntime is told
by :func:`estconf.io.kinds.launcher_manifest`; it may be a document of a
YAML stream or an item of a ``List`` (``kubectl get -o yaml``).  The
ConfigMaps and Secrets beside them give the values of the variables the
pods take from them (:func:`configs_of`).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from estconf.io import kinds
from estconf.launchers.jobset.pods import Configs

if TYPE_CHECKING:
    from estconf._launchers import ManifestKind
    from estconf.io._positions import Loc
    from estconf.io.parse import Document

__all__ = ["Placed", "configs_of", "placed_in"]


@dataclass(frozen=True)
class Placed:
    """An object of a document, and where it is.

    Attributes:
        data: the object's manifest.
        declared: what it is, as :data:`estconf._launchers.MANIFEST_KINDS`
            declares it; None for a ConfigMap or Secret.
        document: the document it is in, which places its values in the text.
        prefix: its path in the document (``items[2]`` in a ``List``).
        file: the name of the input, as said.
    """

    data: Mapping[Any, Any]
    declared: ManifestKind | None
    document: Document
    prefix: Loc
    file: str

    @property
    def kind(self) -> str:
        """Its ``kind``: ``JobSet``, ``TrainJob``, ``ConfigMap``..."""
        return str(self.data.get("kind"))

    @property
    def name(self) -> str:
        """Its ``metadata.name`` as written, or empty."""
        metadata = self.data.get("metadata")
        name = metadata.get("name") if isinstance(metadata, Mapping) else None
        return name if isinstance(name, str) else ""


_CONFIGS = {"ConfigMap": ("data",), "Secret": ("stringData", "data")}


def placed_in(documents: Iterable[Document], file: str) -> list[Placed]:
    """The JobSets, TrainJobs, runtimes, ConfigMaps and Secrets of ``documents``, in order."""
    found = []
    for document in documents:
        for prefix, data in kinds.listed(document.data):
            declared = kinds.launcher_manifest(data)
            kind = data.get("kind")
            core = data.get("apiVersion") == "v1" and isinstance(kind, str) and kind in _CONFIGS
            if declared is not None or core:
                found.append(Placed(data, declared, document, prefix, file))
    return found


def configs_of(objects: Iterable[Placed]) -> Configs:
    """The ConfigMaps' and Secrets' keys, by namespace and name (a Secret's ``data`` decoded).

    A key of a Secret's ``data`` that is not base64 of UTF-8 text is left
    out, as the API server refuses it.
    """
    config_maps: dict[tuple[str, str], dict[str, str]] = {}
    secrets: dict[tuple[str, str], dict[str, str]] = {}
    for placed in objects:
        if placed.declared is not None:
            continue
        metadata = placed.data.get("metadata")
        metadata = metadata if isinstance(metadata, Mapping) else {}
        namespace = metadata.get("namespace") or "default"
        if not isinstance(namespace, str):
            continue
        keys: dict[str, str] = {}
        for holder in reversed(_CONFIGS[placed.kind]):  # stringData wins over data
            values = placed.data.get(holder)
            if not isinstance(values, Mapping):
                continue
            for key, value in values.items():
                text = _decoded(value) if holder == "data" and placed.kind == "Secret" else value
                if isinstance(key, str) and isinstance(text, str):
                    keys[key] = text
        found = config_maps if placed.kind == "ConfigMap" else secrets
        found[(namespace, placed.name)] = keys
    return Configs(config_maps, secrets)


def _decoded(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
