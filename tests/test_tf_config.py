"""estconf.TFConfig and estconf.Task: the TF_CONFIG object as TensorFlow reads it."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from estconf import ClusterSpec, TaskType, TFConfig
from estconf._suggest import closest
from estconf.tf_config import (
    JOB_NEAR_MISS,
    TRAINING_JOBS,
    Task,
    TFConfigText,
    jobs_alone,
    near_miss_job,
    parse_json,
    top_level_job,
)
from values import is_a_value

from strategies import cluster_files, valid_tf_configs


def env_errors(text: str) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        TFConfig.from_env({"TF_CONFIG": text})
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


def errors_of(data: Any) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        TFConfig.model_validate(data)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestFromEnv:
    def test_unset_means_an_empty_config(self) -> None:
        tf_config = TFConfig.from_env({})
        assert tf_config == TFConfig()
        assert not tf_config.cluster
        assert tf_config.task == Task()

    def test_reads_os_environ_by_default(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TF_CONFIG", '{"task": {"type": "worker", "index": 0}}')
        assert TFConfig.from_env().task.type == TaskType.WORKER
        monkeypatch.delenv("TF_CONFIG")
        assert TFConfig.from_env() == TFConfig()

    @pytest.mark.parametrize("text", ["", "   ", "\n"])
    def test_set_but_empty(self, text: str) -> None:
        [(code, _, msg)] = env_errors(text)
        assert code == "tf_config_empty"
        assert "TF_CONFIG is set but empty" in msg

    def test_invalid_json_says_where(self) -> None:
        [(code, _, msg)] = env_errors('{"cluster": {\n  "worker": [}')
        assert code == "json_invalid"
        assert "line 2, column" in msg

    @pytest.mark.parametrize(
        ("text", "kind"),
        [
            ("null", "null"),
            ("[]", "an array"),
            ("5", "a number"),
            ('"x"', "a string"),
            ("true", "a boolean"),
        ],
    )
    def test_not_an_object(self, text: str, kind: str) -> None:
        [(code, _, msg)] = env_errors(text)
        assert (code, msg) == ("tf_config_type", f"TF_CONFIG must be a JSON object, got {kind}")

    def test_duplicate_keys(self) -> None:
        [(code, _, msg)] = env_errors('{"task": {"type": "worker", "type": "ps"}}')
        assert code == "duplicate_key"
        assert "'type'" in msg

    @pytest.mark.parametrize("read", ["from_json", "from_env"])
    def test_duplicate_keys_are_also_read_as_tensorflow_reads_them(self, read: str) -> None:
        """TensorFlow keeps the last ``cluster``, a null one here, and refuses it."""
        text = '{"cluster": {}, "cluster": null}'
        with pytest.raises(ValidationError) as info:
            if read == "from_json":
                TFConfig.from_json(text)
            else:
                TFConfig.from_env({"TF_CONFIG": text})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("duplicate_key", ()),
            ("cluster_type", ("cluster",)),
        ]
        assert "`cluster` must be a dictionary" in str(info.value)

    @pytest.mark.parametrize(
        "text", ['{"task": {"type": "worker", "type": "ps"}}', '[{"a": 1, "a": 2}]']
    )
    def test_duplicate_keys_alone_when_the_rest_is_valid_or_no_object(self, text: str) -> None:
        assert [code for code, _, _ in env_errors(text)] == ["duplicate_key"]

    def test_deep_nesting_is_an_error_not_a_crash(self) -> None:
        [(code, _, _)] = env_errors('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}")
        assert code == "json_depth"

    def test_a_byte_order_mark_is_refused_as_json_loads_refuses_it(self) -> None:
        [(code, _, msg)] = env_errors('\ufeff{"task": {}}')
        assert code == "json_invalid"
        assert "Unexpected UTF-8 BOM" in msg

    @pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32-le"])
    def test_bytes_are_read_in_the_encoding_json_finds(self, encoding: str) -> None:
        text = '{"task": {"type": "worker", "index": 1}}'
        assert TFConfig.from_json(text.encode(encoding)).task.index == 1

    def test_nan_is_kept_in_unknown_keys_as_tensorflow_does(self) -> None:
        tf_config = TFConfig.from_env({"TF_CONFIG": '{"x": NaN}'})
        assert tf_config.model_extra is not None


class TestPythonRepr:
    """A dict written with ``str()`` instead of ``json.dumps()``: a hint says so."""

    def test_from_json(self) -> None:
        text = str({"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}})
        with pytest.raises(ValidationError) as raised:
            TFConfig.from_json(text)
        [error] = raised.value.errors()
        assert error["type"] == "json_invalid"
        assert error["msg"].startswith(
            "TF_CONFIG: invalid JSON: Expecting property name enclosed in double quotes "
            "(single quotes: this looks like a Python dict written with str(); "
            "write it with json.dumps() instead)"
        )

    def test_other_bad_json_has_no_such_hint(self) -> None:
        with pytest.raises(ValidationError, match="invalid JSON") as raised:
            TFConfig.from_json('{"cluster": }')
        assert "json.dumps" not in str(raised.value)


def test_a_trailing_comma_is_named_after_tensorflows_sentence() -> None:
    """The sentence of ``json.loads`` on TensorFlow 2.15's Pythons comes first, on every Python."""
    text = '{"cluster": {"chief": ["c:1"],}, "task": {"type": "chief", "index": 0}}'
    sentence = "Expecting property name enclosed in double quotes"
    if sys.version_info < (3, 13):  # Python 3.13's decoder names the comma in its own words
        with pytest.raises(json.JSONDecodeError) as tensorflow:
            json.loads(text)
        assert tensorflow.value.msg == sentence
    with pytest.raises(ValidationError) as raised:
        TFConfig.from_json(text)
    [error] = raised.value.errors()
    assert error["msg"].startswith(f"TF_CONFIG: invalid JSON: {sentence}")
    assert "trailing comma" in error["msg"].lower()


class TestKeys:
    @pytest.mark.parametrize("key", ["chief", "master", "worker", "ps", "evaluator"])
    def test_a_job_at_the_top_level_is_refused_whatever_its_value(self, key: str) -> None:
        with pytest.raises(ValidationError) as info:
            TFConfig.model_validate({key: "anything", "task": {"type": "worker", "index": 0}})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("top_level_jobs", (key,))

    @pytest.mark.parametrize("key", ["cluster", "task", "session_master", "job", "rpc_layer"])
    def test_its_own_keys_and_job_are_no_jobs(self, key: str) -> None:
        assert top_level_job(key) is None

    def test_errors_of_the_rest_are_reported_beside_it(self) -> None:
        with pytest.raises(ValidationError) as info:
            TFConfig.model_validate({"worker": ["w:0"], "cluster": {"chief": ["c"]}})
        assert [e["type"] for e in info.value.errors()] == ["top_level_jobs", "address"]

    @pytest.mark.parametrize(
        "data",
        [
            {"ps": ["p:1", "not an address"]},
            {"evaluator": {"0": "e:1", " 2 ": "e:2", -1: "e:3"}},
            {"master": [], "trainer": {}},
        ],
    )
    def test_jobs_alone_hold_tasks_as_a_cluster_writes_them(self, data: dict[str, Any]) -> None:
        """Each a list of strings, or an object from index to string: its own rules come later."""
        assert jobs_alone(data)

    @pytest.mark.parametrize(
        "data",
        [
            {},
            {"trainer": ["t:1"]},
            {"worker": ["w:1"], "task": {"type": "worker", "index": 0}},
            {"worker": ["w:1"], "cluster": {"chief": ["c:1"]}},
            {"worker": ["w:1", None]},
            {"worker": {"first": "w:1"}},
            {"worker": {True: "w:1"}},
            {"worker": {1.0: "w:1"}},
            {"worker": ("w:1",)},
            {"worker": ["w:1"], "Worker": ["w:2"]},
        ],
    )
    def test_anything_else_is_no_cluster(self, data: dict[Any, Any]) -> None:
        assert not jobs_alone(data)

    @given(cluster=cluster_files())
    def test_a_cluster_is_jobs_alone_and_a_tf_config_is_not(self, cluster: dict[str, Any]) -> None:
        assert jobs_alone(cluster)
        assert not jobs_alone({"cluster": cluster, "task": {"type": next(iter(cluster))}})

    def test_every_known_key(self) -> None:
        tf_config = TFConfig.model_validate(
            {
                "cluster": {"chief": ["h:0"], "worker": ["h:1"]},
                "task": {"type": "worker", "index": 0, "trial": "7"},
                "environment": "cloud",
                "session_master": "grpc://m:1",
                "eval_session_master": "grpc://e:1",
                "model_dir": "gs://b/m",
                "service": {"tpu_worker_job_name": "tpu"},
                "rpc_layer": "grpc",
            }
        )
        assert tf_config.cluster == ClusterSpec({"chief": ["h:0"], "worker": ["h:1"]})
        assert tf_config.task.type == "worker"
        assert tf_config.task.index == 0
        assert tf_config.task.model_extra == {"trial": "7"}
        assert tf_config.environment == "cloud"
        assert tf_config.session_master == "grpc://m:1"
        assert tf_config.eval_session_master == "grpc://e:1"
        assert tf_config.model_dir == "gs://b/m"
        assert tf_config.service == {"tpu_worker_job_name": "tpu"}
        assert tf_config.rpc_layer == "grpc"

    def test_unknown_keys_are_kept_and_dumped_back(self) -> None:
        data = {"job": {"job_name": "x"}, "task": {"type": "worker", "cloud": "c"}}
        assert TFConfig.model_validate(data).model_dump(mode="json") == {
            "cluster": {},
            "task": {"type": "worker", "cloud": "c"},
            "job": {"job_name": "x"},
        }

    @pytest.mark.parametrize(("index", "expected"), [("2", 2), (2, 2), (2.0, 2), ("007", 7)])
    def test_index_is_read_like_int(self, index: Any, expected: int) -> None:
        assert Task(index=index).index == expected

    @pytest.mark.parametrize("index", [1.5, True, "1.0", " 1", "one", [1]])
    def test_index_int_type(self, index: Any) -> None:
        [(code, loc, _)] = errors_of({"task": {"index": index}})
        assert (code, loc) == ("int_type", ("task", "index"))

    def test_type_must_be_a_string(self) -> None:
        [(code, loc, _)] = errors_of({"task": {"type": 5}})
        assert (code, loc) == ("string_type", ("task", "type"))

    def test_explicit_null_task_keys_are_kept_apart_from_missing_ones(self) -> None:
        assert Task.model_validate({"type": None}).model_dump() == {"type": None}
        assert Task.model_validate({}).model_dump() == {}

    @pytest.mark.parametrize(
        "key", ["session_master", "eval_session_master", "environment", "rpc_layer"]
    )
    @pytest.mark.parametrize("value", [5, None, ["x"]])
    def test_string_keys_type(self, key: str, value: Any) -> None:
        [(code, loc, _)] = errors_of({key: value})
        assert code in ("type", "string_type")
        assert loc == (key,)

    def test_cluster_null(self) -> None:
        [(code, loc, _)] = errors_of({"cluster": None})
        assert (code, loc) == ("cluster_type", ("cluster",))

    @pytest.mark.parametrize("task", [None, "worker", []])
    def test_task_not_an_object(self, task: Any) -> None:
        [(code, loc, _)] = errors_of({"task": task})
        assert (code, loc) == ("model_type", ("task",))

    def test_model_dir_empty_is_kept_for_the_readers_to_judge(self) -> None:
        # only the Estimator refuses it (test_run_config); tf.distribute never reads it
        assert TFConfig.model_validate({"model_dir": ""}).model_dir == ""

    @pytest.mark.parametrize("model_dir", [0, False, 0.0, [], {}])
    def test_a_false_model_dir_that_is_no_text_is_refused_in_tensorflows_words(
        self, model_dir: Any
    ) -> None:
        """TensorFlow reads it as a model directory and finds it empty."""
        with pytest.raises(ValidationError) as info:
            TFConfig.model_validate({"model_dir": model_dir})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("string_type", ("model_dir",))
        assert error["msg"].startswith("model_dir should be non-empty")

    def test_a_true_model_dir_that_is_no_text_is_refused_as_no_string(self) -> None:
        with pytest.raises(ValidationError, match="Input should be a valid string"):
            TFConfig.model_validate({"model_dir": 5})

    def test_model_dir_null_means_unset(self) -> None:
        assert TFConfig.model_validate({"model_dir": None}).model_dir is None

    @pytest.mark.parametrize("service", [5, "x", [1]])
    def test_service_must_be_an_object(self, service: Any) -> None:
        [(code, loc, msg)] = errors_of({"service": service})
        assert (code, loc) == ("service_type", ("service",))
        assert 'If "service" is set in TF_CONFIG, it must be a dict.' in msg

    def test_service_null_means_no_service(self) -> None:
        assert TFConfig.model_validate({"service": None}).service is None

    def test_errors_point_into_the_cluster(self) -> None:
        [(code, loc, _)] = errors_of({"cluster": {"worker": ["h:1", "nope"]}})
        assert (code, loc) == ("address", ("cluster", "worker", 1))


class TestRoundTrip:
    @given(valid_tf_configs)
    def test_model_validate_model_dump(self, data: dict[str, Any]) -> None:
        tf_config = TFConfig.model_validate(data)
        assert TFConfig.model_validate(tf_config.model_dump(mode="json")) == tf_config
        assert TFConfig.model_validate(tf_config.model_dump()) == tf_config

    @given(valid_tf_configs)
    def test_to_json_reads_back(self, data: dict[str, Any]) -> None:
        tf_config = TFConfig.model_validate(data)
        assert TFConfig.from_env({"TF_CONFIG": tf_config.to_json()}) == tf_config
        assert json.loads(tf_config.to_json()) == tf_config.model_dump(mode="json")

    def test_frozen(self) -> None:
        tf_config = TFConfig()
        with pytest.raises(ValidationError):
            tf_config.model_dir = "x"  # type: ignore[misc]


class IndexOnly:
    """An integer only through ``__index__``, as NumPy's integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class TestNotAnObject:
    @pytest.mark.parametrize("value", [5, "text", [], None])
    def test_whole_config_echoes_the_input(self, value: Any) -> None:
        with pytest.raises(ValidationError) as info:
            TFConfig.model_validate(value)
        [error] = info.value.errors()
        assert (error["type"], error["loc"], error["input"]) == ("model_type", (), value)

    @pytest.mark.parametrize(("text", "value"), [("null", None), ("[1]", [1]), ('"x"', "x")])
    def test_variable_echoes_the_parsed_value(self, text: str, value: Any) -> None:
        for read in (TFConfig.from_env, lambda env: TFConfig.from_json(env["TF_CONFIG"])):
            with pytest.raises(ValidationError) as info:
                read({"TF_CONFIG": text})
            [error] = info.value.errors()
            assert (error["type"], error["loc"], error["input"]) == ("tf_config_type", (), value)


class TestIndexThroughIndex:
    def test_an_integer_through_index_is_read_as_int(self) -> None:
        """NumPy integers: TensorFlow calls int() on the index, which they support."""
        index = Task(index=IndexOnly(3)).index
        assert (index, type(index)) == (3, int)
        assert TFConfig.model_validate({"task": {"index": IndexOnly(0)}}).task.index == 0


def test_an_index_too_long_for_int_is_refused() -> None:
    """Python's int() refuses more than 4300 digits; TensorFlow would fail the same way."""
    [(code, loc, msg)] = errors_of({"task": {"index": "9" * 5000}})
    assert (code, loc) == ("int_type", ("task", "index"))
    assert msg.startswith("Input is too long to convert to an integer: Exceeds the limit")


def test_the_text_of_the_variable_is_a_value() -> None:
    text = TFConfigText('{"task": {"type": "worker"}}')
    with pytest.raises(dataclasses.FrozenInstanceError):
        text.text = None  # type: ignore[misc]
    assert text == TFConfigText('{"task": {"type": "worker"}}')
    assert hash(text) == hash(TFConfigText('{"task": {"type": "worker"}}'))


def test_built_on_first_use_not_at_import() -> None:
    """Importing ``TFConfig`` and ``Task`` builds neither; each is built on its first use."""
    code = (
        "from estconf.tf_config import Task, TFConfig\n"
        "assert not Task.__pydantic_complete__ and not TFConfig.__pydantic_complete__\n"
        'TFConfig.from_json(\'{"task": {"type": "worker", "index": 0}}\')\n'
        "assert TFConfig.__pydantic_complete__\n"
        "Task(type='worker')\n"
        "assert Task.__pydantic_complete__\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


class TestLoneSurrogates:
    r"""Half of a UTF-16 surrogate pair (``\ud800``) is no character: TF_CONFIG text holding one
    is refused (``json_invalid``), as a file holding one is; a whole pair is its character."""

    @pytest.mark.parametrize(
        ("text", "what"),
        [
            ('{"task": {"type": "chief", "index": "\\ud800"}}', "a string holds \\ud800"),
            ('{"cluster": {"\\udfff": ["w:1"]}}', "a key holds \\udfff"),
            ('{"model_dir": "/m/\\uD83D"}', "a string holds \\ud83d"),
            (b'{"model_dir": "\\ud800"}', "a string holds \\ud800"),
            (b'{"model_dir": "\xed\xa0\x80"}', "a string holds \\ud800"),
            ('{"model_dir": "\ud800"}', "a string holds \\ud800"),
        ],
    )
    def test_refused(self, text: str | bytes, what: str) -> None:
        with pytest.raises(ValidationError) as info:
            parse_json(text)
        [found] = info.value.errors(include_url=False)
        assert found["type"] == "json_invalid"
        assert found["msg"] == (
            f"TF_CONFIG: invalid JSON: {what}, half of a UTF-16 surrogate pair, "
            "which is not a character"
        )

    def test_a_whole_pair_is_a_character(self) -> None:
        assert parse_json('{"model_dir": "/m/\\ud83d\\ude00"}') == {"model_dir": "/m/\U0001f600"}


@given(st.text(alphabet="abcehikmoprstvwxyzACEHIKMOPRSTVWXYZ_0123456789", max_size=12))
def test_a_misspelled_job_is_the_closest_job(name: str) -> None:
    """Comparing only the jobs with enough letters in common finds what comparing all finds."""
    expected = None if name in TRAINING_JOBS else closest(name, TRAINING_JOBS, JOB_NEAR_MISS)
    assert near_miss_job(name) == expected


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Task(type="worker", index=1), id="Task"),
        pytest.param(
            lambda: TFConfig.model_validate(
                {
                    "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
                    "task": {"type": "worker", "index": 0},
                }
            ),
            id="TFConfig",
        ),
    ],
)
def test_a_task_and_a_tf_config_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)
