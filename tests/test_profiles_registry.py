"""estconf.profiles.registry: every profile written once, and read from there by everything else."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from estconf import RunConfig, deployment, profiles
from estconf.cli import main
from estconf.distribute import MultiWorkerConfig, ParameterServerConfig, ServerConfig
from estconf.kubeflow import check, run_config_check, tfjob_for_replicas
from estconf.profiles import check_profile, other_readers
from estconf.profiles.registry import (
    NAMES,
    READERS,
    REGISTRY,
    Profile,
    ProfileEntry,
    accepted_instead,
    as_options,
    entry_named,
)

WORKERS = {"cluster": {"worker": ["w0:2222", "w1:2222"]}, "task": {"type": "worker", "index": 0}}
WITH_CHIEF = {
    "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
    "task": {"type": "worker", "index": 0},
}
COMMANDS_WITH_PROFILE = ("validate", "explain", "tf-config", "check-cluster")
CHECK_CLUSTER_DATA = Path(__file__).resolve().parent / "data" / "check_cluster"


def offered_choices(capsys: pytest.CaptureFixture[str], command: str) -> tuple[str, ...]:
    """The profiles a command's ``--profile`` takes, as its refusal of another one says them."""
    with pytest.raises(SystemExit):
        main([command, "--profile", "tf", "x"])
    found = re.search(r"invalid choice: 'tf' \(choose from (.*)\)", capsys.readouterr().err)
    assert found is not None
    return tuple(choice.strip("' ") for choice in found.group(1).split(","))


class TestEveryProfileIsRegistered:
    @pytest.mark.parametrize("command", COMMANDS_WITH_PROFILE)
    def test_the_cli_offers_the_registry_s_profiles(
        self, capsys: pytest.CaptureFixture[str], command: str
    ) -> None:
        assert offered_choices(capsys, command) == NAMES

    def test_in_the_order_of_the_enum(self) -> None:
        assert list(REGISTRY) == list(Profile)
        assert NAMES == ("estimator", "mwms", "ps", "server")
        assert all(entry.profile is profile for profile, entry in REGISTRY.items())
        assert list(profiles.READERS) == list(Profile)
        assert profiles.READERS is READERS

    @pytest.mark.parametrize(
        ("name", "model"),
        [
            ("estimator", RunConfig),
            ("mwms", MultiWorkerConfig),
            ("ps", ParameterServerConfig),
            ("server", ServerConfig),
        ],
    )
    def test_each_has_a_reader_a_node_check_and_a_tensorflow_class(
        self, name: str, model: type[BaseModel]
    ) -> None:
        entry = entry_named(name)
        assert entry.name == name
        assert READERS[entry.profile].startswith("tf.")
        assert isinstance(entry.read(WITH_CHIEF if name != "ps" else ps_node()), model)
        assert callable(entry.check_node())

    @pytest.mark.parametrize("entry", REGISTRY.values(), ids=NAMES)
    def test_every_name_it_gives_imports(self, entry: ProfileEntry) -> None:
        for field in ("model", "node_check", "written_check"):
            reference = getattr(entry, field)
            if reference is not None:
                module, name = reference.split(":")
                assert callable(getattr(importlib.import_module(module), name)), reference

    def test_naming_the_profiles_imports_no_model(self) -> None:
        code = (
            "import sys\n"
            "from estconf.profiles.registry import NAMES, REGISTRY\n"
            "print(sorted({'pydantic', 'estconf.profiles.check'} & set(sys.modules)))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.stdout == "[]\n"

    def test_the_package_s_public_names_resolve(self) -> None:
        for name in profiles.__all__:
            assert getattr(profiles, name) is not None
        with pytest.raises(AttributeError):
            profiles.nothing  # noqa: B018

    def test_an_unknown_name(self) -> None:
        message = "unknown profile 'tf'; the profiles are estimator, mwms, ps, server"
        with pytest.raises(ValueError, match=re.escape(message)):
            entry_named("tf")
        with pytest.raises(ValueError, match=re.escape(message)):
            deployment.profile_named("tf")


def ps_node() -> dict[str, Any]:
    return {"cluster": {"worker": ["w:1"], "ps": ["p:1"]}, "task": {"type": "worker", "index": 0}}


class TestReadFromTheRegistry:
    def test_the_node_readers_of_the_whole_job_check(self) -> None:
        assert list(deployment.PROFILES) == list(NAMES)
        for name, reader in deployment.PROFILES.items():
            entry = entry_named(name)
            assert isinstance(reader, deployment.ReaderProfile)
            assert reader.name == name
            assert reader.error_root == entry.error_root
            assert reader.written_reader is entry.check_written()
        assert deployment.ESTIMATOR.error_root == ()  # the estimator's rules, not a RunConfig
        assert deployment.MWMS.error_root == ("tf_config",)

    def test_check_profile_reads_the_node_with_the_registry_s_reader(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        estimator = dataclasses.replace(
            REGISTRY[Profile.MWMS], model=REGISTRY[Profile.ESTIMATOR].model
        )
        monkeypatch.setitem(REGISTRY, Profile.MWMS, estimator)
        with pytest.raises(ValidationError) as refused:
            check_profile(WORKERS, "mwms")
        assert refused.value.errors()[0]["type"] == "missing_chief"

    def test_so_does_the_tfjob_check(self, monkeypatch: pytest.MonkeyPatch) -> None:
        tfjob = tfjob_for_replicas("j", {"Worker": 2})
        assert [f.code for f in check(tfjob)] == ["tfjob_missing_chief"]
        assert [f.code for f in check(tfjob, node_check=entry_named("mwms").read)] == []
        mwms = dataclasses.replace(REGISTRY[Profile.ESTIMATOR], model=REGISTRY[Profile.MWMS].model)
        monkeypatch.setitem(REGISTRY, Profile.ESTIMATOR, mwms)
        assert [f.code for f in check(tfjob, node_check=run_config_check)] == []


class TestOtherProfilesThatAccept:
    def test_server_is_offered_for_a_missing_chief_only(self) -> None:
        tried: list[Profile] = []

        def accepts(profile: Profile) -> bool:
            tried.append(profile)
            return True

        assert accepted_instead({"missing_chief"}, accepts) == [
            Profile.MWMS,
            Profile.PS,
            Profile.SERVER,
        ]
        assert accepted_instead({"missing_ps"}, accepts) == [Profile.MWMS, Profile.PS]
        assert tried == [Profile.MWMS, Profile.PS, Profile.SERVER, Profile.MWMS, Profile.PS]
        assert accepted_instead({"missing_chief"}, lambda profile: profile == "ps") == [Profile.PS]

    def test_said_as_options(self) -> None:
        assert as_options([Profile.MWMS, "server"]) == "--profile mwms or --profile server"

    @pytest.fixture
    def mwms_never_offered(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The registry's MWMS entry, offered for no refusal of the Estimator."""
        mwms = dataclasses.replace(REGISTRY[Profile.MWMS], offered_for=frozenset())
        monkeypatch.setitem(REGISTRY, Profile.MWMS, mwms)

    def test_as_the_registry_says(self) -> None:
        assert other_readers(WORKERS, {"missing_chief"}) == [Profile.MWMS, Profile.SERVER]
        assert other_readers(WORKERS, {"other"}) == [Profile.MWMS]

    @pytest.mark.usefixtures("mwms_never_offered")
    def test_check_profile_takes_the_answer_from_the_registry(self) -> None:
        assert other_readers(WORKERS, {"missing_chief"}) == [Profile.SERVER]
        with pytest.raises(ValidationError) as refused:
            check_profile(WORKERS)
        assert refused.value.errors()[0]["msg"].endswith(
            "(this cluster is valid for --profile server)"
        )

    @pytest.mark.usefixtures("mwms_never_offered")
    def test_check_cluster_takes_the_answer_from_the_registry(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(CHECK_CLUSTER_DATA)
        assert main(["check-cluster", "--format", "json", "workers_only.jsonl"]) == 1
        assert json.loads(capsys.readouterr().out)["hints"] == [
            "tf.estimator refuses these nodes, but --profile server reads every one of them: "
            "pass it if that is the reader"
        ]

    def test_tf_config_names_the_profiles_that_read_a_refused_cluster(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        cluster = tmp_path / "cluster.json"
        cluster.write_text(json.dumps({"cluster": WORKERS["cluster"]}))
        assert main(["tf-config", str(cluster)]) == 1
        assert capsys.readouterr().err.endswith(
            "hint: tf.estimator refuses this cluster; --profile mwms or --profile server reads "
            "it, if that is the reader\n"
        )

    @pytest.mark.usefixtures("mwms_never_offered")
    def test_so_does_tf_config(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        cluster = tmp_path / "cluster.json"
        cluster.write_text(json.dumps({"cluster": WORKERS["cluster"]}))
        assert main(["tf-config", str(cluster)]) == 1
        assert capsys.readouterr().err.endswith(
            "hint: tf.estimator refuses this cluster; --profile server reads it, if that is the "
            "reader\n"
        )


def test_a_profile_entry_is_a_value_that_cannot_be_changed() -> None:
    entry = REGISTRY[Profile.MWMS]
    for field in dataclasses.fields(entry):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(entry, field.name, None)
    assert {entry: profile for profile, entry in REGISTRY.items()}[entry] == Profile.MWMS
