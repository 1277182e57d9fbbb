"""estconf.inputs.sagemaker_hosts: what SageMaker's toolkit gives each host of a job."""

from __future__ import annotations

from estconf.inputs.sagemaker_hosts import hosts, refused_by_the_reader
from estconf.sagemaker import resource_configs

PS = {"sagemaker_parameter_server_enabled": "true"}
MWMS = {"sagemaker_multi_worker_mirrored_strategy_enabled": "true"}


def configs(count: int) -> list[tuple[str, dict[str, object]]]:
    return [(str(config["current_host"]), config) for config in resource_configs(count)]


def test_each_host_of_a_parameter_server_job() -> None:
    found = hosts(configs(2), PS)
    assert [(host.host, host.tf_config is not None, host.server is not None) for host in found] == [
        ("algo-1", True, True),
        ("algo-2", True, True),
    ]
    assert all(host.server_problem is None and not host.errors for host in found)


def test_a_one_host_parameter_server_job_gets_no_tf_config() -> None:
    [host] = hosts(configs(1), PS)
    assert host.tf_config is None
    assert host.why_none == "no TF_CONFIG and no ps server: a one-host parameter-server job"


def test_no_distribution_no_tf_config() -> None:
    [host, _] = hosts(configs(2), {})
    assert host.why_none == "no TF_CONFIG: no --distribution"


def test_what_the_toolkit_fails_on_is_the_hosts() -> None:
    (_, config), _ = configs(2)
    [host] = hosts([("rc.json", {**config, "hosts": ["algo-2", "algo-3"]})], PS)
    assert (host.name, host.host, host.tf_config) == ("rc.json", "algo-1", None)
    assert [error["type"] for error in host.errors] == ["sagemaker_host_not_in_hosts"]


def test_a_reader_refuses_each_cluster_once() -> None:
    found = hosts(configs(3), PS)
    [refused] = refused_by_the_reader(found, "mwms")
    assert refused.host == "algo-1"
    assert "disallowed_job" in {error["type"] for error in refused.errors}
    assert refused_by_the_reader(hosts(configs(3), MWMS), "mwms") == []
