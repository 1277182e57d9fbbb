"""estconf.io.kinds: the kinds of config file, how a file's kind is told, other documents."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf.io import kinds
from estconf.io.kinds import KINDS, from_schema, resolve
from values import is_a_value

from strategies import cluster_files, valid_tf_configs


class TestFromSchema:
    @pytest.mark.parametrize(
        "value",
        [
            "urn:estconf:schema:run_config",
            "run_config.schema.json",
            "schemas/run_config.schema.json",
            "https://example.com/schemas/run_config.schema.json#",
            "https://example.com/schemas/run_config.schema.json#/properties/model_dir",
            "https://example.com/schemas/run_config.schema.json?ref=v1",
            "https://example.com/schemas/run_config.schema.json?ref=v1#top",
            "C:\\schemas\\run_config.schema.json#",
        ],
    )
    def test_a_schema_is_named_by_its_id_or_its_file_name(self, value: str) -> None:
        """A fragment (``#...``) and a query (``?...``) after the file name still name it."""
        assert from_schema(value) is KINDS["run_config"]
        resolved = resolve({kinds.SCHEMA_KEY: value}, "tf_config.json")
        assert resolved == kinds.Resolved(KINDS["run_config"], "$schema")

    @pytest.mark.parametrize(
        "value",
        [
            None,
            1,
            "",
            "urn:estconf:schema:run_config#",
            "run_config.schema.json.bak",
            "https://example.com/run_config.schema.json/other.json",
            "https://json-schema.org/draft/2020-12/schema",
        ],
    )
    def test_anything_else_names_no_kind(self, value: object) -> None:
        assert from_schema(value) is None


@pytest.mark.parametrize(
    "make",
    [
        # one object per kind: a copy stands for the other
        pytest.param(lambda: dataclasses.replace(KINDS["tf_config"]), id="Kind"),
        pytest.param(lambda: resolve({"task": {}}, None), id="Resolved"),
    ],
)
def test_a_kind_and_how_it_was_told_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)


class TestOtherDocuments:
    def test_an_env_list_holds_its_env_alone(self) -> None:
        assert kinds.is_env_list({"env": []})
        assert not kinds.is_env_list({"env": {}})
        assert not kinds.is_env_list({"env": [], "name": "c"})

    def test_a_helm_template_holds_a_go_template_action(self) -> None:
        found = kinds.helm_template("a: 1\nreplicas: {{- .Values.workers }}\n")
        assert found is not None
        assert (found[0], found.start()) == ("{{- .Values.workers }}", 15)
        assert kinds.helm_template("a: '{ {x} }'\n") is None

    def test_a_file_of_a_kind_is_named_by_its_title(self) -> None:
        assert kinds.file_of(KINDS["tf_config"]) == "a TF_CONFIG file"
        assert kinds.file_of(None) == "a config file of a kind estconf reads"


@pytest.mark.parametrize("key", ["workerPoolSpecs", "worker_pool_specs", "jobSpec", "job_spec"])
def test_a_vertex_custom_job_is_told_by_any_one_of_its_keys(key: str) -> None:
    """A spec's worker pools in either spelling, or a whole CustomJob's spec in either."""
    assert resolve({key: {}}, "job.yaml") == kinds.Resolved(KINDS["vertex_custom_job"], "keys")


class TestUnderProfile:
    TF_CONFIG = {
        "cluster": {"worker": ["w0:2222", "w1:2222"]},
        "task": {"type": "worker", "index": 0},
    }
    OTHERS = "(this cluster is valid for --profile mwms or --profile server)"

    def message(self, kind: kinds.Kind) -> str:
        with pytest.raises(ValueError) as info:
            kind.validate(self.TF_CONFIG)
        return str(info.value)

    def test_the_estimators_errors_name_the_profiles_that_accept_the_tf_config(self) -> None:
        """Unless told not to (a file with errors of its own), under a profile or none."""
        tf_config = KINDS["tf_config"]
        assert tf_config.under_profile(None) is tf_config
        assert self.OTHERS in self.message(tf_config)
        assert self.OTHERS in self.message(tf_config.under_profile("estimator"))
        for profile in (None, "estimator"):
            told = tf_config.under_profile(profile, name_others=False)
            assert self.OTHERS not in self.message(told)


class TestClusters:
    """Jobs alone are a cluster; beside a task, or with a key that is no job, a TF_CONFIG."""

    @pytest.mark.parametrize(
        "data",
        [
            {"chief": ["c:2222"], "ps": ["p:2222"], "worker": ["w0:2222", "w1:2222"]},
            {"worker": {"0": "w0:2222", "3": "w3:2222"}},
            {"worker": {0: "w0:2222", -1: "w1:2222"}},  # YAML's integer keys; -1 is refused later
            {"master": ["m:2222"], "worker": ["w:2222"]},  # not RunConfig's derived `master`
            {"chief": ["c:2222"], "trainer": ["t:2222"], "ps": []},
            {"chief": ["c:2222"], "worker": ["w:99999", "not an address"]},
            {kinds.SCHEMA_KEY: "other.schema.json", "worker": ["w:2222"]},
        ],
    )
    def test_jobs_alone_are_a_cluster(self, data: dict[str, Any]) -> None:
        assert resolve(data, "nodes.yaml") == kinds.Resolved(KINDS["cluster"], "keys")

    @pytest.mark.parametrize(
        ("data", "kind"),
        [
            ({"worker": ["w:2222"], "task": {"type": "worker", "index": 0}}, "tf_config"),
            ({"worker": ["w:2222"], "model_dir": "/m"}, "tf_config"),
            ({"chief": ["c:2222"], "model_dir": ["m:2222"]}, "tf_config"),
            ({"worker": ["w:2222"], "clusters": {"ps": ["p:2222"]}}, "tf_config"),
            ({"worker": ["w:2222"], "tsk": {"type": "worker", "index": 0}}, "tf_config"),
            ({"worker": ["w:2222", 5]}, "tf_config"),
            ({"worker": {"x": "w:2222"}}, "tf_config"),
            ({"worker": {"0": ["w:2222"]}}, "tf_config"),
            ({"worker": "w:2222"}, "tf_config"),
            ({"chief": ["c:2222"], "workers": ["w:2222"]}, "tf_config"),
            ({"chief": ["c:2222"], "job": {"name": "x"}}, "tf_config"),
            ({"worker": ["w:2222"], "save_checkpoints_steps": 1}, "run_config"),
            ({"master": "grpc://m:2222"}, "run_config"),
            ({"clusters": {"worker": ["w:2222"]}}, None),
            ({"save_checkpoint_steps": 1}, None),
            ({"trainer": ["t:2222"]}, None),
            ({"workers": ["w:2222"]}, "tf_config"),
        ],
    )
    def test_anything_else_is_what_it_was(self, data: dict[str, Any], kind: str | None) -> None:
        """A wrong guess never makes an error valid: these keep their kind and their errors."""
        found = kinds.detect(data)
        assert (found and found.name) == kind

    def test_a_file_name_tells_no_cluster(self) -> None:
        """``cluster.json`` is as often a TF_CONFIG: its keys tell, or ``$schema``, ``--kind``."""
        tf_config = {"cluster": {"chief": ["c:2222"]}, "task": {"type": "chief", "index": 0}}
        assert kinds.from_name("prod.cluster.yaml") is None
        assert resolve(tf_config, "cluster.json") == kinds.Resolved(KINDS["tf_config"], "keys")
        named = {kinds.SCHEMA_KEY: "schemas/cluster.schema.json", "trainer": ["t:2222"]}
        assert resolve(named, "x.json") == kinds.Resolved(KINDS["cluster"], "$schema")
        assert resolve({}, "x.json", KINDS["cluster"]) == kinds.Resolved(KINDS["cluster"], "given")

    @given(cluster=cluster_files())
    def test_every_cluster_is_told_and_beside_a_task_is_a_tf_config(
        self, cluster: dict[str, Any]
    ) -> None:
        assert kinds.detect(cluster) is KINDS["cluster"]
        task = {"type": next(iter(cluster)), "index": 0}
        assert kinds.detect({**cluster, "task": task}) is KINDS["tf_config"]

    @given(tf_config=valid_tf_configs, data=st.data())
    def test_a_tf_config_with_misspelled_keys_is_never_a_cluster(
        self, tf_config: dict[str, Any], data: st.DataObject
    ) -> None:
        """Whichever of its keys are misspelled (``clusters``, ``Task``, ``tsk``)."""
        misspell = st.sampled_from(
            [lambda key: key + "s", str.capitalize, str.upper, lambda key: key[:-1]]
        )
        typos = {
            key: data.draw(misspell)(key) if data.draw(st.booleans()) else key for key in tf_config
        }
        document = {typos[key]: value for key, value in tf_config.items()}
        assert kinds.detect(document) is not KINDS["cluster"]
