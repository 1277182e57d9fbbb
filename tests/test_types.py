"""estconf._types: the value types shared by the models."""

from __future__ import annotations

import ast
import ipaddress
import re
import string
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


def _parts(address: str) -> tuple[str, str | None]:
    """An address's host and port: the port follows the last ':', or an IPv6 host's ']:'."""
    if address.startswith("[") and "]" in address:
        close = address.index("]")
        rest = address[close + 1 :]
        return address[: close + 1], rest[1:] if rest.startswith(":") else None
    if ":" not in address:
        return address, None
    host, _, port = address.rpartition(":")
    return host, port


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text.partition("%")[0])
    except ValueError:
        return False
    return True


def _not_ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return True
    return False


_HOSTNAME_CHARACTERS = set(string.ascii_letters + string.digits + "_.-")

_REASONS: list[tuple[re.Pattern[str], Callable[..., bool]]] = [
    (re.compile(r"it is empty \(or blank\)"), lambda a: not a.strip()),
    (
        re.compile(r"it starts with '(.*)://': a task address is host:port alone"),
        lambda a, scheme: a.startswith(f"{scheme}://"),
    ),
    (
        re.compile(r"an IPv6 host goes in brackets"),
        lambda a: _is_ipv6(a.rpartition(":")[0]) and a.rpartition(":")[2].isdigit(),
    ),
    (re.compile(r"the IPv6 host has no closing '\]'"), lambda a: a[0] == "[" and "]" not in a),
    (
        re.compile(r"the IPv6 host '(.*)' is followed by '(.)', not by ':'"),
        lambda a, host, after: _parts(a)[0] == host and a[len(host)] == after != ":",
    ),
    (re.compile(r"it is an IPv6 address with no port"), lambda a: ":" in a and _is_ipv6(a)),
    (re.compile(r"it has no port"), lambda a: _parts(a)[1] is None),
    (re.compile(r"there is no port after ':'"), lambda a: _parts(a)[1] == ""),
    (
        re.compile(r"the port '(.*)' is negative"),
        lambda a, port: _parts(a)[1] == port and port[0] == "-" and port[1:].isdecimal(),
    ),
    (
        re.compile(r"the port '(.*)' is not a number \(the digits 0-9 alone\)"),
        lambda a, port: _parts(a)[1] == port and re.fullmatch("[0-9]+", port) is None,
    ),
    (
        re.compile(r"the port '([0-9]+)' is above 65535, the highest port"),
        lambda a, port: _parts(a)[1] == port and int(port) > 65535,
    ),
    (
        re.compile(r"the port '(0[0-9]+)' has leading zeros"),
        lambda a, port: _parts(a)[1] == port and int(port) <= 65535,
    ),
    (re.compile(r"there is no host before ':'"), lambda a: _parts(a)[0] == ""),
    (
        re.compile(r"the host '(\[.*\])' is not an IPv6 address \(.+\)"),
        lambda a, host: (
            _parts(a)[0] == host
            and not (
                re.fullmatch(r"[0-9A-Fa-f:.]+", host[1:-1].partition("%")[0])
                and _is_ipv6(host[1:-1])
            )
        ),
    ),
    (
        re.compile(
            r"the zone '(.*)' of the IPv6 host is not letters, digits, '_', '\.' and '-' alone"
        ),
        lambda a, zone: (
            _parts(a)[0].endswith(f"%{zone}]") and re.fullmatch(r"[A-Za-z0-9_.-]+", zone) is None
        ),
    ),
    (
        re.compile(r"the host '([0-9.]+)' is not an IPv4 address \(.+\)"),
        lambda a, host: _parts(a)[0] == host and _not_ipv4(host),
    ),
    (
        re.compile(r"the host '(.*)' holds (.+), which no hostname holds"),
        lambda a, host, shown: (
            _parts(a)[0] == host
            and ast.literal_eval(shown) in host
            and ast.literal_eval(shown) not in _HOSTNAME_CHARACTERS
        ),
    ),
    (
        re.compile(r"the host '(.*)' starts with '\.'"),
        lambda a, host: _parts(a)[0] == host and host[0] == ".",
    ),
    (
        re.compile(r"the host '(.*)' ends with '\.'"),
        lambda a, host: _parts(a)[0] == host and host[-1] == ".",
    ),
    (
        re.compile(r"the host '(.*)' has two dots in a row"),
        lambda a, host: _parts(a)[0] == host and ".." in host,
    ),
    (
        re.compile(r"the label '(.*)' of the host (starts|ends) with '-'"),
        lambda a, label, end: (
            label in _parts(a)[0].split(".") and (label[0] if end == "starts" else label[-1]) == "-"
        ),
    ),
]
"""Each reason an address is refused for, and whether it is true of an address."""

_ADDRESS_PARTS = st.one_of(
    st.sampled_from(
        [
            "h",
            "localhost",
            "[",
            "]",
            ":",
            "::",
            ".",
            "..",
            "-",
            "_",
            "%",
            "eth0",
            " ",
            "/",
            "0",
            "00",
            "1",
            "2222",
            "65535",
            "65536",
            "99999",
            "-1",
            "\u0663",
            "grpc://",
            "fe80::1",
            "::1",
            "1.2.3.4",
            "256",
            "10.0.0.01",
        ]
    ),
    st.text(alphabet="ab0:.[]-%", max_size=3),
)
"""Pieces of addresses, right and wrong."""

_HOSTS = st.one_of(
    st.lists(st.sampled_from(["h", "a", "-", ".", "..", "_", "0", "1.2", "256", "A"]), max_size=4),
    st.sampled_from(["::1", "zz", "fe80::1%eth0", "fe80::1%e th", "", "1::2::3", "::1%"]).map(
        lambda inner: ["[", inner, "]"]
    ),
).map("".join)
_PORTS = st.sampled_from(["0", "1", "2222", "00", "0001", "65535", "65536", "-1", "x", ""])
_ADDRESSES = st.one_of(
    st.lists(_ADDRESS_PARTS, max_size=7).map("".join),
    st.tuples(_HOSTS, _PORTS).map(":".join),
)
"""Addresses, right and wrong: pieces joined, and hosts and ports of each kind."""


class TestAddressProblem:
    """What is wrong with an address: one reason, true of it, and the fix where it is plain."""

    @pytest.mark.parametrize(
        ("address", "reason", "hint"),
        [
            ("", "it is empty (or blank)", "write the task's host:port, e.g. 'worker-0:2222'"),
            ("  ", "it is empty (or blank)", "write the task's host:port, e.g. 'worker-0:2222'"),
            ("localhost:0000", "the port '0000' has leading zeros", "write it as 'localhost:0'"),
            ("h1:02222", "the port '02222' has leading zeros", "write it as 'h1:2222'"),
            ("[::1]:00", "the port '00' has leading zeros", "write it as '[::1]:0'"),
            ("host1:99999", "the port '99999' is above 65535, the highest port", None),
            ("h:0000065536", "the port '0000065536' is above 65535, the highest port", None),
            ("h:-1", "the port '-1' is negative", None),
            ("h:22 ", "the port '22 ' is not a number (the digits 0-9 alone)", None),
            ("h:\u0663", "the port '\u0663' is not a number (the digits 0-9 alone)", None),
            ("host1", "it has no port", "add the port the task listens on, e.g. 'host1:2222'"),
            ("[::1]", "it has no port", "add the port the task listens on, e.g. '[::1]:2222'"),
            ("h:", "there is no port after ':'", "add the port the task listens on, e.g. 'h:2222'"),
            (
                ":2222",
                "there is no host before ':'",
                "write the task's hostname or IP address before ':'",
            ),
            (
                "grpc://h1:2222",
                "it starts with 'grpc://': a task address is host:port alone",
                "write it as 'h1:2222'",
            ),
            ("fe80::1:2222", "an IPv6 host goes in brackets", "write it as '[fe80::1]:2222'"),
            ("::1:80", "an IPv6 host goes in brackets", "write it as '[::1]:80'"),
            ("2001:db8::7:0", "an IPv6 host goes in brackets", "write it as '[2001:db8::7]:0'"),
            (
                "fe80::1",
                "it is an IPv6 address with no port",
                "write it in brackets, with the port the task listens on, e.g. '[fe80::1]:2222'",
            ),
            ("[::1:2222", "the IPv6 host has no closing ']'", None),
            ("[::1]2222", "the IPv6 host '[::1]' is followed by '2', not by ':'", None),
            (
                "[zz]:1",
                "the host '[zz]' is not an IPv6 address (At least 3 parts expected in 'zz')",
                None,
            ),
            (
                "[fe80::1%eth 0]:1",
                "the zone 'eth 0' of the IPv6 host is not letters, digits, '_', '.' and '-' alone",
                None,
            ),
            ("1.2:3", "the host '1.2' is not an IPv4 address (Expected 4 octets in '1.2')", None),
            ("a b:1", "the host 'a b' holds ' ', which no hostname holds", None),
            ("a:b:1", "the host 'a:b' holds ':', which no hostname holds", None),
            (".h:1", "the host '.h' starts with '.'", None),
            ("h.example.:1", "the host 'h.example.' ends with '.'", "write it as 'h.example:1'"),
            ("a..b:1", "the host 'a..b' has two dots in a row", None),
            ("-a.b:1", "the label '-a' of the host starts with '-'", None),
            ("a.b-:1", "the label 'b-' of the host ends with '-'", None),
            (f"{'a' * 64}:1", "the host has a label of 64 characters, more than 63", None),
        ],
    )
    def test_the_reason_and_the_fix(self, address: str, reason: str, hint: str | None) -> None:
        refusal = _types.address_refusal(address)
        assert refusal is not None
        assert (refusal["address"], refusal["reason"], refusal.get("hint")) == (
            address,
            reason,
            hint,
        )
        assert address_problem(address) == reason

    @pytest.mark.parametrize("address", ["h1:2222", "h1:0", "[::1]:0", "10.0.0.1:65535", "a_b:1"])
    def test_a_valid_address_has_none(self, address: str) -> None:
        assert _types.address_refusal(address) is None
        assert address_problem(address) is None

    def test_a_fix_is_given_only_where_it_is_valid(self) -> None:
        """A port with leading zeros on a host that is no host: the zeros said, no fix."""
        assert _types.address_refusal("a b:0002") == {
            "address": "a b:0002",
            "reason": "the port '0002' has leading zeros",
        }

    def test_a_long_part_is_cut_with_its_length(self) -> None:
        port = "9" * 10_000  # more digits than Python's int() reads
        reason = address_problem(f"h:{port}")
        assert (
            reason
            == f"the port '{'9' * 32}...' (10,000 characters) is above 65535, the highest port"
        )
        assert address_problem(f"fe80::1:{'0' * 5000}1") == "an IPv6 host goes in brackets"

    @given(_ADDRESSES)
    def test_every_refusal_names_one_reason_true_of_the_address(self, address: str) -> None:
        refusal = _types.address_refusal(address)
        if refusal is None:
            return
        reason = refusal["reason"]
        true_of = [check for pattern, check in _REASONS if (found := pattern.fullmatch(reason))]
        assert len(true_of) == 1, reason
        found = next(p.fullmatch(reason) for p, _ in _REASONS if p.fullmatch(reason))
        assert found is not None and true_of[0](address, *found.groups()), (address, reason)
        if "hint" in refusal and refusal["hint"].startswith("write it as '"):
            assert address_problem(refusal["hint"].split("'")[1]) is None


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
