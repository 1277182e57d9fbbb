"""estconf.io.parse: one reader of JSON, TOML and YAML, the same limits and checks on every path.

Every input below is read by :func:`~estconf.io.parse.parse_documents` (a
stream: manifests, TFJobs, check-cluster's node files), by :func:`~estconf.io.parse.parse`
(a config file), from bytes by :func:`~estconf.io.parse.document_of`,
:func:`~estconf.io.parse.documents_of` and :func:`~estconf.io.parse.stream_of`, by the
public :func:`estconf.files.loads` and by :func:`estconf.kubeflow.read_tfjobs`; each refuses
it the same way, with a :class:`~estconf.io.errors.ConfigFileError` (a ``ValueError``) placed
in the text.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from estconf import files
from estconf.io import parse
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError
from estconf.kubeflow import TFJob, read_tfjobs

HOSTILE = Path(__file__).parent / "data" / "hostile"

# each hostile YAML file, the code it is refused with, and where
REFUSED = {
    "unhashable_key.yaml": ("syntax", 1, 2, "a key is a sequence"),
    "complex_key_empty_int.yaml": ("syntax", 1, 3, "a key is a mapping"),
    "bool_tag_on_a_number.yaml": ("syntax", 1, 4, "invalid YAML bool '2'"),
    "nested_500_flow_sequences.yaml": ("depth", 1, 131, "nested deeper than 64 levels"),
    "tfjob_billion_laughs.yaml": ("too_many_values", 1, 1, "expands to more than 100000 values"),
    "configmap_billion_laughs.yaml": ("too_many_values", 1, 1, "more than 100000 values"),
    "pod_recursive_alias.yaml": ("depth", 4, 7, "nested deeper than 64 levels"),
    "../limits/dense_values.yaml": ("too_many_values", 1, 30003, "more than 10000 values"),
}

READERS: dict[str, Callable[[str], Any]] = {
    "parse": lambda text: parse.parse(text, "yaml", "f.yaml"),
    "parse_documents": lambda text: parse.parse_documents(text, "yaml", "f.yaml"),
    "documents_of": lambda text: parse.documents_of(text.encode(), "yaml", "f.yaml"),
    "document_of": lambda text: parse.document_of(text.encode(), "yaml", "f.yaml"),
    "stream_of": lambda text: parse.stream_of(text, "f.yaml"),
    "files.loads": lambda text: files.loads(text, "yaml", "tf_config", name="f.yaml"),
    "read_tfjobs": lambda text: read_tfjobs(text, name="f.yaml"),
    "TFJob.from_yaml": lambda text: TFJob.from_yaml(text.encode()),
}


def refusal(reader: str, text: str) -> ConfigFileError:
    with pytest.raises(ConfigFileError) as info:
        READERS[reader](text)
    return info.value


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("name", REFUSED)
def test_every_reader_refuses_hostile_yaml_the_same_way(reader: str, name: str) -> None:
    code, line, column, message = REFUSED[name]
    text = (HOSTILE / name).read_text(encoding="utf-8")
    found = refusal(reader, text).errors[0]
    assert (found.code, found.line, found.column) == (code, line, column)
    assert message in found.message
    assert found.file == ("<string>" if reader == "TFJob.from_yaml" else "f.yaml")


def test_a_key_that_is_a_collection_is_refused_where_it_is() -> None:
    [found] = refusal("parse", "a: 1\nb:\n  ? [x]\n  : 2\n").errors
    assert (found.line, found.column, found.path) == (3, 5, "b")


def test_a_python_tag_on_a_key_is_still_a_tag() -> None:
    assert [e.code for e in refusal("parse", "? !!python/tuple [1, 2]\n: x\n").errors] == ["tag"]


class TestEmptyDocuments:
    """Empty documents (nothing, comments, ``null``) are passed over, as kubectl does."""

    @pytest.mark.parametrize(
        "text",
        [
            "a: 1\n---\n",
            "---\na: 1\n---\n# rendered from a template\n---\n",
            "---\n---\na: 1\n",
            "a: 1\n--- null\n---\n~\n",
        ],
    )
    def test_around_one_document(self, text: str) -> None:
        assert [d.data for d in parse.parse_documents(text, "yaml", "f.yaml")] == [{"a": 1}]
        assert parse.parse(text, "yaml", "f.yaml").data == {"a": 1}

    @pytest.mark.parametrize("text", ["# comments\n# only\n", "---\n---\n# c\n", "--- null\n"])
    def test_a_stream_of_empty_documents_only_holds_no_document(self, text: str) -> None:
        for reader in ("parse", "parse_documents", "read_tfjobs"):
            [found] = refusal(reader, text).errors
            assert (found.code, found.message) == ("empty", "the file holds no YAML document")

    def test_two_documents_are_still_two_in_a_config_file(self) -> None:
        [found] = refusal("parse", "a: 1\n---\n\n---\nb: 2\n---\n").errors
        assert (found.code, found.line, found.column) == ("documents", 4, 1)


class TestLimits:
    def test_documents_past_the_limit(self) -> None:
        text = "---\n" * 5 + "a: 1\n"
        assert parse.parse_documents(text, "yaml", "f.yaml", max_documents=5)
        with pytest.raises(ConfigFileError) as info:
            parse.parse_documents(text, "yaml", "f.yaml", max_documents=4)
        [found] = info.value.errors
        assert found.code == "too_many_documents"
        assert (found.line, found.message) == (5, "the stream holds more than 4 YAML documents")

    def test_values_past_the_limit(self) -> None:
        text = "a: &a [1, 2, 3, 4]\nb: [*a, *a, *a]\n"
        assert parse.parse(text, "yaml", "f.yaml", max_values=30).data["b"][2] == [1, 2, 3, 4]
        with pytest.raises(ConfigFileError, match="more than 20 values"):
            parse.parse(text, "yaml", "f.yaml", max_values=20)

    def test_the_limits_of_a_tfjob_are_given(self) -> None:
        text = (HOSTILE / "tfjob_billion_laughs.yaml").read_text(encoding="utf-8")
        with pytest.raises(ConfigFileError, match="nested deeper than 2 levels"):
            read_tfjobs(text, limits=Limits(max_depth=2))
        with pytest.raises(ConfigFileError, match="larger than the limit of 100 bytes"):
            read_tfjobs(text, limits=Limits(max_size=100))

    def test_size_of_a_text(self) -> None:
        with pytest.raises(ConfigFileError, match="larger than the limit of 4 bytes"):
            parse.parse('{"a": 1}', "json", "f.json", max_size=4)

    @pytest.mark.parametrize("format", ["json", "yaml"])
    def test_the_size_of_bytes_is_counted_in_bytes(self, format: str) -> None:
        """19 characters, 29 bytes in UTF-8: a limit of 28 bytes refuses them."""
        raw = ('{"a": "' + "é" * 10 + '"}').encode()
        assert parse.documents_of(raw, format, "f", Limits(max_size=30))[0].data == {"a": "é" * 10}
        with pytest.raises(ConfigFileError) as info:
            parse.documents_of(raw, format, "f", Limits(max_size=len(raw) - 1))
        [found] = info.value.errors
        assert (found.code, found.message) == (
            "size",
            f"the file is larger than the limit of {len(raw) - 1} bytes",
        )


class TestValuesOfEveryDocument:
    """The checks of a config file's values apply to every document of a stream."""

    @pytest.mark.parametrize(
        ("text", "code", "line"),
        [
            ("kind: Pod\n---\nkind: TFJob\nspec: {x: .nan}\n", "number", 4),
            ('kind: Pod\n---\nkind: TFJob\nspec: {x: "\\ud800"}\n', "encoding", 4),
        ],
    )
    def test_a_value_no_config_may_hold(self, text: str, code: str, line: int) -> None:
        for reader in ("parse_documents", "read_tfjobs"):
            [found] = refusal(reader, text).errors
            assert (found.code, found.line, found.path) == (code, line, "spec.x")


@pytest.mark.parametrize("reader", READERS)
def test_a_helm_template_is_said_to_be_one(reader: str) -> None:
    path = Path(__file__).parent / "data" / "helm" / "mnist" / "templates" / "tfjob.yaml"
    [found] = refusal(reader, path.read_text(encoding="utf-8")).errors
    assert (found.code, found.line, found.column) == ("helm_template", 4, 9)
    assert found.message.startswith("a Helm template ({{ .Release.Name }}), not YAML: render it")


def test_braces_in_a_value_that_reads_are_no_template() -> None:
    text = 'model_dir: "/m/{{ run }}"\n'
    assert parse.parse(text, "yaml", "f.yaml").data == {"model_dir": "/m/{{ run }}"}


class TestJSONOfATFJob:
    """A TFJob given as JSON text is read by the JSON reader: its errors, at JSON's speed."""

    def test_json_errors(self) -> None:
        [found] = refusal("read_tfjobs", '{"kind": "TFJob", "kind": "TFJob"}').errors
        assert (found.code, found.line, found.column) == ("duplicate_key", 1, 19)
        assert found.message.endswith("each key may appear once in an object")  # JSON's words

    def test_yaml_flow_mappings_are_still_yaml(self) -> None:
        assert read_tfjobs("{kind: ConfigMap}\n---\n{kind: Service}\n") == ()


def test_depth_is_said_once_a_document() -> None:
    deep = "[" * 70 + "]" * 70
    text = "{" + ", ".join(f'"k{i}": {deep}' for i in range(100)) + "}"
    [found] = refusal("parse", text.replace('"', "")).errors  # YAML
    assert (found.code, found.path) == ("depth", "k0[0][0][0][0][0][0][0]")
    with pytest.raises(ConfigFileError) as info:
        parse.parse(text, "json", "f.json")
    assert [e.code for e in info.value.errors] == ["depth"]


class TestYamlValuesAsWritten:
    """A YAML document holds at most one value per 16 bytes of its text, at least 10,000.

    The count is kept while the text is read, so a text denser than any config
    stops at the first value over the limit instead of being read whole.
    """

    @staticmethod
    def items(count: int) -> str:
        return "[" + ",".join(["1"] * count) + "]"

    def test_the_first_value_over_the_limit_is_where_reading_stops(self) -> None:
        # the list is a value: its 10,000th item is the 10,001st value, at column 2 + 2 * 9,999
        found = refusal("parse", self.items(10_001)).errors[0]
        assert (found.code, found.line, found.column) == ("too_many_values", 1, 20_000)
        assert "one per 16 bytes of YAML or TOML, at least 10,000" in found.message

    def test_as_many_as_the_least_limit_are_read(self) -> None:
        assert len(parse.parse(self.items(9_999), "yaml", "f.yaml").data) == 9_999

    def test_a_longer_text_may_hold_more(self) -> None:
        padded = self.items(12_000) + "\n#" + "x" * 16 * 12_001
        assert len(parse.parse(padded, "yaml", "f.yaml").data) == 12_000

    def test_a_mappings_keys_are_not_counted(self) -> None:
        text = "\n".join(f"k{index}: 1" for index in range(9_999))
        assert len(parse.parse(text, "yaml", "f.yaml").data) == 9_999

    def test_each_document_of_a_stream_counts_alone(self) -> None:
        stream = "---\n".join([self.items(6_000) + "\n"] * 2)
        assert len(parse.parse_documents(stream, "yaml", "f.yaml")) == 2

    def test_max_values_sets_the_limit(self) -> None:
        documents = parse.parse_documents(self.items(10_001), "yaml", "f.yaml", max_values=20_000)
        assert len(documents[0].data) == 10_001
        with pytest.raises(ConfigFileError) as info:
            parse.parse_documents(self.items(101), "yaml", "f.yaml", max_values=100)
        assert info.value.errors[0].code == "too_many_values"

    def test_json_is_not_held_to_it(self) -> None:
        assert len(parse.parse(self.items(20_000), "json", "f.json").data) == 20_000


class TestTomlValuesAsWritten:
    """A TOML document is held to the same limit, counted before the TOML parser reads it.

    Every ``=``, ``,``, ``[`` and ``{`` outside strings and comments counts.
    """

    @staticmethod
    def items(count: int) -> str:
        return "a = [" + ",".join(["1"] * count) + "]\n"

    def test_the_first_separator_over_the_limit_is_where_it_is_refused(self) -> None:
        # "=" and "[" are the first two; the 9,999th comma, at column 5 + 2 * 9,999, the 10,001st
        with pytest.raises(ConfigFileError) as info:
            parse.parse(self.items(10_000), "toml", "f.toml")
        found = info.value.errors[0]
        assert (found.code, found.line, found.column) == ("too_many_values", 1, 5 + 2 * 9_999)
        assert "one per 16 bytes of YAML or TOML, at least 10,000" in found.message
        assert "--max-values N" in found.message

    def test_as_many_as_the_limit_are_read(self) -> None:
        assert len(parse.parse(self.items(9_999), "toml", "f.toml").data["a"]) == 9_999

    def test_separators_in_strings_and_comments_do_not_count(self) -> None:
        text = (
            'a = "' + "," * 20_000 + '"\n'
            "b = '" + "[" * 20_000 + "'\n"
            'c = """\n' + "=\n" * 20_000 + '"""\n'
            "d = '''" + "{" * 20_000 + "'''\n"
            "# " + "," * 20_000 + "\n"
        )
        assert parse.parse(text, "toml", "f.toml").data["a"] == "," * 20_000

    def test_nesting_deeper_than_the_limit_is_said_first(self) -> None:
        deep = "[" * 65 + "]" * 65
        with pytest.raises(ConfigFileError) as info:
            parse.parse(f"a = [{','.join([deep] * 200)}]", "toml", "f.toml")
        found = info.value.errors[0]
        assert (found.code, found.line, found.column) == ("depth", 1, 5 + 64)
        assert "nested deeper than 64 levels" in found.message

    def test_max_values_sets_the_limit(self) -> None:
        assert len(parse.parse(self.items(10_000), "toml", "f.toml", max_values=20_000).data) == 1
        with pytest.raises(ConfigFileError):
            parse.parse(self.items(100), "toml", "f.toml", max_values=100)


@pytest.mark.parametrize(
    ("format", "text"), [("json", '{"a": 1}'), ("toml", "a = 1\n"), ("yaml", "a: 1\n")]
)
def test_a_document_says_its_format(format: str, text: str) -> None:
    document = parse.parse(text, format, f"f.{format}")
    assert (document.format, document.data) == (format, {"a": 1})


class TestStreamOf:
    """A stream is read as JSON when it starts as JSON does, else as YAML."""

    @pytest.mark.parametrize(
        ("text", "line", "column"),
        [("kind: Pod\nname: \ud800\n", 2, 7), ('{"kind": "\ud800"}', 1, 11)],
        ids=["yaml", "json"],
    )
    def test_a_lone_surrogate_in_text_is_refused_as_bad_utf8_at_its_place(
        self, text: str, line: int, column: int
    ) -> None:
        """Text decoded from bytes that are not UTF-8 keeps them as lone surrogates."""
        with pytest.raises(ConfigFileError) as info:
            parse.stream_of(text, "f.yaml")
        (error,) = info.value.errors
        assert (error.code, error.line, error.column) == ("encoding", line, column)
        assert error.message.startswith("invalid UTF-8: byte 0xed at byte offset ")

    def test_json_read_as_json(self) -> None:
        [document] = parse.stream_of(b'{"kind": "Pod"}', "f.json")
        assert (document.format, document.data) == ("json", {"kind": "Pod"})

    def test_a_yaml_flow_mapping_read_as_yaml(self) -> None:
        [document] = parse.stream_of(b"{kind: Pod}", "f.yaml")
        assert (document.format, document.data) == ("yaml", {"kind": "Pod"})


class TestTheCollectorWhileAStreamIsBuilt:
    """A large YAML stream's documents are built with the cyclic garbage collector paused."""

    LARGE = "".join(f"---\nkind: Pod\nmetadata: {{name: p{i}}}\n" for i in range(8000))

    def _enabled_while_checked(self, monkeypatch: pytest.MonkeyPatch, text: str) -> list[bool]:
        seen: list[bool] = []
        check = parse._check

        def spy(*args: Any, **kwargs: Any) -> None:
            seen.append(gc.isenabled())
            check(*args, **kwargs)

        monkeypatch.setattr(parse, "_check", spy)
        parse.parse_documents(text, "yaml", "s.yaml")
        return seen

    def test_it_is_paused_for_a_large_stream_and_on_again_after(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert len(self.LARGE) >= parse.PAUSE_COLLECTOR_FROM
        assert set(self._enabled_while_checked(monkeypatch, self.LARGE)) == {False}
        assert gc.isenabled()

    def test_it_runs_for_a_small_text(self, monkeypatch: pytest.MonkeyPatch) -> None:
        assert self._enabled_while_checked(monkeypatch, "a: 1\n") == [True]

    def test_it_stays_off_when_it_was_off(self, monkeypatch: pytest.MonkeyPatch) -> None:
        gc.disable()
        try:
            assert set(self._enabled_while_checked(monkeypatch, self.LARGE)) == {False}
            assert not gc.isenabled()
        finally:
            gc.enable()

    def test_it_is_on_again_after_a_refusal(self) -> None:
        with pytest.raises(ConfigFileError):
            parse.parse_documents(self.LARGE + "---\na: [\n", "yaml", "s.yaml")
        assert gc.isenabled()

    def test_it_is_paused_from_the_size_given(self, monkeypatch: pytest.MonkeyPatch) -> None:
        size = parse.PAUSE_COLLECTOR_FROM
        at_size = "a: " + "x" * (size - 4) + "\n"
        assert len(at_size) == size
        assert self._enabled_while_checked(monkeypatch, at_size) == [False]
        assert self._enabled_while_checked(monkeypatch, at_size[1:]) == [True]
