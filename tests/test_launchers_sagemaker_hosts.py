"""estconf.launchers.sagemaker.hosts: what SageMaker's toolkit gives each host of a job."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from estconf.io.checks import Limits
from estconf.io.reading import json_document
from estconf.io.sources import InputError
from estconf.launchers.base import Notes
from estconf.launchers.sagemaker.hosts import (
    Host,
    JobReport,
    Refused,
    hosts,
    job_hyperparameters,
    job_report,
    job_resource_configs,
    refused_by_the_reader,
    string_flags,
)
from estconf.reports.launchers import write_notes
from estconf.sagemaker import ResourceConfig, resource_configs
from values import refuses_assignment

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


def test_the_hosts_after_one_without_a_tf_config_are_still_checked() -> None:
    groups = [
        {"instance_group_name": "data", "instance_count": 1},
        {"instance_group_name": "dnn", "instance_count": 2},
    ]
    hyperparameters = job_hyperparameters(None, "multi_worker_mirrored", "dnn")
    found = hosts(job_resource_configs(instance_groups=groups), hyperparameters)
    assert [host.tf_config is None for host in found] == [True, False, False]
    [refused] = refused_by_the_reader(found, "estimator")
    assert refused.host == "algo-2"
    assert [error["type"] for error in refused.errors] == ["missing_chief"]


def test_each_other_cluster_is_checked_after_one_seen_again() -> None:
    """Hosts whose files disagree on the hosts get other clusters: each is checked once."""
    algo_3 = configs(3)[2]
    found = hosts([*configs(2), algo_3], MWMS)
    refused = refused_by_the_reader(found, "estimator")
    assert [one.host for one in refused] == ["algo-1", "algo-3"]
    assert all(error["type"] == "missing_chief" for one in refused for error in one.errors)


def test_the_report_of_a_job_labels_each_host_with_its_task_and_ps_server() -> None:
    job = job_report(hosts(configs(2), PS), "estimator")
    assert job.labels == [
        "algo-1: master:0, ps server ps:0 at algo-1:2223",
        "algo-2: worker:0, ps server ps:1 at algo-2:2223",
    ]
    assert [task for task, _ in job.outputs] == [("master", 0), ("worker", 0)]
    assert json.loads(job.outputs[1][1])["task"] == {"type": "worker", "index": 0}
    assert (write_notes(job.notes), job.failed) == ("", False)


def test_the_report_gives_a_readers_refusal_its_fix_once() -> None:
    job = job_report(hosts(configs(3), PS), "mwms")
    assert job.failed
    lines = write_notes(job.notes).splitlines()
    assert lines[0].startswith("--sagemaker --profile mwms: algo-1: ")
    assert lines[0].endswith("[disallowed_job]")
    hints = [line for line in lines if line.startswith("hint: ")]
    assert hints == [
        "hint: SageMaker's parameter-server mode writes a master job, which tf.distribute's "
        "strategies refuse: --distribution multi_worker_mirrored for MultiWorkerMirroredStrategy; "
        "keep parameter servers for the Estimator (--profile estimator)"
    ]


def test_the_report_of_a_one_host_parameter_server_job_fails_with_its_fix() -> None:
    job = job_report(hosts(configs(1), PS), "estimator")
    assert (job.outputs, job.failed) == ([], True)
    assert write_notes(job.notes) == (
        "--sagemaker: algo-1: no TF_CONFIG and no ps server: a one-host parameter-server job\n"
        "hint: a parameter-server job needs two instances or more; on one, the script "
        "trains alone in the local mode\n"
    )


def test_the_report_places_what_the_toolkit_fails_on_at_the_file_with_its_fix() -> None:
    (_, config), _ = configs(2)
    found = hosts([("rc.json", {**config, "hosts": ["algo-2", "algo-3"]})], PS)
    job = job_report(found, "estimator")
    assert (job.outputs, job.failed) == ([], True)
    problem, hint = write_notes(job.notes).splitlines()
    assert problem.startswith("--sagemaker: rc.json: resource_config.current_host: ")
    assert problem.endswith("[sagemaker_host_not_in_hosts]")
    assert hint == "hint: the host is missing from hosts"


def test_a_jobs_hyperparameters_are_its_own_then_its_distributions() -> None:
    assert job_hyperparameters() == {}
    assert job_hyperparameters({"epochs": 3}, "parameter_server") == {"epochs": 3, **PS}
    assert job_hyperparameters(None, "multi_worker_mirrored", "dnn,,data") == {
        **MWMS,
        "sagemaker_distribution_instance_groups": '["dnn", "data"]',
    }


def test_the_hosts_of_a_job_as_it_is_asked_for() -> None:
    [(name, config), _] = job_resource_configs(2)
    assert (name, config["current_instance_type"]) == ("algo-1", "ml.c5.xlarge")
    groups = [
        {"instance_group_name": "data", "instance_count": 1},
        {"instance_group_name": "dnn", "instance_count": 2},
    ]
    found = job_resource_configs(instance_groups=groups, instance_type="ml.p3.2xlarge")
    assert [name for name, _ in found] == ["algo-1", "algo-2", "algo-3"]
    assert {config["current_instance_type"] for _, config in found} == {"ml.p3.2xlarge"}


def test_a_job_sagemaker_refuses() -> None:
    with pytest.raises(InputError, match="--sagemaker: Input should be greater than or equal to 1"):
        job_resource_configs(0)


def test_an_instance_group_without_a_name_is_refused() -> None:
    with pytest.raises(InputError) as info:
        job_resource_configs(instance_groups=[{"instance_group_name": "", "instance_count": 1}])
    assert str(info.value) == "--sagemaker: String should have at least 1 character"


def test_a_resource_config_without_an_instance_type_is_of_the_local_type() -> None:
    """A host's file that names no ``current_instance_type`` is read as of type ``local``."""
    config = ResourceConfig.model_validate({"current_host": "algo-1", "hosts": ["algo-1"]})
    assert config.current_instance_type == "local"
    schema = ResourceConfig.model_json_schema()["properties"]["current_instance_type"]
    assert schema["default"] == "local"


@pytest.mark.parametrize(
    "record",
    [
        pytest.param(Host("algo-1.json", "algo-1", tf_config={"task": {}}), id="Host"),
        pytest.param(Refused("algo-1", []), id="Refused"),
        pytest.param(
            JobReport([(("worker", 0), "{}")], ["algo-1: worker:0"], Notes(), False), id="JobReport"
        ),
    ],
)
def test_what_is_found_of_the_hosts_cannot_be_changed(record: object) -> None:
    """Each refuses assignment; each holds lists or a TF_CONFIG's dict, so it is not hashed."""
    refuses_assignment(record)


FLAG_FILE = Path(__file__).parent / "data/launchers/sagemaker/flag-string.hyperparameters.json"


class TestStringFlags:
    def test_a_flag_written_as_text_is_a_warning_at_its_line(self) -> None:
        document = json_document(str(FLAG_FILE), Limits())
        given = document.data
        [found] = string_flags(given, job_hyperparameters(given), "hps.json", document)
        assert (found.file, found.line, found.column, found.path) == (
            "hps.json",
            7,
            41,
            "sagemaker_parameter_server_enabled",
        )
        assert (found.code, found.severity) == ("sagemaker_flag_string", "warning")
        assert found.message.startswith('warning: the text "False" is no JSON boolean')

    def test_without_the_document_it_is_at_its_key_alone(self) -> None:
        given = {"sagemaker_multi_worker_mirrored_strategy_enabled": "True"}
        [found] = string_flags(given, job_hyperparameters(given), "hps.json")
        assert (found.line, found.path) == (
            None,
            "sagemaker_multi_worker_mirrored_strategy_enabled",
        )

    def test_a_flag_the_distribution_sets_is_not_the_files(self) -> None:
        given = {"sagemaker_parameter_server_enabled": "False"}
        hps = job_hyperparameters(given, "parameter_server")
        assert string_flags(given, hps, "hps.json") == []

    def test_hyperparameters_the_toolkit_fails_on_are_said_at_each_host_instead(self) -> None:
        given = {"sagemaker_parameter_server_enabled": "[" * 100 + "]" * 100}
        assert string_flags(given, job_hyperparameters(given), "hps.json") == []

    def test_the_report_says_them_after_the_hosts_and_fails_nothing(self) -> None:
        given = json.loads(FLAG_FILE.read_text(encoding="utf-8"))
        hps = job_hyperparameters(given)
        flags = string_flags(given, hps, "hps.json")
        job = job_report(hosts(configs(2), hps), "estimator", flags)
        assert not job.failed
        assert [task for task, _ in job.outputs] == [("master", 0), ("worker", 0)]
        assert write_notes(job.notes) == (
            'hps.json: sagemaker_parameter_server_enabled: warning: the text "False" is no '
            'JSON boolean: the toolkit tests it for truth, and any text but "" is true, so '
            "parameter-server mode is on, and on two hosts or more it wins over multi-worker "
            "mirrored mode\n"
            'hint: write false to turn it off (the JSON false: "false" in hyperparameters.json, '
            "as the SDK writes it), true to turn it on, or leave the key out\n"
        )
