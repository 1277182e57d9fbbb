"""Every code is declared once in estconf.codes, raised through it, and documented from it."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from pydantic import ValidationError

from estconf._errors import Errors, custom_error, error_detail, fail
from estconf._json import JSONInputError
from estconf.codes import CODES, DECLARED, FAMILIES, ROWS, Code, Row, checked, declaration
from estconf.io.errors import error, error_again, refused
from messages import too_long

ROOT = Path(__file__).resolve().parents[1]
ERRORS = ROOT / "docs" / "errors.md"
JSON_FILE = ROOT / "src" / "estconf" / "io" / "error_codes.json"
SEVERITIES = {"error", "warning", "note"}


@cache
def error_codes() -> ModuleType:
    """``tools/error_codes.py``, which ``make error-codes`` runs."""
    spec = importlib.util.spec_from_file_location("error_codes", ROOT / "tools" / "error_codes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def anchors() -> set[str]:
    """The anchors of the headings of docs/errors.md, as the documentation site names them."""
    headings = re.findall(r"^#+ (.*)$", ERRORS.read_text(encoding="utf-8"), re.MULTILINE)
    return {error_codes().slug(heading) for heading in headings}


# -- the declarations -------------------------------------------------------------------------


def test_each_code_is_declared_once() -> None:
    names = [code.name for code in DECLARED]
    assert len(names) > 170
    assert sorted(name for name in set(names) if names.count(name) > 1) == []
    assert list(CODES) == names
    assert all(CODES[code.name] is code for code in DECLARED)


@pytest.mark.parametrize("code", [*DECLARED, *FAMILIES.values()], ids=lambda code: code.name)
def test_a_declaration_has_a_severity_a_one_line_summary_and_a_section(code: Code) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9_]*", code.name)
    assert code.severity in SEVERITIES
    for text in (code.summary, code.example, code.fix):
        assert "\n" not in text and text == text.strip()
    assert "  " not in code.summary + code.fix
    assert code.summary
    assert code.section in anchors()


@pytest.mark.parametrize("code", [*DECLARED, *FAMILIES.values()], ids=lambda code: code.name)
def test_a_summary_example_and_fix_are_short(code: Code) -> None:
    """What a code means and its fix each read at a glance: no line of more than 200 characters.

    Counted without the values quoted (code spans, quoted text, names) and
    without the address of a Markdown link.
    """
    for text in (code.summary, code.example.strip("`"), code.fix):
        assert too_long(re.sub(r"\]\([^)]*\)", "]", text)) == [], code.name


def test_the_severities_and_fixes_are_those_the_checks_give() -> None:
    assert CODES["missing_chief"].severity == "error"
    assert CODES["tfjob_unknown_replica_type"].severity == "warning"
    assert CODES["tfjob_generate_name"].severity == "note"
    assert CODES["tfjob_host_network_dns"].fix == "dnsPolicy: ClusterFirstWithHostNet"
    assert CODES["syntax"].fix == ""
    assert {code.severity for code in DECLARED} == SEVERITIES


def test_the_jobset_and_trainer_codes_give_their_fixes() -> None:
    from estconf.launchers.jobset.problems import INDEX_FIX

    fixes = {code.name: code.fix for code in DECLARED if code.section.startswith("jobset-")}
    assert fixes == {
        "env_reference_not_expanded": INDEX_FIX,
        "tf_config_missing": (
            "define TF_CONFIG in the container that runs TensorFlow, with the pod's task"
        ),
        "address_not_a_pod": (
            "write each pod <jobset>-<job>-<j>-<p>.<subdomain>[.<namespace>[.svc[.<domain>]]]"
        ),
        "dns_hostnames_off": (
            "remove enableDNSHostnames: false (JobSet turns DNS hostnames on by default)"
        ),
        "never_succeeds": "successPolicy: {operator: All, targetReplicatedJobs: [chief]}",
        "pod_name_too_long": "shorten the JobSet's name or the replicated job's",
        "trainer_runtime_rule": "set replicas: 1 and name the trainer's container node",
        "runtime_not_given": "",
    }


def test_a_tfjob_findings_severity_is_its_codes_and_a_refusal_is_declared_one() -> None:
    """A refusal is an error whose code's summary begins "refused:"; no other finding's does."""
    from ruamel.yaml import YAML

    from estconf.kubeflow import TFJob, check

    seen, refused = set(), set()
    for path in sorted((ROOT / "tests" / "data" / "kubeflow").glob("*.yaml")):
        try:
            tfjob = TFJob.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8")))
        except Exception:  # a stream, a list, an Experiment: read otherwise
            continue
        for finding in check(tfjob):
            if finding.code != "tfjob_tf_config_set":  # a note or an error where a pod uses it
                assert finding.severity == declaration(finding.code).severity
            assert finding.refused == declaration(finding.code).summary.startswith("refused:")
            seen.add(finding.code)
            refused.add(finding.refused)
    assert {"tfjob_generate_name", "tfjob_port_not_named", "tfjob_no_image"} <= seen
    assert refused == {True, False}
    assert len(seen) > 20


def test_a_row_of_another_section_lists_a_declared_code() -> None:
    declared_at = {(code.section, code.name) for code in DECLARED}
    listed = [(row.section, row.code) for row in ROWS if (row.section, row.code) not in declared_at]
    assert ("the-cluster-clusterspec", "string_type") in listed
    assert len(listed) == len(ROWS) - len(DECLARED)
    assert len(set(listed)) == len(listed)
    for section, name in listed:
        assert section != CODES[name].section


def test_the_rows_are_the_declarations_in_their_sections() -> None:
    rows = {(row.section, row.code): row for row in ROWS}
    for code in DECLARED:
        row = rows[code.section, code.name]
        assert (row.summary, row.example) == (code.summary, code.example)
    assert ROWS[0] == Row("values", "int_type", CODES["int_type"].summary, ROWS[0].example, 0)


# -- looking a code up ------------------------------------------------------------------------


def test_a_declared_code_is_found() -> None:
    assert declaration("missing_chief") == CODES["missing_chief"]
    assert declaration("tfjob_no_image") == CODES["tfjob_no_image"]
    assert checked("syntax") == "syntax"


def test_a_code_of_a_family_is_found_as_its_family() -> None:
    family = FAMILIES["tfjob_"]
    assert declaration(family.example.strip("`")) is family  # its example is one of its codes
    assert declaration("tfjob_missing_chief") is family
    assert declaration("tfjob_string_type") is FAMILIES["tfjob_"]
    assert checked("tfjob_missing_ps") == "tfjob_missing_ps"


# "tfjob_" is also built at run time: a prefix is compared by value, not by identity
UNDECLARED = [
    "no_such_code",
    "tfjob_",
    "".join(["tfjob", "_"]),
    "",
    "Missing_chief",
    "missing_chie",
]


@pytest.mark.parametrize("code", UNDECLARED)
def test_an_undeclared_code_is_refused(code: str) -> None:
    with pytest.raises(KeyError, match="is not a declared error code"):
        declaration(code)
    with pytest.raises(KeyError):
        checked(code)


def test_every_way_of_raising_refuses_an_undeclared_code() -> None:
    from estconf.launchers.kubeflow._webhook import _refused as webhook_refusal

    raising: list[Callable[[], object]] = [
        lambda: custom_error("no_such_code", "m"),
        lambda: error_detail("no_such_code", "m", (), None),
        lambda: fail("Title", "no_such_code", "m"),
        lambda: Errors("Title").add("no_such_code", "m"),
        lambda: error("f.json", "no_such_code", "m"),
        lambda: refused("f.json", "no_such_code", "m"),
        lambda: JSONInputError("no_such_code", "m"),
        lambda: webhook_refusal("no_such_code", (), "m"),
    ]
    for make in raising:
        with pytest.raises(KeyError, match="'no_such_code' is not a declared error code"):
            make()


def test_an_error_raised_again_keeps_pydantics_own_code() -> None:
    assert error_again("f.json", "missing", "Field required").code == "missing"
    errors = Errors("Title")
    errors.add_again("literal_error", "Input should be 'a'", ("x",), "b")
    with pytest.raises(ValidationError) as raised:
        errors.raise_if_any()
    assert [(e["type"], e["loc"], e["msg"]) for e in raised.value.errors()] == [
        ("literal_error", ("x",), "Input should be 'a'")
    ]


def test_a_declared_code_raises_its_error() -> None:
    raised = custom_error("bounds", "{name} should be >= 0", {"name": "steps"})
    assert (raised.type, raised.message()) == ("bounds", "steps should be >= 0")
    assert custom_error("protocol", "no {x}").message() == "no {x}"
    assert JSONInputError("json_invalid", "bad").code == "json_invalid"


# -- every code of the source -----------------------------------------------------------------

# Where each way of raising an error takes its code: the position of the argument
# (``code=`` counts wherever it is given).
_CODE_ARGUMENTS = {
    "custom_error": 0,  # the models' rules: estconf._errors.custom_error(code, message, ...)
    "error_detail": 0,
    "fail": 1,  # estconf._errors.fail(title, code, ...)
    "add": 0,  # estconf._errors.Errors.add(code, message, ...)
    "_float_error": 0,
    "JSONInputError": 0,  # TF_CONFIG text
    "error": 1,  # the file pipeline: error(file, code, ...), refused(file, code, ...)
    "refused": 1,
    "found": 0,
    "_refused": 0,  # the TFJob webhook's refusals
    "checked": 0,  # the TFJob checks' findings, a code named as a constant (deployment.report)
    "_found": 1,  # a batch script's directives: _found(file, code, ...), refuse(file, code, ...)
    "refuse": 1,
}

# Codes written as f-strings, and the codes each forms; "tfjob_{code}" is a family, and
# "{prefix}{each.code}" is the tfjob_ or volcano_pod_ code of a TF_CONFIG's refusal.
_FORMED_CODES = {
    "multiple_{job}s": {"multiple_chiefs", "multiple_evaluators"},
    "missing_{job}": {"missing_ps", "missing_worker"},
    "tfjob_{code}": set(),
    "volcano_pod_{code}": set(),
    "{prefix}{each.code}": set(),
}


def _code_arguments() -> list[tuple[str, ast.expr]]:
    """``(file:line, argument)`` for the code argument of each raising call in src/."""
    found = []
    for source in sorted((ROOT / "src" / "estconf").rglob("*.py")):
        where = source.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            position = _CODE_ARGUMENTS.get(name) if isinstance(name, str) else None
            arguments = [keyword.value for keyword in node.keywords if keyword.arg == "code"]
            if position is not None and len(node.args) > max(position, 1 if name == "add" else 0):
                arguments.append(node.args[position])
            if name == "PydanticCustomError":  # only errors raised again: no code of its own
                assert not isinstance(node.args[0], ast.Constant), f"{where}:{node.lineno}"
            found += [(f"{where}:{node.lineno}", argument) for argument in arguments]
    return found


def _raised_codes() -> tuple[dict[str, str], set[str]]:
    """Each code literal of src/ with a place it is raised, and the f-string codes."""
    codes: dict[str, str] = {}
    formed = set()
    for where, argument in _code_arguments():
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            codes.setdefault(argument.value, where)
        elif isinstance(argument, ast.JoinedStr):
            formed.add(
                "".join(
                    "{" + ast.unparse(part.value) + "}"
                    if isinstance(part, ast.FormattedValue)
                    else str(getattr(part, "value", ""))
                    for part in argument.values
                )
            )
    return codes, formed


def test_every_code_raised_is_declared() -> None:
    codes, formed = _raised_codes()
    assert formed == set(_FORMED_CODES)  # a new f-string code: say what it forms above
    # the source was read: the models, the readers, the files, the TFJob and cluster checks
    assert {"missing_chief", "missing_task", "syntax", "tfjob_no_image", "no_nodes"} <= set(codes)
    undeclared = {code: where for code, where in codes.items() if code not in CODES}
    assert undeclared == {}
    for forms in _FORMED_CODES.values():
        assert forms <= set(CODES)


def test_every_declared_code_is_raised() -> None:
    codes, _ = _raised_codes()
    raised = set(codes).union(*_FORMED_CODES.values())
    assert sorted(set(CODES) - raised) == []


# -- what is written from the declarations ----------------------------------------------------


def test_the_tables_of_docs_errors_md_are_written_from_the_codes() -> None:
    text = ERRORS.read_text(encoding="utf-8")
    assert error_codes().render_page(text) == text, "estconf/_codes changed: run make error-codes"
    assert text.count("<!-- codes: ") == len({row.table for row in ROWS})


def test_the_sarif_descriptions_are_written_from_the_codes() -> None:
    written = JSON_FILE.read_text(encoding="utf-8")
    assert written == error_codes().render_json(), "estconf/_codes changed: run make error-codes"
    described = json.loads(written)
    assert set(described) == set(CODES)
    assert described["missing_chief"] == {
        "description": "a cluster without a chief (or master) job",
        "anchor": "the-estimators-reading-of-tf_config-runconfig-tpurunconfig",
    }


def test_a_changed_summary_changes_the_page() -> None:
    text = ERRORS.read_text(encoding="utf-8")
    changed = [row._replace(summary="changed") if row.code == "syntax" else row for row in ROWS]
    page = error_codes().render_page(text, changed)
    assert page != text
    assert "| `syntax` | changed | " in page


def test_a_table_without_its_codes_is_refused() -> None:
    text = "# E\n\n<!-- codes: values -->\n| old |\n<!-- end codes -->\n"
    with pytest.raises(ValueError, match="no marker for the table of"):
        error_codes().render_page(text)
    with pytest.raises(ValueError, match="table values has no"):
        error_codes().render_page("<!-- codes: values -->\n| old |\n", ROWS[:1])
    with pytest.raises(ValueError, match="table file-errors: the codes give values"):
        error_codes().render_page("<!-- codes: file-errors -->\n<!-- end codes -->\n", ROWS[:1])
    one = error_codes().render_page(text, ROWS[:1])
    assert one.splitlines()[3:6] == ["", "| code | meaning | example |", "|---|---|---|"]


def test_each_section_anchor_is_a_heading_of_the_page() -> None:
    assert {"model-errors", "file-errors", "tf_config-tfconfig"} <= anchors()
    assert {row.section for row in ROWS} <= anchors()
    assert error_codes().slug("The tf.distribute readers (`x.y`, `--profile a|b`)") == (
        "the-tfdistribute-readers-xy-profile-ab"
    )
