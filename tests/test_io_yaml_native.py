"""estconf.io._yaml_native: rapidyaml reads a YAML text as ruamel.yaml does, or leaves it to it.

Every text is read by both paths (``ESTCONF_YAML=ruamel`` for the second):
the data (each value's type included), where each document starts, where
each value is, or the refusal (code, message, place) must be equal.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf.io import _yaml_native
from estconf.io._positions import Position, Span
from estconf.io._yaml_plain import RESOLVED
from estconf.io.checks import Limits

from yaml_paths import both, outcome
from yaml_texts import yaml_texts

ROOT = Path(__file__).parent.parent
CORPUS = sorted(
    path
    for top in ("tests/data", "examples")
    for path in (ROOT / top).rglob("*")
    if path.suffix in (".yaml", ".yml") and path.is_file()
)

ryml = pytest.importorskip("ryml")


def text_of(path: Path) -> str:
    return path.read_bytes().decode("utf-8").removeprefix("\ufeff")


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_yaml_file_of_the_tests_reads_alike_by_both_paths(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    native, fallback, _ = both(text_of(path), monkeypatch)
    assert native == fallback


def test_most_yaml_files_of_the_tests_are_read_natively() -> None:
    """The files left to ruamel.yaml are those with a construct of the list, or an error."""
    natively = [path for path in CORPUS if _yaml_native.read(text_of(path), Limits()) is not None]
    assert len(natively) >= 0.75 * len(CORPUS)


def test_mutated_seeds_read_alike_by_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fuzz suite's mutations of the YAML files: what one path reads, the other reads."""
    import fuzz_mutations
    from fuzz_surfaces import Input

    seeds = [Input(path.read_bytes(), path.name) for path in CORPUS]
    rng = random.Random(44)
    for _ in range(150):
        mutated = fuzz_mutations.mutate(rng, rng.choice(seeds), rng.choice(seeds))
        try:
            text = mutated.data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        native, fallback, _ = both(text, monkeypatch)
        assert native == fallback, text


@given(yaml_texts())
def test_generated_yaml_reads_alike_by_both_paths(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        native, fallback, _ = both(text, monkeypatch)
    assert native == fallback


class TestScalars:
    """YAML 1.2 scalars as ruamel.yaml builds them, whichever path reads them."""

    @pytest.mark.parametrize(
        ("written", "value"),
        [
            ("on", "on"),
            ("010", 10),
            ("0o10", 8),
            ("0x10", 16),
            ("1_000", 1000),
            ("~", None),
            ("True", True),
            ("'True'", "True"),
            ('"3"', "3"),
            ("3", 3),
            ("1.", 1.0),
            (".5", 0.5),
            (".1e1", ".1e1"),
            ("1e3", 1000.0),
            ("'2001-12-14'", "2001-12-14"),
        ],
    )
    def test_a_scalar_is_what_yaml_1_2_reads(
        self, written: str, value: object, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        text = f"a: {written}\nb: [x]\n"
        native, fallback, _ = both(text, monkeypatch)
        assert native == fallback
        [(data, _, _)] = native[1]
        assert data == ("dict", [(("str", "a"), (type(value).__name__, value)), *data[1][1:]])

    @pytest.mark.parametrize(
        "text",
        [
            "a: 1\n",
            "a: '3'\nb: \"True\"\n",
            "- {a: [1, 2.5, true, null, x]}\n---\n- b\n",
            "a: |\n  line\n  # not a comment\n",
            "---\na: 1\n---\nb: 2\n",  # a stream whose first document is marked too
        ],
    )
    def test_plain_config_text_is_read_natively(self, text: str) -> None:
        assert _yaml_native.read(text, Limits()) is not None

    @pytest.mark.parametrize(
        "text",
        [
            "a: True\n",  # plain: a boolean, which rapidyaml's JSON writes as a string
            "a: 'True'\nb: True\n",
            "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: '~'\n",
            "a: 010\nb: 0x1F\nc: 0o17\nd: 0b11\ne: 1_000\nf: -0\ng: +1\n",
            "a: -12\nb: +0x1F\nc: -0o17\nd: +0b11\ne: True\n",  # signed, of each base
            "a: True\nb: x#y\n",  # a # within a plain scalar is no comment
            "a: 1e3\nb: 1.5e-3\nc: .1e1\nd: .1e+1\ne: +.5\nf: 012.5\ng: 1.\n",
            "a: .inf\nb: -.Inf\nc: +.INF\nd: '-.inf'\n",
            "a: &x 1\nb: *x\n",
            "a: &x [1, {b: 2}]\nc: *x\nd: [*x, *x]\n",
            "a: &x 1\nb: &x 2\nc: *x\n",  # an anchor named again: the last one
            "a: 1\r\nb: 2\r\n",
            "a: |\r\n  x\r\n  y\r\nb: 'p\r\n  q'\r\n",
            'a: "x\ty"\n',
            "a: 'x\ty'\n",
            "a: |\n  x\ty\n",
            "a: 1  # a\tcomment\n",
            'command: [sh, -c, "a && b"]\n',
            "command: sh -c a && b\n",
            "a: x * y\nb: x ! y\nc: x @y\nd: x `y`\ne: '@x'\nf: \"`x`\"\n",
            "- {a: ~, b: True}\n- [010, 0x10]\n",
            "True a: 1\n",  # a plain key that is a string
            "&k a: 1\n",  # an anchor on a key
            "? a\n: b\n",  # an explicit key and its value
            "[" * 64 + "True" + "]" * 64 + "\n",  # as deep as rapidyaml writes, built from the tree
            "a: { b: 1 }\nc: [1, 2 ]\nd: 'x:,'\ne: x:,y\nf: '}'\n",  # flow indicators, read alike
            "k" * 990 + ": 1\nv: " + "x" * 3000 + "\n",  # long lines, and a key just short enough
        ],
    )
    def test_what_rapidyaml_alone_reads_otherwise_is_read_from_its_tree(
        self, text: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert _yaml_native.read(text, Limits()) is not None
        native, fallback, _ = both(text, monkeypatch)
        assert native == fallback

    @pytest.mark.parametrize(
        "text",
        [
            "<<: {a: 1}\n",
            "a: &x {b: 1}\nc:\n  <<: *x\n",
            "a: 2001-12-14\n",
            "a: 2001-12-14 21:59:43.10 -5\n",
            "a: .nan\n",
            "a: =\n",
            "1: a\n",  # a key YAML reads as an integer
            "true: a\n",
            "~: a\n",
            "a: !!str 1\n",
            "a: !x b\n",
            "a: &x 1\n*x : 2\n",  # an alias as a key
            "a: &x [1, *x]\n",  # recursive
            "a: *x\nb: &x 1\n",  # an alias before its anchor
            "a: &x 1\n---\nb: *x\n",  # an alias of another document's anchor
            "a:\t1\n",
            "a: x\ty\n",  # a tab in a plain scalar
            "\ta: 1\n",
            "- \tx\n",
            "a: 1\rb: 2\r",
            "%YAML 1.2\n---\na: 1\n",
            "a: 1\n...\n---\nb: 2\n",
            "a: 1\na: 2\n",
            "a: &x 1\na: *x\n",
            "{a: b #c, d: e}\n",
            "[?x]\n",
            "a: & 1\n",
            "a: `x\n",
            "a: @x\n",
            "a: !\n",
            "a: >\n  x",  # a block scalar at the end of a text without a line break
            'a: "\\ud800:1"\n',  # rapidyaml writes half a surrogate pair as bytes, not UTF-8
            "@x",  # a hazard first in a text without a line break
            "`x",
            "v: " + "x" * 1200 + "\nw: 1\t\n",  # a tab after a long line: each hazard looked at
            "a: }\n",  # rapidyaml reads a plain ``}`` in block context, which ruamel.yaml refuses
            "&x ]\n",
            "- ]\n- ,x\n",
            "a: 1\nb: }\n",
            "[b:, c]\n",  # rapidyaml reads a mapping, ruamel.yaml the string ``b:``
            "{a:}\n",
            "k" * 1100 + ": 1\n",  # ruamel.yaml refuses an implicit key over 1024 characters
            "a: 1\n" + "k" * 1100 + ": 1\n",  # and on any line, not only the first
            "?a: 1\n",  # a ``?`` that starts the text
            "{a: 'x\ty', b: c #d\n}\n",  # a comment rapidyaml reads into a flow scalar
            "'" + "k" * 1100 + "': 1\n",
        ],
    )
    def test_what_may_read_differently_is_left_to_ruamel(
        self, text: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert _yaml_native.read(text, Limits()) is None
        native, fallback, _ = both(text, monkeypatch)
        assert native == fallback


_SCALAR_PARTS = st.sampled_from(
    [
        *"0123456789-+._eEbox:~ \tTZ<=",
        *("0x", "0o", "0b", "true", "True", "FALSE", "null", "Null", "NULL"),
        *("inf", "Inf", "nan", "NaN", ".inf", ".NaN", "2001-12-14", "21:59:43", "-05:00"),
    ]
)


@given(st.lists(_SCALAR_PARTS, max_size=6).map("".join))
def test_resolved_is_every_plain_scalar_yaml_1_2_reads_as_another_type(text: str) -> None:
    """The one declaration of YAML 1.2's implicit types agrees with ruamel.yaml's resolvers.

    The resolvers look at a scalar starting with ``_`` for none of them, which the
    pattern of integers matches: such a string is built from the tree, a string still.
    """
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.resolver import VersionedResolver

    tag = VersionedResolver(version=(1, 2)).resolve(ScalarNode, text, (True, False))
    typed = tag != "tag:yaml.org,2002:str" and text != ""  # nothing written: null, not listed
    assert (re.fullmatch(RESOLVED, text) is not None) == (
        typed or (text.startswith("_") and text.strip("_0123456789") == "")
    )


_PREDICATES = {
    "is_map": "MAP",
    "is_seq": "SEQ",
    "is_container": ("MAP", "SEQ"),
    "has_val": "VAL",
    "has_val_anchor": "VALANCH",
    "has_val_tag": "VALTAG",
    "is_val_ref": "VALREF",
    "is_val_plain": "VAL_PLAIN",
    "is_val_quoted": "VALQUO",
    "has_key": "KEY",
    "has_key_anchor": "KEYANCH",
    "has_key_tag": "KEYTAG",
    "is_key_plain": "KEY_PLAIN",
    "is_key_quoted": "KEYQUO",
}


def test_a_nodes_type_tells_what_rapidyaml_tells_of_it() -> None:
    """A scalar is placed from its node's type, read once: its bits, as the tree's predicates."""
    texts = [text_of(path) for path in CORPUS]
    texts.append("a: &x 'q'\nb: *x\n? !t k\n: |\n  v\n&y c: \"d\"\ne: [f, {g: h}]\n")
    nodes = 0
    for text in texts:
        try:
            tree = ryml.parse_in_arena(text.encode("utf-8"))
        except Exception:  # rapidyaml refuses it: the text goes to ruamel.yaml
            continue
        for node, _ in ryml.walk(tree):
            kind = tree.type(node)
            for predicate, names in _PREDICATES.items():
                bits = 0
                for name in (names,) if isinstance(names, str) else names:
                    bits |= getattr(ryml, name)
                assert bool(kind & bits) == getattr(tree, predicate)(node), (predicate, text)
            nodes += 1
    assert nodes > 10_000


def test_an_integer_too_long_to_convert_is_left_to_ruamel_whatever_python_converts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without Python's own limit, the reader's limit of digits still sends it to ruamel.yaml."""
    text = "a: " + "1" * 5000 + "\n"
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert _yaml_native.read(text, Limits()) is None
    finally:
        sys.set_int_max_str_digits(limit)
    native, fallback, _ = both(text, monkeypatch)
    assert native == fallback


def test_a_scalar_read_as_written_is_placed_by_rapidyaml() -> None:
    """Its key and its value at their first characters (a quoted one at its quote)."""
    documents = _yaml_native.read("a: 1\nb:\n  - 'xy'\n", Limits())
    assert documents is not None
    [document] = documents
    assert document.place([("a",), ("b", 0)]) == {
        ("a",): Span(Position(1, 1), Position(1, 4)),
        ("b", 0): Span(None, Position(3, 5)),
    }
    assert document.place([("b",)]) is None  # a sequence: placed by ruamel.yaml


class TestLimits:
    def test_a_stream_over_the_documents_limit_is_refused_as_ruamel_refuses_it(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        text = "a: 1\n---\n" * 5
        native, fallback, _ = both(text, monkeypatch, Limits(max_documents=4))
        assert native == fallback
        assert native[0] == "refused"

    def test_a_document_over_the_values_limit_is_refused_as_ruamel_refuses_it(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        text = "".join(f"- {i}\n" for i in range(50))
        native, fallback, _ = both(text, monkeypatch, Limits(max_values=20))
        assert native == fallback
        assert native[1][0][0] == "too_many_values"

    @pytest.mark.parametrize("text", ["[" * 100_000, "- " * 100_000 + "a\n"])
    def test_deep_nesting_is_refused_without_a_crash(
        self, text: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        native, fallback, _ = both(text, monkeypatch)
        assert native == fallback
        assert native[0] == "refused"


def test_rapidyaml_says_nothing_on_the_standard_error_stream() -> None:
    """It writes what it refuses there before it raises; the reader closes the stream meanwhile."""
    code = (
        "from estconf.io import parse\n"
        "try:\n"
        "    parse.parse_documents('a: [', 'yaml', 'f.yaml')\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__)\n"
    )
    assert python_says(code) == ("ConfigFileError\n", "")


def test_the_standard_error_stream_is_itself_again_after_a_read() -> None:
    code = (
        "import os\n"
        "from estconf.io import parse\n"
        "parse.parse_documents('a: 1\\n', 'yaml', 'f.yaml')\n"
        "os.write(2, b'after\\n')\n"
    )
    assert python_says(code) == ("", "after\n")


def python_says(code: str) -> tuple[str, str]:
    """What a fresh Python process running ``code`` writes on its standard output and error."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return run.stdout, run.stderr


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("ab: 'True'\n", {"ab": "True"}),  # a string that would be a boolean plain, quoted
        ('ab: "True"\nc: "1"\n', {"ab": "True", "c": "1"}),
        ('a: "x\\u0001y"\n', {"a": "x\x01y"}),  # a control character, escaped
        ("x&y: 1\n", {"x&y": 1}),  # a & within a plain scalar
    ],
)
def test_what_rapidyaml_writes_as_json_alike_is_read_from_its_json_not_its_tree(
    text: str, data: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building a document from the tree costs many times reading its JSON."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("built from the tree")

    monkeypatch.setattr(_yaml_native, "build", refused)
    (document,) = _yaml_native.read(text, Limits()) or []
    assert document.data == data


def test_a_document_of_one_value_more_than_the_limit_is_left_to_ruamel() -> None:
    """The root and each item count: ``a: 1, b: 2`` holds three values."""
    assert _yaml_native.read("a: 1\nb: 2\n", Limits(max_values=2)) is None
    assert _yaml_native.read("a: 1\nb: 2\n", Limits(max_values=3)) is not None


def test_values_placed_in_one_call_are_each_at_their_line() -> None:
    """Each line is counted from the value placed just before it."""
    (document,) = _yaml_native.read("a: 1\nb: 2\n\nc: 3\nd: [4, 5]\n", Limits()) or []
    spans = document.place([("a",), ("b",), ("c",), ("d", 1), ("d", 0)])
    assert spans is not None
    assert [(span.value.line, span.value.column) for span in spans.values()] == [
        (1, 4),
        (2, 4),
        (4, 4),
        (5, 8),
        (5, 5),
    ]


def test_placing_a_value_releases_the_buffer_it_looked_into() -> None:
    """The text's buffer is exported only while an address is read from it."""
    (document,) = _yaml_native.read("a: x\nb: [1, 2]\n", Limits()) or []
    assert document.place([("a",), ("b", 1)]) is not None
    source = document.place.func.__self__  # type: ignore[attr-defined]
    source.buffer.extend(b" ")  # a BufferError while a view of it is exported


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("a: True\nb: {c: {d: {e: 1}}}\n", 9),  # built from the tree: mappings in mappings
        ("a: &x [True, 2, 3, 4]\nb: *x\nc: *x\n", 19),  # each alias counts what it expands to
    ],
)
def test_a_document_built_from_the_tree_at_the_values_limit_is_read_natively(
    text: str, values: int
) -> None:
    """The tree's count of values is never above the reader's: no text at the limit leaves."""
    assert outcome(text, Limits(max_values=values))[0] == "read"
    assert outcome(text, Limits(max_values=values - 1))[0] == "refused"
    assert _yaml_native.read(text, Limits(max_values=values)) is not None


def test_the_fallback_is_taken_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_yaml_native.ENVIRONMENT, "ruamel")
    assert _yaml_native.read("a: 1\n", Limits()) is None
    assert outcome("a: 1\n")[0] == "read"
