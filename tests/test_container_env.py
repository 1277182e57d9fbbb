"""estconf._container_env: a container's environment as Kubernetes builds it.

The expansion follows Kubernetes' own (``third_party/forked/golang/expansion``)
and the order of the kubelet's ``makeEnvironmentVariables``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf._container_env import (
    ENV_FIELD_PATHS,
    EnvVar,
    PodFields,
    TooLong,
    Variable,
    container_env,
    expand,
    expand_command,
    expanded,
    field_value,
    placeholder,
)
from values import refuses_assignment

DEFINED = {"A": "a", "B": "b", "EMPTY": "", "REF": "$(A)"}


class TestExpand:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("$(A)", "a"),
            ("$(A)-$(A)", "a-a"),
            ("x$(B)y", "xby"),
            ("$(A)_$(B)", "a_b"),
            ("no reference", "no reference"),
            # $$ is one $: the reference after it stays as written
            ("$$(A)", "$(A)"),
            ("$$(A)_$(B)", "$(A)_b"),
            ("cost: $$5", "cost: $5"),
            ("$$$(A)", "$a"),
            ("$$$$(A)", "$$(A)"),
            # a name not defined stays as written
            ("$(UNDEFINED)", "$(UNDEFINED)"),
            ("$$$$$$(UNDEFINED)", "$$$(UNDEFINED)"),
            # a defined empty value is the empty text
            ("a$(EMPTY)b", "ab"),
            # a value is not expanded again
            ("$(REF)", "$(A)"),
            # "$" before anything but "$" or "(" stays, with what follows
            ("$A", "$A"),
            ("${A}", "${A}"),
            ("$?_$!", "$?_$!"),
            ("$é$(A)", "$éa"),
            ("A)", "A)"),
            ("$A)", "$A)"),
            # a "$" at the end stays
            ("$(A)$", "a$"),
            ("$", "$"),
            # "$(" with no ")" after it stays, and what follows is read on
            ("$(A", "$(A"),
            ("$(B)--$(A", "b--$(A"),
            ("$(", "$("),
            ("$($($(", "$($($("),
            ("$($(A)", "$($(A)"),
            ("$(A$(B))", "$(A$(B))"),
            ("$(a$$b)", "$(a$$b)"),
            ("\\$(A)", "\\a"),
            ("$()", "$()"),
            ("line\n$(A)", "line\na"),
        ],
    )
    def test_it_expands_as_kubernetes_does(self, text: str, expected: str) -> None:
        assert expand(text, DEFINED) == expected

    def test_it_says_which_references_stay_and_which_expand(self) -> None:
        found = expanded("$(A)$(X)$(A)$(Y)$(X)$$(Z)", DEFINED)
        assert found.unexpanded == ("X", "Y")
        assert found.used == ("A",)

    def test_the_first_mapping_that_has_a_name_wins(self) -> None:
        assert expand("$(A)$(C)", {"A": "1"}, {"A": "2", "C": "3"}) == "13"

    def test_a_text_that_grows_past_the_limit_is_refused(self) -> None:
        text = "$(A)" * 100
        assert expand(text, {"A": "x" * 10}) == "x" * 1000
        with pytest.raises(TooLong, match="more than 999 characters"):
            expanded(text, {"A": "x" * 10}, most=999)
        expanded(text, {"A": "x" * 10}, most=1000)

    def test_the_text_after_the_last_reference_counts_toward_the_limit(self) -> None:
        text = "$(A)" + "y" * 991
        assert len(expanded(text, {"A": "x" * 10}, most=1001).text) == 1001
        with pytest.raises(TooLong, match="more than 1,000 characters"):
            expanded(text, {"A": "x" * 10}, most=1000)


def _reference(text: str, defined: dict[str, str]) -> str:
    """Kubernetes' rules, written as one regular expression: another reading of them."""

    def replaced(match: re.Match[str]) -> str:
        if match.group(1) == "$":
            return "$"
        if match.group(2) is not None:
            return defined.get(match.group(2), match.group(0))
        return match.group(0)

    return re.sub(r"\$(\$|\(([^)]*)\)|.)", replaced, text, flags=re.DOTALL)


_TEXTS = st.text(alphabet="$()AB_x\né", max_size=40)
_DEFINED = st.dictionaries(st.sampled_from(["A", "B", "AB", "", "A("]), _TEXTS, max_size=4)


class TestTheRules:
    @given(_TEXTS, _DEFINED)
    def test_the_expansion_agrees_with_kubernetes_rules(
        self, text: str, defined: dict[str, str]
    ) -> None:
        assert expand(text, defined) == _reference(text, defined)

    @given(_TEXTS, _DEFINED)
    def test_an_escaped_dollar_is_one_dollar_before_the_rest(
        self, text: str, defined: dict[str, str]
    ) -> None:
        assert expand("$$" + text, defined) == "$" + expand(text, defined)

    @given(
        st.lists(
            st.one_of(
                st.just("$$"),
                st.sampled_from(["A", "B", "UNDEFINED", ""]).map(lambda name: f"$({name})"),
                st.text(alphabet="()AB_x\né", max_size=5),
            ),
            max_size=8,
        )
    )
    def test_each_part_expands_on_its_own(self, parts: list[str]) -> None:
        """``$$`` is ``$``, a defined name its value, any other reference itself, text itself."""

        def alone(part: str) -> str:
            if part == "$$":
                return "$"
            if part.startswith("$("):
                return DEFINED.get(part[2:-1], part)
            return part

        assert expand("".join(parts), DEFINED) == "".join(alone(part) for part in parts)

    @given(st.text(alphabet="()AB_x\né", max_size=40), _DEFINED)
    def test_a_text_without_dollar_is_itself(self, text: str, defined: dict[str, str]) -> None:
        assert expand(text, defined) == text

    @given(st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=6))
    def test_a_variable_sees_the_ones_defined_before_it_only(self, names: list[str]) -> None:
        env = [EnvVar(name, f"{position}:$(A)$(B)$(C)") for position, name in enumerate(names)]
        found = container_env(env)
        for position, name in enumerate(names):
            earlier = set(names[:position])
            referenced = {"A", "B", "C"} - earlier
            if found[name].position == position:
                assert set(found[name].unexpanded) == referenced


class TestContainerEnv:
    def test_a_variable_defined_after_stays_unexpanded(self) -> None:
        found = container_env(
            [
                EnvVar("TF_CONFIG", '{"index": $(TASK_INDEX)}'),
                EnvVar("TASK_INDEX", "", "metadata.annotations['i']", "3"),
            ]
        )
        assert found["TF_CONFIG"].value == '{"index": $(TASK_INDEX)}'
        assert found["TF_CONFIG"].unexpanded == ("TASK_INDEX",)

    def test_a_variable_defined_before_expands(self) -> None:
        found = container_env(
            [
                EnvVar("TASK_INDEX", "", "metadata.annotations['i']", "3"),
                EnvVar("TF_CONFIG", '{"index": $(TASK_INDEX)}'),
            ]
        )
        assert found["TF_CONFIG"] == Variable("TF_CONFIG", '{"index": 3}', position=1)

    def test_a_value_from_value_from_is_never_expanded(self) -> None:
        found = container_env([EnvVar("A", "1"), EnvVar("B", "", "configMap c/k", "$(A)")])
        assert found["B"].value == "$(A)"

    def test_a_value_wins_over_value_from(self) -> None:
        found = container_env([EnvVar("A", "given", "status.podIP", "10.0.0.1")])
        assert found["A"].value == "given"

    def test_an_empty_entry_is_the_empty_text(self) -> None:
        assert container_env([EnvVar("A")])["A"].value == ""

    def test_a_value_known_only_later_is_a_placeholder_that_spreads(self) -> None:
        found = container_env(
            [EnvVar("IP", "", "status.podIP", None), EnvVar("ADDRESS", "$(IP):2222")]
        )
        assert found["IP"].value == placeholder("status.podIP") == "<status.podIP>"
        assert found["ADDRESS"].value == "<status.podIP>:2222"
        assert found["ADDRESS"].unknown == ("status.podIP",)

    def test_env_from_comes_first_and_env_overrides_it(self) -> None:
        found = container_env(
            [EnvVar("A", "from env"), EnvVar("C", "$(A)-$(B)")],
            env_from={"A": Variable("A", "from envFrom"), "B": Variable("B", "b")},
        )
        assert found["A"].value == "from env"
        assert found["C"].value == "from env-b"
        assert found["B"].position is None

    def test_service_variables_are_defined_after_the_rest(self) -> None:
        services = {"S_SERVICE_HOST": Variable("S_SERVICE_HOST", "10.1.1.1")}
        found = container_env(
            [EnvVar("A", "$(S_SERVICE_HOST)"), EnvVar("S_SERVICE_HOST", "mine")],
            services=services,
        )
        assert found["A"].value == "10.1.1.1"
        assert found["S_SERVICE_HOST"].value == "mine"
        assert list(found) == ["A", "S_SERVICE_HOST"]

    def test_a_name_defined_twice_is_the_last_for_the_entries_after(self) -> None:
        found = container_env(
            [EnvVar("A", "1"), EnvVar("B", "$(A)"), EnvVar("A", "2"), EnvVar("C", "$(A)")]
        )
        assert (found["A"].value, found["B"].value, found["C"].value) == ("2", "1", "2")

    def test_its_own_name_is_the_earlier_value(self) -> None:
        found = container_env([EnvVar("PATH", "/bin"), EnvVar("PATH", "$(PATH):/opt")])
        assert found["PATH"].value == "/bin:/opt"

    def test_a_variable_growing_past_the_limit_is_refused(self) -> None:
        with pytest.raises(TooLong):
            container_env([EnvVar("A", "x" * 100), EnvVar("B", "$(A)" * 100)], most=1000)


class TestCommand:
    def test_every_variable_of_the_container_is_defined_in_command_and_args(self) -> None:
        found = container_env(
            [
                EnvVar("FLAGS", "--index=$(JOB_COMPLETION_INDEX)"),
                EnvVar("JOB_COMPLETION_INDEX", "2"),
            ]
        )
        assert expand_command(["train", "$(FLAGS)", "--i=$(JOB_COMPLETION_INDEX)"], found) == [
            "train",
            "--index=$(JOB_COMPLETION_INDEX)",
            "--i=2",
        ]


POD = PodFields(
    "mnist-worker-0-1-xxxxx",
    "ml",
    labels={"jobset.sigs.k8s.io/job-index": "0"},
    annotations={"batch.kubernetes.io/job-completion-index": "1"},
    service_account_name="trainer",
)


class TestDownwardAPI:
    @pytest.mark.parametrize(
        ("path", "value"),
        [
            ("metadata.name", "mnist-worker-0-1-xxxxx"),
            ("metadata.namespace", "ml"),
            ("spec.serviceAccountName", "trainer"),
            ("metadata.labels['jobset.sigs.k8s.io/job-index']", "0"),
            ("metadata.annotations['batch.kubernetes.io/job-completion-index']", "1"),
            ("metadata.labels['absent']", ""),
            ("metadata.uid", None),
            ("spec.nodeName", None),
            ("status.podIP", None),
            ("status.hostIPs", None),
        ],
    )
    def test_a_field_gives_the_pods_value(self, path: str, value: str | None) -> None:
        assert field_value(path, POD) == value

    @pytest.mark.parametrize(
        "path",
        [
            "spec.hostname",
            "spec.subdomain",
            "metadata.labels",
            "metadata.annotations",
            "spec.nodeName['x']",
            "metadata.labels['bad key!']",
            "metadata.labels['-x']",
            "status.phase",
        ],
    )
    def test_a_field_kubernetes_refuses_in_env_is_refused(self, path: str) -> None:
        with pytest.raises(ValueError, match="fieldPath"):
            field_value(path, POD)

    def test_an_annotation_key_is_checked_in_lower_case(self) -> None:
        key = "Example.com/index"
        pod = PodFields("p", "n", labels={key: "l"}, annotations={key: "a"})
        assert field_value(f"metadata.annotations['{key}']", pod) == "a"
        with pytest.raises(ValueError, match="not a qualified name"):
            field_value(f"metadata.labels['{key}']", pod)

    def test_the_node_address_is_known_only_once_the_pod_is_scheduled(self) -> None:
        assert field_value("status.hostIP", POD) is None
        assert field_value("status.hostIPs", POD) is None

    def test_a_key_prefix_holds_at_most_253_characters(self) -> None:
        prefix = ".".join(["a" * 63] * 4)[:253]
        assert field_value(f"metadata.labels['{prefix}/k']", POD) == ""
        with pytest.raises(ValueError, match="not a qualified name"):
            field_value(f"metadata.labels['{prefix}b/k']", POD)

    def test_a_pod_s_fields_are_not_reassigned(self) -> None:
        refuses_assignment(PodFields("w-0-xxxxx", "ml"))

    def test_the_fields_offered_are_kubernetes_list(self) -> None:
        assert "spec.hostname" not in ENV_FIELD_PATHS
        assert {"metadata.name", "metadata.namespace", "status.podIP"} <= ENV_FIELD_PATHS
