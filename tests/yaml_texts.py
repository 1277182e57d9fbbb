"""A hypothesis strategy of YAML texts: every style of node, quoting, anchors, streams, line ends.

The texts are drawn to reach the corners where two YAML readers may differ:
block and flow collections, plain, single-quoted, double-quoted (escapes),
literal and folded scalars (each chomping), strings that YAML 1.2 reads as
other types when plain (``on``, ``010``, ``0o10``, ``.inf``, ``~``, dates),
anchors, aliases and merge keys, comments, multi-document streams with empty
documents, CRLF, tabs, byte-order marks and characters beyond ASCII.  Not
every text drawn is valid YAML: a refusal must be the same too.
"""

from __future__ import annotations

from hypothesis import strategies as st

WORDS = (
    "on", "off", "yes", "no", "y", "n", "true", "True", "TRUE", "false", "null", "Null", "~",
    "010", "0o10", "0x1F", "0b11", "1_000", "+1", "-0", "0", "3", "12", "1.0", "1.", ".5",
    "-.5", "1e3", ".1e1", "1.5e-3", ".inf", "-.Inf", ".nan", "2001-12-14",
    "2001-12-14 21:59:43.10 -5", "2001-13-14", "12:30:00", "<<", "=", "*", "&", "!", "-",
    "a b", "a #b", "a: b", "#x", "x#y", "é", "\u00e9t\u00e9", "\U0001f600", "\u2028", "\t",
    "host-0.svc:2222", "worker", "it's", 'say "hi"', "back\\slash", "", " lead", "trail ",
    "multi\nline", "two\n\nbreaks", "tail\n", "%x", "@x", "`x", "[x]", "{x}", "x,y", "?x",
    "a && b", "sh -c 'x && y'", "x * y", "x ! y", "x @y", "x `y`", "x\ty", "NULL", ".INF",
    "+.5", "012.5", "1.0e+3", "0x_", "_", "-.nan", "2001-1-1", "!x", "&x", "*x", "}", "]",
    ",x", "b:,", "x:,y",
)  # fmt: skip

HAZARDS = (
    "!", "%x", "@x", "`x", "?x", "*", "&", "\u2028", "=", "<<", "!x", "&x", "*x", "}", "]", ",x",
    "b:,",
)  # fmt: skip
"""Words that send a text to ruamel.yaml: left out of tame texts, so most of those are read
natively (``True``, ``~``, a tab within quotes are read natively from rapidyaml's tree)."""

TAME_WORDS = tuple(word for word in WORDS if word not in HAZARDS)

KEYS = ("a", "b", "kind", "1", "true", "~", "null", "on", "<<", "a b", "é", "", "k:", "0x1")

INDENT = "  "

ESCAPES = (
    "", "\\x41", "\\u00e9", "\\t", "\\N", "\\_", "\\/", "\\0", "\\ud800", "\\U0001F600",
    "\\uDC00", "\\U0000d800", "\\xff", '\\"',
)  # fmt: skip
"""Escapes of double-quoted scalars, halves of surrogate pairs among them."""


@st.composite
def scalars(draw: st.DrawFn, indent: str, tame: bool = False) -> str:
    """One scalar, in a style drawn: plain, single, double (with escapes), literal, folded."""
    words = st.sampled_from(TAME_WORDS) if tame else st.sampled_from(WORDS) | st.text(max_size=6)
    word = draw(words)
    style = draw(st.sampled_from(["plain", "plain", "single", "double", "literal", "folded"]))
    if style == "plain":
        return word.replace("\n", " ")
    if style == "single":
        return "'" + word.replace("'", "''").replace("\n", "\n" + indent + "  ") + "'"
    if style == "double":
        escaped = draw(st.sampled_from(ESCAPES))
        text = word.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return '"' + text + escaped + '"'
    indicator = "|" if style == "literal" else ">"
    chomping = draw(st.sampled_from(["", "-", "+"]))
    lines = word.split("\n") + draw(st.lists(st.sampled_from(["", "x", " y"]), max_size=2))
    body = "".join("\n" + (indent + INDENT + line if line else "") for line in lines)
    return indicator + chomping + body


def _node(
    draw: st.DrawFn, depth: int, indent: str, anchors: list[str], tame: bool
) -> tuple[str, bool]:
    """A node's text and whether it is a block collection (which starts on its own line)."""
    prefix = ""
    if anchors and draw(st.integers(0, 9)) == 0:
        return "*" + draw(st.sampled_from(anchors)), False
    if draw(st.integers(0, 7)) == 0:
        name = f"a{len(anchors)}"
        anchors.append(name)
        prefix = f"&{name} "
    if not tame and draw(st.integers(0, 15)) == 0:
        prefix += draw(st.sampled_from(["!!str ", "!!int ", "!x ", "! "]))
    kind = draw(st.sampled_from(["scalar", "scalar", "block map", "block seq", "flow"]))
    if depth <= 0 or kind == "scalar":
        return prefix + draw(scalars(indent, tame)), False
    if kind == "flow":
        return prefix + _flow(draw, depth - 1, anchors, tame), False
    inner = indent + INDENT
    count = draw(st.integers(0 if kind == "block seq" else 1, 3))
    lines = []
    for _ in range(count):
        value, block = _node(draw, depth - 1, inner, anchors, tame)
        comment = draw(st.sampled_from(["", "", "", "  # c", " #c", " # a\tb", " # &x !y"]))
        if kind == "block seq":
            separator = "\n" + inner if block else " "
            lines.append(f"{indent}-{separator}{value}{comment}")
        else:
            key = draw(st.sampled_from(KEYS) | st.sampled_from(["'q'", '"1"', "? a"]))
            if anchors and not tame and draw(st.integers(0, 5)) == 0:
                key, value, block = "<<", "*" + draw(st.sampled_from(anchors)), False
            separator = "\n" + inner if block else " "
            lines.append(f"{indent}{key}:{separator}{value}{comment}")
    if not lines:
        return prefix + "[]", False
    text = "\n".join(lines)
    return (prefix.rstrip() + "\n" + text if prefix else text.lstrip()), True


def _flow(draw: st.DrawFn, depth: int, anchors: list[str], tame: bool) -> str:
    count = draw(st.integers(0, 3))
    if draw(st.booleans()):
        items = [_flow_item(draw, depth, anchors, tame) for _ in range(count)]
        return "[" + ", ".join(items) + "]"
    pairs = [
        f"{draw(st.sampled_from(KEYS))}: {_flow_item(draw, depth, anchors, tame)}"
        for _ in range(count)
    ]
    return "{" + ", ".join(pairs) + "}"


def _flow_item(draw: st.DrawFn, depth: int, anchors: list[str], tame: bool) -> str:
    if depth > 0 and draw(st.integers(0, 3)) == 0:
        return _flow(draw, depth - 1, anchors, tame)
    word = draw(st.sampled_from(TAME_WORDS if tame else WORDS))
    return draw(st.sampled_from([word, f'"{word}"', f"'{word}'"])).replace("\n", " ")


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """A YAML stream of one or more documents, with the line ends and marks drawn.

    Half the texts are tame: none of the constructs that send a text to
    ruamel.yaml, so that the native reading is compared, not only the fallback.
    """
    tame = draw(st.booleans())
    documents = []
    for _ in range(draw(st.integers(1, 3))):
        anchors: list[str] = []
        body, _ = _node(draw, draw(st.integers(0, 3)), "", anchors, tame)
        if draw(st.integers(0, 6)) == 0:
            body = draw(st.sampled_from(["", "# only a comment", "null"]))
        documents.append(body)
    separators = ["\n---\n", "\n--- # next\n"] + ([] if tame else ["\n...\n---\n"])
    heads = ["", "---\n", "# head\n"] + ([] if tame else ["%YAML 1.2\n---\n"])
    text = draw(st.sampled_from(heads)) + draw(st.sampled_from(separators)).join(documents)
    text += draw(st.sampled_from(["\n", "", "\n---\n", "\n\n"]))
    if draw(st.integers(0, 5)) == 0:
        text = text.replace("\n", "\r\n")
    if tame:
        return text
    if draw(st.integers(0, 7)) == 0:
        text = text.replace(": ", ":\t", 1)
    if draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text
    return text
