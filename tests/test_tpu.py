"""estconf.tpu: TPUConfig and InputPipelineConfig (docs/tpu.md)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import estconf
from estconf import ClusterSpec, TFConfig
from estconf.distribute import TFConfigClusterResolver
from estconf.run_config import REPLACEABLE
from estconf.tpu import InputPipelineConfig, IterationsPerLoopCounter, RunConfig, TPUConfig

from strategies import evaluator_tf_configs, valid_tf_configs

ITERATIONS_MESSAGE = (
    "Invalid TPUConfig `iterations_per_loop` value. Value must be positive integer value or "
    "time-based value `<N><s|m|h>` where <N> is anypositive integer and `s`, `m`, `h` are unit "
    "of time in seconds, minutes, hours respectively. Examples of valid values: `3600s`, `60m`, "
    "`1h`."
)
CORES_MESSAGE = "num_cores_per_replica must be 1, 2, 4, 8, 16, 32, 64, 128; got {}"
MODE_MESSAGE = "input_partition_dims is only supported in PER_HOST_V2 mode."
NEEDS_CORES_MESSAGE = "input_partition_dims requires setting num_cores_per_replica."
LENGTH_MESSAGE = "input_partition_dims must be a list/tuple with one or two elements."
EVAL_MESSAGE = "eval_training_input_configuration must be PER_HOST_V1 or SLICED; got {}"
PARTITIONED = {"num_cores_per_replica": 4, "per_host_input_for_training": 3}
"""The settings input_partition_dims needs."""

Error = tuple[str, tuple[Any, ...], str]


def errors_of(**kwargs: Any) -> list[Error]:
    with pytest.raises(ValidationError) as info:
        TPUConfig.model_validate(kwargs)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


def env_errors(tf_config: str | None, **kwargs: Any) -> list[Error]:
    environ = {} if tf_config is None else {"TF_CONFIG": tf_config}
    with pytest.raises(ValidationError) as info:
        TPUConfig.from_env(environ, **kwargs)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestInputPipelineConfig:
    def test_values(self) -> None:
        assert {member.name: member.value for member in InputPipelineConfig} == {
            "PER_SHARD_V1": 1,
            "PER_HOST_V1": 2,
            "PER_HOST_V2": 3,
            "BROADCAST": 4,
            "SLICED": 5,
        }

    @pytest.mark.parametrize("member", list(InputPipelineConfig))
    def test_members_are_tensorflows_integers(self, member: InputPipelineConfig) -> None:
        assert isinstance(member, int)
        assert int(member) == member.value


class TestDefaults:
    def test_tensorflows_defaults(self) -> None:
        config = TPUConfig()
        assert config.iterations_per_loop == 2
        assert config.num_shards is None
        assert config.num_cores_per_replica is None
        assert config.per_host_input_for_training is InputPipelineConfig.PER_HOST_V1
        assert config.tpu_job_name is None
        assert config.initial_infeed_sleep_secs is None
        assert config.input_partition_dims is None
        assert config.eval_training_input_configuration is InputPipelineConfig.PER_HOST_V1
        assert config.experimental_host_call_every_n_steps == 1
        assert config.experimental_allow_per_host_v2_parallel_get_next is False
        assert config.experimental_feed_hook is None
        assert config.iterations_per_loop_counter == (2, "count")

    def test_eleven_arguments_in_tensorflows_order(self) -> None:
        assert list(TPUConfig.model_fields) == [
            "iterations_per_loop",
            "num_shards",
            "num_cores_per_replica",
            "per_host_input_for_training",
            "tpu_job_name",
            "initial_infeed_sleep_secs",
            "input_partition_dims",
            "eval_training_input_configuration",
            "experimental_host_call_every_n_steps",
            "experimental_allow_per_host_v2_parallel_get_next",
            "experimental_feed_hook",
        ]


class TestIterationsPerLoop:
    def test_an_integer_of_more_digits_than_python_prints_is_refused(self) -> None:
        [(code, loc, msg)] = errors_of(iterations_per_loop=10**5000)
        assert (code, loc) == ("iterations_per_loop", ("iterations_per_loop",))
        assert msg.startswith("iterations_per_loop is too large: ")

    @pytest.mark.parametrize(
        ("value", "counter"),
        [
            (1, (1, "count")),
            (100, (100, "count")),
            ("100", (100, "count")),
            ("30s", (30, "seconds")),
            ("60m", (3600, "seconds")),
            ("1h", (3600, "seconds")),
            ("2h", (7200, "seconds")),
        ],
    )
    def test_counter(self, value: Any, counter: tuple[int, str]) -> None:
        config = TPUConfig(iterations_per_loop=value)
        assert config.iterations_per_loop == value
        assert config.iterations_per_loop_counter == counter
        assert isinstance(config.iterations_per_loop_counter, IterationsPerLoopCounter)
        assert config.iterations_per_loop_counter.unit == counter[1]
        assert config.iterations_per_loop_counter is config.iterations_per_loop_counter

    @pytest.mark.parametrize(
        "value",
        [
            0,
            -1,
            "0",
            "05",
            "-5",
            " 5",
            "5 ",
            "5x",
            "10ms",
            "s",
            "",
            "1.5",
            "\uff15",
            2.0,
            True,
            None,
        ],
    )
    def test_rejected_by_tensorflow(self, value: Any) -> None:
        assert errors_of(iterations_per_loop=value) == [
            ("iterations_per_loop", ("iterations_per_loop",), ITERATIONS_MESSAGE)
        ]

    @pytest.mark.parametrize("value", ["10|", "10\n", "5s\n", "1\u0663", "1\uff10"])
    def test_what_tensorflows_pattern_also_takes_is_refused(self, value: str) -> None:
        """`value`, stricter: `[s|m|h]` takes `|`, `$` a final newline, `\\d` any digit."""
        [(code, loc, msg)] = errors_of(iterations_per_loop=value)
        assert (code, loc) == ("value", ("iterations_per_loop",))
        assert repr(value) in msg

    def test_more_digits_than_python_converts(self) -> None:
        [(code, loc, msg)] = errors_of(iterations_per_loop="1" + "0" * 5000)
        assert (code, loc) == ("iterations_per_loop", ("iterations_per_loop",))
        assert "too long" in msg


class TestNumShards:
    @pytest.mark.parametrize("value", [1, 8, None])
    def test_positive_or_none(self, value: Any) -> None:
        assert TPUConfig(num_shards=value).num_shards == value

    @pytest.mark.parametrize("value", [0, -3, False])
    def test_must_be_positive(self, value: Any) -> None:
        assert errors_of(num_shards=value) == [
            ("positive_int", ("num_shards",), f"TPUConfig num_shards must be positive, got {value}")
        ]

    @pytest.mark.parametrize(("value", "kind"), [(2.0, "float"), ("2", "str"), ([2], "list")])
    def test_must_be_an_int(self, value: Any, kind: str) -> None:
        assert errors_of(num_shards=value) == [
            ("int_type", ("num_shards",), f"TPUConfig num_shards must be int, got <class '{kind}'>")
        ]

    def test_true_is_refused(self) -> None:
        """`int_type` (stricter than TensorFlow): TensorFlow reads True as 1."""
        [(code, loc, _)] = errors_of(num_shards=True)
        assert (code, loc) == ("int_type", ("num_shards",))


class TestNumCoresPerReplica:
    @pytest.mark.parametrize("value", [1, 2, 4, 8, 16, 32, 64, 128])
    def test_powers_of_two_up_to_128(self, value: int) -> None:
        assert TPUConfig(num_cores_per_replica=value).num_cores_per_replica == value

    @pytest.mark.parametrize("value", [2.0, Decimal(4), Fraction(8, 1)])
    def test_numbers_equal_to_one_are_read_as_it(self, value: Any) -> None:
        config = TPUConfig.model_validate({"num_cores_per_replica": value})
        assert config.num_cores_per_replica == value
        assert type(config.num_cores_per_replica) is int

    @pytest.mark.parametrize(
        ("value", "shown"), [(3, "3"), (0, "0"), (256, "256"), (2.5, "2.5"), ("4", "4")]
    )
    def test_anything_else(self, value: Any, shown: str) -> None:
        assert errors_of(num_cores_per_replica=value) == [
            ("num_cores_per_replica", ("num_cores_per_replica",), CORES_MESSAGE.format(shown))
        ]

    def test_what_is_no_number_is_refused_even_if_it_compares_equal(self) -> None:
        """TensorFlow looks the value up in a dict: what cannot be hashed fails there."""

        class EqualToAll:
            __hash__ = None  # type: ignore[assignment]

            def __eq__(self, other: object) -> bool:
                return True

        [(code, loc, _)] = errors_of(num_cores_per_replica=EqualToAll())
        assert (code, loc) == ("num_cores_per_replica", ("num_cores_per_replica",))

    def test_true_is_refused(self) -> None:
        """`int_type` (stricter than TensorFlow): TensorFlow finds True in [1, 2, ...]."""
        [(code, loc, _)] = errors_of(num_cores_per_replica=True)
        assert (code, loc) == ("int_type", ("num_cores_per_replica",))


class TestPerHostInputForTraining:
    @pytest.mark.parametrize(
        ("value", "mode"),
        [
            (False, InputPipelineConfig.PER_SHARD_V1),
            (True, InputPipelineConfig.PER_HOST_V1),
            (1, InputPipelineConfig.PER_SHARD_V1),
            (3, InputPipelineConfig.PER_HOST_V2),
            (5, InputPipelineConfig.SLICED),
            (4.0, InputPipelineConfig.BROADCAST),
            ("PER_HOST_V2", InputPipelineConfig.PER_HOST_V2),
            ("BROADCAST", InputPipelineConfig.BROADCAST),
            (InputPipelineConfig.PER_HOST_V2, InputPipelineConfig.PER_HOST_V2),
        ],
    )
    def test_stored_as_the_enum(self, value: Any, mode: InputPipelineConfig) -> None:
        config = TPUConfig.model_validate({"per_host_input_for_training": value})
        assert config.per_host_input_for_training is mode

    @pytest.mark.parametrize("name", ["PER_HOST_V2", "BROADCAST"])
    def test_a_name_is_not_a_keyword_argument(self, name: str) -> None:
        """TensorFlow compares with numbers; only documents spell members by name."""
        with pytest.raises(ValidationError) as info:
            TPUConfig(per_host_input_for_training=name)  # type: ignore[arg-type]
        assert info.value.errors()[0]["type"] == "enum"

    def test_dumped_as_the_name_in_json(self) -> None:
        config = TPUConfig(per_host_input_for_training=False)
        assert config.model_dump(mode="json")["per_host_input_for_training"] == "PER_SHARD_V1"
        assert config.model_dump()["per_host_input_for_training"] is InputPipelineConfig(1)

    @pytest.mark.parametrize("value", [0, 6, "3", "per_host_v2", 2.5, None, [3]])
    def test_outside_input_pipeline_config(self, value: Any) -> None:
        """`enum` (stricter than TensorFlow): TensorFlow keeps any value."""
        [(code, loc, msg)] = errors_of(per_host_input_for_training=value)
        assert (code, loc) == ("enum", ("per_host_input_for_training",))
        assert "PER_HOST_V2" in msg


class TestInitialInfeedSleepSecs:
    @pytest.mark.parametrize("value", [None, 1, 60])
    def test_none_or_positive(self, value: Any) -> None:
        assert TPUConfig(initial_infeed_sleep_secs=value).initial_infeed_sleep_secs == value

    @pytest.mark.parametrize("value", [0, 0.0])
    def test_zero_is_kept_as_tensorflow_checks_only_true_values(self, value: Any) -> None:
        assert (
            TPUConfig.model_validate({"initial_infeed_sleep_secs": value}).model_dump()[
                "initial_infeed_sleep_secs"
            ]
            == 0
        )

    def test_must_be_positive(self) -> None:
        assert errors_of(initial_infeed_sleep_secs=-1) == [
            (
                "positive_int",
                ("initial_infeed_sleep_secs",),
                "TPUConfig initial_infeed_sleep_secs must be positive, got -1",
            )
        ]

    @pytest.mark.parametrize(("value", "kind"), [(1.5, "float"), (2.0, "float"), ("5", "str")])
    def test_must_be_an_int(self, value: Any, kind: str) -> None:
        assert errors_of(initial_infeed_sleep_secs=value) == [
            (
                "int_type",
                ("initial_infeed_sleep_secs",),
                f"TPUConfig initial_infeed_sleep_secs must be int, got <class '{kind}'>",
            )
        ]

    def test_an_empty_string_is_no_number_of_seconds(self) -> None:
        assert errors_of(initial_infeed_sleep_secs="") == [
            (
                "type",
                ("initial_infeed_sleep_secs",),
                "initial_infeed_sleep_secs should be a number of seconds, got ''",
            )
        ]

    @pytest.mark.parametrize(
        ("value", "code"), [(True, "int_type"), (False, "int_type"), ("", "type")]
    )
    def test_values_tensorflow_keeps(self, value: Any, code: str) -> None:
        """Stricter than TensorFlow: a bool, or an empty string, is not a number of seconds."""
        [(found, loc, _)] = errors_of(initial_infeed_sleep_secs=value)
        assert (found, loc) == (code, ("initial_infeed_sleep_secs",))


class TestInputPartitionDims:
    @pytest.mark.parametrize(
        "mode",
        [
            InputPipelineConfig.PER_SHARD_V1,
            InputPipelineConfig.PER_HOST_V1,
            InputPipelineConfig.SLICED,
        ],
    )
    def test_other_modes_are_refused(self, mode: InputPipelineConfig) -> None:
        errors = errors_of(
            **{**PARTITIONED, "per_host_input_for_training": mode, "input_partition_dims": [[4]]}
        )
        assert [(code, loc) for code, loc, _ in errors] == [
            ("input_partition_dims_mode", ("per_host_input_for_training",))
        ]

    def test_a_config_with_partition_dims_is_hashable(self) -> None:
        given = {**PARTITIONED, "input_partition_dims": [{"image": [1, 2, 2, 1]}, None]}
        first, second = TPUConfig.model_validate(given), TPUConfig.model_validate(given)
        assert hash(first) == hash(second)
        assert hash(RunConfig(tpu_config=first)) == hash(RunConfig(tpu_config=second))

    def test_the_documented_example(self) -> None:
        config = TPUConfig(
            num_cores_per_replica=4,
            per_host_input_for_training=InputPipelineConfig.PER_HOST_V2,
            input_partition_dims=[[1, 2, 2, 1], None],
        )
        assert config.input_partition_dims == [[1, 2, 2, 1], None]

    @pytest.mark.parametrize(
        "dims",
        [
            [[4]],
            [None],
            [[1, 4], [4]],
            [{"image": [1, 2, 2, 1], "mask": None}, None],
            [{"image": [1, 4]}, [2, 2]],
            [[1, 2, 2, 1], [1]],
        ],
    )
    def test_features_and_labels(self, dims: list[Any]) -> None:
        config = TPUConfig.model_validate({**PARTITIONED, "input_partition_dims": dims})
        assert config.input_partition_dims == dims
        assert config.model_dump(mode="json")["input_partition_dims"] == dims

    @pytest.mark.parametrize(
        ("given", "parsed"),
        [
            ([(2.0, 2)], [[2, 2]]),
            ([{"image": (1, 4)}, (4,)], [{"image": [1, 4]}, [4]]),
        ],
    )
    def test_entries_are_read_as_lists_of_ints(self, given: list[Any], parsed: list[Any]) -> None:
        config = TPUConfig.model_validate({**PARTITIONED, "input_partition_dims": given})
        assert config.input_partition_dims == parsed
        assert [type(dim) for dim in _every_dim(config.input_partition_dims)] == [int] * len(
            _every_dim(parsed)
        )

    def test_tuples_read_as_lists(self) -> None:
        config = TPUConfig.model_validate({**PARTITIONED, "input_partition_dims": ([1, 4], None)})
        assert config.input_partition_dims == [[1, 4], None]

    @pytest.mark.parametrize("dims", [[], [None, None, None]])
    def test_one_or_two_entries(self, dims: list[Any]) -> None:
        assert errors_of(**PARTITIONED, input_partition_dims=dims) == [
            ("input_partition_dims_length", ("input_partition_dims",), LENGTH_MESSAGE)
        ]

    @pytest.mark.parametrize(
        "mode",
        [True, False, 2, 3.0, "PER_HOST_V1", None, 4, InputPipelineConfig.BROADCAST, "SLICED"],
    )
    def test_needs_per_host_v2(self, mode: Any) -> None:
        """TensorFlow tests `is PER_HOST_V2` before it reads True, so True fails too."""
        found = errors_of(
            num_cores_per_replica=4, per_host_input_for_training=mode, input_partition_dims=[None]
        )
        assert found[0] == (
            "input_partition_dims_mode",
            ("per_host_input_for_training",),
            MODE_MESSAGE,
        )

    def test_the_name_as_keyword_argument_is_not_the_constant(self) -> None:
        """To TensorFlow's ``is`` test, ``'PER_HOST_V2'`` is a string; a document may name it."""
        arguments: dict[str, Any] = {
            "num_cores_per_replica": 2,
            "per_host_input_for_training": "PER_HOST_V2",
            "input_partition_dims": [[1, 2]],
        }
        with pytest.raises(ValidationError) as info:
            TPUConfig(**arguments)
        assert [e["type"] for e in info.value.errors()] == ["input_partition_dims_mode", "enum"]
        assert TPUConfig.model_validate(arguments).input_partition_dims == [[1, 2]]

    def test_default_mode_is_not_per_host_v2(self) -> None:
        assert errors_of(num_cores_per_replica=4, input_partition_dims=[None]) == [
            ("input_partition_dims_mode", ("per_host_input_for_training",), MODE_MESSAGE)
        ]

    def test_needs_num_cores_per_replica(self) -> None:
        assert errors_of(per_host_input_for_training=3, input_partition_dims=[[1, 4]]) == [
            ("input_partition_dims_cores", ("num_cores_per_replica",), NEEDS_CORES_MESSAGE)
        ]

    def test_reported_with_the_other_errors(self) -> None:
        found = errors_of(num_shards=0, input_partition_dims=[None], tpu_job_name=5)
        assert [(code, loc) for code, loc, _ in found] == [
            ("input_partition_dims_mode", ("per_host_input_for_training",)),
            ("input_partition_dims_cores", ("num_cores_per_replica",)),
            ("positive_int", ("num_shards",)),
            ("string_type", ("tpu_job_name",)),
        ]

    @pytest.mark.parametrize(
        ("dims", "loc"),
        [([[1, 2]], (0,)), ([None, [8]], (1,)), ([{"a": [4], "b": [2, 1]}], (0, "b"))],
    )
    def test_each_split_uses_all_cores_of_the_replica(
        self, dims: list[Any], loc: tuple[Any, ...]
    ) -> None:
        """Stricter than TensorFlow: TensorFlow checks this only when it builds the infeed."""
        [(code, found_loc, msg)] = errors_of(**PARTITIONED, input_partition_dims=dims)
        assert (code, found_loc) == ("partition_dims", ("input_partition_dims", *loc))
        assert msg.startswith(
            "The product of each input partition dim should equal to num_cores_per_replica."
        )

    def test_a_split_into_one_is_no_split(self) -> None:
        """A product of 1 copies the tensor to every core, as TensorFlow's infeed allows."""
        config = TPUConfig.model_validate({**PARTITIONED, "input_partition_dims": [[1, 4], [1, 1]]})
        assert config.input_partition_dims == [[1, 4], [1, 1]]

    @pytest.mark.parametrize(("dims", "loc"), [([[0, 4]], (0, 0)), ([{"a": [4, -1]}], (0, "a", 1))])
    def test_dims_are_at_least_1(self, dims: list[Any], loc: tuple[Any, ...]) -> None:
        found = errors_of(**PARTITIONED, input_partition_dims=dims)
        assert found[0][:2] == ("partition_dims", ("input_partition_dims", *loc))
        assert found[0][2].startswith("All input partition dims must be >= 1.")

    @pytest.mark.parametrize(
        ("dims", "loc", "code"),
        [
            ("ab", (), "type"),
            ({"a": [4]}, (), "type"),
            ([5], (0,), "type"),
            ([["4"]], (0, 0), "int_type"),
            ([[1.5, 4]], (0, 0), "int_type"),
            ([{"a": 4}], (0, "a"), "list_type"),
        ],
    )
    def test_shape(self, dims: Any, loc: tuple[Any, ...], code: str) -> None:
        found = errors_of(**PARTITIONED, input_partition_dims=dims)
        assert found[0][:2] == (code, ("input_partition_dims", *loc))


class TestEvalTrainingInputConfiguration:
    @pytest.mark.parametrize(
        ("value", "mode"),
        [
            (2, InputPipelineConfig.PER_HOST_V1),
            (5, InputPipelineConfig.SLICED),
            (5.0, InputPipelineConfig.SLICED),
            ("SLICED", InputPipelineConfig.SLICED),
            (InputPipelineConfig.PER_HOST_V1, InputPipelineConfig.PER_HOST_V1),
        ],
    )
    def test_per_host_v1_or_sliced(self, value: Any, mode: InputPipelineConfig) -> None:
        config = TPUConfig.model_validate({"eval_training_input_configuration": value})
        assert config.eval_training_input_configuration is mode

    def test_a_name_is_not_a_keyword_argument(self) -> None:
        with pytest.raises(ValidationError) as info:
            TPUConfig(eval_training_input_configuration="SLICED")  # type: ignore[arg-type]
        assert "eval_training_input_configuration must be PER_HOST_V1 or SLICED; got SLICED" in str(
            info.value
        )
        from_env = TPUConfig.from_env({}, tpu_job_name="t", per_host_input_for_training=3)
        assert from_env.per_host_input_for_training is InputPipelineConfig.PER_HOST_V2
        in_json = TPUConfig.model_validate_json('{"eval_training_input_configuration": "SLICED"}')
        assert in_json.eval_training_input_configuration is InputPipelineConfig.SLICED

    @pytest.mark.parametrize(
        ("value", "shown"),
        [
            (3, "3"),
            (1, "1"),
            (True, "True"),
            ("BROADCAST", "BROADCAST"),
            ("2", "2"),
            (None, "None"),
            (InputPipelineConfig.PER_HOST_V2, "PER_HOST_V2"),
        ],
    )
    def test_anything_else(self, value: Any, shown: str) -> None:
        assert errors_of(eval_training_input_configuration=value) == [
            (
                "eval_training_input_configuration",
                ("eval_training_input_configuration",),
                EVAL_MESSAGE.format(shown),
            )
        ]


class TestExperimentalArguments:
    def test_host_call_every_n_steps(self) -> None:
        assert (
            TPUConfig(experimental_host_call_every_n_steps=10).experimental_host_call_every_n_steps
            == 10
        )

    @pytest.mark.parametrize("value", [0, -1])
    def test_host_call_every_n_steps_at_least_1(self, value: int) -> None:
        """`value` (stricter than TensorFlow): TensorFlow accepts any value."""
        [(code, loc, _)] = errors_of(experimental_host_call_every_n_steps=value)
        assert (code, loc) == ("value", ("experimental_host_call_every_n_steps",))

    @pytest.mark.parametrize("value", [1, "true", None])
    def test_parallel_get_next_is_a_bool(self, value: Any) -> None:
        [(code, loc, _)] = errors_of(experimental_allow_per_host_v2_parallel_get_next=value)
        assert (code, loc) == ("bool_type", ("experimental_allow_per_host_v2_parallel_get_next",))

    def test_feed_hook_is_python_only(self) -> None:
        class Hook:
            pass

        config = TPUConfig(experimental_feed_hook=Hook)
        assert config.experimental_feed_hook is Hook
        assert "experimental_feed_hook" not in config.model_dump()
        assert "experimental_feed_hook" not in TPUConfig.model_json_schema()["properties"]
        assert (
            "experimental_feed_hook"
            not in TPUConfig.model_json_schema(mode="serialization")["properties"]
        )


class TestTPUJobName:
    SERVICE = {"service": {"tpu_worker_job_name": "tpu_worker"}}

    def test_given(self) -> None:
        assert TPUConfig(tpu_job_name="mine", tf_config=self.SERVICE).tpu_job_name == "mine"

    @pytest.mark.parametrize("name", [None, ""])
    def test_from_tf_config_when_not_given_or_empty(self, name: str | None) -> None:
        assert TPUConfig(tpu_job_name=name, tf_config=self.SERVICE).tpu_job_name == "tpu_worker"
        assert TPUConfig(tf_config=TFConfig.model_validate(self.SERVICE)).tpu_job_name == (
            "tpu_worker"
        )

    @pytest.mark.parametrize("tf_config", [None, {}, {"service": {}}, {"service": {"x": 1}}])
    def test_none_without_one(self, tf_config: Any) -> None:
        assert TPUConfig(tpu_job_name="", tf_config=tf_config).tpu_job_name is None

    def test_empty_in_tf_config_is_kept(self) -> None:
        tf_config = {"service": {"tpu_worker_job_name": ""}}
        assert TPUConfig(tf_config=tf_config).tpu_job_name == ""

    def test_reads_nothing_else_of_tf_config(self) -> None:
        tf_config = {"cluster": None, "task": 5, "service": {"tpu_worker_job_name": "w"}}
        assert TPUConfig(tf_config=tf_config).tpu_job_name == "w"

    def test_tf_config_is_not_kept(self) -> None:
        config = TPUConfig(tf_config=self.SERVICE)
        assert "tf_config" not in config.model_dump()

    @pytest.mark.parametrize("tf_config", [{"service": None}, TFConfig(service=None)])
    def test_null_service(self, tf_config: Any) -> None:
        """TensorFlow fails on it (`None.get`) when it has to read the name."""
        [(code, loc, msg)] = errors_of(tf_config=tf_config)
        assert (code, loc) == ("service_type", ("tf_config", "service"))
        assert '"service" in TF_CONFIG is null' in msg
        assert TPUConfig(tpu_job_name="mine", tf_config=tf_config).tpu_job_name == "mine"

    @pytest.mark.parametrize("service", [[], "x", 5])
    def test_service_not_an_object(self, service: Any) -> None:
        [(code, loc, msg)] = errors_of(tf_config={"service": service})
        assert (code, loc) == ("service_type", ("tf_config", "service"))
        assert 'If "service" is set in TF_CONFIG, it must be a dict.' in msg

    def test_name_in_tf_config_must_be_a_string(self) -> None:
        [(code, loc, _)] = errors_of(tf_config={"service": {"tpu_worker_job_name": 5}})
        assert (code, loc) == ("type", ("tf_config", "service", "tpu_worker_job_name"))

    @pytest.mark.parametrize("tf_config", [[], "x"])
    def test_tf_config_must_be_an_object(self, tf_config: Any) -> None:
        [(code, loc, _)] = errors_of(tf_config=tf_config)
        assert (code, loc) == ("tf_config_type", ("tf_config",))

    def test_must_be_a_string(self) -> None:
        """`type` (stricter than TensorFlow): TensorFlow keeps a true non-string."""
        [(code, loc, _)] = errors_of(tpu_job_name=5)
        assert (code, loc) == ("string_type", ("tpu_job_name",))


class TestFromEnv:
    def test_reads_the_name_from_tf_config(self) -> None:
        environ = {"TF_CONFIG": '{"service": {"tpu_worker_job_name": "tpu_worker"}}'}
        assert TPUConfig.from_env(environ).tpu_job_name == "tpu_worker"
        assert TPUConfig.from_env(environ, tpu_job_name="").tpu_job_name == "tpu_worker"
        assert TPUConfig.from_env(environ, tpu_job_name="mine").tpu_job_name == "mine"

    def test_unset(self) -> None:
        assert TPUConfig.from_env({}).tpu_job_name is None

    def test_reads_os_environ_by_default(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TF_CONFIG", '{"service": {"tpu_worker_job_name": "w"}}')
        assert TPUConfig.from_env(iterations_per_loop=5).tpu_job_name == "w"

    def test_reads_only_the_service(self) -> None:
        environ = {"TF_CONFIG": '{"cluster": null, "service": {"tpu_worker_job_name": "w"}}'}
        assert TPUConfig.from_env(environ).tpu_job_name == "w"

    @pytest.mark.parametrize("text", ["", " ", "nope", "null", "[]", '{"service": null}'])
    def test_not_read_when_a_name_is_given(self, text: str) -> None:
        assert TPUConfig.from_env({"TF_CONFIG": text}, tpu_job_name="mine").tpu_job_name == "mine"

    @pytest.mark.parametrize(
        ("text", "code", "loc"),
        [
            ("", "json_invalid", ("TF_CONFIG",)),
            ("nope", "json_invalid", ("TF_CONFIG",)),
            ('{"a": 1, "a": 2}', "duplicate_key", ("TF_CONFIG",)),
            ("null", "tf_config_type", ("TF_CONFIG",)),
            ("[]", "tf_config_type", ("TF_CONFIG",)),
            ('{"service": null}', "service_type", ("TF_CONFIG", "service")),
            ('{"service": []}', "service_type", ("TF_CONFIG", "service")),
        ],
    )
    def test_invalid_tf_config(self, text: str, code: str, loc: tuple[str, ...]) -> None:
        [(found, found_loc, _)] = env_errors(text)
        assert (found, found_loc) == (code, loc)

    def test_reported_with_the_argument_errors(self) -> None:
        """TensorFlow checks the arguments first, so their errors must be there too."""
        found = env_errors("nope", iterations_per_loop=0)
        assert [(code, loc) for code, loc, _ in found] == [
            ("json_invalid", ("TF_CONFIG",)),
            ("iterations_per_loop", ("iterations_per_loop",)),
        ]

    def test_tf_config_comes_from_the_environment(self) -> None:
        with pytest.raises(TypeError, match="pass environ"):
            TPUConfig.from_env({}, tf_config={})

    def test_nan_is_read_as_tensorflow_does(self) -> None:
        environ = {"TF_CONFIG": '{"x": NaN, "service": {"tpu_worker_job_name": "w"}}'}
        assert TPUConfig.from_env(environ).tpu_job_name == "w"


class TestUnknownKeys:
    def test_refused(self) -> None:
        [(code, loc, message)] = errors_of(iterations_per_loops=5)
        assert (code, loc) == ("unknown_key", ("iterations_per_loops",))
        assert message.endswith("of TPUConfig; did you mean 'iterations_per_loop'?")


class TestSchema:
    def test_enums_by_number_or_name(self) -> None:
        properties = TPUConfig.model_json_schema()["properties"]
        assert properties["per_host_input_for_training"]["anyOf"] == [
            {"type": "boolean"},
            {"type": "integer", "enum": [1, 2, 3, 4, 5]},
            {
                "type": "string",
                "enum": ["PER_SHARD_V1", "PER_HOST_V1", "PER_HOST_V2", "BROADCAST", "SLICED"],
            },
        ]
        assert properties["per_host_input_for_training"]["default"] == "PER_HOST_V1"
        assert properties["eval_training_input_configuration"]["anyOf"] == [
            {"type": "integer", "enum": [2, 5]},
            {"type": "string", "enum": ["PER_HOST_V1", "SLICED"]},
        ]

    def test_serialization_schema_has_the_counter(self) -> None:
        schema = TPUConfig.model_json_schema(mode="serialization")
        assert schema["properties"]["iterations_per_loop_counter"]["readOnly"] is True

    @pytest.mark.parametrize("mode", ["validation", "serialization"])
    def test_schema_is_json(self, mode: Any) -> None:
        json.dumps(TPUConfig.model_json_schema(mode=mode))


configs = st.fixed_dictionaries(
    {},
    optional={
        "iterations_per_loop": st.integers(1, 10**6)
        | st.from_regex(r"[1-9][0-9]{0,4}[smh]?", fullmatch=True),
        "num_shards": st.none() | st.integers(1, 2048),
        "per_host_input_for_training": st.booleans()
        | st.sampled_from(list(InputPipelineConfig))
        | st.sampled_from([member.name for member in InputPipelineConfig]),
        "tpu_job_name": st.none() | st.text(min_size=1, max_size=8),
        "initial_infeed_sleep_secs": st.none() | st.integers(0, 3600),
        "eval_training_input_configuration": st.sampled_from([2, 5, "PER_HOST_V1", "SLICED"]),
        "experimental_host_call_every_n_steps": st.integers(1, 100),
        "experimental_allow_per_host_v2_parallel_get_next": st.booleans(),
    },
)


@st.composite
def partitioned_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A config that splits its inputs: PER_HOST_V2, cores, and dims that use them."""
    cores = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128]))

    def dims() -> st.SearchStrategy[list[int]]:
        factors = [d for d in (1, 2, 4, 8) if cores % d == 0]
        return st.lists(st.sampled_from(factors), min_size=1, max_size=4).filter(
            lambda found: _product(found) in (1, cores)
        )

    entry = (
        st.none() | dims() | st.dictionaries(st.text(max_size=5), st.none() | dims(), max_size=3)
    )
    data = draw(configs)
    data.update(
        num_cores_per_replica=cores,
        per_host_input_for_training=draw(st.sampled_from([3, "PER_HOST_V2"])),
        input_partition_dims=draw(st.lists(entry, min_size=1, max_size=2)),
    )
    return data


def _product(values: list[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result


class TestRoundTrip:
    @given(configs | partitioned_configs())
    def test_model_validate_model_dump(self, data: dict[str, Any]) -> None:
        config = TPUConfig.model_validate(data)
        assert TPUConfig.model_validate(config.model_dump()) == config
        assert TPUConfig.model_validate(config.model_dump(mode="json")) == config
        assert TPUConfig.model_validate_json(config.model_dump_json()) == config

    @given(configs)
    def test_json_dump_is_plain_json(self, data: dict[str, Any]) -> None:
        dumped = TPUConfig.model_validate(data).model_dump(mode="json")
        assert json.loads(json.dumps(dumped)) == dumped
        assert dumped["per_host_input_for_training"] in InputPipelineConfig.__members__

    def test_counter_dumped_as_an_object(self) -> None:
        assert TPUConfig(iterations_per_loop="2m").model_dump(mode="json")[
            "iterations_per_loop_counter"
        ] == {"value": 120, "unit": "seconds"}

    def test_derived_key_that_disagrees(self) -> None:
        dumped = TPUConfig(iterations_per_loop="2m").model_dump(mode="json")
        dumped["iterations_per_loop"] = 5
        [(code, loc, msg)] = errors_of(**dumped)
        assert (code, loc) == ("derived_mismatch", ("iterations_per_loop_counter",))
        assert "'count'" in msg

    def test_an_empty_name_read_from_tf_config_reads_back_as_none(self) -> None:
        """'' is false: read back without that TF_CONFIG, TensorFlow would give None."""
        config = TPUConfig(tf_config={"service": {"tpu_worker_job_name": ""}})
        assert TPUConfig.model_validate(config.model_dump()).tpu_job_name is None

    def test_frozen(self) -> None:
        config = TPUConfig()
        with pytest.raises(ValidationError):
            config.num_shards = 2  # type: ignore[misc]


# --- tpu.RunConfig -------------------------------------------------------------------------------

DOC_CLUSTER = {
    "chief": ["host0:2222"],
    "ps": ["host1:2222", "host2:2222"],
    "worker": ["host3:2222", "host4:2222", "host5:2222"],
}
SERVICE = {"tpu_worker_job_name": "tpu_worker"}


def node(task_type: str, index: int = 0, **tf_config: Any) -> dict[str, Any]:
    return {"cluster": DOC_CLUSTER, "task": {"type": task_type, "index": index}, **tf_config}


def run_config_errors(**kwargs: Any) -> list[Error]:
    with pytest.raises(ValidationError) as info:
        RunConfig.model_validate(kwargs)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestNames:
    def test_exported(self) -> None:
        assert estconf.TPURunConfig is RunConfig
        assert estconf.TPUConfig is TPUConfig
        assert estconf.InputPipelineConfig is InputPipelineConfig

    def test_an_estimator_run_config(self) -> None:
        assert issubclass(RunConfig, estconf.RunConfig)
        config = RunConfig(tf_config=node("worker", 1))
        assert (config.task_type, config.task_id, config.global_id_in_cluster) == ("worker", 1, 2)
        assert (config.num_ps_replicas, config.num_worker_replicas) == (2, 4)


class TestMasters:
    def test_derived_master_and_evaluation_master_from_it(self) -> None:
        config = RunConfig(tf_config=node("worker", 1))
        assert config.master == "grpc://host4:2222"
        assert config.evaluation_master == "grpc://host4:2222"

    def test_local_mode(self) -> None:
        config = RunConfig()
        assert (config.master, config.evaluation_master) == ("", "")

    def test_local_mode_session_masters(self) -> None:
        config = RunConfig(tf_config={"session_master": "grpc://m:1"})
        assert (config.master, config.evaluation_master) == ("grpc://m:1", "grpc://m:1")
        config = RunConfig(tf_config={"session_master": "grpc://m:1", "eval_session_master": "e"})
        assert (config.master, config.evaluation_master) == ("grpc://m:1", "e")

    def test_evaluator_keeps_tf_configs_evaluation_master(self) -> None:
        config = RunConfig(tf_config=node("evaluator"), master="grpc://tpu:1")
        assert (config.master, config.evaluation_master) == ("grpc://tpu:1", "")
        config = RunConfig(tf_config=node("evaluator", eval_session_master="grpc://e:1"))
        assert (config.master, config.evaluation_master) == ("", "grpc://e:1")

    @pytest.mark.parametrize("master", ["", "grpc://tpu:8470"])
    def test_a_given_master_replaces_the_derived_one(self, master: str) -> None:
        config = RunConfig(tf_config=node("worker", 1), master=master)
        assert (config.master, config.evaluation_master) == (master, master)

    @pytest.mark.parametrize("evaluation_master", ["", "grpc://eval:1"])
    def test_a_given_evaluation_master_replaces_the_derived_one(
        self, evaluation_master: str
    ) -> None:
        config = RunConfig(tf_config=node("worker", 1), evaluation_master=evaluation_master)
        assert (config.master, config.evaluation_master) == ("grpc://host4:2222", evaluation_master)

    @pytest.mark.parametrize("key", ["master", "evaluation_master"])
    @pytest.mark.parametrize("value", [5, ["x"]])
    def test_strings(self, key: str, value: Any) -> None:
        """`type` (stricter than TensorFlow): TensorFlow keeps any value."""
        [(code, loc, _)] = run_config_errors(**{key: value})
        assert (code, loc) == ("string_type", (key,))

    def test_reported_with_the_other_errors(self) -> None:
        found = run_config_errors(master=5, save_summary_steps=-1)
        assert [(code, loc) for code, loc, _ in found] == [
            ("string_type", ("master",)),
            ("bounds", ("save_summary_steps",)),
        ]


class TestSessionConfig:
    @pytest.mark.parametrize("task_type", ["chief", "worker", "ps"])
    def test_no_device_filter_default(self, task_type: str) -> None:
        assert RunConfig(tf_config=node(task_type)).session_config is None
        assert estconf.RunConfig(tf_config=node(task_type)).session_config is not None

    def test_a_given_one_is_kept(self) -> None:
        config = RunConfig(tf_config=node("worker"), session_config={"allow_soft_placement": True})
        assert config.session_config is not None
        assert config.session_config.allow_soft_placement is True


class TestTPUConfigArgument:
    def test_a_refused_tpu_config_is_reported_within_it(self) -> None:
        with pytest.raises(ValidationError) as info:
            RunConfig(tpu_config={"iterations_per_loop": "bad"})
        assert [(e["type"], e["loc"]) for e in info.value.errors()] == [
            ("iterations_per_loop", ("tpu_config", "iterations_per_loop"))
        ]

    def test_defaults_to_tpu_config(self) -> None:
        assert RunConfig().tpu_config == TPUConfig()

    def test_default_reads_the_job_name_from_the_same_tf_config(self) -> None:
        config = RunConfig(tf_config=node("worker", service=SERVICE))
        assert config.tpu_config.tpu_job_name == "tpu_worker"

    def test_a_dict_reads_it_too(self) -> None:
        config = RunConfig(tf_config={"service": SERVICE}, tpu_config={"iterations_per_loop": 9})
        assert config.tpu_config == TPUConfig(iterations_per_loop=9, tpu_job_name="tpu_worker")
        config = RunConfig(tf_config={"service": SERVICE}, tpu_config={"tpu_job_name": "mine"})
        assert config.tpu_config.tpu_job_name == "mine"

    def test_a_dict_is_read_as_a_document_among_keyword_arguments(self) -> None:
        """A document may name the InputPipelineConfig that a keyword argument must give."""
        config = RunConfig(tpu_config={"per_host_input_for_training": "PER_HOST_V2"})
        assert config.tpu_config.per_host_input_for_training is InputPipelineConfig.PER_HOST_V2

    def test_a_tpu_config_is_kept_as_given(self) -> None:
        tpu_config = TPUConfig(num_shards=8)
        config = RunConfig(tf_config={"service": SERVICE}, tpu_config=tpu_config)
        assert config.tpu_config is tpu_config
        assert config.tpu_config.tpu_job_name is None

    def test_null_service(self) -> None:
        """The estimator takes it as no service; the default TPUConfig fails on it."""
        assert run_config_errors(tf_config={"service": None}) == [
            (
                "service_type",
                ("tf_config", "service"),
                '"service" in TF_CONFIG is null; TPUConfig reads tpu_worker_job_name from it, '
                "so it must be an object (or left out)",
            )
        ]
        assert estconf.RunConfig(tf_config={"service": None}).service is None

    @pytest.mark.parametrize("tpu_config", [TPUConfig(), {"tpu_job_name": "mine"}])
    def test_null_service_is_not_read_with_a_tpu_config_or_a_name(self, tpu_config: Any) -> None:
        assert RunConfig(tf_config={"service": None}, tpu_config=tpu_config).service is None

    def test_service_not_an_object_is_reported_once(self) -> None:
        [(code, loc, msg)] = run_config_errors(tf_config={"service": [1]})
        assert (code, loc) == ("service_type", ("tf_config", "service"))
        assert 'If "service" is set in TF_CONFIG, it must be a dict.' in msg

    def test_errors_inside(self) -> None:
        [(code, loc, _)] = run_config_errors(tpu_config={"num_shards": 0})
        assert (code, loc) == ("positive_int", ("tpu_config", "num_shards"))


class TestReplace:
    def test_tpu_config(self) -> None:
        config = RunConfig(tf_config=node("worker", 1, service=SERVICE))
        replaced = config.replace(tpu_config=TPUConfig(iterations_per_loop="1h"))
        assert replaced.tpu_config.iterations_per_loop_counter == (3600, "seconds")
        assert config.tpu_config.iterations_per_loop == 2
        from_dict = config.replace(tpu_config={"num_shards": 4})
        assert from_dict.tpu_config == TPUConfig(num_shards=4, tpu_job_name="tpu_worker")

    def test_masters_stay(self) -> None:
        config = RunConfig(tf_config=node("worker", 1), master="", evaluation_master="grpc://e:1")
        replaced = config.replace(save_summary_steps=5)
        assert (replaced.master, replaced.evaluation_master) == ("", "grpc://e:1")
        assert replaced.save_summary_steps == 5
        assert replaced.session_config is None

    def test_only_tensorflows_list(self) -> None:
        """TensorFlow takes tpu_config out first: its message lists the estimator's keys."""
        with pytest.raises(ValueError) as info:
            RunConfig().replace(master="x", tpu_config=TPUConfig())
        assert (
            f"Replacing master is not supported. Allowed properties are {list(REPLACEABLE)}."
        ) in str(info.value)

    def test_an_invalid_tpu_config(self) -> None:
        with pytest.raises(ValidationError) as info:
            RunConfig().replace(tpu_config={"num_shards": 0})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("positive_int", ("tpu_config", "num_shards"))


class TestRunConfigFromEnv:
    def test_reads_tf_config_once_for_both(self) -> None:
        environ = {"TF_CONFIG": json.dumps(node("worker", 2, service=SERVICE))}
        config = RunConfig.from_env(environ, tpu_config={"iterations_per_loop": "10m"})
        assert config.master == config.evaluation_master == "grpc://host5:2222"
        assert config.tpu_config.tpu_job_name == "tpu_worker"
        assert config.tpu_config.iterations_per_loop_counter == (600, "seconds")
        assert isinstance(config, RunConfig)

    def test_null_service(self) -> None:
        with pytest.raises(ValueError, match='"service" in TF_CONFIG is null'):
            RunConfig.from_env({"TF_CONFIG": '{"service": null}'})


class TestRunConfigSchema:
    def test_arguments(self) -> None:
        properties = RunConfig.model_json_schema()["properties"]
        assert {"tpu_config", "master", "evaluation_master", "tf_config"} <= properties.keys()
        assert properties["master"]["anyOf"] == [{"type": "string"}, {"type": "null"}]

    def test_dumped_properties(self) -> None:
        properties = RunConfig.model_json_schema(mode="serialization")["properties"]
        assert properties["master"]["readOnly"] is True
        assert properties["evaluation_master"]["readOnly"] is True
        assert "tpu_config" in properties

    def test_the_masters_are_dumped(self) -> None:
        dumped = RunConfig(master="grpc://tpu:1", evaluation_master="e").model_dump()
        assert (dumped["master"], dumped["evaluation_master"]) == ("grpc://tpu:1", "e")


run_configs = st.fixed_dictionaries(
    {"tf_config": valid_tf_configs | evaluator_tf_configs()},
    optional={
        "master": st.sampled_from(["", "grpc://tpu:8470"]),
        "evaluation_master": st.sampled_from(["", "grpc://eval:1"]),
        "tpu_config": configs,
    },
)


class TestRunConfigRoundTrip:
    @given(run_configs)
    def test_model_validate_model_dump(self, data: dict[str, Any]) -> None:
        config = RunConfig.model_validate(data)
        assert RunConfig.model_validate(config.model_dump()) == config
        assert RunConfig.model_validate(config.model_dump(mode="json")) == config
        assert RunConfig.model_validate_json(config.model_dump_json()) == config

    @given(run_configs)
    def test_evaluation_master_rule(self, data: dict[str, Any]) -> None:
        config = RunConfig.model_validate(data)
        derived = estconf.RunConfig(tf_config=data["tf_config"])
        assert config.master == data.get("master", derived.master)
        if "evaluation_master" in data:
            assert config.evaluation_master == data["evaluation_master"]
        elif derived.evaluation_master or derived.task_type == "evaluator":
            assert config.evaluation_master == derived.evaluation_master
        else:
            assert config.evaluation_master == config.master


def _every_dim(partition_dims: Any) -> list[Any]:
    """Every number in an ``input_partition_dims`` value, in order."""
    found: list[Any] = []
    for entry in partition_dims or []:
        lists = entry.values() if isinstance(entry, dict) else [entry]
        for dims in lists:
            found.extend(dims or [])
    return found


class TestTFConfigNotAnObject:
    """TPUConfig reads TF_CONFIG's service only: a TF_CONFIG that is not an object fails."""

    @staticmethod
    def error_of(build: Any) -> tuple[Any, ...]:
        with pytest.raises(ValidationError) as info:
            build()
        [error] = info.value.errors()
        return (error["type"], error["loc"], error["input"], error["msg"])

    @pytest.mark.parametrize(
        ("tf_config", "kind"), [(5, "a number"), ([], "an array"), ("text", "a string")]
    )
    def test_argument(self, tf_config: Any, kind: str) -> None:
        assert self.error_of(lambda: TPUConfig(tf_config=tf_config)) == (
            "tf_config_type",
            ("tf_config",),
            tf_config,
            f"TF_CONFIG must be a JSON object, got {kind}",
        )

    @pytest.mark.parametrize(
        ("text", "value", "kind"),
        [("5", 5, "a number"), ("[1]", [1], "an array"), ("null", None, "null")],
    )
    def test_variable(self, text: str, value: Any, kind: str) -> None:
        assert self.error_of(lambda: TPUConfig.from_env({"TF_CONFIG": text})) == (
            "tf_config_type",
            ("TF_CONFIG",),
            value,
            f"TF_CONFIG must be a JSON object, got {kind}",
        )

    @pytest.mark.parametrize("model", [TPUConfig, RunConfig])
    @pytest.mark.parametrize("value", [5, "text", "master", [], None])
    def test_whole_config_echoes_the_input(self, model: Any, value: Any) -> None:
        assert self.error_of(lambda: model.model_validate(value)) == (
            "model_type",
            (),
            value,
            f"Input should be a valid dictionary or instance of {model.__name__}",
        )


class TestReadFromText:
    """Names and task types parsed from JSON text compare by value, as literals do."""

    def test_per_host_v2_by_name(self) -> None:
        text = json.dumps(
            {
                "num_cores_per_replica": 4,
                "per_host_input_for_training": "PER_HOST_V2",
                "input_partition_dims": [[2, 2]],
            }
        )
        config = TPUConfig.model_validate_json(text)
        assert config.per_host_input_for_training is InputPipelineConfig.PER_HOST_V2
        assert config.input_partition_dims == [[2, 2]]

    @pytest.mark.parametrize("task", [("evaluator", 0), ("worker", 1), ("chief", 0)])
    def test_masters_of_a_tf_config_variable(self, task: tuple[str, int]) -> None:
        tf_config = node(*task)
        from_text = RunConfig.from_env({"TF_CONFIG": json.dumps(tf_config)})
        literal = RunConfig(tf_config=tf_config)
        assert (from_text.master, from_text.evaluation_master) == (
            literal.master,
            literal.evaluation_master,
        )

    def test_an_evaluator_of_a_tf_config_variable_keeps_its_evaluation_master(self) -> None:
        environ = {"TF_CONFIG": json.dumps(node("evaluator"))}
        config = RunConfig.from_env(environ, master="grpc://tpu:1")
        assert (config.master, config.evaluation_master) == ("grpc://tpu:1", "")


class Resolver:
    """Stands for a tf.distribute cluster resolver: what the TPU RunConfig calls of one."""

    def __init__(self, cluster: Any, master: Any = "grpc://w0:1", *, true: bool = True) -> None:
        self._cluster = cluster
        self._master = master
        self._true = true
        self.calls: list[str] = []

    def __bool__(self) -> bool:
        return self._true

    def master(self) -> Any:
        self.calls.append("master")
        return self._master

    def cluster_spec(self) -> Any:
        self.calls.append("cluster_spec")
        return self._cluster


RESOLVED = {"worker": ["w0:1", "w1:1"], "ps": ["p0:1"]}
RESOLVED_CLUSTER_DEF = {
    "job": [
        {"name": "ps", "tasks": {"0": "p0:1"}},
        {"name": "worker", "tasks": {"0": "w0:1", "1": "w1:1"}},
    ]
}


def session_json(config: RunConfig) -> Any:
    return None if config.session_config is None else config.session_config.model_dump(mode="json")


class SessionProto:
    """Stands for a ConfigProto: records the fields cleared."""

    def __init__(self) -> None:
        self.cleared: list[str] = []

    def ClearField(self, name: str) -> None:
        self.cleared.append(name)


def stand_in_tensorflow(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A ``tensorflow`` module whose TPU classes give back their keyword arguments."""

    def arguments(**kwargs: Any) -> dict[str, Any]:
        return kwargs

    tpu = SimpleNamespace(RunConfig=arguments, TPUConfig=arguments)
    tf = SimpleNamespace(
        compat=SimpleNamespace(v1=SimpleNamespace(estimator=SimpleNamespace(tpu=tpu)))
    )
    monkeypatch.setattr(estconf.tpu.config, "tensorflow", lambda: tf)
    return tf


class TestFromTensorFlow:
    """Reading TensorFlow's TPU ``RunConfig`` back, with a stand-in that has its attributes.

    ``tests/compat`` does the same with TensorFlow's own classes.
    """

    @staticmethod
    def stand_in(config: RunConfig) -> SimpleNamespace:
        values = {
            name: getattr(config, name)
            for name in (*RunConfig.model_fields, *RunConfig.model_computed_fields)
        }
        cluster = config.cluster_spec.as_dict()
        values["cluster_spec"] = SimpleNamespace(as_dict=lambda: cluster)
        values["tpu_config"] = SimpleNamespace(_asdict=lambda: config.tpu_config.model_dump())
        values["session_config"] = None
        values["cluster"] = None
        return SimpleNamespace(**values)

    def test_the_masters_and_tpu_config_are_read_back(self) -> None:
        config = RunConfig(
            master="grpc://tpu:1",
            evaluation_master="grpc://eval:1",
            tpu_config=TPUConfig(iterations_per_loop=5),
            session_config=None,
        )
        assert RunConfig.from_tensorflow(self.stand_in(config), {}) == config


class TestClusterResolver:
    """``tpu.RunConfig(cluster=...)``: the master, cluster and session's cluster_def it gives."""

    def test_master_cluster_and_session_config(self) -> None:
        resolver = Resolver(RESOLVED)
        config = RunConfig(cluster=resolver)
        assert config.cluster is resolver
        assert (config.master, config.evaluation_master) == ("grpc://w0:1", "grpc://w0:1")
        assert config.cluster_spec == RESOLVED
        assert session_json(config) == {
            "allow_soft_placement": True,
            "cluster_def": RESOLVED_CLUSTER_DEF,
            "isolate_session_state": True,
        }
        assert resolver.calls == ["master", "cluster_spec"]

    def test_the_rest_is_read_from_tf_config(self) -> None:
        config = RunConfig(tf_config=node("worker", 1), cluster=Resolver(RESOLVED))
        assert (config.task_type, config.task_id, config.global_id_in_cluster) == ("worker", 1, 2)
        assert config.num_ps_replicas == 2
        assert config.cluster_spec == RESOLVED

    def test_an_evaluator_keeps_its_evaluation_master(self) -> None:
        config = RunConfig(tf_config=node("evaluator"), cluster=Resolver(RESOLVED))
        assert (config.master, config.evaluation_master) == ("grpc://w0:1", "")

    def test_a_given_evaluation_master(self) -> None:
        config = RunConfig(cluster=Resolver(RESOLVED), evaluation_master="e")
        assert (config.master, config.evaluation_master) == ("grpc://w0:1", "e")

    def test_a_given_session_config_takes_the_cluster_def(self) -> None:
        config = RunConfig(
            cluster=Resolver(RESOLVED), session_config={"log_device_placement": True}
        )
        assert session_json(config) == {
            "log_device_placement": True,
            "cluster_def": RESOLVED_CLUSTER_DEF,
        }

    def test_an_empty_cluster_has_no_cluster_def(self) -> None:
        config = RunConfig(cluster=Resolver(ClusterSpec({}), master=""))
        assert session_json(config) == {"allow_soft_placement": True, "isolate_session_state": True}
        assert not config.cluster_spec

    @pytest.mark.parametrize(
        "cluster", [RESOLVED, ClusterSpec(RESOLVED), SimpleNamespace(as_dict=lambda: RESOLVED)]
    )
    def test_a_cluster_spec_of_any_form(self, cluster: Any) -> None:
        assert RunConfig(cluster=Resolver(cluster)).cluster_spec == RESOLVED

    def test_estconfs_tf_config_resolver(self) -> None:
        tf_config = {"cluster": RESOLVED, "task": {"type": "worker", "index": 1}}
        config = RunConfig(cluster=TFConfigClusterResolver(tf_config=tf_config))
        assert config.master == "w1:1"
        assert config.cluster_spec == RESOLVED

    @pytest.mark.parametrize("cluster", [Resolver(RESOLVED, true=False), 0, ""])
    def test_a_false_one_is_not_read(self, cluster: Any) -> None:
        config = RunConfig(tf_config=node("worker", 1), cluster=cluster)
        assert config.cluster is cluster
        assert config.master == "grpc://host4:2222"
        assert config.cluster_spec == DOC_CLUSTER
        assert config.session_config is None
        assert getattr(cluster, "calls", []) == []

    @pytest.mark.parametrize("master", ["", "grpc://tpu:1", 5])
    @pytest.mark.parametrize("cluster", [Resolver(RESOLVED), Resolver(RESOLVED, true=False), 0])
    def test_not_with_a_master(self, master: Any, cluster: Any) -> None:
        found = run_config_errors(master=master, cluster=cluster)
        assert ("master_and_cluster", ("master",), "Both master and cluster are set.") in found

    @pytest.mark.parametrize("cluster_def", [{}, RESOLVED_CLUSTER_DEF])
    def test_not_with_a_cluster_def(self, cluster_def: Any) -> None:
        assert run_config_errors(
            cluster=Resolver(RESOLVED), session_config={"cluster_def": cluster_def}
        ) == [
            (
                "cluster_def_conflict",
                ("session_config", "cluster_def"),
                "You cannot provide a ClusterResolver and session_config.cluster_def.",
            )
        ]

    def test_the_conflicting_cluster_def_is_reported_as_json(self) -> None:
        with pytest.raises(ValidationError) as caught:
            RunConfig(
                cluster=Resolver(RESOLVED), session_config={"cluster_def": RESOLVED_CLUSTER_DEF}
            )
        [error] = caught.value.errors()
        assert error["type"] == "cluster_def_conflict"
        assert error["input"] == RESOLVED_CLUSTER_DEF

    def test_a_cluster_def_is_fine_without_one(self) -> None:
        config = RunConfig(session_config={"cluster_def": RESOLVED_CLUSTER_DEF})
        assert session_json(config) == {"cluster_def": RESOLVED_CLUSTER_DEF}

    @pytest.mark.parametrize(
        ("cluster", "code", "loc"),
        [
            (object(), "cluster_resolver", ("cluster",)),
            (SimpleNamespace(master=lambda: "grpc://w0:1"), "cluster_resolver", ("cluster",)),
            (SimpleNamespace(cluster_spec=lambda: RESOLVED), "cluster_resolver", ("cluster",)),
            (Resolver({"worker": ["no port"]}), "address", ("cluster", "worker", 0)),
            (Resolver(RESOLVED, master=None), "string_type", ("cluster",)),
        ],
    )
    def test_what_is_no_resolver(self, cluster: Any, code: str, loc: tuple[Any, ...]) -> None:
        [(found_code, found_loc, _)] = run_config_errors(cluster=cluster)
        assert (found_code, found_loc) == (code, loc)

    def test_a_failing_resolver(self) -> None:
        class Failing(Resolver):
            def master(self) -> Any:
                raise ValueError("no master here")

        assert run_config_errors(cluster=Failing(RESOLVED)) == [
            ("cluster_resolver", ("cluster",), "no master here")
        ]
        resolver = TFConfigClusterResolver(
            tf_config={"cluster": RESOLVED, "task": {"type": "chief", "index": 0}}
        )
        [(code, loc, _)] = run_config_errors(cluster=resolver)
        assert (code, loc[0]) == ("task_not_in_cluster", "cluster")

    @pytest.mark.parametrize(("true", "cleared"), [(True, ["cluster_def"]), (False, [])])
    def test_tensorflow_is_given_the_resolver_not_its_master(
        self, true: bool, cleared: list[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """TensorFlow asks the resolver again for the master and, if it is true, the cluster_def."""
        tf = stand_in_tensorflow(monkeypatch)
        config = RunConfig(cluster=Resolver(RESOLVED, true=true))
        session = SessionProto()
        built = config._build_tensorflow(tf, {"session_config": session})
        assert "master" not in built
        assert built["evaluation_master"] == config.evaluation_master
        assert session.cleared == cleared

    def test_tensorflow_is_given_the_master_without_a_resolver(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        tf = stand_in_tensorflow(monkeypatch)
        config = RunConfig(master="grpc://tpu:1")
        session = SessionProto()
        built = config._build_tensorflow(tf, {"session_config": session})
        assert built["master"] == "grpc://tpu:1"
        assert session.cleared == []

    def test_python_only(self) -> None:
        config = RunConfig(cluster=Resolver(RESOLVED))
        assert "cluster" not in config.model_dump()
        assert "cluster" not in RunConfig.model_json_schema()["properties"]
        assert "cluster" not in RunConfig.model_json_schema(mode="serialization")["properties"]

    def test_replace_keeps_it(self) -> None:
        resolver = Resolver(RESOLVED)
        replaced = RunConfig(cluster=resolver).replace(save_summary_steps=1)
        assert replaced.cluster is resolver
        assert replaced.master == "grpc://w0:1"
        assert replaced.session_config is not None
        assert replaced.replace(session_config=None).session_config is None
        with pytest.raises(ValueError, match="Replacing cluster is not supported"):
            replaced.replace(cluster=None)
