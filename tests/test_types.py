"""estconf._types: the value types shared by the models."""

from __future__ import annotations

import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from estconf import _types
from estconf._types import address_problem, all_plain_addresses_valid
from estconf.tpu import InputPipelineConfig, TPUConfig


class TestAddressFastPath:
    """The one-regex check of a whole cluster never passes an address the full check refuses."""

    @given(
        st.lists(
            st.lists(
                st.from_regex(r"[a-zA-Z0-9.\[\]:_\-\n]{1,12}:[0-9]{1,6}", fullmatch=True),
                min_size=1,
                max_size=4,
            ),
            min_size=1,
            max_size=3,
        )
    )
    def test_agrees_with_the_full_check(self, jobs: list[list[str]]) -> None:
        if all_plain_addresses_valid(jobs):
            addresses = [address for job in jobs for address in job]
            assert all(address_problem(address) is None for address in addresses)
            assert all(address == address.lower() for address in addresses)

    def test_refuses_what_needs_a_closer_look(self) -> None:
        assert not all_plain_addresses_valid([])
        assert not all_plain_addresses_valid([[]])
        assert not all_plain_addresses_valid([["Host:1"]])  # case: compared case-insensitively
        assert not all_plain_addresses_valid([["[::1]:1"]])  # IPv6: compared by value
        assert not all_plain_addresses_valid([[f"{'a' * 31}:1"]])  # a long label
        assert not all_plain_addresses_valid([[f"{'.'.join('a' * 9)}:1"]])  # many labels
        assert all_plain_addresses_valid([[f"{'a' * 30}.{'.'.join('b' * 7)}:1"]])

    def test_recognises_common_addresses(self) -> None:
        assert all_plain_addresses_valid([["host:1", "10.0.0.1:2222", "a.b-c.example.com:0"]])
        assert not all_plain_addresses_valid([["host:1", "1.2:3"]])
        assert not all_plain_addresses_valid([["a:1\nb:2"]])

    def test_reads_every_job(self) -> None:
        assert all_plain_addresses_valid([["chief:1"], ["worker-0:1", "worker-1:1"]])
        assert not all_plain_addresses_valid([["chief:1"], ["worker-0:1", "Worker-1:1"]])
        assert not all_plain_addresses_valid([["chief:1\nps:2"], ["worker:1"]])

    def test_rust_validator_is_built_once(self) -> None:
        """The regular expression is compiled on first use only, not on every check."""
        assert _types._fast_addresses() is _types._fast_addresses()


class TestAddressProblem:
    """What is wrong with an address, said once and with the fix where there is one."""

    @pytest.mark.parametrize("address", ["", "  "])
    def test_an_empty_address(self, address: str) -> None:
        assert address_problem(address) == "it is empty (or blank); expected host:port"

    @pytest.mark.parametrize(
        ("address", "fix"),
        [
            ("fe80::1:2222", "[fe80::1]:2222"),
            ("::1:80", "[::1]:80"),
            ("2001:db8::7:0", "[2001:db8::7]:0"),
        ],
    )
    def test_an_ipv6_host_without_brackets(self, address: str, fix: str) -> None:
        assert address_problem(address) == f"an IPv6 host goes in brackets: write it as {fix}"

    @pytest.mark.parametrize("address", ["fe80::1", "::1:99999", "host", "a:b:c:1"])
    def test_no_fix_to_give(self, address: str) -> None:
        problem = address_problem(address)
        assert problem is not None and problem.startswith("expected host:port")


class _Offset(_types.DocumentModel):
    """A model whose validator reads the caller's context and the document flag."""

    value: int

    @field_validator("value")
    @classmethod
    def offset(cls, value: int, info: ValidationInfo) -> int:
        assert _types.from_document(info)
        offset: int = (info.context or {}).get("offset", 0)
        return value + offset


class TestDocumentModel:
    """Each way pydantic reads a document reads it as one: enum names are taken."""

    def test_model_validate_strings(self) -> None:
        config = TPUConfig.model_validate_strings({"per_host_input_for_training": "PER_HOST_V2"})
        assert config.per_host_input_for_training is InputPipelineConfig.PER_HOST_V2

    @pytest.mark.parametrize(
        "validate",
        [
            lambda context: _Offset.model_validate({"value": 1}, context=context),
            lambda context: _Offset.model_validate_json('{"value": 1}', context=context),
            lambda context: _Offset.model_validate_strings({"value": "1"}, context=context),
        ],
    )
    def test_a_callers_context_reaches_the_validators_with_the_document_flag(
        self, validate: Callable[[dict[str, Any]], _Offset]
    ) -> None:
        assert validate({"offset": 10}).value == 11


class _NumpyFloat32:
    """Stands in for ``numpy.float32``: a float type of numpy's that is no ``float``."""

    __module__ = "numpy"

    def __init__(self, value: float) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"numpy.float32({self.value})"

    def is_integer(self) -> bool:
        return self.value.is_integer()

    def __int__(self) -> int:
        return int(self.value)


class _NumpyBool:
    """Stands in for ``numpy.bool_``, which is no ``bool``."""

    __module__ = "numpy"

    def __init__(self, value: bool) -> None:
        self.value = value

    def __bool__(self) -> bool:
        return self.value


_NumpyBool.__name__ = "bool_"


def _integer_readers() -> dict[str, Callable[[Any], Any]]:
    """Every kind of place that reads an integer with the package's reader, each given one value."""
    from estconf import RunConfig, TFConfig
    from estconf.distribute import slurm_tf_configs
    from estconf.sagemaker import InstanceGroupSpec

    environ = {"SLURM_STEP_NODELIST": "n[1-2]", "SLURM_STEP_TASKS_PER_NODE": "1(x2)"}
    return {
        "RunConfig.save_summary_steps": lambda v: (
            RunConfig(save_summary_steps=v).save_summary_steps
        ),
        "TFConfig task index": lambda v: (
            TFConfig.model_validate(
                {
                    "cluster": {"worker": ["a:1", "b:1", "c:1"]},
                    "task": {"type": "worker", "index": v},
                }
            ).task.index
        ),
        "TPUConfig.experimental_host_call_every_n_steps": lambda v: (
            TPUConfig(experimental_host_call_every_n_steps=v).experimental_host_call_every_n_steps
        ),
        "TPUConfig.input_partition_dims": lambda v: TPUConfig(
            num_cores_per_replica=2,
            per_host_input_for_training=InputPipelineConfig.PER_HOST_V2,
            input_partition_dims=[[v, 2 // v if isinstance(v, int) else 1]],
        ).input_partition_dims[0][0],  # type: ignore[index]
        "a SLURM placement count": lambda v: len(
            slurm_tf_configs(jobs={"worker": v}, environ=environ)[0]["cluster"]["worker"]
        ),
        "SageMaker's instance_count": lambda v: (
            InstanceGroupSpec(instance_group_name="g", instance_count=v).instance_count
        ),
    }


INTEGER_READERS = _integer_readers()
NOT_WHOLE = (
    Decimal("1.5"),
    Fraction(3, 2),
    Decimal("NaN"),
    Decimal("Infinity"),
    _NumpyFloat32(1.5),
)


class TestWholeNumbersOfOtherTypes:
    """Where an integer is meant, a whole number of any Python type is that integer."""

    @pytest.mark.parametrize("reader", INTEGER_READERS, ids=str)
    @pytest.mark.parametrize(
        "value",
        [2.0, Decimal(2), Decimal("2.000"), Decimal("0.2E+1"), Fraction(4, 2), _NumpyFloat32(2.0)],
        ids=repr,
    )
    def test_a_whole_one_is_read_as_that_integer(self, reader: str, value: Any) -> None:
        read = INTEGER_READERS[reader](value)
        assert read == 2 and type(read) is int

    @pytest.mark.parametrize(
        ("reader", "value"),
        [
            (reader, value)
            for reader in INTEGER_READERS
            for value in NOT_WHOLE
            # A NaN is out of RunConfig's bounds first, in TensorFlow's words (test_run_config.py).
            if not (reader.startswith("RunConfig") and value is NOT_WHOLE[2])
        ],
        ids=repr,
    )
    def test_a_fractional_nan_or_infinite_one_is_refused(self, reader: str, value: Any) -> None:
        with pytest.raises(ValidationError) as info:
            INTEGER_READERS[reader](value)
        assert [error["type"] for error in info.value.errors()] == ["int_type"]
        assert "Input should be a whole number, got " in str(info.value)

    @pytest.mark.parametrize("reader", INTEGER_READERS, ids=str)
    def test_a_numpy_bool_is_refused_like_a_bool(self, reader: str) -> None:
        with pytest.raises(ValidationError) as info:
            INTEGER_READERS[reader](_NumpyBool(True))
        assert "Input should be an integer, not a boolean (True)" in str(info.value)

    def test_a_numpy_type_is_told_by_its_module_name_made_at_run_time(self) -> None:
        """A type an extension makes (``PyType_FromSpec``) names it with a string of its own."""
        made = type("float32", (_NumpyFloat32,), {"__module__": "".join(["num", "py"])})
        assert made.__module__ == "numpy" and made.__module__ is not sys.intern("numpy")
        read = _types.whole_number(made(2.0))
        assert read == 2 and type(read) is int
        with pytest.raises(PydanticCustomError, match=r"whole number, got numpy\.float32\(1\.5\)"):
            _types.whole_number(made(1.5))

    def test_a_decimal_of_too_many_digits_is_refused_before_it_is_written_out(self) -> None:
        with pytest.raises(PydanticCustomError) as info:
            _types.whole_number(Decimal("1E+1000000"))
        assert str(info.value) == (
            "Input should be a whole number of at most 4300 digits, got 1E+1000000"
        )
        assert _types.whole_number(Decimal(f"1E+{_types.MOST_DIGITS - 1}")) == 10 ** (
            _types.MOST_DIGITS - 1
        )

    def test_a_decimal_too_small_to_be_whole_is_a_fraction(self) -> None:
        with pytest.raises(PydanticCustomError, match="whole number, got 1E-1000000"):
            _types.whole_number(Decimal("1E-1000000"))

    def test_where_a_whole_float_is_kept_a_decimal_or_fraction_is_left_to_the_type(self) -> None:
        """The SLURM resolver's counts: TensorFlow fails on any of them, as on a float."""
        for value in (Decimal(2), Fraction(2, 1), _NumpyFloat32(2.0)):
            assert _types.whole_number(value, keep_float=True) is value
        assert _types.whole_number(2.0, keep_float=True) == 2.0

    def test_other_values_are_left_to_the_type(self) -> None:
        for value in ("2", b"2", None, [2], 2):
            assert _types.whole_number(value) is value
