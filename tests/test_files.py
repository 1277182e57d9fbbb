"""estconf.files: config files in JSON, TOML and YAML, read into validated models."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from pydantic import BaseModel

from estconf import ClusterSpec, RunConfig, TFConfig, TPUConfig, TPURunConfig
from estconf.files import (
    KINDS,
    MAX_DEPTH,
    NO_VALUE,
    ConfigFileError,
    FileError,
    detect_kind,
    format_path,
    load,
    loads,
)
from estconf.io.files import load_file

from strategies import valid_tf_configs

ROOT = Path(__file__).resolve().parents[1]
DATA = Path("tests/data")
VALID = sorted((ROOT / DATA / "valid").iterdir())
INVALID = sorted(p for p in (ROOT / DATA / "invalid").iterdir() if p.suffix != ".expected")
SCHEMAS = ROOT / "schemas"
KIND_NAMES = pytest.mark.parametrize(
    ("kind", "what"),
    [
        (None, "a config file of a kind estconf reads"),
        ("tf_config", "a TF_CONFIG file"),
        ("run_config", "a RunConfig file"),
        ("tpu_config", "a TPUConfig file"),
        ("tpu_run_config", "a tpu.RunConfig file"),
        ("cluster", "a cluster file"),
    ],
)
"""Each kind a file may be read as (None: told from the file), and how a message names it."""


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def errors_of(content: str | bytes, format: str = "json", kind: Any = None) -> list[FileError]:
    with pytest.raises(ConfigFileError) as info:
        loads(content, format, kind)
    return info.value.errors


def codes(content: str | bytes, format: str = "json", kind: Any = None) -> list[tuple[str, str]]:
    return [(e.code, e.path) for e in errors_of(content, format, kind)]


class TestDataFiles:
    @pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
    def test_valid_files_load(self, path: Path) -> None:
        model = load(path.relative_to(ROOT))
        kind = {
            "cluster": ClusterSpec,
            "tf": TFConfig,
            "run": RunConfig,
            "tpu_config": TPUConfig,
            "tpu_run": TPURunConfig,
        }
        [expected] = [model for prefix, model in kind.items() if path.name.startswith(prefix)]
        assert type(model) is expected

    def test_a_tpu_run_config_file(self) -> None:
        config = load(DATA / "valid" / "tpu_run_config.json", TPURunConfig)
        assert (config.master, config.evaluation_master) == ("grpc://10.240.1.2:8470",) * 2
        assert config.tpu_config.tpu_job_name == "tpu_worker"
        assert config.tpu_config.iterations_per_loop_counter == (100, "count")

    @pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
    def test_invalid_files_report_what_their_expected_file_says(self, path: Path) -> None:
        name = path.relative_to(ROOT)
        with pytest.raises(ConfigFileError) as info:
            load(name)
        expected = path.with_name(path.name + ".expected").read_text(encoding="utf-8")
        # each error on a line, and its fix, if it has one, on the next, as validate writes them
        written = [f"{e}\n" + (f"hint: {e.hint}\n" if e.hint else "") for e in info.value.errors]
        assert "".join(written) == expected
        assert str(info.value) + "\n" == "".join(
            line for line in expected.splitlines(True) if not line.startswith("hint: ")
        )
        assert info.value.file == str(name)
        assert all(error.file == str(name) for error in info.value.errors)

    def test_a_cluster_file_in_yaml_or_json(self) -> None:
        """Jobs alone, told from their keys or from ``$schema``, each job's tasks kept."""
        loaded = load_file(DATA / "valid" / "cluster_ps_strategy.yaml")
        assert (loaded.kind, loaded.kind_from) == ("cluster", "keys")
        cluster = loaded.model
        assert isinstance(cluster, ClusterSpec)
        assert cluster.jobs == ["chief", "ps", "worker", "evaluator"]
        assert cluster.task_address("worker", 2) == "wide-deep-worker-2.ml.svc:2222"
        loaded = load_file(DATA / "valid" / "cluster_sparse.json")
        assert (loaded.kind, loaded.kind_from) == ("cluster", "$schema")
        assert isinstance(loaded.model, ClusterSpec)
        assert loaded.model.job_tasks("worker") == [
            "10.128.0.5:2222",
            "10.128.0.6:2222",
            None,
            "10.128.0.8:2222",
        ]

    def test_yaml_is_read_as_yaml_1_2(self) -> None:
        config = load(DATA / "valid" / "run_config.yaml", RunConfig)
        assert config.keep_checkpoint_max == 10
        assert config.tf_config.environment == "on"

    def test_a_sparse_toml_job(self) -> None:
        tf_config = load(DATA / "valid" / "tf_config_sparse.toml", TFConfig)
        assert tf_config.cluster.job_tasks("worker") == [
            None,
            "host1:2222",
            None,
            None,
            "host4:2222",
        ]


class TestKinds:
    @pytest.mark.parametrize(
        ("keys", "model"),
        [
            ("_TPU_CONFIG_KEYS", "estconf.tpu:TPUConfig"),
            ("TF_CONFIG_KEYS", "estconf.tf_config:TFConfig"),
        ],
    )
    def test_detection_keys_are_the_models_keys(self, keys: str, model: str) -> None:
        """The lists that spare the command importing the models follow the models."""
        from estconf.io import kinds

        cls = kinds._resolve(model)
        assert getattr(kinds, keys) == set(cls.model_fields) | set(cls.model_computed_fields)

    @pytest.mark.parametrize(
        ("data", "kind"),
        [
            ({"cluster": {}}, "tf_config"),
            ({"task": {"type": "worker"}}, "tf_config"),
            ({"session_master": ""}, "tf_config"),
            ({"model_dir": "/m"}, "tf_config"),
            ({"tf_config": {}}, "run_config"),
            ({"save_checkpoints_steps": 1}, "run_config"),
            ({"model_dir": "/m", "save_summary_steps": 1}, "run_config"),
            ({"cluster": {}, "save_summary_steps": 1}, "run_config"),
            ({"device_fn": "f"}, "run_config"),
            ({"is_chief": True}, "run_config"),
            ({"tpu_config": {}}, "tpu_run_config"),
            ({"tpu_config": {}, "tf_config": {}, "cluster": {}}, "tpu_run_config"),
            ({"iterations_per_loop": 2}, "tpu_config"),
            ({"iterations_per_loop": 2, "save_summary_steps": 1}, "tpu_config"),
            ({"experimental_feed_hook": "x"}, "tpu_config"),
            ({}, None),
            ({"flags": 1}, None),
            # jobs alone: a cluster
            ({"worker": ["w:0"], "ps": ["p:0"]}, "cluster"),
            ({"chief": ["c:0"], "worker": {"1": "w:1"}, "trainer": []}, "cluster"),
            ({"master": ["m:0"], "worker": ["w:0"]}, "cluster"),
            # jobs at the top level: a TF_CONFIG whose cluster wrapper was forgotten
            ({"worker": ["w:0"], "ps": ["p:0"], "task": {"type": "ps"}}, "tf_config"),
            ({"worker": ["w:0"], "clusters": {"ps": ["p:0"]}}, "tf_config"),
            ({"worker": 5}, "tf_config"),
            ({"workers": {"1": "w:1"}}, "tf_config"),
            ({"workers": 3}, None),
            ({"trainer": ["w:0"]}, None),
        ],
    )
    def test_detect_kind(self, data: dict[str, Any], kind: str | None) -> None:
        assert detect_kind(data) == kind

    def test_markers_are_keys_of_the_models(self) -> None:
        from estconf.io import kinds
        from estconf.io.keys import file_keys

        tf_config_keys = set(file_keys(TFConfig))
        assert kinds.KINDS["tf_config"].markers == tf_config_keys
        run_config_keys = set(RunConfig.model_fields) | set(RunConfig.model_computed_fields)
        assert kinds.KINDS["run_config"].markers == run_config_keys - tf_config_keys
        tpu_keys = set(TPUConfig.model_fields) | set(TPUConfig.model_computed_fields)
        assert kinds.KINDS["tpu_config"].markers == tpu_keys
        assert kinds.KINDS["tpu_run_config"].markers == (
            set(file_keys(TPURunConfig)) - set(file_keys(RunConfig))
        )

    def test_a_tf_config_is_told_by_its_keys_without_importing_run_config(self) -> None:
        code = (
            "import sys\n"
            "from estconf.files import detect_kind\n"
            "print(detect_kind({'cluster': {}, 'task': {}}), 'estconf.run_config' in sys.modules)"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.stdout == "tf_config False\n"

    def test_kinds_are_listed(self) -> None:
        assert KINDS == (
            "tpu_run_config",
            "tpu_config",
            "run_config",
            "tf_config",
            "cluster",
            "vertex_custom_job",
        )

    def test_kind_by_name_or_model(self) -> None:
        text = '{"model_dir": "/m"}'
        assert isinstance(loads(text, "json"), TFConfig)
        assert isinstance(loads(text, "json", "run_config"), RunConfig)
        assert loads(text, "json", RunConfig).model_dir == "/m"

    def test_unknown_kind_is_a_value_error(self) -> None:
        with pytest.raises(ValueError, match="unknown kind 'tpu'"):
            loads("{}", "json", "tpu")
        with pytest.raises(ValueError, match="not the model of a kind"):
            loads("{}", "json", BaseModel)

    def test_an_undetectable_file_asks_for_the_kind(self) -> None:
        [error] = errors_of("{}")
        assert error.code == "kind"
        assert "give the kind explicitly" in error.message
        assert isinstance(loads("{}", "json", "tf_config"), TFConfig)

    @KIND_NAMES
    def test_a_kubernetes_manifest_is_no_config_file(self, kind: str | None, what: str) -> None:
        pod = '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}}'
        [error] = errors_of(pod, "json", kind)
        assert (error.code, error.path) == ("kubernetes_manifest", "")
        assert error.message == f"a Kubernetes Pod manifest (apiVersion: v1), not {what}"

    @KIND_NAMES
    def test_a_json_schema_is_no_config_file(self, kind: str | None, what: str) -> None:
        schema = SCHEMAS / f"{kind or 'tf_config'}.schema.json"
        [error] = errors_of(schema.read_text(encoding="utf-8"), "json", kind)
        assert (error.code, error.path) == ("json_schema", "")
        assert error.message == (
            f"a JSON Schema ($schema: https://json-schema.org/draft/2020-12/schema), not {what}"
        )

    @pytest.mark.parametrize(
        "meta",
        [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2019-09/schema",
            "http://json-schema.org/schema#",
        ],
    )
    def test_every_draft_of_json_schema(self, meta: str) -> None:
        [error] = errors_of(json.dumps({"$schema": meta, "type": "object"}), "json", "tf_config")
        assert error.code == "json_schema"

    @pytest.mark.parametrize(
        "schema",
        [
            "urn:estconf:schema:tf_config",
            "schemas/tf_config.schema.json",
            "https://json-schema.org/schemas/tf_config.schema.json",
            "https://json-schema.org/x",
        ],
    )
    def test_a_config_file_names_its_own_schema(self, schema: str) -> None:
        text = json.dumps({"$schema": schema, "cluster": {}})
        assert isinstance(loads(text, "json", "tf_config"), TFConfig)

    def test_a_tfjob_manifest_read_as_a_tf_config_says_what_checks_it(self) -> None:
        tfjob = "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs: {}\n"
        [error] = errors_of(tfjob, "yaml", "tf_config")
        assert error.code == "kubernetes_manifest"
        assert error.message == (
            "a Kubeflow TFJob manifest (apiVersion: kubeflow.org/v1), not a TF_CONFIG file "
            "(estconf validate checks a TFJob manifest: the TF_CONFIG of each of its pods)"
        )

    def test_a_long_kind_of_manifest_is_clipped(self) -> None:
        manifest = {"apiVersion": "v" * 100_000, "kind": "Pod"}
        [error] = errors_of(json.dumps(manifest), "json", "tf_config")
        assert (
            error.message
            == f"a Kubernetes Pod manifest (apiVersion: {'v' * 80}...), not a TF_CONFIG file"
        )

    @pytest.mark.parametrize(
        "text",
        ['{"kind": "TFJob", "cluster": {}}', '{"apiVersion": 1, "kind": "Pod", "cluster": {}}'],
    )
    def test_a_tf_config_keeps_a_kind_key_that_marks_no_manifest(self, text: str) -> None:
        assert loads(text, "json", "tf_config").model_extra == {
            key: value for key, value in json.loads(text).items() if key != "cluster"
        }

    def test_a_tf_config_file_is_checked_with_the_estimator_rules(self) -> None:
        text = '{"cluster": {"chief": ["h:1"]}, "task": {"type": "worker", "index": 0}}'
        [error] = errors_of(text)
        assert (error.code, error.path) == ("unknown_task_type", "task.type")
        assert "worker is not a valid task_type in the cluster_spec" in error.message

    @given(valid_tf_configs)
    def test_every_valid_tf_config_is_a_valid_file(self, data: dict[str, Any]) -> None:
        assert loads(json.dumps(data), "json", TFConfig) == TFConfig.model_validate(data)

    def test_a_dump_is_a_valid_file(self) -> None:
        config = RunConfig(
            tf_config={
                "cluster": {"chief": ["h:1"], "ps": ["h:2"]},
                "task": {"type": "ps", "index": 0},
            }
        )
        assert loads(config.model_dump_json(), "json") == config
        assert loads(config.model_dump_json(exclude_computed_fields=True), "json") == config


class TestErrors:
    def test_every_error_is_reported(self) -> None:
        found = codes(
            '{"save_summary_steps": -1, "keep_checkpoint_max": "5", "protocol": "http",'
            ' "tf_config": {"cluster": {"chief": ["nope"]}}}'
        )
        assert found == [
            ("bounds", "save_summary_steps"),
            ("int_type", "keep_checkpoint_max"),
            ("protocol", "protocol"),
            # the estimator's own rules, which TensorFlow would report, placed at
            # the object that lacks the keys
            ("missing_task_type", "tf_config.task"),
            ("missing_task_index", "tf_config.task"),
            ("address", "tf_config.cluster.chief[0]"),
        ]

    def test_positions_point_at_the_value(self) -> None:
        text = '{\n  "tf_config": {\n    "cluster": {"chief": ["h:1", "bad"]}\n  }\n}'
        [error] = [e for e in errors_of(text) if e.code == "address"]
        assert (error.line, error.column) == (3, 34)
        assert text.splitlines()[2][34 - 1 :].startswith('"bad"')
        assert error.loc == ("tf_config", "cluster", "chief", 1)
        assert error.value == "bad"

    def test_yaml_positions(self) -> None:
        text = "tf_config:\n  cluster:\n    chief:\n    - h:1\n    - bad\n"
        [error] = [e for e in errors_of(text, "yaml") if e.code == "address"]
        assert (error.line, error.column) == (5, 7)

    def test_toml_positions(self) -> None:
        [error] = [
            e
            for e in errors_of('[tf_config.cluster]\nchief = ["bad"]\n', "toml")
            if e.code == "address"
        ]
        assert (error.path, error.line, error.column) == ("tf_config.cluster.chief[0]", 2, 10)
        assert str(error).startswith("<string>:2:10: tf_config.cluster.chief[0]: ")

    def test_toml_positions_of_keys_array_tables_and_inline_tables(self) -> None:
        text = (
            "[tf_config]\n"
            "task = { type = 'chief', index = 0 }\n"
            "cluster.chief = ['c:1']\n"
            'cluster."1bad" = ["h:2"]\n'
            "[[tf_config.extra]]\n"
            "[[tf_config.extra]]\n"
            "x = 1\n"
        )
        found = {e.path: (e.line, e.column) for e in errors_of(text, "toml")}
        assert found['tf_config.cluster["1bad"]'] == (4, 9)

    def test_a_missing_key_is_named_and_placed_at_its_object(self) -> None:
        [error] = errors_of('{"cluster": {"chief": ["h:1"]},\n "task": {"type": "chief"}}')
        assert (error.code, error.path) == ("missing_task_index", "task.index")
        assert (error.line, error.column) == (2, 10)
        assert error.value is NO_VALUE

    def test_errors_of_a_union_are_one_error(self) -> None:
        [error] = errors_of('{"keep_checkpoint_every_n_hours": "x"}')
        assert error.message == "Input should be a valid integer or a valid number"

    def test_format(self) -> None:
        error = FileError("f.json", "a.b", ("a", "b"), "c", "bad\n  thing", 2, 5, 7)
        assert str(error) == "f.json:2:5: a.b: bad thing (got 7)"
        assert str(FileError("f.toml", "", (), "c", "bad")) == "f.toml: bad"

    @pytest.mark.parametrize(
        ("loc", "text"),
        [
            (("tf_config", "cluster", "worker", 3), "tf_config.cluster.worker[3]"),
            (("cluster", "worker", "1"), 'cluster.worker["1"]'),
            (("odd key", 0), '["odd key"][0]'),
            ((), ""),
        ],
    )
    def test_format_path(self, loc: tuple[str | int, ...], text: str) -> None:
        assert format_path(loc) == text

    def test_the_error_is_a_value_error_listing_every_problem(self) -> None:
        with pytest.raises(ValueError, match=r"(?s)protocol.*save_summary_steps"):
            loads('{"protocol": "x",\n"save_summary_steps": -1}', "json")


class TestStrictness:
    @pytest.mark.parametrize(
        ("key", "value", "code"),
        [
            ("save_summary_steps", "5", "int_type"),
            ("save_summary_steps", True, "int_type"),
            ("save_summary_steps", 1.5, "int_type"),
            ("keep_checkpoint_every_n_hours", "1", "int_type"),
            ("checkpoint_save_graph_def", "no", "bool_type"),
            ("checkpoint_save_graph_def", 1, "bool_type"),
            ("model_dir", 0, "string_type"),
            ("tf_random_seed", 1.0, "int_type"),
        ],
    )
    def test_values_have_their_json_type(self, key: str, value: Any, code: str) -> None:
        assert codes(json.dumps({key: value}), kind="run_config") == [(code, key)]

    def test_a_task_index_may_be_a_digit_string_as_in_tensorflow(self) -> None:
        text = (
            '{"cluster": {"chief": ["h:1"], "worker": ["h:2"]},'
            ' "task": {"type": "worker", "index": "0"}}'
        )
        assert loads(text, "json", TFConfig).task.index == 0

    def test_unknown_keys_get_a_suggestion(self) -> None:
        [error] = errors_of('{"save_sumary_steps": 1, "tf_config": {}}')
        assert (error.code, error.path) == ("unknown_key", "save_sumary_steps")
        assert error.message.endswith("did you mean 'save_summary_steps'?")
        assert (error.line, error.column) == (1, 2)

    def test_an_unknown_key_without_a_close_one_lists_the_keys(self) -> None:
        [error] = errors_of('{"zzz": 1, "tf_config": {}}')
        assert "the keys are model_dir, tf_random_seed" in error.message

    def test_unknown_keys_of_nested_objects(self) -> None:
        found = codes('{"session_config": {"gpu_options": {"allow_grwoth": true}}}')
        assert found == [("unknown_key", "session_config.gpu_options.allow_grwoth")]

    def test_python_only_arguments(self) -> None:
        [error] = errors_of('{"train_distribute": "MirroredStrategy"}')
        assert (error.code, error.path) == ("unknown_key", "train_distribute")
        assert "Python-only argument of RunConfig" in error.message

    def test_tf_config_keeps_unknown_keys(self) -> None:
        tf_config = loads('{"cluster": {}, "job": {"x": 1}, "task": {"trial": "7"}}', "json")
        assert tf_config.model_extra == {"job": {"x": 1}}


class TestHostileInput:
    def test_duplicate_keys_are_all_reported(self) -> None:
        found = codes('{"a": 1, "a": 2, "b": {"c": 1, "c": 1}}')
        assert found == [("duplicate_key", "a"), ("duplicate_key", "b.c")]

    def test_duplicate_yaml_keys_by_value(self) -> None:
        [error] = errors_of("cluster:\n  worker: {1: 'h:1', 0x1: 'h:2'}\n", "yaml")
        assert error.code == "duplicate_key"
        assert error.line == 2

    def test_utf8_bom_is_accepted(self) -> None:
        assert loads(b'\xef\xbb\xbf{"cluster": {}}', "json") == TFConfig()
        assert loads(b"\xef\xbb\xbfcluster: {}\n", "yaml") == TFConfig()
        assert loads(b"\xef\xbb\xbf[cluster]\n", "toml") == TFConfig()

    @pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
    def test_utf16_and_utf32_are_refused(self, encoding: str) -> None:
        [error] = errors_of('{"cluster": {}}'.encode(encoding))
        assert error.code == "encoding"
        assert "save it as UTF-8" in error.message

    def test_utf16_without_bom(self) -> None:
        [error] = errors_of('{"cluster": {}}'.encode("utf-16-le"))
        assert "NUL" in error.message

    @pytest.mark.parametrize("format", ["json", "toml", "yaml"])
    @pytest.mark.parametrize("content", ["", "  \n\t\n"])
    def test_empty(self, format: str, content: str) -> None:
        assert codes(content, format) == [("empty", "")]

    def test_size_cap(self, tmp_path: Path) -> None:
        path = tmp_path / "big.json"
        path.write_text('{"cluster": {}}' + " " * 100)
        with pytest.raises(ConfigFileError) as info:
            load(path, max_size=100)
        assert [e.code for e in info.value.errors] == ["size"]
        assert load(path, max_size=200) == TFConfig()
        with pytest.raises(ConfigFileError):
            loads('{"cluster": {}}', "json", max_size=10)

    @pytest.mark.parametrize("format", ["json", "yaml"])
    def test_depth_cap(self, format: str) -> None:
        text = '{"service": ' + '{"a": ' * 10 + "1" + "}" * 11
        assert loads(text, format, TFConfig).service is not None
        with pytest.raises(ConfigFileError) as info:
            loads(text, format, "tf_config", max_depth=5)
        [error] = info.value.errors
        assert error.code == "depth"
        assert error.loc == ("service", "a", "a", "a", "a")

    def test_depth_cap_path(self) -> None:
        text = '{"service": ' + "[" * 100 + "]" * 100 + "}"
        [error] = errors_of(text)
        assert error.code == "depth"
        assert f"deeper than {MAX_DEPTH} levels" in error.message

    @pytest.mark.parametrize("format", ["json", "yaml"])
    def test_nesting_too_deep_for_the_parser(self, format: str) -> None:
        [error] = errors_of("[" * 100_000 + "]" * 100_000, format)
        assert error.code == "depth"

    @pytest.mark.parametrize(
        ("text", "format"),
        [
            ('{"service": {"x": NaN}}', "json"),
            ('{"service": {"x": 1e999}}', "json"),
            ("service: {x: .inf}", "yaml"),
            ("service: {x: .nan}", "yaml"),
            ("[service]\nx = nan", "toml"),
            ("[service]\nx = -inf", "toml"),
        ],
    )
    def test_nan_and_infinity(self, text: str, format: str) -> None:
        [error] = errors_of(text, format, "tf_config")
        assert error.path == "service.x"
        assert error.code == "number"

    @pytest.mark.parametrize(
        ("template", "format", "code", "place"),
        [
            ('{{"tf_random_seed": {}}}', "json", "number", (1, 20)),
            ("tf_random_seed: {}", "yaml", "number", (1, 17)),
            ("tf_random_seed = {}", "toml", "number", (1, 18)),
        ],
    )
    def test_integer_too_long(
        self, template: str, format: str, code: str, place: tuple[int, int]
    ) -> None:
        [error] = errors_of(template.format("1" * 5000), format)
        assert (error.code, (error.line, error.column)) == (code, place)
        assert "5000 digits" in error.message

    @pytest.mark.parametrize("format", ["yaml", "toml"])
    def test_long_hexadecimal_integers_convert(self, format: str) -> None:
        text = f"tf_random_seed{':' if format == 'yaml' else ' ='} 0x{'f' * 5000}"
        assert loads(text, format, RunConfig).tf_random_seed == 16**5000 - 1

    @pytest.mark.parametrize(
        "text",
        [
            "model_dir: !!python/object/apply:os.system [echo]",
            "model_dir: !!python/name:os.system",
            "!!python/object:__main__.X {}",
            "? !!python/tuple [1, 2]\n: x",
        ],
    )
    def test_yaml_tags_that_build_objects(self, text: str) -> None:
        [error] = errors_of(text, "yaml")
        assert error.code == "tag"

    def test_recursive_yaml(self) -> None:
        [error] = errors_of("service: &a {x: *a}", "yaml", "tf_config")
        assert error.code == "depth"

    def test_not_a_file(self, tmp_path: Path) -> None:
        for path, message in [
            (tmp_path / "missing.json", "no such file"),
            (tmp_path, "is a directory"),
        ]:
            with pytest.raises(ConfigFileError, match=message):
                load(path, format="json")

    def test_unknown_suffix(self, tmp_path: Path) -> None:
        path = tmp_path / "config.txt"
        path.write_text('{"cluster": {}}')
        with pytest.raises(ConfigFileError, match="cannot tell the format"):
            load(path)
        assert load(path, format="json") == TFConfig()
        with pytest.raises(ValueError, match="unknown format"):
            loads("{}", "ini")


class TestLoneSurrogates:
    @pytest.mark.parametrize("format", ["json", "yaml"])
    def test_in_a_value(self, format: str) -> None:
        [error] = errors_of('{"cluster": {"chief": ["\\ud800:1"]}}', format)
        assert (error.code, error.path) == ("encoding", "cluster.chief[0]")
        assert "\\ud800" in error.message

    @pytest.mark.parametrize("format", ["json", "yaml"])
    def test_in_a_key(self, format: str) -> None:
        [error] = errors_of('{"cluster": {"\\udc00x": ["h:1"]}}', format)
        assert (error.code, error.path) == ("encoding", "cluster")

    def test_text_with_a_lone_surrogate_is_not_utf8(self) -> None:
        [error] = errors_of('{"cluster": {}, "job": "\ud800"}')
        assert (error.code, error.line) == ("encoding", 1)

    def test_a_pair_is_one_character(self) -> None:
        tf_config = loads('{"cluster": {}, "job": "\\ud83d\\ude00"}', "json", TFConfig)
        assert tf_config.model_extra == {"job": "\N{GRINNING FACE}"}


class TestDepth:
    """Nesting is measured on the data read, whatever the text around it holds."""

    @pytest.mark.parametrize("bracket", ["[", "{"])
    @pytest.mark.parametrize(
        "template",
        [
            "# {many}\ncluster: {{chief: ['h:1']}}\n",
            "cluster: {{chief: ['h:1']}}  # {many}\n",
            "cluster: {{chief: ['h:1']}}\njob: '{many}'\n",
            'cluster: {{chief: ["h:1"]}}\njob: "{many}"\n',
            "cluster: {{chief: ['h:1']}}\njob: |\n  {many}\n",
            "cluster: {{chief: ['h:1']}}\njob: x{many}\n",
        ],
        ids=["comment", "end-of-line comment", "single-quoted", "double-quoted", "block", "plain"],
    )
    def test_brackets_outside_the_structure_of_yaml(self, template: str, bracket: str) -> None:
        text = template.format(many=bracket * 150)
        tf_config = loads(text + "task: {type: chief, index: 0}\n", "yaml", TFConfig)
        assert tf_config.task is not None
        assert tf_config.task.type == "chief"
        job = (tf_config.model_extra or {}).get("job", bracket * 150)
        assert job.strip("x\n") == bracket * 150

    @pytest.mark.parametrize(
        ("text", "format"),
        [
            ('{"service": ' + "[" * 100 + "]" * 100 + "}", "json"),
            ("service: " + "[" * 100 + "]" * 100, "yaml"),
            ("service:\n" + "- " * 100 + "x", "yaml"),
            ("[service]\nx = " + "[" * 100 + "]" * 100, "toml"),
            ("[service]\nx = " + "{a = " * 100 + "1" + "}" * 100, "toml"),
            ("[service" + ".a" * 100 + "]", "toml"),
        ],
    )
    def test_too_deep_in_every_format(self, text: str, format: str) -> None:
        [error] = errors_of(text, format, "tf_config")
        assert error.code == "depth"
        assert f"nested deeper than {MAX_DEPTH} levels" in error.message
        assert error.loc[:2] in (("service", 0), ("service", "x"), ("service", "a"))

    @pytest.mark.parametrize("format", ["json", "yaml", "toml"])
    def test_too_deep_for_the_parser_in_every_format(self, format: str) -> None:
        text = {"json": '{{"x": {}}}', "yaml": "x: {}", "toml": "x = {}"}[format]
        [error] = errors_of(text.format("[" * 100_000 + "]" * 100_000), format, "tf_config")
        assert error.code == "depth"
