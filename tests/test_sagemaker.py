"""estconf.sagemaker: what the SageMaker TensorFlow toolkit writes (docs/sagemaker.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from cli_main import run
from estconf import TFConfig, sagemaker
from estconf.deployment import MWMS, PS, check_cluster, read_json_lines
from estconf.launchers.sagemaker.toolkit import MAX_INSTANCES
from estconf.sagemaker import Hyperparameters, PSServer, ResourceConfig
from values import is_a_value, refuses_assignment

DATA = Path(__file__).parent / "data" / "launchers" / "sagemaker"
PS_ON = {"sagemaker_parameter_server_enabled": "true"}
MWMS_ON = {"sagemaker_multi_worker_mirrored_strategy_enabled": "true"}


def host(name: str, hosts: list[str], **extra: Any) -> dict[str, Any]:
    return {"current_host": name, "hosts": hosts, **extra}


def codes(error: ValidationError) -> list[tuple[str, tuple[Any, ...]]]:
    return [(e["type"], e["loc"]) for e in error.errors()]


def refused(config: Any, hyperparameters: Any) -> list[tuple[str, tuple[Any, ...]]]:
    with pytest.raises(ValidationError) as info:
        sagemaker.tf_config(config, hyperparameters)
    with pytest.raises(ValidationError) as again:
        sagemaker.ps_server(config, hyperparameters)
    assert codes(info.value) == codes(again.value)
    return codes(info.value)


HETERO = {
    "current_group_name": "dnn",
    "instance_groups": [
        {"instance_group_name": "data", "instance_type": "ml.c5.xlarge", "hosts": ["algo-1"]},
        {
            "instance_group_name": "dnn",
            "instance_type": "ml.p3.2xlarge",
            "hosts": ["algo-2", "algo-3"],
        },
    ],
}


class TestParameterServerMode:
    def test_master_never_chief_then_workers_and_every_host_a_ps(self) -> None:
        hosts = ["algo-1", "algo-2", "algo-3"]
        cluster = {
            "master": ["algo-1:2222"],
            "ps": ["algo-1:2223", "algo-2:2223", "algo-3:2223"],
            "worker": ["algo-2:2222", "algo-3:2222"],
        }
        tasks = [sagemaker.tf_config(host(h, hosts), PS_ON) for h in hosts]
        assert tasks[0] == {
            "cluster": cluster,
            "environment": "cloud",
            "task": {"index": 0, "type": "master"},
        }
        assert [t["task"] for t in tasks if t] == [
            {"index": 0, "type": "master"},
            {"index": 0, "type": "worker"},
            {"index": 1, "type": "worker"},
        ]
        assert list(tasks[2] or {}) == ["cluster", "environment", "task"]
        assert list(cluster) == list((tasks[2] or {})["cluster"])

    def test_the_ps_server_runs_in_process_at_the_hosts_place_in_hosts(self) -> None:
        server = sagemaker.ps_server(host("algo-2", ["algo-1", "algo-2"]), PS_ON)
        assert server == PSServer(
            {
                "master": ["algo-1:2222"],
                "ps": ["algo-1:2223", "algo-2:2223"],
                "worker": ["algo-2:2222"],
            },
            "ps",
            1,
        )
        assert server.address == "algo-2:2223"

    def test_a_one_host_job_gets_no_tf_config_and_no_ps(self) -> None:
        config = host("algo-1", ["algo-1"])
        assert sagemaker.tf_config(config, PS_ON) is None
        assert sagemaker.ps_server(config, PS_ON) is None

    def test_the_ps_index_comes_from_hosts_the_cluster_from_the_groups(self) -> None:
        # the groups list algo-3 before algo-2; hosts the other way round
        config = host(
            "algo-2",
            ["algo-1", "algo-2", "algo-3"],
            current_group_name="dnn",
            instance_groups=[
                {"instance_group_name": "dnn", "hosts": ["algo-1", "algo-3", "algo-2"]}
            ],
        )
        server = sagemaker.ps_server(config, PS_ON)
        assert server is not None and server.task_index == 1
        assert server.address == "algo-3:2223"  # another host's slot

    def test_heterogeneous_the_ps_index_can_point_past_the_ps_job(self) -> None:
        hps = {**PS_ON, "sagemaker_distribution_instance_groups": '["dnn"]'}
        server = sagemaker.ps_server(host("algo-3", ["algo-1", "algo-2", "algo-3"], **HETERO), hps)
        assert server is not None
        assert server.cluster["ps"] == ["algo-2:2223", "algo-3:2223"]
        assert (server.task_index, server.address) == (2, None)

    def test_a_host_outside_the_distribution_groups_fails_in_the_toolkit(self) -> None:
        hps = {**PS_ON, "sagemaker_distribution_instance_groups": '["dnn"]'}
        config = host(
            "algo-1", ["algo-1", "algo-2", "algo-3"], **{**HETERO, "current_group_name": "data"}
        )
        assert refused(config, hps) == [
            ("sagemaker_ps_outside_distribution", ("resource_config", "current_group_name"))
        ]
        with pytest.raises(ValueError, match="UnboundLocalError"):
            sagemaker.tf_config(config, hps)

    def test_one_distribution_host_among_several_is_a_master_alone(self) -> None:
        hps = {**PS_ON, "sagemaker_distribution_instance_groups": ["data"]}
        config = host(
            "algo-1", ["algo-1", "algo-2", "algo-3"], **{**HETERO, "current_group_name": "data"}
        )
        assert sagemaker.tf_config(config, hps) == {
            "cluster": {"master": ["algo-1:2222"]},
            "environment": "cloud",
            "task": {"index": 0, "type": "master"},
        }
        server = sagemaker.ps_server(config, hps)
        assert server is not None and server.address is None

    def test_both_flags_parameter_server_wins_but_not_on_one_host(self) -> None:
        both = {**PS_ON, **MWMS_ON}
        two = sagemaker.tf_config(host("algo-1", ["algo-1", "algo-2"]), both)
        assert two is not None and "master" in two["cluster"]
        assert sagemaker.tf_config(host("algo-1", ["algo-1"]), both) == {
            "cluster": {"worker": ["algo-1:8890"]},
            "environment": "cloud",
            "task": {"index": 0, "type": "worker"},
        }


class TestMultiWorkerMirroredMode:
    def test_every_distribution_host_a_worker_at_8890(self) -> None:
        assert sagemaker.tf_config(host("algo-2", ["algo-1", "algo-2"]), MWMS_ON) == {
            "cluster": {"worker": ["algo-1:8890", "algo-2:8890"]},
            "environment": "cloud",
            "task": {"index": 1, "type": "worker"},
        }
        assert sagemaker.ps_server(host("algo-2", ["algo-1", "algo-2"]), MWMS_ON) is None

    def test_the_distribution_groups_alone_in_their_file_order(self) -> None:
        hps = {**MWMS_ON, "sagemaker_distribution_instance_groups": '["dnn"]'}
        config = host("algo-3", ["algo-1", "algo-2", "algo-3"], **HETERO)
        assert sagemaker.tf_config(config, hps) == {
            "cluster": {"worker": ["algo-2:8890", "algo-3:8890"]},
            "environment": "cloud",
            "task": {"index": 1, "type": "worker"},
        }
        data = {**config, "current_host": "algo-1", "current_group_name": "data"}
        assert sagemaker.tf_config(data, hps) is None

    def test_without_instance_groups_every_host(self) -> None:
        config = host("b", ["b", "a"], instance_groups=[])
        assert sagemaker.tf_config(config, MWMS_ON) == {
            "cluster": {"worker": ["b:8890", "a:8890"]},
            "environment": "cloud",
            "task": {"index": 0, "type": "worker"},
        }

    def test_a_group_name_in_text_is_matched_as_part_of_it(self) -> None:
        hps = {**MWMS_ON, "sagemaker_distribution_instance_groups": "data,dnn"}
        config = host(
            "algo-1", ["algo-1", "algo-2", "algo-3"], **{**HETERO, "current_group_name": "data"}
        )
        tf_config = sagemaker.tf_config(config, hps)
        assert tf_config is not None and len(tf_config["cluster"]["worker"]) == 3


class TestNeither:
    @pytest.mark.parametrize("value", ["false", False, "0", "", "null", "[]", 0])
    def test_flags_off(self, value: Any) -> None:
        config = host("algo-1", ["algo-1", "algo-2"])
        hps = {"sagemaker_parameter_server_enabled": value}
        assert sagemaker.tf_config(config, hps) is None
        assert sagemaker.ps_server(config, hps) is None
        assert sagemaker.tf_config(config) is None

    @pytest.mark.parametrize("value", ["true", True, "1", "False", "no", '"false"'])
    def test_flags_on_as_python_reads_them(self, value: Any) -> None:
        assert Hyperparameters.model_validate(
            {"sagemaker_parameter_server_enabled": value}
        ).parameter_server

    @pytest.mark.parametrize(
        "flag",
        [
            "sagemaker_mpi_enabled",
            "sagemaker_parameter_server_enabled",
            "sagemaker_distributed_dataparallel_enabled",
            "sagemaker_pytorch_ddp_enabled",
            "sagemaker_pytorch_xla_multi_worker_enabled",
            "sagemaker_multi_worker_mirrored_strategy_enabled",
            "sagemaker_torch_distributed_enabled",
        ],
    )
    def test_any_distribution_flag_puts_the_current_group_in_the_distribution(
        self, flag: str
    ) -> None:
        assert Hyperparameters.model_validate({flag: "true"}).distribution_groups("dnn") == ["dnn"]
        assert Hyperparameters.model_validate({flag: "false"}).distribution_groups("dnn") == []


class TestRefused:
    def test_a_current_host_outside_the_cluster(self) -> None:
        for hps in (PS_ON, MWMS_ON):
            assert refused(host("algo-9", ["algo-1", "algo-2"]), hps) == [
                ("sagemaker_host_not_in_cluster", ("resource_config", "current_host"))
            ]

    def test_a_current_host_outside_hosts_has_no_ps_index(self) -> None:
        config = host(
            "algo-2",
            ["algo-1", "algo-3"],
            instance_groups=[
                {"instance_group_name": "homogeneousCluster", "hosts": ["algo-1", "algo-2"]}
            ],
        )
        assert refused(config, PS_ON) == [
            ("sagemaker_host_not_in_hosts", ("resource_config", "current_host"))
        ]

    def test_no_hosts_at_all(self) -> None:
        assert refused(host("algo-1", []), {}) == [
            ("sagemaker_no_hosts", ("resource_config", "hosts"))
        ]

    def test_no_hosts_is_met_before_distribution_groups_without_instance_groups(self) -> None:
        hps = {"sagemaker_distribution_instance_groups": "3"}
        assert refused(host("algo-1", []), hps) == [
            ("sagemaker_no_hosts", ("resource_config", "hosts"))
        ]
        groups = [{"instance_group_name": "g", "hosts": []}]
        assert refused(host("algo-1", [], instance_groups=groups), hps) == [
            (
                "sagemaker_distribution_instance_groups",
                ("hyperparameters", "sagemaker_distribution_instance_groups"),
            )
        ]

    @pytest.mark.parametrize("value", ["3", "null", "true", 2.5])
    def test_distribution_groups_that_hold_no_names(self, value: Any) -> None:
        hps = {"sagemaker_distribution_instance_groups": value}
        assert refused(host("algo-1", ["algo-1"]), hps) == [
            (
                "sagemaker_distribution_instance_groups",
                ("hyperparameters", "sagemaker_distribution_instance_groups"),
            )
        ]

    @pytest.mark.parametrize(
        ("hps", "key"),
        [
            ({"sagemaker_job_name": "2024"}, "sagemaker_job_name"),
            ({"sagemaker_job_name": "null"}, "sagemaker_job_name"),
            ({"sagemaker_region": "1"}, "sagemaker_region"),
        ],
    )
    def test_values_the_toolkit_puts_into_the_environment_are_text(
        self, hps: dict[str, Any], key: str
    ) -> None:
        errors = refused(host("algo-1", ["algo-1"]), hps)
        assert errors == [("sagemaker_not_text", ("hyperparameters",))]
        with pytest.raises(ValueError, match=key):
            sagemaker.tf_config(host("algo-1", ["algo-1"]), hps)

    def test_a_value_that_is_not_text_is_named_with_the_toolkits_failure_and_the_fix(
        self,
    ) -> None:
        with pytest.raises(ValidationError) as info:
            Hyperparameters.model_validate({"sagemaker_job_name": "2024"})
        (error,) = info.value.errors()
        assert error["msg"] == (
            "sagemaker_job_name is 2024, which the toolkit puts into os.environ and fails "
            '(TypeError: str expected); write it as JSON text, e.g. "\\"2024\\""'
        )

    def test_falsy_region_and_text_names_are_fine(self) -> None:
        hps = {"sagemaker_region": "0", "sagemaker_job_name": '"job"'}
        assert sagemaker.tf_config(host("algo-1", ["algo-1"]), hps) is None

    def test_the_resource_config_shape(self) -> None:
        assert refused({"hosts": ["a"]}, {}) == [("missing", ("resource_config", "current_host"))]
        assert refused({"current_host": "a", "hosts": "a"}, {}) == [
            ("list_type", ("resource_config", "hosts"))
        ]
        assert refused(host("a", ["a"], instance_groups=[{"hosts": ["a"]}]), {}) == [
            ("missing", ("resource_config", "instance_groups", 0, "instance_group_name"))
        ]

    def test_models_given_as_models(self) -> None:
        config = ResourceConfig(current_host="a", hosts=["a", "b"])
        assert sagemaker.tf_config(config, Hyperparameters.model_validate(MWMS_ON)) is not None


class TestResourceConfigs:
    def test_the_documented_shape(self) -> None:
        assert sagemaker.resource_configs(2, instance_type="ml.p3.2xlarge")[1] == {
            "current_host": "algo-2",
            "current_instance_type": "ml.p3.2xlarge",
            "current_group_name": "homogeneousCluster",
            "hosts": ["algo-1", "algo-2"],
            "instance_groups": [
                {
                    "instance_group_name": "homogeneousCluster",
                    "instance_type": "ml.p3.2xlarge",
                    "hosts": ["algo-1", "algo-2"],
                }
            ],
            "network_interface_name": "eth0",
        }

    def test_hosts_sorted_as_text_as_documented(self) -> None:
        configs = sagemaker.resource_configs(11)
        assert [c["current_host"] for c in configs][9:] == ["algo-10", "algo-11"]
        assert configs[0]["hosts"][:3] == ["algo-1", "algo-10", "algo-11"]

    @pytest.mark.parametrize(
        "groups",
        [
            [
                {"InstanceGroupName": "data", "InstanceType": "ml.c5.xlarge", "InstanceCount": 1},
                {"InstanceGroupName": "dnn", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 2},
            ],
            [
                {
                    "instance_group_name": "data",
                    "instance_type": "ml.c5.xlarge",
                    "instance_count": 1,
                },
                sagemaker.InstanceGroupSpec(
                    instance_group_name="dnn", instance_type="ml.p3.2xlarge", instance_count=2
                ),
            ],
        ],
    )
    def test_instance_groups_in_either_spelling(self, groups: list[Any]) -> None:
        configs = sagemaker.resource_configs(instance_groups=groups)
        assert [
            (c["current_host"], c["current_group_name"], c["current_instance_type"])
            for c in configs
        ] == [
            ("algo-1", "data", "ml.c5.xlarge"),
            ("algo-2", "dnn", "ml.p3.2xlarge"),
            ("algo-3", "dnn", "ml.p3.2xlarge"),
        ]
        assert configs[0]["instance_groups"] == HETERO["instance_groups"]

    @pytest.mark.parametrize(
        ("kwargs", "expected"),
        [
            ({}, [("sagemaker_instances", ("instance_count",))]),
            (
                {"instance_count": 2, "instance_groups": []},
                [("sagemaker_instances", ("instance_count",))],
            ),
            ({"instance_count": 0}, [("greater_than_equal", ("instance_count", "instance_count"))]),
            ({"instance_count": True}, [("int_type", ("instance_count", "instance_count"))]),
            ({"instance_count": 2049}, [("sagemaker_instances", ("instance_count",))]),
            (
                {
                    "instance_groups": [
                        {"InstanceGroupName": "a", "InstanceCount": 1},
                        {"instance_group_name": "a", "instance_count": 1},
                    ]
                },
                [("sagemaker_instance_group_names", ("instance_groups", 1, "instance_group_name"))],
            ),
            (
                {"instance_groups": [{"InstanceGroupName": "a", "InstanceCount": 1, "Count": 2}]},
                [("extra_forbidden", ("instance_groups[0]", "Count"))],
            ),
            (
                {"instance_groups": [{"InstanceCount": 1}]},
                [("missing", ("instance_groups[0]", "instance_group_name"))],
            ),
        ],
    )
    def test_refused(self, kwargs: dict[str, Any], expected: list[Any]) -> None:
        with pytest.raises(ValidationError) as info:
            sagemaker.resource_configs(**kwargs)
        assert codes(info.value) == expected

    def test_the_largest_job(self) -> None:
        assert len(sagemaker.resource_configs(MAX_INSTANCES)) == 2048


class TestFindings:
    """What the toolkit's TF_CONFIGs meet in the readers that come after it."""

    def test_the_estimator_reads_the_master_job(self) -> None:
        for config in sagemaker.resource_configs(3):
            tf_config = TFConfig.model_validate(sagemaker.tf_config(config, PS_ON))
            assert tf_config.cluster is not None

    @pytest.mark.parametrize("profile", [MWMS, PS])
    def test_tf_distribute_refuses_the_master_job(self, profile: Any) -> None:
        lines = "\n".join(
            json.dumps(sagemaker.tf_config(config, PS_ON))
            for config in sagemaker.resource_configs(3)
        )
        report = check_cluster(read_json_lines(lines, "nodes.jsonl"), profile=profile)
        messages = [str(finding) for finding in report.findings]
        assert any(
            "Disallowed task type found in cluster spec" in m and "'master'" in m for m in messages
        ), messages


class TestRealShapedFiles:
    """``tests/data/launchers/sagemaker``: the files a job of three hosts and the toolkit write."""

    @pytest.mark.parametrize(("name", "hps"), [("ps.jsonl", PS_ON), ("mwms.jsonl", MWMS_ON)])
    def test_the_tf_configs_are_the_toolkits(self, name: str, hps: dict[str, Any]) -> None:
        expected = [sagemaker.tf_config(c, hps) for c in sagemaker.resource_configs(3)]
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        assert [json.loads(line) for line in lines] == expected

    def test_the_heterogeneous_job(self) -> None:
        hps = json.loads((DATA / "heterogeneous.hyperparameters.json").read_text(encoding="utf-8"))
        configs = [
            json.loads((DATA / f"heterogeneous_algo-{i}.resourceconfig.json").read_text("utf-8"))
            for i in (1, 2, 3)
        ]
        assert configs == sagemaker.resource_configs(
            instance_groups=[
                {
                    "InstanceGroupName": "data_group",
                    "InstanceType": "ml.c5.xlarge",
                    "InstanceCount": 1,
                },
                {
                    "InstanceGroupName": "dnn_group",
                    "InstanceType": "ml.p3.2xlarge",
                    "InstanceCount": 2,
                },
            ]
        )
        assert refused(configs[0], hps) == [
            ("sagemaker_ps_outside_distribution", ("resource_config", "current_group_name"))
        ]
        servers = [sagemaker.ps_server(config, hps) for config in configs[1:]]
        assert [(s.task_index, s.address) for s in servers if s] == [(1, "algo-3:2223"), (2, None)]

    def test_check_cluster_mwms_refuses_the_master_job(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "check-cluster", "--profile", "mwms", str(DATA / "ps.jsonl"))
        assert status == 1, out + err
        assert (
            "ps.jsonl:3: cluster.master: Disallowed task type found in cluster spec. "
            "Allowed types are ('chief', 'worker', 'evaluator', 'ps', None)"
        ) in out
        assert "(job 'master' is not one of them)" in out

    def test_the_multi_worker_job_is_for_tf_distribute_not_the_estimator(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        nodes = str(DATA / "mwms.jsonl")
        assert run(capsys, "check-cluster", "--profile", "mwms", nodes)[:2] == (
            0,
            "3 nodes, 1 cluster: valid\n",
        )
        status, out, _ = run(capsys, "check-cluster", "--profile", "estimator", nodes)
        assert status == 1
        assert 'If "cluster" is set in TF_CONFIG, it must have one "chief" node.' in out


@st.composite
def jobs(draw: st.DrawFn) -> list[dict[str, Any]]:
    if draw(st.booleans()):
        return sagemaker.resource_configs(draw(st.integers(1, 30)))
    names = draw(st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=4, unique=True))
    return sagemaker.resource_configs(
        instance_groups=[
            {"InstanceGroupName": n, "InstanceCount": draw(st.integers(1, 4))} for n in names
        ]
    )


MODES = st.sampled_from([PS_ON, MWMS_ON, {**PS_ON, **MWMS_ON}, {}])


@given(jobs(), MODES)
def test_every_host_of_a_job_shares_one_cluster_and_claims_its_own_task(
    configs: list[dict[str, Any]], hps: dict[str, Any]
) -> None:
    for config in configs:
        assert ResourceConfig.model_validate(config).model_dump() == config
    views = [sagemaker.tf_config(config, hps) for config in configs]
    if len(configs[0]["instance_groups"]) > 1 or not hps or (hps == PS_ON and len(configs) == 1):
        return
    assert all(view is not None for view in views)
    clusters = {json.dumps(view["cluster"]) for view in views if view}
    assert len(clusters) == 1
    tasks = {(view["task"]["type"], view["task"]["index"]) for view in views if view}
    assert len(tasks) == len(configs)


@given(
    st.dictionaries(
        st.sampled_from(
            [
                "sagemaker_parameter_server_enabled",
                "sagemaker_multi_worker_mirrored_strategy_enabled",
                "sagemaker_distribution_instance_groups",
                "sagemaker_program",
                "epochs",
            ]
        ),
        st.one_of(
            st.booleans(),
            st.integers(),
            st.text(max_size=6),
            st.lists(st.text(max_size=4), max_size=3).map(json.dumps),
        ),
    )
)
def test_hyperparameters_round_trip(data: dict[str, Any]) -> None:
    try:
        hps = Hyperparameters.model_validate(data)
    except ValidationError as error:
        assert {e["type"] for e in error.errors()} <= {
            "sagemaker_distribution_instance_groups",
            "sagemaker_not_text",
        }
        return
    again = Hyperparameters.model_validate(hps.model_dump())
    assert again.parameter_server == hps.parameter_server
    assert again.multi_worker_mirrored == hps.multi_worker_mirrored
    assert again.distribution_groups("g") == hps.distribution_groups("g")


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: Hyperparameters.model_validate({"sagemaker_parameter_server_enabled": True}),
            id="Hyperparameters",
        ),
        pytest.param(
            lambda: sagemaker.InstanceGroupSpec(
                instance_group_name="train", instance_type="ml.c5.xlarge", instance_count=2
            ),
            id="InstanceGroupSpec",
        ),
    ],
)
def test_hyperparameters_and_an_instance_group_spec_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)


@pytest.mark.parametrize(
    "record",
    [
        pytest.param(
            sagemaker.InstanceGroup(instance_group_name="train", hosts=["algo-1", "algo-2"]),
            id="InstanceGroup",
        ),
        pytest.param(
            ResourceConfig(current_host="algo-1", hosts=["algo-1", "algo-2"]), id="ResourceConfig"
        ),
    ],
)
def test_an_instance_group_and_a_resource_config_cannot_be_changed(record: object) -> None:
    """Each refuses assignment; they hold lists of hosts, so they are not hashed."""
    refuses_assignment(record)


class TestHyperparameterText:
    """Each value is decoded as the toolkit's json.loads decodes it, within the depth of a file."""

    @pytest.mark.parametrize(
        "text",
        ['{"a": 1, "a": 2}', "NaN", "[1, Infinity]", '"\\ud800"', "[" * 64 + "]" * 64, "1e999"],
    )
    def test_what_json_loads_reads_is_read_as_it_reads_it(self, text: str) -> None:
        decoded = Hyperparameters.model_validate({"x": text}).model_extra or {}
        assert json.dumps(decoded["x"]) == json.dumps(json.loads(text))

    @pytest.mark.parametrize("text", ["False", "[" * 100, '{"a": 1,}', "'x'", "9" * 5000])
    def test_what_json_loads_refuses_is_kept_as_text(self, text: str) -> None:
        assert (Hyperparameters.model_validate({"x": text}).model_extra or {})["x"] == text

    @pytest.mark.parametrize("depth", [65, 1000, 100_000])
    def test_json_nested_deeper_than_a_file_may_be_is_refused(self, depth: int) -> None:
        with pytest.raises(ValidationError) as raised:
            Hyperparameters.model_validate({"x": "[" * depth + "]" * depth})
        assert codes(raised.value) == [("sagemaker_too_deep", ())]
        assert 'the hyperparameter "x" is JSON nested deeper than 64 levels' in str(raised.value)

    def test_brackets_left_open_past_what_python_parses_are_refused(self) -> None:
        """The toolkit's json.loads fails on them with RecursionError, not a ValueError."""
        assert refused(host("algo-1", ["algo-1"]), {"x": "[" * 100_000}) == [
            ("sagemaker_too_deep", ("hyperparameters",))
        ]


class TestPinnedRules:
    def test_the_host_not_in_cluster_message_lists_the_distribution_hosts(self) -> None:
        """The sentence names the current host and the hosts it is not among."""
        with pytest.raises(ValidationError) as info:
            sagemaker.tf_config(host("algo-9", ["algo-1", "algo-2"]), MWMS_ON)
        message = info.value.errors()[0]["msg"]
        assert "'algo-9'" in message
        assert "['algo-1', 'algo-2']" in message

    def test_ps_mode_with_an_empty_distribution_group_is_refused(self) -> None:
        """The current group distributes but lists no host: no ``master`` to build."""
        config = host(
            "algo-1",
            ["algo-1", "algo-2"],
            current_group_name="dnn",
            instance_groups=[
                {"instance_group_name": "dnn", "hosts": []},
                {"instance_group_name": "data", "hosts": ["algo-1", "algo-2"]},
            ],
        )
        assert refused(config, PS_ON) == [
            ("sagemaker_host_not_in_cluster", ("resource_config", "current_host"))
        ]

    def test_a_ps_server_past_the_ps_job_has_no_address(self) -> None:
        """A task index beyond the ``ps`` tasks serves no slot."""
        server = PSServer(cluster={"ps": ["algo-1:2223"]}, job_name="ps", task_index=2)
        assert server.address is None

    def test_distribution_groups_that_are_a_number_name_the_number(self) -> None:
        """The sentence quotes the value the toolkit cannot look names up in."""
        with pytest.raises(ValidationError) as info:
            Hyperparameters.model_validate({"sagemaker_distribution_instance_groups": "5"})
        assert "sagemaker_distribution_instance_groups is 5:" in info.value.errors()[0]["msg"]

    def test_an_instance_group_spec_needs_a_name(self) -> None:
        """An empty ``InstanceGroupName`` is refused where it is."""
        with pytest.raises(ValidationError) as info:
            sagemaker.InstanceGroupSpec.model_validate(
                {"InstanceGroupName": "", "InstanceCount": 1}
            )
        assert codes(info.value) == [("string_too_short", ("InstanceGroupName",))]

    def test_an_instance_group_spec_refuses_an_empty_key(self) -> None:
        """Only the API's and the SDK's spellings are read: a key ``""`` is refused."""
        with pytest.raises(ValidationError) as info:
            sagemaker.InstanceGroupSpec.model_validate(
                {"instance_group_name": "dnn", "instance_count": 1, "": 2}
            )
        assert codes(info.value) == [("extra_forbidden", ("",))]

    def test_the_schema_describes_each_host_name(self) -> None:
        """The JSON Schema of ``resourceconfig.json`` says what an entry of ``hosts`` is."""
        schema = ResourceConfig.model_json_schema()
        assert schema["properties"]["hosts"]["items"]["description"] == (
            "A container's name on the job's network."
        )


FLAGS = ("sagemaker_parameter_server_enabled", "sagemaker_multi_worker_mirrored_strategy_enabled")


class TestFlagsWrittenAsText:
    """A flag written as text (``str(False)``): the toolkit keeps the text, which is true."""

    @pytest.mark.parametrize("flag", FLAGS)
    @pytest.mark.parametrize("text", ["False", "True", "no", "None", "off", '"False"', '"false"'])
    def test_text_turns_the_mode_on_and_is_warned_at_the_flag(self, flag: str, text: str) -> None:
        config = host("algo-2", ["algo-1", "algo-2"])
        assert sagemaker.tf_config(config, {flag: text}) is not None
        [found] = sagemaker.check_hyperparameters({flag: text})
        assert (found.code, found.severity, found.loc, found.path) == (
            "sagemaker_flag_string",
            "warning",
            (flag,),
            flag,
        )
        assert found.value == (json.loads(text) if text.startswith('"') else text)
        assert found.hint is not None and found.hint.startswith("write false to turn it off")

    @pytest.mark.parametrize("flag", FLAGS)
    @pytest.mark.parametrize("value", ["false", "true", "0", "1", "", "null", "[]", True, False, 0])
    def test_json_and_the_empty_text_are_not_warned(self, flag: str, value: Any) -> None:
        assert sagemaker.check_hyperparameters({flag: value}) == []

    def test_the_message_names_the_text_and_the_mode(self) -> None:
        [found] = sagemaker.check_hyperparameters({FLAGS[1]: "False"})
        assert str(found) == (
            'sagemaker_multi_worker_mirrored_strategy_enabled: the text "False" is no JSON '
            'boolean: the toolkit tests it for truth, and any text but "" is true, so '
            "multi-worker mirrored mode is on"
        )

    def test_a_false_parameter_server_flag_beside_multi_worker_mode_wins(self) -> None:
        """The ``str(False)`` slip: MultiWorkerMirroredStrategy asked for, parameter servers run."""
        hps = {FLAGS[0]: "False", FLAGS[1]: "true"}
        config = host("algo-1", ["algo-1", "algo-2"])
        tf_config = sagemaker.tf_config(config, hps)
        assert tf_config is not None and "master" in tf_config["cluster"]
        [found] = sagemaker.check_hyperparameters(hps)
        assert found.message.endswith(
            "so parameter-server mode is on, and on two hosts or more it wins over "
            "multi-worker mirrored mode"
        )

    def test_other_keys_are_not_flags(self) -> None:
        assert sagemaker.check_hyperparameters({"sagemaker_mpi_enabled": "False", "x": "no"}) == []

    def test_each_flag_in_the_order_of_the_flags(self) -> None:
        hps = {FLAGS[1]: "True", FLAGS[0]: "False"}
        assert [f.path for f in sagemaker.check_hyperparameters(hps)] == list(FLAGS)

    def test_a_model_given_as_a_model(self) -> None:
        hps = Hyperparameters.model_validate({FLAGS[0]: "False"})
        assert hps.flags_as_text() == {FLAGS[0]: "False"}
        assert [f.code for f in sagemaker.check_hyperparameters(hps)] == ["sagemaker_flag_string"]

    def test_hyperparameters_the_toolkit_fails_on_are_refused(self) -> None:
        with pytest.raises(ValidationError) as info:
            sagemaker.check_hyperparameters({"sagemaker_job_name": "2024", FLAGS[0]: "False"})
        assert [e["type"] for e in info.value.errors()] == ["sagemaker_not_text"]

    @given(st.text(max_size=8), st.sampled_from(FLAGS))
    def test_warned_exactly_where_the_flag_is_text_and_on(self, text: str, flag: str) -> None:
        """The decoded value is what the toolkit tests: warned when it is text, and true."""
        hps = Hyperparameters.model_validate({flag: text})
        decoded = getattr(hps, flag)
        warned = bool(sagemaker.check_hyperparameters(hps))
        assert warned == (isinstance(decoded, str) and bool(decoded))
        on = hps.parameter_server if flag == FLAGS[0] else hps.multi_worker_mirrored
        assert on == bool(decoded)
        if warned:
            assert on

    def test_the_flag_string_file(self) -> None:
        """The real-shaped file: ``"False"`` beside a true multi-worker flag."""
        hps = json.loads((DATA / "flag-string.hyperparameters.json").read_text(encoding="utf-8"))
        [found] = sagemaker.check_hyperparameters(hps)
        assert found.path == FLAGS[0]
        configs = sagemaker.resource_configs(3)
        tasks = [sagemaker.tf_config(config, hps) for config in configs]
        assert [t["task"]["type"] for t in tasks if t] == ["master", "worker", "worker"]
