"""estconf._types: the value types shared by the models."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationInfo, field_validator

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
