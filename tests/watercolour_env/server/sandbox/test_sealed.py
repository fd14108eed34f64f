"""The sealed render (sealed.py, decision 0007): the sketch records, a painter replays.

The grammar of a recording is checked by hand-made recordings and the lines expected of them,
written out here; the browser tests render sketches sealed and unsealed (the sketch painting in
the painter's pages itself, watched by the guard) and compare the PNG bytes, and try what a sketch
can do in its recorder frame to paint without the ten methods.
"""

from __future__ import annotations

import pytest

from watercolour_env.server.sandbox import Renderer, RenderStatus
from watercolour_env.server.sandbox.sealed import MAX_CALLS, BadRecording, check_recording, replay_sketch


def recording(*calls: list, has_draw: bool = False) -> dict:
    return {"calls": list(calls), "overflow": False, "hasDraw": has_draw}


def test_a_recording_becomes_literal_calls_in_setup():
    lines, has_draw = check_recording(
        recording(
            ["createCanvas", [600, 600, "webgl"]],
            ["brush.fill", ["#c0392b", 90]],
            ["brush.circle", [300.5, -2, 1e-7]],
            ["brush.vertex", [{"$": "NaN"}, {"$": "-Infinity"}, {"$": "-0"}, {"$": "undefined"}, None, True]],
            ["brush.fill", [[10, [20, 30]]]],
            has_draw=True,
        )
    )
    assert lines == [
        'createCanvas(600, 600, "webgl");',
        'brush.fill("#c0392b", 90);',
        "brush.circle(300.5, -2, 1e-07);",
        "brush.vertex(NaN, -Infinity, -0, undefined, null, true);",
        "brush.fill([10, [20, 30]]);",
    ]
    assert has_draw is True
    assert (
        replay_sketch(lines[:1], has_draw)
        == 'function setup() {\ncreateCanvas(600, 600, "webgl");\n}\nfunction draw() {}\n'
    )
    assert replay_sketch([], False) == "function setup() {\n\n}\n"


def test_a_colour_and_a_vector_are_made_afresh_from_their_numbers():
    lines, _ = check_recording(
        recording(["brush.fill", [{"$color": [1, 0.5, 0, 1]}]], ["translate", [{"$vector": [3, 4, 0]}]])
    )
    assert lines == [
        'brush.fill(color("color(srgb " + 1 + " " + 0.5 + " " + 0 + " / " + 1 + ")"));',
        "translate(createVector(3, 4, 0));",
    ]


def test_a_string_argument_is_escaped_and_cannot_close_the_call():
    lines, _ = check_recording(recording(["brush.fill", ['"); rect(0, 0, 600, 600); ("\u2028</script>']]))
    assert lines == ['brush.fill("\\"); rect(0, 0, 600, 600); (\\"\\u2028</script>");']


@pytest.mark.parametrize(
    "bad",
    [
        ["rect", [0, 0, 600, 600]],  # a p5 primitive
        ["brush.line", [0, 0, 600, 600]],  # a brush method outside the ten
        ["brush.circle", [{"$": "alert(1)"}]],  # a tag outside the five
        ["brush.circle", [{"x": 1}]],  # an object
        ["brush.circle", [float("nan")]],  # a number JSON cannot carry, untagged
        ["brush.fill", ["x" * 201]],  # a string longer than a colour could be
        ["brush.fill", [[[[[1]]]]]],  # arrays four deep
        ["brush.circle", [1] * 65],  # too many arguments
        ["brush.fill", [{"$color": [1, 0, 0]}]],  # a colour of three parts
        ["brush.fill", [{"$color": [1, 0, "0); rect(0,0,9,9", 1]}]],  # a colour part that is code
        ["brush.circle"],  # no argument list
    ],
)
def test_anything_outside_the_grammar_is_refused(bad):
    with pytest.raises(BadRecording):
        check_recording(recording(bad))


def test_what_a_forged_recording_throws_at_the_check_is_refused_and_bounded():
    # the red team of 2026-12-07: each raised out of render() or froze the server
    cycle: dict = {}
    cycle["$color"] = [cycle, 0, 0, 0]
    nested: list = [0]
    for _ in range(24):
        nested = [nested, nested]
    shared = [["x" * 200] * 64] * 64  # 262,144 strings from one call, 53 MB of replay before
    for bad in (
        recording(["brush.fill", [cycle]]),
        recording([["brush.circle"], [300, 300, 60]]),  # an unhashable name
        recording(["zz", [nested]]),
        recording(["brush.circle", [shared] * 64]),
        recording(["brush.circle", [300, 300, 10**400]]),  # a BigInt's digits
        '{"calls": [["brush.circle", [' + "9" * 5000 + "]]]}",  # past Python's 4,300 digits
        "[" * 100_000,
        "x" * 16_000_001,
    ):
        with pytest.raises(BadRecording):
            check_recording(bad)


def test_a_recording_of_another_shape_or_too_long_is_refused():
    for bad in (None, [], {"calls": "brush.circle(1, 2, 3)"}, {"calls": {}}):
        with pytest.raises(BadRecording):
            check_recording(bad)
    with pytest.raises(BadRecording):
        check_recording(recording(*[["brush.vertex", [1, 2]]] * (MAX_CALLS + 1)))


PAINTING = """function setup() {
  createCanvas(600, 600, WEBGL);
  translate(-width / 2, -height / 2);
  background(244, 239, 228);
  %s
  brush.noStroke();
  brush.fill("#c0392b", 90);
  brush.circle(300, 300, 120);
}"""
# What a sketch may do that a replay must reproduce to the byte: p5 state that p5.brush reads,
# values JSON cannot carry, p5 colours, and a draw() after a transform set in setup.
FIDELITY = {
    "colour_mode": PAINTING % "colorMode(HSB); brush.fill(200, 80, 90); brush.circle(150, 150, 90);",
    "a_p5_colour": PAINTING
    % 'brush.fill(lerpColor(color("#2266aa"), color(255, 200, 0), 0.3), 80); brush.circle(150, 420, 90);',
    "undefined_and_nan": PAINTING
    % 'brush.fill("#225588", undefined); brush.circle(NaN, 100, 80); brush.circle(450, 150, 70);',
    "seeded": PAINTING % "randomSeed(7); noiseSeed(3); brush.fill('#2266aa', 90); brush.circle(200, 200, 90);",
    "rotate_z": PAINTING % "translate(50, -40, 0); rotateZ(20); brush.fill('#2266aa', 90); brush.circle(200, 200, 90);",
    "rotations": PAINTING % "angleMode(DEGREES); push(); translate(400, 400); rotate(30); scale(1.5); "
    "brush.fill('#5a8f29', 70); brush.circle(0, 40, 50); pop();",
    "draw_after_setup": """function setup() { createCanvas(600, 600, WEBGL); translate(100, 100); noLoop(); }
function draw() { translate(-width / 2, -height / 2); background(250, 246, 238); brush.noStroke();
  brush.fill("#d94f70", 120); brush.circle(200, 300, 90); brush.circle(random(600), random(600), 50); }""",
}


@pytest.fixture(scope="module")
def unsealed():
    with Renderer(workers=1, deadline_s=20, sealed=False) as renderer:
        yield renderer


@pytest.fixture(scope="module")
def sealed():
    with Renderer(workers=2, deadline_s=20, sealed=True) as renderer:
        yield renderer


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(FIDELITY))
def test_a_sealed_painting_is_the_unsealed_one_to_the_byte(sealed, unsealed, name):
    painted, plain = sealed.render(FIDELITY[name], seed=3), unsealed.render(FIDELITY[name], seed=3)
    assert painted.status is plain.status, (painted.detail, painted.js_errors, plain.detail)
    assert painted.js_errors == plain.js_errors and painted.violations == plain.violations == []
    assert painted.png == plain.png


@pytest.mark.browser
def test_what_the_sketch_paints_in_its_recorder_never_reaches_the_picture(sealed):
    # a 2D context taken where the recorder does not report it (inside p5's `str`, which calls
    # the object's toString): the square is painted in the recorder's canvas, never read
    gadget = """str({ toString() { const c = document.querySelector("canvas");
    const ctx = c.getContext("2d"); ctx.fillStyle = "#000"; ctx.fillRect(0, 0, 600, 600); return ""; } });"""
    attempt, twin = sealed.render(PAINTING % gadget, seed=3), sealed.render(PAINTING % "", seed=3)
    assert attempt.status is twin.status is RenderStatus.OK
    assert attempt.violations == []  # hidden from the report, and of no use
    assert attempt.png == twin.png


@pytest.mark.browser
def test_a_recording_the_sketch_forged_paints_nothing_and_is_tampering(sealed):
    # the sketch shares its realm with the recorder: it can make the recorder log anything
    forge = """const push = Array.prototype.push;
Array.prototype.push = function (...items) {
  if (Array.isArray(items[0]) && items[0][0] === "brush.circle") push.call(this, ["rect", [0, 0, 600, 600]]);
  return push.apply(this, items);
};"""
    result = sealed.render(forge + "\n" + PAINTING % "", seed=3)
    assert [(kind, name[:29]) for kind, name in result.violations] == [("tampering", "its recording: a call outside")]
    assert result.paint_fraction == 0.0  # not even the circle: a forged recording is not painted


@pytest.mark.browser
@pytest.mark.parametrize(
    ("call", "violation"),
    [
        ("rect(10, 10, 100, 100);", ("bare_primitive", "rect")),
        ("brush.line(0, 0, 600, 600);", ("brush_method_not_allowed", "brush.line")),
        ("brush.fill({ toString() { return '#000'; } });", ("brush_argument", "brush.fill")),
        ("loadPixels();", ("image_or_pixels", "loadPixels")),
        ("text('hi', 10, 10);", ("text_on_canvas", "text")),
        ("createGraphics(10, 10);", ("offscreen_layer", "createGraphics")),
        ("document.querySelector('canvas').getContext('2d');", ("direct_context", "getContext")),
        ("pixelDensity(2);", ("canvas_change", "pixelDensity")),
    ],
)
def test_the_recorder_names_what_the_guard_named(sealed, call, violation):
    result = sealed.render(PAINTING % call, seed=3)
    assert violation in result.violations, (result.violations, result.js_errors)


@pytest.mark.browser
def test_a_sketch_that_never_finishes_times_out_in_the_recorder(sealed):
    result = sealed.render("function setup() { createCanvas(600, 600, WEBGL); while (true) {} }", seed=3, deadline_s=3)
    assert result.status is RenderStatus.TIMEOUT and result.png is None


@pytest.mark.browser
def test_more_calls_than_a_recording_holds_is_a_sketch_error_and_paints_nothing(sealed):
    # 100,001 circles without fill: cheap to record, and past the bound
    sketch = PAINTING % "brush.noFill(); for (let i = 0; i <= 100000; i++) brush.circle(300, 300, 5);"
    result = sealed.render(sketch, seed=3)
    assert result.status is RenderStatus.SKETCH_ERROR and result.png is None
    assert result.detail == "the sketch asked for more than a recording holds (100,000 calls, 400,000 values)"
