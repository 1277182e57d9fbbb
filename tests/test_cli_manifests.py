"""estconf.inputs.manifests: the TF_CONFIGs Kubernetes manifests set, checked where they are."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from estconf.cli import main
from estconf.inputs.manifests import tf_config_set_in, tf_configs_in
from estconf.io.checks import Limits

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/kubernetes"
WORKERS = '{"cluster": {"worker": ["w0:2222", "w1:2222"]}, "task": {"type": "worker", "index": 0}}'


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def pod(*env: dict[str, Any]) -> dict[str, Any]:
    container = {"name": "trainer", "image": "trainer:1", "env": list(env)}
    return {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [container]}}


class TestWhereTFConfigIsSet:
    def test_a_container_env_value(self) -> None:
        manifest = pod({"name": "OTHER", "value": "1"}, {"name": "TF_CONFIG", "value": "{}"})
        assert list(tf_configs_in(manifest)) == [
            (("spec", "containers", 0, "env", 1, "value"), "{}")
        ]

    def test_a_pod_template_of_a_workload_and_the_items_of_a_list(self) -> None:
        job = {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "spec": {"template": pod({"name": "TF_CONFIG", "value": "{}"})},
        }
        listed = {"apiVersion": "v1", "kind": "List", "items": [job]}
        assert list(tf_configs_in(listed)) == [
            (("items", 0, "spec", "template", "spec", "containers", 0, "env", 0, "value"), "{}")
        ]

    def test_a_config_map_and_the_string_data_of_a_secret(self) -> None:
        config_map = {"apiVersion": "v1", "kind": "ConfigMap", "data": {"TF_CONFIG": "{}"}}
        secret = {"apiVersion": "v1", "kind": "Secret", "stringData": {"TF_CONFIG": "{}"}}
        assert list(tf_configs_in(config_map)) == [(("data", "TF_CONFIG"), "{}")]
        assert list(tf_configs_in(secret)) == [(("stringData", "TF_CONFIG"), "{}")]

    def test_the_base64_data_of_a_secret(self) -> None:
        secret = {"apiVersion": "v1", "kind": "Secret", "data": {"TF_CONFIG": "e30="}}
        assert list(tf_configs_in(secret)) == [(("data", "TF_CONFIG"), "{}")]

    @pytest.mark.parametrize(
        "manifest",
        [
            pod({"name": "TF_CONFIG", "valueFrom": {"configMapKeyRef": {"key": "TF_CONFIG"}}}),
            pod({"name": "tf_config", "value": "{}"}),
            {"apiVersion": "v1", "kind": "Secret", "data": {"TF_CONFIG": "{}"}},  # not base64
            {"apiVersion": "v1", "kind": "Secret", "data": {"TF_CONFIG": "/w=="}},  # not UTF-8
            {"apiVersion": "v1", "kind": "ConfigMap", "binaryData": {"TF_CONFIG": "e30="}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"TF_CONFIG": "{}"}}},
        ],
    )
    def test_what_sets_no_tf_config_text(self, manifest: dict[str, Any]) -> None:
        assert list(tf_configs_in(manifest)) == []


class TestValidate:
    def test_each_tf_config_is_checked_where_it_is(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", f"{DATA}/configmap.yaml")
        assert status == 1
        assert out.startswith(
            f'{DATA}/configmap.yaml:7:14: data.TF_CONFIG: TF_CONFIG cluster: If "cluster" is set '
            'in TF_CONFIG, it must have one "chief" node.'
        )
        assert run(capsys, "validate", "--profile", "mwms", f"{DATA}/configmap.yaml")[:2] == (
            0,
            "1 file valid\n",
        )

    @pytest.mark.parametrize(
        ("argv", "readers"), [((), []), (("--profile", "estimator"), ["estimator"])]
    )
    def test_with_no_profile_a_value_is_read_as_a_tf_config_file(
        self,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
        argv: tuple[str, ...],
        readers: list[str],
    ) -> None:
        """The Estimator's rules for its own task; a profile's for every task of its cluster."""
        import estconf.profiles

        called: list[str] = []
        check_profile = estconf.profiles.check_profile

        def recorded(tf_config: Any, profile: str = "estimator", **options: Any) -> Any:
            called.append(str(profile))
            return check_profile(tf_config, profile, **options)

        monkeypatch.setattr(estconf.profiles, "check_profile", recorded)
        status, _, _ = run(capsys, "validate", *argv, f"{DATA}/configmap.yaml")
        assert (status, called) == (1, readers)

    def test_a_stream_of_jobs(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        assert run(capsys, "validate", "-v", f"{DATA}/jobs.yaml")[:2] == (
            0,
            f"{DATA}/jobs.yaml: valid, kind manifest\n1 file valid\n",
        )
        broken = tmp_path / "jobs.yaml"
        text = (ROOT / DATA / "jobs.yaml").read_text()
        broken.write_text(text.replace('"mnist-worker-0:2222", ', '"mnist-worker-0", ', 1))
        status, out, _ = run(capsys, "validate", "--format", "json", str(broken))
        [error] = json.loads(out)["files"][0]["errors"]
        assert status == 1
        assert (error["line"], error["code"], error["path"]) == (
            14,
            "address",
            "spec.template.spec.containers[0].env[0].value",
        )
        assert error["message"].startswith("TF_CONFIG cluster.worker[0]: 'mnist-worker-0' is not")

    def test_a_value_that_is_no_json_is_said_of_tf_config(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = tmp_path / "pod.json"
        manifest.write_text(json.dumps(pod({"name": "TF_CONFIG", "value": "not json"})))
        status, out, _ = run(capsys, "validate", "--format", "json", str(manifest))
        [error] = json.loads(out)["files"][0]["errors"]
        assert status == 1
        assert error["path"] == "spec.containers[0].env[0].value"
        assert error["message"].startswith("TF_CONFIG: invalid JSON: ")

    def test_standard_input(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import io
        import sys

        manifest = (ROOT / DATA / "configmap.yaml").read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(manifest)))
        status, out, _ = run(capsys, "validate", "-", "--input-format", "yaml")
        assert status == 1
        assert out.startswith("<stdin>:7:14: data.TF_CONFIG: TF_CONFIG cluster: If")

    def test_a_manifest_that_sets_no_tf_config_is_no_config_file(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", "tests/data/invalid/tf_config_pod.yaml")
        assert status == 1
        assert "a Kubernetes Pod manifest (apiVersion: v1), not a TF_CONFIG file" in out

    def test_a_stream_of_manifests_that_set_no_tf_config_is_no_config_file(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", "tests/data/deploy/tensorboard.yaml")
        assert (status, out) == (
            1,
            "tests/data/deploy/tensorboard.yaml: a stream of 2 Kubernetes manifests (Deployment, "
            "Service) of which none sets TF_CONFIG, not a config file of a kind estconf reads\n"
            "1 error in 1 of 1 file\n",
        )

    @pytest.mark.parametrize("count", [3, 300])
    def test_a_stream_of_many_manifests_that_set_no_tf_config_is_no_config_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, count: int
    ) -> None:
        stream = tmp_path / "services.yaml"
        stream.write_text("---\n".join(["apiVersion: v1\nkind: Service\n"] * count))
        status, out, _ = run(capsys, "validate", str(stream))
        assert (status, out.splitlines()[0]) == (
            1,
            f"{stream}: a stream of {count} Kubernetes manifests (Service) of which none sets "
            "TF_CONFIG, not a config file of a kind estconf reads",
        )

    def test_a_long_kind_is_cut_to_80_characters_in_the_message(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        stream = tmp_path / "stream.yaml"
        kind = "K" * 100
        stream.write_text(f"apiVersion: v1\nkind: {kind}\n---\napiVersion: v1\nkind: Service\n")
        status, out, _ = run(capsys, "validate", str(stream))
        assert status == 1
        assert f"a stream of 2 Kubernetes manifests ({kind[:80]}, Service) of which" in out

    def test_a_stream_holding_other_documents_is_read_as_a_config_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        stream = tmp_path / "tf_config.yaml"
        stream.write_text("apiVersion: v1\nkind: Service\n---\ncluster: {}\n", encoding="utf-8")
        status, out, _ = run(capsys, "validate", str(stream))
        assert status == 1
        assert out.startswith(f"{stream}:3:1: the file holds more than one YAML document")


class TestAddressFindings:
    def test_a_jobs_tf_config_has_its_warnings_and_notes_at_its_value(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Said once each, at the env value, with the fix on its own line."""
        path = "tests/data/addresses/job_localhost.yaml"
        status, out, _ = run(capsys, "validate", path)
        where = f"{path}:15:22: spec.template.spec.containers[0].env[0].value: TF_CONFIG"
        assert (status, out.splitlines()) == (
            0,
            [
                f"{where} cluster.chief[0]: note: chief:0 and worker:0 are at a loopback address "
                "('localhost:2222', ...), which each machine reads as itself: the cluster works "
                "only when every task runs on that one machine, and it also lists "
                "'trainer-worker-1:0'",
                "hint: for tasks on several machines, give each task its machine's hostname or "
                "IP address",
                f"{where} cluster.worker[1]: warning: 'trainer-worker-1:0' has port 0, any free "
                "port: task worker:1 listens on a port chosen when it starts, which the other 2 "
                "tasks of the cluster cannot know",
                "hint: give the task a fixed port, e.g. 'trainer-worker-1:2222'",
                "1 warning, 1 note in 1 of 1 file",
            ],
        )
        assert run(capsys, "validate", "--strict", path)[0] == 1

    def test_an_address_refused_keeps_its_fix(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = pod({"name": "TF_CONFIG", "value": WORKERS.replace("w1:2222", "w1:02222")})
        path = tmp_path / "pod.json"
        path.write_text(json.dumps(manifest), encoding="utf-8")
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert "'w1:02222' is not a valid task address: the port '02222' has leading zeros" in out
        assert "\nhint: write it as 'w1:2222'\n" in out


class TestExplain:
    """``explain --tf-config`` reads the one TF_CONFIG a manifest sets."""

    def test_the_one_tf_config_of_a_manifest(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, "explain", "--tf-config", f"{DATA}/configmap.yaml")
        assert status == 1
        assert err.startswith(
            f'{DATA}/configmap.yaml (data.TF_CONFIG):1:13: cluster: If "cluster" is set'
        )
        argv = ("explain", "--readers", "--format", "json", "--tf-config", f"{DATA}/configmap.yaml")
        status, out, _ = run(capsys, *argv)
        assert status == 0
        assert json.loads(out)["tf_config_source"] == f"{DATA}/configmap.yaml (data.TF_CONFIG)"

    def test_several_are_no_one_node(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exited:
            run(capsys, "explain", "--tf-config", f"{DATA}/jobs.yaml")
        assert exited.value.code == 2
        assert (
            f"{DATA}/jobs.yaml sets 3 TF_CONFIGs ({DATA}/jobs.yaml:14, {DATA}/jobs.yaml:29, "
            f"{DATA}/jobs.yaml:44), one a node: check them together with estconf check-cluster"
        ) in capsys.readouterr().err

    @pytest.mark.parametrize(
        ("count", "shown"), [(2, "f.yaml:4, f.yaml:9"), (4, "f.yaml:4, f.yaml:9, f.yaml:14, ...")]
    )
    def test_several_are_named_by_line(self, count: int, shown: str) -> None:
        pod = f"apiVersion: v1\nkind: Pod\nenv:\n  - {{name: TF_CONFIG, value: '{WORKERS}'}}\n"
        stream = "---\n".join([pod] * count).encode()
        with pytest.raises(
            ValueError, match=rf"^f\.yaml sets {count} TF_CONFIGs \({re.escape(shown)}\)"
        ):
            tf_config_set_in(stream, "yaml", "f.yaml", Limits())

    @pytest.mark.parametrize(
        "text",
        [
            b'{"cluster": {}, "task": {}}',  # a TF_CONFIG file
            b"apiVersion: v1\nkind: Service\n",  # sets none
            # the operator's to set, even where a TF_CONFIG is set by hand
            b"apiVersion: kubeflow.org/v1\nkind: TFJob\nenv: [{name: TF_CONFIG, value: '{}'}]\n",
            b"{",  # unreadable: the file pipeline says why
        ],
    )
    def test_other_files_are_left_to_the_file_pipeline(self, text: bytes) -> None:
        assert tf_config_set_in(text, "yaml", "f.yaml", Limits()) is None

    @pytest.mark.parametrize(
        "other",
        [f"env: [{{name: TF_CONFIG, value: '{WORKERS}'}}]\n", "- a list\n"],
        ids=["a mapping", "a list"],
    )
    def test_a_document_that_is_no_manifest_is_passed_over(self, other: str) -> None:
        """Only manifests set a TF_CONFIG; the manifests after another document are read."""
        config_map = f"apiVersion: v1\nkind: ConfigMap\ndata:\n  TF_CONFIG: '{WORKERS}'\n"
        stream = f"{other}---\n{config_map}".encode()
        assert tf_config_set_in(stream, "yaml", "f.yaml", Limits()) == (
            WORKERS,
            "f.yaml (data.TF_CONFIG)",
        )

    def test_where_the_value_is(self) -> None:
        manifest = json.dumps(pod({"name": "TF_CONFIG", "value": WORKERS})).encode()
        assert tf_config_set_in(manifest, "json", "pod.json", Limits()) == (
            WORKERS,
            "pod.json (spec.containers[0].env[0].value)",
        )


class TestCheckCluster:
    def test_each_job_of_a_stream_is_a_node(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "check-cluster", f"{DATA}/jobs.yaml")
        assert status == 1
        assert out.splitlines()[0].startswith(
            f"{DATA}/jobs.yaml:44: the cluster differs from the one most nodes have "
            f"({DATA}/jobs.yaml:14, {DATA}/jobs.yaml:29): worker:1: mnist-worker-1:2222"
        )
        assert out.endswith("3 nodes, 2 clusters: 1 finding\n")

    def test_one_manifest_setting_two_tf_configs(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        second = {"name": "TF_CONFIG", "value": WORKERS.replace('"index": 0', '"index": 1')}
        two = pod({"name": "TF_CONFIG", "value": WORKERS})
        two["spec"]["initContainers"] = [{"name": "init", "env": [second]}]
        node = tmp_path / "pod.json"
        node.write_text(json.dumps(two))
        status, out, _ = run(
            capsys, "check-cluster", "--profile", "mwms", "--format", "json", str(node)
        )
        assert status == 0
        assert json.loads(out)["nodes"] == [
            f"{node} (spec.containers[0].env[0].value)",
            f"{node} (spec.initContainers[0].env[0].value)",
        ]

    @pytest.mark.parametrize(
        ("path", "what"),
        [
            (
                "tests/data/invalid/tf_config_pod.yaml",
                "a Kubernetes Pod manifest (apiVersion: v1) sets",
            ),
            ("tests/data/deploy/tensorboard.yaml", "the Kubernetes manifests of the stream set"),
        ],
    )
    def test_named_manifests_that_set_no_tf_config(
        self, capsys: pytest.CaptureFixture[str], path: str, what: str
    ) -> None:
        assert run(capsys, "check-cluster", path) == (
            2,
            "",
            f"{path}: {what} no TF_CONFIG (a valueFrom is read only in a pod)\n",
        )

    def test_a_directory_passes_over_the_manifests_that_set_none(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        for path in (f"{DATA}/jobs.yaml", "tests/data/deploy/service.yaml"):
            (tmp_path / Path(path).name).write_bytes((ROOT / path).read_bytes())
        status, out, _ = run(capsys, "check-cluster", str(tmp_path))
        assert status == 1
        assert out.splitlines()[-2:] == [
            f"{tmp_path}/service.yaml: passed over, a Kubernetes Service manifest (apiVersion: v1) "
            "sets no TF_CONFIG (a valueFrom is read only in a pod)",
            "3 nodes, 2 clusters: 1 finding",
        ]
        status, out, _ = run(capsys, "check-cluster", "--format", "json", str(tmp_path))
        assert json.loads(out)["skipped"] == [
            {
                "file": f"{tmp_path}/service.yaml",
                "reason": "a Kubernetes Service manifest (apiVersion: v1) sets no TF_CONFIG "
                "(a valueFrom is read only in a pod)",
            }
        ]
