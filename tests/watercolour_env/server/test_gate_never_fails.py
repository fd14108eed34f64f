"""The gate never fails for a reason the reply controls: whatever breaks the source check is the
reply's violation (`unparseable`), and only a lone surrogate or deep nesting breaks it."""

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from watercolour_env.models import Violation
from watercolour_env.server.gate import check_source

SKETCH = (
    "function setup() {{ createCanvas(600, 600, WEBGL); {body}"
    " brush.fill('#d94f70', 120); brush.circle(300, 300, 60); }}"
)


def test_an_overflowing_literal_is_a_canvas_size_violation_not_an_error():
    # `1e999` is a number to JavaScript and infinity to Python; it made the check raise
    # OverflowError, which the server answered as its own failure (reward None, not 0.0)
    for body in ("if (false) createCanvas(1e999, 600, WEBGL);", "if (false) createCanvas(600, 1e400, WEBGL);"):
        assert check_source(SKETCH.format(body=body)).violations == [Violation.CANVAS_SIZE]
    assert check_source(SKETCH.format(body="")).passed  # the literal is the cause


@pytest.mark.parametrize("where", ["const s = '\ud800';", "// \udfff", "brush.fill('\ud83c', 1);"])
def test_a_lone_surrogate_is_unparseable_not_an_error(where):
    # valid in a Python str (and in JSON as an escape), not encodable as the UTF-8 the parser reads
    gate = check_source(SKETCH.format(body=where))
    assert not gate.passed
    assert gate.violations == [Violation.UNPARSEABLE]


# Fragments a policy writes (and a few it should not), glued at random: JavaScript's
# punctuation, numbers at the edges of float, fences, comments and strings left open,
# control characters, astral and lone-surrogate code points.
FRAGMENTS = [
    "function setup() {",
    "function draw() {",
    "}",
    "{",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "=>",
    "createCanvas(",
    "createCanvas(600, 600, WEBGL)",
    "1e999",
    "-1e999",
    "1e-999",
    "0x",
    "NaN",
    "9" * 400,
    "brush.",
    "brush.circle(",
    "brush['fi' + 'll'](",
    "window[",
    "this.",
    "new ",
    "`",
    "${",
    "'",
    '"',
    "\\",
    "/*",
    "*/",
    "//",
    "/re/g",
    "```js\n",
    "```\n",
    "```",
    "\n",
    "class A extends B {",
    "async function*",
    "import(",
    "<script>",
    "\x00",
    "\u2028",
    "\U0001f3a8",
    "\ud800",
    "\udfff",
    "#!",
    "a".join("()" * 50),
]
replies = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join),
    st.text(alphabet=string.printable, max_size=400),
    st.text(max_size=200),
    st.lists(st.sampled_from(FRAGMENTS), max_size=30).map(lambda parts: "```js\n" + " ".join(parts) + "\n```"),
)


def nesting(text: str) -> int:
    """The deepest run of open brackets in `text`, counted without parsing."""
    depth = deepest = 0
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        deepest = max(deepest, depth)
    return deepest


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(replies)
def test_a_generated_reply_breaks_the_check_only_with_a_lone_surrogate_or_deep_nesting(reply):
    # `unparseable` means the check itself broke (the gate catches whatever it raises), so the
    # property is that nothing but the two causes the check cannot take ever gets there
    gate = check_source(reply)
    causes = any(0xD800 <= ord(ch) <= 0xDFFF for ch in reply) or nesting(reply) > 200
    if not causes:
        assert Violation.UNPARSEABLE not in gate.violations, reply
    assert gate.passed == (gate.violations == [])


def test_a_reply_that_outlasts_the_source_checks_cpu_budget_is_unparseable(monkeypatch):
    """The red team's reply (issue 56): `a<b ` repeated in a code block, which tree-sitter's error
    recovery parses slowly (64 KiB: over 0.7 CPU s a parse here). The budget is cut to 0.02 CPU s,
    about 35 times under it; the hibiscus's whole check takes 5 ms on this machine."""
    from watercolour_env import syntax

    monkeypatch.setattr(syntax, "PARSE_CPU_S", 0.02)
    gate = check_source("```js\n" + "a<b " * 16384 + "\n```")
    assert gate.violations == [Violation.UNPARSEABLE]
    assert check_source(SKETCH.format(body="")).passed  # a budget spent once is not spent for the next reply
