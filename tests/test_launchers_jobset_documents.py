"""estconf.launchers.jobset.documents: the JobSets, TrainJobs and ConfigMaps of documents."""

from __future__ import annotations

import base64

from estconf.io.parse import stream_of
from estconf.launchers.jobset.documents import configs_of, placed_in
from values import refuses_assignment

STREAM = """\
apiVersion: v1
kind: List
items:
  - apiVersion: jobset.x-k8s.io/v1alpha2
    kind: JobSet
    metadata: {name: a}
  - apiVersion: v1
    kind: Service
    metadata: {name: s}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: tf, namespace: ml}
data: {TF_CONFIG: "{}"}
---
apiVersion: v1
kind: Secret
metadata: {name: token}
data: {TOKEN: TOKEN_B64, BAD: "not base64!", BINARY: BINARY_B64}
stringData: {TOKEN: plain}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: t}
---
apiVersion: example.com/v1
kind: JobSet
""".replace("TOKEN_B64", base64.b64encode(b"t").decode()).replace(
    "BINARY_B64", base64.b64encode(b"\xff").decode()
)


def test_the_objects_are_found_in_lists_and_streams_with_their_place() -> None:
    found = placed_in(stream_of(STREAM, "s.yaml"), "s.yaml")
    assert [(placed.kind, placed.name, placed.prefix) for placed in found] == [
        ("JobSet", "a", ("items", 0)),
        ("ConfigMap", "tf", ()),
        ("Secret", "token", ()),
        ("TrainJob", "t", ()),
    ]
    assert [placed.declared is not None for placed in found] == [True, False, False, True]


def test_config_maps_and_secrets_are_read_by_namespace_and_name() -> None:
    configs = configs_of(placed_in(stream_of(STREAM, "s.yaml"), "s.yaml"))
    assert configs.config_maps == {("ml", "tf"): {"TF_CONFIG": "{}"}}
    # stringData wins over data, and what is not base64 of UTF-8 is left out
    assert configs.secrets == {("default", "token"): {"TOKEN": "plain"}}


def test_an_object_whose_kind_is_not_a_string_is_passed_over() -> None:
    """A ``kind`` written as a mapping or a list names no ConfigMap (it once raised a TypeError)."""
    text = (
        "apiVersion: v1\nkind: {name: ConfigMap}\nmetadata: {name: a}\ndata: {K: v}\n---\n"
        "apiVersion: v1\nkind: [Secret]\nmetadata: {name: b}\n---\n"
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {K: v}\n"
    )
    found = placed_in(stream_of(text, "s.yaml"), "s.yaml")
    assert [(placed.kind, placed.name) for placed in found] == [("ConfigMap", "c")]
    assert configs_of(found).config_maps == {("default", "c"): {"K": "v"}}


def test_a_secrets_data_alone_is_decoded_and_its_string_data_alone_read() -> None:
    text = (
        "apiVersion: v1\nkind: Secret\nmetadata: {name: d}\n"
        f"data: {{TOKEN: {base64.b64encode(b'{}').decode()}, SPACED: 'e3 0=', NUMBER: 1}}\n"
        "---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {TOKEN: plain}\n"
    )
    configs = configs_of(placed_in(stream_of(text, "s.yaml"), "s.yaml"))
    # base64 with a character out of its alphabet is refused, as the API server refuses it
    assert configs.secrets == {
        ("default", "d"): {"TOKEN": "{}"},
        ("default", "s"): {"TOKEN": "plain"},
    }


def test_an_object_found_cannot_be_changed() -> None:
    (found, *_) = placed_in(stream_of(STREAM, "s.yaml"), "s.yaml")
    refuses_assignment(found)
