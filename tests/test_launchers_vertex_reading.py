"""estconf.launchers.vertex.reading: a Vertex AI CustomJob spec and SageMaker's JSON files, read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError
from estconf.launchers.base import Notes
from estconf.launchers.vertex.reading import Replicas, vertex_replicas, vertex_spec
from estconf.reports.launchers import write_notes
from values import refuses_assignment

SPEC = "workerPoolSpecs:\n  - replicaCount: 1\n"
VERTEX = Path(__file__).parent / "data" / "launchers" / "vertex"


class TestVertexSpec:
    def test_a_yaml_file(self, tmp_path: Path) -> None:
        path = tmp_path / "job.yaml"
        path.write_text(SPEC, encoding="utf-8")
        document = vertex_spec(str(path), Limits())
        assert document.data == {"workerPoolSpecs": [{"replicaCount": 1}]}
        assert document.locate([("workerPoolSpecs", 0)])[("workerPoolSpecs", 0)].value.line == 2

    @pytest.mark.parametrize(
        ("text", "format"), [('{"workerPoolSpecs": []}', "json"), (SPEC, "yaml")]
    )
    def test_standard_input_is_json_when_it_starts_as_an_object(
        self, text: str, format: str
    ) -> None:
        document = vertex_spec("-", Limits(), text.encode())
        assert document.format == format

    def test_standard_input_is_a_dash_built_at_run_time_too(self) -> None:
        """``-`` names standard input by its value, not by being the same string object."""
        dash = "+".replace("+", "-")
        document = vertex_spec(dash, Limits(), b'{"workerPoolSpecs": []}')
        assert (document.format, document.data) == ("json", {"workerPoolSpecs": []})

    def test_a_toml_file_is_no_spec(self, tmp_path: Path) -> None:
        path = tmp_path / "job.toml"
        path.write_text("x = 1\n", encoding="utf-8")
        with pytest.raises(InputError, match=r"job\.toml: a CustomJob spec is YAML or JSON"):
            vertex_spec(str(path), Limits())

    def test_bad_utf8_is_said_before_the_format(self, tmp_path: Path) -> None:
        path = tmp_path / "job.toml"
        path.write_bytes(b"x = '\xff'\n")
        with pytest.raises(ConfigFileError) as info:
            vertex_spec(str(path), Limits())
        assert [found.code for found in info.value.errors] == ["encoding"]

    def test_a_nan_is_refused(self) -> None:
        with pytest.raises(ConfigFileError) as info:
            vertex_spec("-", Limits(), b"workerPoolSpecs: [{replicaCount: .nan}]\n")
        [found] = info.value.errors
        assert (found.code, found.path, found.line) == (
            "number",
            "workerPoolSpecs[0].replicaCount",
            1,
        )


class TestVertexReplicas:
    def spec(self, name: str) -> str:
        return str(VERTEX / name)

    def test_each_replicas_tf_config_with_a_note_on_the_job_id(self) -> None:
        name = self.spec("distributed.yaml")
        found = vertex_replicas(vertex_spec(name, Limits()), name)
        assert not found.failed
        assert found.labels[:3] == [
            "workerpool0-0: chief:0",
            "workerpool1-0: worker:0",
            "workerpool1-1: worker:1",
        ]
        assert [task for task, _ in found.outputs][:2] == [("chief", 0), ("worker", 0)]
        assert json.loads(found.outputs[1][1])["task"] == {"type": "worker", "index": 0}
        assert write_notes(found.notes) == (
            "note: Vertex AI names each replica's host after the job's id, chosen when the job "
            "is created; these use 'ab' (--job-id ID for another)\n"
        )

    def test_one_replica_of_a_job_whose_id_is_given(self) -> None:
        name = self.spec("distributed.yaml")
        found = vertex_replicas(vertex_spec(name, Limits()), name, job_id="123", task=("worker", 1))
        assert (found.labels, write_notes(found.notes)) == (["workerpool1-1: worker:1"], "")
        assert "123" in found.outputs[0][1]

    def test_cluster_specs_are_labelled_by_replica(self) -> None:
        name = self.spec("distributed.yaml")
        found = vertex_replicas(vertex_spec(name, Limits()), name, cluster_spec=True, job_id="x")
        assert found.labels[:2] == ["workerpool0-0", "workerpool1-0"]
        assert "workerpool0" in json.loads(found.outputs[0][1])["cluster"]

    def test_cluster_specs_of_a_job_the_profile_refuses_are_not_written(self) -> None:
        name = self.spec("mwms-evaluator.yaml")
        found = vertex_replicas(
            vertex_spec(name, Limits()), "job.yaml", profile="mwms", cluster_spec=True
        )
        assert (found.outputs, found.failed) == ([], True)
        assert write_notes(found.notes).startswith(
            "job.yaml:25:19: workerPoolSpecs[3].replicaCount: the "
        )

    def test_every_replica_is_seen_before_they_are_written(self) -> None:
        name = self.spec("distributed.yaml")
        seen: list[list[str]] = []
        found = vertex_replicas(
            vertex_spec(name, Limits()), name, before=lambda replicas: seen.append(list(replicas))
        )
        assert seen == [[label.split(":")[0] for label in found.labels]]

    def test_a_refused_spec_is_said_at_its_line(self) -> None:
        name = self.spec("primary-replicas.yaml")
        found = vertex_replicas(vertex_spec(name, Limits()), "job.yaml")
        assert (found.outputs, found.failed) == ([], True)
        assert write_notes(found.notes).startswith(
            "job.yaml:6:19: workerPoolSpecs[0].replicaCount: workerPoolSpecs[0] is the primary "
            "replica, the chief: its replicaCount must be 1, not 4"
        )

    def test_a_trial_in_each_task(self) -> None:
        name = self.spec("distributed.yaml")
        found = vertex_replicas(vertex_spec(name, Limits()), name, job_id="ab", trial=4)
        tasks = [json.loads(text)["task"] for _, text in found.outputs]
        assert {task["trial"] for task in tasks} == {"4"}
        assert found.labels[0] == "workerpool0-0: chief:0"

    def test_a_reduction_server_pool_is_said_at_its_image(self) -> None:
        name = self.spec("reduction-server.yaml")
        found = vertex_replicas(vertex_spec(name, Limits()), "job.yaml", job_id="ab")
        assert not found.failed
        assert found.labels == ["workerpool0-0: chief:0"] + [
            f"workerpool1-{i}: worker:{i}" for i in range(4)
        ]
        [note] = found.notes.findings
        assert (note.code, note.severity, note.line, note.column) == (
            "vertex_reduction_server",
            "note",
            29,
            17,
        )
        assert write_notes(found.notes) == (
            "job.yaml:29:17: workerPoolSpecs[2].containerSpec.imageUri: note: its 16 replicas "
            "run Vertex AI's Reduction Server, no TensorFlow and no parameter server: estconf "
            "leaves them out of the cluster and writes no TF_CONFIG for them, as Vertex AI does "
            "not document one\n"
        )

    def test_a_reduction_server_pool_in_the_cluster_specs(self) -> None:
        name = self.spec("reduction-server.yaml")
        found = vertex_replicas(
            vertex_spec(name, Limits()), "job.yaml", cluster_spec=True, job_id="ab"
        )
        assert found.labels[-1] == "workerpool2-15"
        assert write_notes(found.notes).endswith(
            "note: its 16 replicas run Vertex AI's Reduction Server, not TensorFlow; "
            "CLUSTER_SPEC lists them as workerpool2, as it lists every pool\n"
        )

    def test_a_reduction_server_pool_is_said_beside_what_the_reader_refuses(
        self, tmp_path: Path
    ) -> None:
        path = tmp_path / "job.json"
        image = "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest"
        spec = {
            "workerPoolSpecs": [
                {"replicaCount": 1},
                {"replicaCount": 1},
                {"replicaCount": 1, "container_spec": {"image_uri": image}},
                {"replicaCount": 1},
            ]
        }
        path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
        found = vertex_replicas(vertex_spec(str(path), Limits()), "job.json", profile="mwms")
        assert found.failed
        assert [(f.code, f.path) for f in found.notes.findings] == [
            ("vertex_reduction_server", "workerPoolSpecs[2].container_spec.image_uri"),
            ("missing_evaluator_job", "workerPoolSpecs[3].replicaCount"),
        ]
        assert "its replica runs Vertex AI's Reduction Server" in write_notes(found.notes)
        assert "estconf leaves it out of the cluster" in write_notes(found.notes)

    def test_a_spec_that_is_no_object(self, tmp_path: Path) -> None:
        path = tmp_path / "job.yaml"
        path.write_text("- 1\n", encoding="utf-8")
        found = vertex_replicas(vertex_spec(str(path), Limits()), "job.yaml")
        assert found.failed
        assert (
            write_notes(found.notes)
            == "job.yaml: a CustomJob spec holds an object with workerPoolSpecs\n"
        )


def test_the_replicas_of_a_job_cannot_be_changed() -> None:
    """Replicas refuses assignment; it holds lists, so it is not hashed."""
    refuses_assignment(Replicas([(("chief", 0), "{}")], ["workerpool0-0: chief:0"], Notes(), False))
