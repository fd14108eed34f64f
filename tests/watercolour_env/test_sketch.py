import random
import re

import pytest

from watercolour_env.sketch import code_text, extract_sketch, fenced_blocks, inspect_sketch

SKETCH = "function setup() {\n  createCanvas(600, 600, WEBGL);\n}\nfunction draw() {\n  brush.circle(300, 300, 50);\n}"


def test_a_fenced_js_block_is_extracted_without_the_prose():
    reply = f"Here is my painting:\n```javascript\n{SKETCH}\n```\nEnjoy!"
    assert extract_sketch(reply) == SKETCH


def test_bare_code_is_taken_whole():
    assert extract_sketch(SKETCH) == SKETCH


def test_of_several_blocks_the_one_defining_setup_wins():
    reply = f"```js\nconst palette = ['#fff'];\n```\nthen\n```js\n{SKETCH}\n```"
    assert extract_sketch(reply) == SKETCH


def test_a_cut_off_fence_yields_what_was_written():
    reply = "```js\nfunction setup() {\n  brush.circle(1, 2, 3"
    assert extract_sketch(reply) == "function setup() {\n  brush.circle(1, 2, 3"


def test_a_refusal_that_mentions_draw_is_not_a_sketch():
    assert extract_sketch("I cannot draw a hibiscus, but the setup would be lovely.") is None


def test_a_setup_mentioned_only_in_a_comment_does_not_count():
    assert extract_sketch("// function setup() { }\nbrush.circle(1, 2, 3);") is None


def test_calls_inside_comments_and_strings_are_not_counted():
    source = SKETCH + "\n// brush.circle(1, 1, 1) in a comment\nconst s = 'brush.circle(2, 2, 2)';\n/* brush.fill() */"
    inventory = inspect_sketch(source)
    assert inventory.brush_calls == {"circle": 1}
    assert inventory.shapes == 1
    assert inventory.urls == ()


def test_inventory_counts_fills_shapes_lines_and_tokens():
    source = "function setup() {\n  brush.fill('#f00', 90);\n  brush.beginShape(0.5);\n  brush.endShape(true);\n}\n"
    inventory = inspect_sketch(source)
    assert inventory.has_setup
    assert (inventory.fills, inventory.shapes, inventory.lines) == (1, 1, 5)
    # the code with each line break and indent as one space: 89 characters, / 4
    assert inventory.approx_tokens == 22


def test_comments_and_blank_space_are_not_code():
    source = "// a flower\nfunction setup() {   /* set up */\n\n  brush.circle(1, 2, 3); // petal\n}\n"
    assert code_text(source) == "function setup() { brush.circle(1, 2, 3); }"
    # a comment marker inside a string is the string's
    assert code_text('const s = "a // b";  /* c */ draw(s);') == 'const s = "a // b"; draw(s);'
    padded = source + "// " + "padding " * 1500 + "\n" + "\n" * 400
    assert inspect_sketch(padded).approx_tokens == inspect_sketch(source).approx_tokens == 43 // 4


def test_a_cut_off_sketch_reports_the_position_of_its_first_syntax_error():
    inventory = inspect_sketch("function setup() {\n  brush.circle(1, 2")
    assert inventory.syntax_error is not None and inventory.syntax_error.startswith("line ")
    assert inspect_sketch(SKETCH).syntax_error is None


def test_setup_may_be_a_function_expression_or_an_arrow():
    assert inspect_sketch("const setup = () => { brush.circle(1, 2, 3); };").has_setup
    assert inspect_sketch("var setup = function () {};").has_setup
    assert inspect_sketch("window.setup = async function () {};").has_setup
    assert not inspect_sketch("const setup = 3;").has_setup


def test_create_canvas_arguments_are_read_as_literals():
    assert inspect_sketch("createCanvas(600, 600, WEBGL);").canvas == (600, 600, "WEBGL")
    assert inspect_sketch("createCanvas(800, 600);").canvas == (800, 600, None)
    assert inspect_sketch("createCanvas(w, 600, p5.WEBGL);").canvas == (None, 600, "WEBGL")


def test_a_tilde_fence_is_a_fence_too():
    assert extract_sketch(f"Here:\n~~~javascript\n{SKETCH}\n~~~\n") == SKETCH


# The pattern `fenced_blocks` replaced: its meaning is the reference, its backtracking is not.
OLD_FENCE = re.compile(r"(```|~~~)[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:\1|\Z)", re.DOTALL)


def test_fenced_blocks_read_each_body_to_its_own_kind_of_fence_or_to_the_end():
    reply = "Here:\n```js\nA ~~~ B\n```\nthen ~~~ tag\nC\n~~~ and ```x"
    # block 1: after the "```js" line up to the next ```; block 2: after the "~~~ tag" line up to
    # the next ~~~; the trailing ```x has no line break after it, so it opens nothing
    assert fenced_blocks(reply) == ["A ~~~ B\n", "C\n"]
    assert fenced_blocks("```js") == [] and fenced_blocks("no fence\n") == []
    assert fenced_blocks("```\ncut off") == ["cut off"]


def test_fenced_blocks_find_what_the_old_pattern_found_on_random_replies():
    rng = random.Random(32)
    for _ in range(5000):
        reply = "".join(rng.choice("`~\na j") for _ in range(rng.randint(0, 30)))
        assert fenced_blocks(reply) == [m.group(3) for m in OLD_FENCE.finditer(reply)], repr(reply)


@pytest.mark.parametrize("reply", ["```" + "a" * 262_000, "```a" * 16_000, "~~~" * 87_000, "```\n" * 65_500])
def test_replies_that_made_the_fence_pattern_backtrack_are_read_to_a_verdict(reply):
    # the first took 11 s under the old pattern (docs/LOG.md, issue 32); the bench times them now
    assert extract_sketch(reply) is None


def test_a_long_member_chain_is_read_once_not_once_a_link():
    # x.a().a()...: each call's object is the whole chain before it; its name is read to 200 bytes
    inventory = inspect_sketch("function setup() {}\nx" + ".a()" * 16_000 + ";")
    assert inventory.member_calls["x.a"] == 1
    assert sum(inventory.member_calls.values()) == 16_000
    assert max(len(key) for key in inventory.member_calls) == 200 + len(".a")


def test_code_tokens_make_numbers_strings_and_own_names_alike_and_keep_the_api():
    from watercolour_env.tokens import code_tokens

    source = 'function petal(x, size) { brush.fill("#ff0000", 120); brush.circle(x, 2.5, size); } // note'
    assert code_tokens(source) == [
        "function",
        "$name",
        "(",
        "$name",
        ",",
        "$name",
        ")",
        "{",
        "brush",
        ".",
        "fill",
        "(",
        "$str",
        ",",
        "$num",
        ")",
        ";",
        "brush",
        ".",
        "circle",
        "(",
        "$name",
        ",",
        "$num",
        ",",
        "$name",
        ")",
        ";",
        "}",
    ]
    renamed = 'function leaf(y, r) { brush.fill("#00ff00", 90); brush.circle(y, 7, r); }'
    assert code_tokens(renamed) == code_tokens(source)
    # a name the sketch does not declare is the API's, kept as written
    assert code_tokens("cos(t);") == ["cos", "(", "t", ")", ";"]
    assert code_tokens("let t = 1; cos(t);") == ["let", "$name", "=", "$num", ";", "cos", "(", "$name", ")", ";"]


def test_a_parse_stops_only_inside_a_budget_and_a_reply_is_parsed_once():
    from watercolour_env import syntax

    slow = b"a<b " * 4096
    with syntax.parse_budget(0.0), pytest.raises(syntax.ParseTooSlow, match="used up its"):
        syntax.parse(slow)
    with syntax.parse_budget(0.0), pytest.raises(syntax.ParseTooSlow):
        sum(range(100_000))  # some CPU time, then a walk asks
        syntax.check_budget()
    syntax.check_budget()  # outside a budget: never
    tree = syntax.parse(slow)  # outside a budget (reading recorded rollouts) a parse runs to the end
    assert tree.root_node.has_error and tree.root_node.end_byte == len(slow)
    assert syntax.parse(slow) is tree  # kept: the gate, the length term and the tokens share it
    for n in range(syntax.TREES_KEPT):
        syntax.parse(b"let a%d = 1;" % n)
    assert syntax.parse(slow) is not tree  # the oldest went


def test_each_replys_check_starts_with_nothing_kept_from_the_one_before():
    """A red-team helper's case (2026-12-07): a tree kept from a check that ran out of budget made
    the same reply's second check free of its parse, and `unparseable` became passed."""
    from watercolour_env import syntax

    data = b"function setup() {}"
    kept = syntax.parse(data)
    assert syntax.parse(data) is kept
    with syntax.parse_budget():
        assert syntax.parse(data) is not kept  # parsed anew, at the cost of this reply's budget


def test_the_dead_code_walks_ask_the_budget():
    """`if(0);` thousands of times made the dead-code walk quadratic (53 s on 256 KiB, outside the
    budget); now it is linear and asks the budget as it goes."""
    from watercolour_env import live, syntax

    root = syntax.parse(b"function setup() {}\n" + b"if (0);" * 5000).root_node
    assert len(live.dead_ranges(root)) == 5000  # each untaken branch, the empty statement `;`
    with syntax.parse_budget(0.0), pytest.raises(syntax.ParseTooSlow):
        sum(range(100_000))
        live.dead_ranges(root)
