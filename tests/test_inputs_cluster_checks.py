"""estconf.inputs.cluster_checks: the nodes of a job checked together, and the fixes said."""

from __future__ import annotations

import json
from pathlib import Path

from estconf.inputs.cluster_checks import NO_NODE, Said, check_nodes
from estconf.inputs.nodes import Nodes, read_nodes
from values import refuses_assignment

DATA = Path(__file__).parent / "data" / "check_cluster"
NO_NODE_HINT = (
    "a TFJob of one pod in all gets no TF_CONFIG, and 'estconf tf-config --tfjob' writes "
    "nothing for it: pass --allow-empty where no input means that"
)


def nodes(name: str) -> Nodes:
    return read_nodes([str(DATA / name)])


def test_a_valid_job_has_nothing_to_say() -> None:
    report, said = check_nodes(nodes("good"))
    assert report.valid
    assert (tuple(said.hints), tuple(said.notes), tuple(said.passed_over)) == ((), (), ())


def test_every_node_given_the_same_task() -> None:
    report, said = check_nodes(nodes("same_task.jsonl"), "mwms")
    assert not report.valid
    assert list(said.hints) == [
        "every node was given the same task, worker:0: each node needs its own task.index "
        "(0, 1, 2, ... within each task.type)"
    ]


def test_both_nodes_of_two_given_the_same_task(tmp_path: Path) -> None:
    """Two nodes that both claim one task get the hint that every node was given it."""
    node = {"cluster": {"worker": ["w0:2222", "w1:2222"]}, "task": {"type": "worker", "index": 1}}
    path = tmp_path / "nodes.jsonl"
    path.write_text(f"{json.dumps(node)}\n{json.dumps(node)}\n", encoding="utf-8")
    report, said = check_nodes(read_nodes([str(path)]), "mwms")
    assert len(report.nodes) == 2
    assert list(said.hints) == [
        "every node was given the same task, worker:1: each node needs its own task.index "
        "(0, 1, 2, ... within each task.type)"
    ]


def test_two_nodes_of_several_share_a_task() -> None:
    _, said = check_nodes(nodes("task_claimed_twice.jsonl"), "mwms")
    assert list(said.hints) == [
        "each node needs its own task: no two nodes may share task.type and task.index"
    ]


def test_the_estimator_refusal_names_the_profiles_that_read_the_nodes() -> None:
    report, said = check_nodes(nodes("workers_only.jsonl"))
    assert [f.code for f in report.findings] == ["missing_chief"]
    assert list(said.hints) == [
        "tf.estimator refuses these nodes, but --profile mwms or --profile server reads "
        "every one of them: pass it if that is the reader"
    ]
    assert check_nodes(nodes("workers_only.jsonl"), "mwms")[0].valid


def test_no_node_is_a_finding_or_with_allow_empty_a_note() -> None:
    report, said = check_nodes(Nodes())
    assert not report.valid
    assert list(said.hints) == [NO_NODE_HINT]
    report, said = check_nodes(Nodes(), allow_empty=True)
    assert report.valid
    assert (list(said.hints), list(said.notes)) == ([], [f"{NO_NODE} (--allow-empty)"])


def test_a_near_miss_key_is_one_finding_for_the_nodes_that_share_it(tmp_path: Path) -> None:
    cluster = {"chief": ["h0:1"], "worker": ["h1:1"]}
    typo = {"cluster": cluster, "save_checkpoint_steps": 10}
    chief, worker = tmp_path / "chief.json", tmp_path / "worker.yaml"
    chief.write_text(json.dumps({**typo, "task": {"type": "chief", "index": 0}}))
    worker.write_text(json.dumps({**typo, "task": {"type": "worker", "index": 0}}))
    report, _ = check_nodes(read_nodes([str(chief), str(worker)]))
    [finding] = report.findings
    assert (finding.code, finding.path) == ("near_miss_key", "save_checkpoint_steps")
    assert finding.nodes == (str(chief), str(worker))


def test_what_a_report_says_beside_its_findings_cannot_be_changed() -> None:
    """Said refuses assignment; it holds lists of lines, so it is not hashed."""
    refuses_assignment(Said(["a hint"], ["a note"], [("a.json", "another tool's")]))


def test_an_env_files_quoted_value_is_a_note_with_its_fix() -> None:
    """Compose reads the value without its quotes; docker run --env-file would not."""
    env = Path(__file__).parent / "data" / "shell" / "compose.env"
    report, said = check_nodes(read_nodes([str(env)]), "mwms")
    [note] = said.notes
    assert note.startswith(f"{env}:3:11: TF_CONFIG: the value is quoted: ")
    assert said.hints[-1].startswith("for docker run --env-file, write the value on one line")
    assert report.nodes == (f"{env}:3",)


RAY_HINT = (
    "worker:0 and worker:1 both have 10.0.0.5:41523: Ray Train's TensorflowTrainer has each "
    "worker take a free port as it starts, and two on one node can draw the same one "
    "(ray-project/ray#34271); start the job again, or run one worker per node"
)


def test_two_ray_workers_of_one_node_given_one_port_name_the_race() -> None:
    """What Ray Train's workers printed (``json.dumps`` of each one's TF_CONFIG)."""
    report, said = check_nodes(nodes("ray_port_race.jsonl"), "mwms")
    assert [(f.code, f.path, len(f.nodes)) for f in report.findings] == [
        ("address", "cluster.worker[1]", 4)
    ]
    assert list(said.hints) == [RAY_HINT]


def test_ray_workers_each_at_a_port_of_their_own_are_valid() -> None:
    report, said = check_nodes(nodes("ray_workers.jsonl"), "mwms")
    assert report.valid
    assert list(said.hints) == []


def test_two_tasks_at_one_address_written_by_hand(tmp_path: Path) -> None:
    """Not Ray's: a chief beside the workers, or a port no system hands out for the asking."""
    for cluster in (
        {"chief": ["h0:2222"], "worker": ["h1:2222", "h1:2222"]},
        {"worker": ["h1:2222", "h1:2222"]},
    ):
        path = tmp_path / "nodes.jsonl"
        path.write_text(
            "".join(
                json.dumps({"cluster": cluster, "task": {"type": "worker", "index": i}}) + "\n"
                for i in range(2)
            ),
            encoding="utf-8",
        )
        _, said = check_nodes(read_nodes([str(path)]), "mwms")
        assert list(said.hints) == [
            "worker:0 and worker:1 both have h1:2222: give each task its own host:port"
        ]


def test_one_address_for_two_jobs_and_a_sparse_job(tmp_path: Path) -> None:
    cluster = {"ps": ["H:40000"], "worker": {"1": "h:40000"}}
    path = tmp_path / "node.json"
    path.write_text(json.dumps({"cluster": cluster, "task": {"type": "ps", "index": 0}}))
    _, said = check_nodes(read_nodes([str(path)]), "ps")
    assert list(said.hints) == [
        "ps:0 and worker:1 both have h:40000: give each task its own host:port"
    ]


def test_the_fix_of_quoted_env_file_values_is_said_once_for_several_files(tmp_path: Path) -> None:
    env = Path(__file__).parent / "data" / "shell" / "compose.env"
    names = []
    for name in ("a.env", "b.env"):
        (tmp_path / name).write_bytes(env.read_bytes())
        names.append(str(tmp_path / name))
    _, said = check_nodes(read_nodes(names), "mwms")
    assert len(said.notes) == 2
    fixes = [hint for hint in said.hints if hint.startswith("for docker run --env-file")]
    assert len(fixes) == 1


def workers_at(addresses: list[str]) -> Nodes:
    """A node for each worker of a cluster of workers alone at ``addresses``."""
    cluster = {"worker": addresses}
    return Nodes(
        nodes=[
            (f"n{index}", {"cluster": cluster, "task": {"type": "worker", "index": index}})
            for index in range(len(addresses))
        ]
    )


def test_the_lowest_port_a_system_hands_out_names_the_ray_race() -> None:
    _, said = check_nodes(workers_at(["h:32768", "h:32768"]), "mwms")
    assert list(said.hints) == [RAY_HINT.replace("10.0.0.5:41523", "h:32768")]


def test_of_several_shared_addresses_the_first_is_named() -> None:
    report, said = check_nodes(workers_at(["a:2222", "a:2222", "b:2222", "b:2222"]), "mwms")
    assert [f.path for f in report.findings] == ["cluster.worker[1]", "cluster.worker[3]"]
    assert list(said.hints) == [
        "worker:0 and worker:1 both have a:2222: give each task its own host:port"
    ]
