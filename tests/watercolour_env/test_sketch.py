from watercolour_env.sketch import blank_comments_and_strings, extract_sketch, inspect_sketch

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


def test_inventory_counts_fills_shapes_lines_and_tokens():
    source = "function setup() {\n  brush.fill('#f00', 90);\n  brush.beginShape(0.5);\n  brush.endShape(true);\n}\n"
    inventory = inspect_sketch(source)
    assert inventory.has_setup
    assert (inventory.fills, inventory.shapes, inventory.lines) == (1, 1, 5)
    assert inventory.approx_tokens == len(source) // 4


def test_blanking_keeps_offsets_and_newlines():
    source = "a // x\n'b\\'c' /* d\ne */ f"
    blanked = blank_comments_and_strings(source)
    assert len(blanked) == len(source)
    assert blanked.count("\n") == source.count("\n")
    assert "x" not in blanked and "d" not in blanked and blanked.rstrip().endswith("f")
