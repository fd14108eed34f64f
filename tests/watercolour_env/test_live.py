"""Dead code is cut from what the length term counts: the cuts computed by hand."""

import pytest

from watercolour_env.audit.copies import padded
from watercolour_env.live import dead_ranges, parse
from watercolour_env.sketch import code_text, inspect_sketch

SKETCH = """function setup() { createCanvas(600, 600, WEBGL); noLoop(); }
function helper(x) { return x * 2; }
function unused(a) { return unused(a - 1); }
const junk = "x".repeat(4000);
const used = 3;
function draw() {
  brush.circle(helper(used), 2, 3);
  if (false) { brush.rect(1, 2, 3, 4); } else { brush.circle(1, 1, 1); }
  if (!(0)) { brush.circle(2, 2, 2); } else { brush.rect(5, 5, 5, 5); }
  while (null) { brush.circle(1, 1, 1); }
  return;
  brush.circle(9, 9, 9);
}
"""


def cut(source: str) -> list[str]:
    data = source.encode()
    return [data[a:b].decode() for a, b in dead_ranges(parse(data))]


def test_each_kind_of_dead_code_is_cut_and_live_code_kept():
    assert cut(SKETCH) == [
        "function unused(a) { return unused(a - 1); }",  # names only itself
        'const junk = "x".repeat(4000);',  # named by nothing
        "{ brush.rect(1, 2, 3, 4); }",  # if (false)
        "else { brush.rect(5, 5, 5, 5); }",  # the else of !(0), always true
        "{ brush.circle(1, 1, 1); }",  # while (null)
        "brush.circle(9, 9, 9);",  # after return
    ]
    text = code_text(SKETCH)
    assert "helper" in text and "const used = 3;" in text and "brush.circle(2, 2, 2)" in text


def test_a_function_named_only_in_dead_code_is_dead_too():
    source = (
        "function pad() { return 1; }\n"
        "function more() { return 2; }\n"
        "function draw() {\n  if (false) { more(); }\n  brush.circle(1, 2, 3);\n  return;\n  pad();\n}\n"
    )
    assert cut(source) == ["function pad() { return 1; }", "function more() { return 2; }", "{ more(); }", "pad();"]


def test_a_chain_of_calls_from_draw_is_live_and_a_declared_entry_point_too():
    source = "function a() { b(); }\nfunction b() { brush.circle(1, 2, 3); }\nfunction draw() { a(); }\n"
    source += "function mousePressed() { brush.rect(0, 0, 1, 1); }\n"
    assert cut(source) == []


@pytest.mark.parametrize("condition", ["width < 0", "random() > 2", "x", "1 - 1"])
def test_a_condition_that_is_no_literal_is_not_judged(condition):
    source = f"function draw() {{ let x = 0; if ({condition}) {{ brush.circle(1, 2, 3); }} }}\n"
    assert cut(source) == []


def test_dead_code_padding_adds_no_length():
    honest = "function draw() {\n  brush.circle(300, 300, 120);\n}\n"
    # the audit's padded copy: six never-called functions and two long comments
    assert code_text(padded(honest)) == code_text(honest) == "function draw() { brush.circle(300, 300, 120); }"
    assert inspect_sketch(padded(honest)).approx_tokens == len(code_text(honest)) // 4 == 12
